// Package extract turns source files into plain data with tree-sitter: the
// symbols a file declares, what it imports and the calls it makes. It is
// the only package of fileinfo that imports tree-sitter; what comes out
// (File, Symbol, Import, Call, SyntaxError) is plain Go data whose JSON
// field names are the contract `fileinfo extract` prints.
//
// # Languages
//
// One table entry per language (Language, in lang_<name>.go): a grammar,
// how files are recognised (extensions, base names, shebang interpreters),
// an embedded query in queries/<name>.scm whose capture names are
// described in query.go, and small hooks where a query cannot express
// something (import decoding, docstrings, visibility, module naming).
// Languages lists the table.
//
// # Symbols
//
// Kinds are the closed set of Kind constants: function, method, class,
// struct, interface, trait, enum, type, module, namespace, object. A
// function declared directly in a class-like symbol is a method;
// constructors are methods. Anonymous functions are not symbols: calls in
// closures and lambdas belong to the enclosing named symbol, while a
// function bound to a name by a declaration (JS `const f = () => {}`, Lua
// `local f = function`) is a function named f.
//
// StartLine is the line of the declaration's name, not of a decorator or
// comment above it; EndLine the last line of its body. Parent is the
// enclosing type of a method (in Go, the receiver's type name without '*'
// or type parameters), the enclosing function of a nested function, or the
// enclosing namespace or module; "" at top level.
//
// # Qualified names
//
// A qualified name is the module's qualified name, then the chain of
// enclosing symbols, then the name, joined with ".":
//
//   - Go: <import path>.<Func> and <import path>.<Type>.<Method>; the import
//     path is the nearest go.mod's module path plus the directory
//     (without a go.mod, the directory). External test packages end in
//     "_test".
//   - Python: the dotted module path from the root (pkg/mod.py → pkg.mod;
//     pkg/__init__.py → pkg), then Class.method, func.inner.
//   - JavaScript, TypeScript, TSX: the path from the root without its
//     extension, '/' replaced by '.'.
//   - Java, Kotlin, Scala: the declared package, then the class chain
//     (package.Outer.Inner.method). C#: the namespaces, then the class chain.
//   - The other languages (C, C++, Rust, Swift, Ruby, PHP, Lua, Bash) name
//     their modules as each lang_<name>.go file documents: by path,
//     declared namespace or crate module path.
//
// Module-level code is attributed to the file's module name (File.Module).
//
// # Bad input
//
// Syntax errors give the partial structure tree-sitter recovers plus
// File.Errors ranges. Binary files (a NUL byte in the first 8000 bytes),
// files over Options.MaxFileSize and files of unknown language are
// skipped with a reason (SkipError, Skipped); invalid UTF-8 is replaced by
// U+FFFD in the strings returned. Paths outside the root, including
// through symlinks, are refused.
//
// # Concurrency
//
// An Extractor parses with a bounded pool of workers, each owning its
// parsers and query cursor; a tree never leaves the worker that parsed it
// (go-tree-sitter's Tree caches nodes in an unsynchronised map). Compiled
// queries are immutable and shared.
package extract
