package extract

// File is the structure of one source file. Paths are relative to the
// extraction root and use forward slashes.
type File struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	// Module is the qualified name of the file's module: the prefix of every
	// top-level qualified name in the file and the caller of module-level code.
	Module  string        `json:"module"`
	Imports []Import      `json:"imports"`
	Symbols []Symbol      `json:"symbols"`
	Calls   []Call        `json:"calls"`
	Errors  []SyntaxError `json:"errors"`
	// Bindings are the assignments and typed declarations a call graph
	// can follow (Python assignments; Java, C# and Kotlin declarations);
	// omitted when empty.
	Bindings []Binding `json:"bindings,omitempty"`
	// Exports are the names a JavaScript or TypeScript module exports,
	// re-exports included; omitted when empty.
	Exports []Export `json:"exports,omitempty"`
	// Refs are the names used as values rather than called (see Ref);
	// omitted when empty.
	Refs []Ref `json:"refs,omitempty"`
	// Test says the file is test-only code by its path (IsTestPath):
	// production code never calls into it unless it imports it.
	Test bool `json:"test,omitempty"`
}

// Export is one name a JavaScript or TypeScript module exports:
// `export function f`, `export {a as b}`, `export default x`,
// `module.exports = x`, `exports.f = g`, `export {f} from "./m"`,
// `export * from "./m"`.
type Export struct {
	// Name is the exported name: "default" for the default export
	// (`export default`, `module.exports =`, TypeScript `export =`), "*"
	// for `export * from` (every name of the module but its default).
	Name string `json:"name"`
	// Local is what is exported: a name or dotted path in the file's
	// scope ("f", "a.b", "default" for an anonymous declaration named
	// so), or, for a re-export, the name in the From module, "*" for the
	// module itself (`export * from`, `export * as ns from`). It is ""
	// for an expression without a name (`export default connect(App)`).
	Local string `json:"local"`
	// From is the module of a re-export as written; Resolved is its
	// module name, as in Import.Resolved.
	From     string `json:"from,omitempty"`
	Resolved string `json:"resolved,omitempty"`
	Line     int    `json:"line"`
}

// Binding is one assignment of a value to a name, or one declaration of a
// name with its type, as source text.
//
// Assignments (Python): `a = b = f` gives targets "a" and "b" with value
// "f"; `return g` gives target "<return>"; `@dec def f` gives target "f"
// and value "@dec"; an annotated parameter `def f(s: set)` gives scope f,
// target "s" and type "set", with no value.
//
// Declarations set Type to the type as written, without modifiers:
//
//   - a local variable is a binding of the enclosing function:
//     `Foo f = new Foo();` gives target "f", type "Foo";
//   - a parameter is a binding of its function, on the parameter's line:
//     `void m(Bar b)` gives scope "...m", target "b", type "Bar";
//   - a field or property is a binding of its type: `private Foo foo;` in
//     class p.A gives scope "p.A", target "foo", type "Foo" (a Kotlin
//     primary constructor parameter too).
//
// Value is "" when a declaration states its type; a declaration that
// leaves the type to be inferred has Type "" and the initializer as Value
// (`var x = new Foo()`, Kotlin `val x = Foo()`). Declarations of
// primitive and array types are not bindings (Java, C#, Kotlin).
//
// Go bindings are all declarations: variables (`x := v`, `var x T`),
// constants, parameters and receivers, named and unnamed results (target
// "<result>", in order), struct fields, range variables (value
// "range <expr>") and type-switch variables (one binding per case clause,
// at its line: the case's type when it names one, else the switched
// value).
type Binding struct {
	// Scope is the qualified name of the enclosing symbol, or the module.
	Scope  string `json:"scope"`
	Target string `json:"target"`
	Value  string `json:"value"`
	// Type is the declared type as source text, when the binding declares one.
	Type string `json:"type,omitempty"`
	// Index is the position of Target among the values of a multi-valued
	// Value (`a, err := f()` binds err with index 1) or among results.
	Index int `json:"index,omitempty"`
	Line  int `json:"line"`
	// EndLine is the last line where the binding is visible, when its
	// scope ends before the enclosing symbol's (Go variables declared in
	// a block, an if, for or switch statement, a case clause); else 0.
	EndLine int `json:"end_line,omitempty"`
	// Iter marks a loop's binding (Python's `for x in v`): Target takes
	// the items of Value, not Value itself.
	Iter bool `json:"iter,omitempty"`
	// ValueExpr and TargetExpr are the structure of Value and Target,
	// for languages whose values a call graph follows (Python); a
	// decorator's ValueExpr is the decorator expression, without "@".
	// Like every Expr they stay out of the JSON, which shows the text.
	ValueExpr  Expr `json:"-"`
	TargetExpr Expr `json:"-"`
}

// Kind is the kind of a symbol. The set is closed; see the constants.
type Kind string

// The symbol kinds. A function nested directly in a class-like symbol
// (class, struct, interface, trait, enum, object, type) is a method;
// constructors are methods too.
const (
	KindFunction  Kind = "function" // free function, or a function nested in a function
	KindMethod    Kind = "method"   // function whose parent is a type
	KindClass     Kind = "class"
	KindStruct    Kind = "struct"
	KindInterface Kind = "interface" // Go/Java/C#/TS interfaces, Swift protocols
	KindTrait     Kind = "trait"     // Rust, Scala and PHP traits
	KindEnum      Kind = "enum"
	KindType      Kind = "type"      // type aliases and other named types
	KindModule    Kind = "module"    // Ruby modules, Rust inline mod blocks
	KindNamespace Kind = "namespace" // C++/C#/PHP namespaces
	KindObject    Kind = "object"    // Scala/Kotlin singleton objects
)

// isTypeLike reports whether functions nested directly inside a symbol of
// kind k are methods.
func (k Kind) isTypeLike() bool {
	switch k {
	case KindClass, KindStruct, KindInterface, KindTrait, KindEnum, KindObject, KindType:
		return true
	}
	return false
}

// Symbol is a named declaration: a function, method, type or module.
type Symbol struct {
	Name      string `json:"name"`
	Qualified string `json:"qualified"`
	Kind      Kind   `json:"kind"`
	// Parent is the name of the immediately enclosing type for a method (for
	// Go, the receiver type without '*' or type parameters) or of the
	// enclosing function for a nested function; "" at top level.
	Parent string `json:"parent"`
	// Signature is the declaration without its body, whitespace collapsed.
	Signature string `json:"signature"`
	// Doc is the cleaned doc comment or docstring.
	Doc string `json:"doc"`
	// StartLine is the 1-based line of the declaration's name; EndLine is
	// the last line of the declaration.
	StartLine int  `json:"start_line"`
	EndLine   int  `json:"end_line"`
	Exported  bool `json:"exported"`
	// Test says the symbol is test-only code: declared in a test file
	// (File.Test), or inside one under an attribute that compiles it only
	// for tests (Rust's #[cfg(test)] modules and #[test] functions).
	Test bool `json:"test,omitempty"`
	// Declaration marks a function declared without a body: a C or C++
	// prototype (`int f(void);`, `extern int f();`), a member function
	// declared in its class, a pure virtual member. It names a function
	// defined elsewhere (or outside the repository); a call graph
	// resolves calls to the definition when there is one.
	Declaration bool `json:"declaration,omitempty"`
	// Bases are the base classes, implemented interfaces or embedded types
	// as written (class-like symbols only).
	Bases []string `json:"bases,omitempty"`
	// Params are a function's parameter names in order, stars dropped
	// (`*args` is "args"), where a call graph passes arguments to them
	// (Python; JavaScript and TypeScript, with "" for a destructuring
	// pattern); the signature shows them in the JSON.
	Params []string `json:"-"`
}

// Import is one imported module or package.
type Import struct {
	// Path is the imported module as written ("a.b", "./x", "fmt").
	Path string `json:"path"`
	// Alias is the local name the module is bound to, if renamed.
	Alias string `json:"alias"`
	// Names are the names imported from the module (from-imports, ES named
	// imports, Java single-type imports). Empty for whole-module imports.
	Names []ImportName `json:"names"`
	Line  int          `json:"line"`
	// Resolved is the module a relative import refers to, as a qualified
	// module name, when it can be computed from the file's own path.
	Resolved string `json:"resolved,omitempty"`
	// Scope is the qualified name of the innermost function or class
	// whose body holds the import (Python's `def f(): import x` binds x
	// in f only); "" at module level, and in languages whose imports
	// are all the file's.
	Scope string `json:"scope,omitempty"`
}

// ImportName is one name of a from-import: `from m import Name as Alias`.
// Name "*" is a wildcard import.
type ImportName struct {
	Name  string `json:"name"`
	Alias string `json:"alias"`
}

// Call is one call site.
type Call struct {
	// Caller is the qualified name of the innermost enclosing named symbol,
	// or File.Module for module-level code. Calls inside closures and
	// lambdas belong to the enclosing named symbol.
	Caller string `json:"caller"`
	// Name is the called identifier; Receiver the expression before the
	// dot as source text ("self", "os", "a.b"), or "". Name "()" means
	// the receiver expression itself is called (`f()()`, `d["k"]()`).
	Name     string `json:"name"`
	Receiver string `json:"receiver"`
	// Line and Column (1-based, in bytes) locate Name.
	Line   int `json:"line"`
	Column int `json:"column"`
	// CallValues holds what only some languages capture; nil for the
	// others (a C call costs 72 bytes, not 120). Read it through the
	// methods Args, ReceiverExpr and ArgExprs, which allow nil.
	*CallValues
}

// CallValues are the values a call passes, where the language's query
// captures them. Its Args are in a Call's JSON, after "column".
type CallValues struct {
	// Args are the argument expressions as source text (each cut at 200
	// bytes), where the language's query captures them (Python, Java,
	// C#, Kotlin); omitted when empty.
	Args []string `json:"args,omitempty"`
	// ReceiverExpr and ArgExprs are the structure of Receiver and Args
	// (an ExprTuple of the arguments), for languages whose values a call
	// graph follows (Python); not in the JSON.
	ReceiverExpr Expr `json:"-"`
	ArgExprs     Expr `json:"-"`
	// Guard is what narrows the type of a receiver that is a name, where
	// the call sits in a branch that runs only when a test of that name
	// holds (JavaScript and TypeScript): the function called with it
	// ("isMap" for `if (isMap(x)) x.get(k)`), or "instanceof Foo" for
	// `x instanceof Foo ? x.run() : …`; "" elsewhere. Not in the JSON.
	Guard string `json:"-"`
}

// Guard returns what narrows the type of the receiver (CallValues.Guard),
// or "".
func (c Call) Guard() string {
	if c.CallValues == nil {
		return ""
	}
	return c.CallValues.Guard
}

// Args returns the argument expressions as source text, or nil.
func (c Call) Args() []string {
	if c.CallValues == nil {
		return nil
	}
	return c.CallValues.Args
}

// ReceiverExpr returns the structure of Receiver, or the zero Expr.
func (c Call) ReceiverExpr() Expr {
	if c.CallValues == nil {
		return Expr{}
	}
	return c.CallValues.ReceiverExpr
}

// ArgExprs returns the structure of the arguments (an ExprTuple), or the
// zero Expr.
func (c Call) ArgExprs() Expr {
	if c.CallValues == nil {
		return Expr{}
	}
	return c.CallValues.ArgExprs
}

// SyntaxError is a range the parser could not make sense of. Lines and
// columns are 1-based; columns count bytes.
type SyntaxError struct {
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	Message     string `json:"message"`
}
