package callgraph

// pythonBuiltins are the names Python's builtins module defines: a call
// of one that nothing in the file or the repository defines is reported
// unresolved with the reason "builtin: NAME" (as JavaScript's globals
// are).
var pythonBuiltins = setOf(
	// Functions and types.
	"abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint",
	"bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex",
	"delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "filter",
	"float", "format", "frozenset", "getattr", "globals", "hasattr", "hash",
	"help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter",
	"len", "list", "locals", "map", "max", "memoryview", "min", "next",
	"object", "oct", "open", "ord", "pow", "print", "property", "range",
	"repr", "reversed", "round", "set", "setattr", "slice", "sorted",
	"staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip",
	"__import__", "__build_class__",
	// Exceptions and warnings.
	"BaseException", "BaseExceptionGroup", "Exception", "ExceptionGroup",
	"ArithmeticError", "AssertionError", "AttributeError", "BlockingIOError",
	"BrokenPipeError", "BufferError", "ChildProcessError", "ConnectionAbortedError",
	"ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
	"EOFError", "EnvironmentError", "FileExistsError", "FileNotFoundError",
	"FloatingPointError", "GeneratorExit", "IOError", "ImportError",
	"IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
	"KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
	"ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError",
	"OSError", "OverflowError", "PermissionError", "ProcessLookupError",
	"RecursionError", "ReferenceError", "RuntimeError", "StopAsyncIteration",
	"StopIteration", "SyntaxError", "SystemError", "SystemExit", "TabError",
	"TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
	"UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "ValueError",
	"ZeroDivisionError", "Warning", "BytesWarning", "DeprecationWarning",
	"EncodingWarning", "FutureWarning", "ImportWarning", "PendingDeprecationWarning",
	"ResourceWarning", "RuntimeWarning", "SyntaxWarning", "UnicodeWarning",
	"UserWarning",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
