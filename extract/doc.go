// Package extract turns source files into plain data with tree-sitter: the
// symbols a file declares, what it imports and the calls it makes. It is
// the only package of fileinfo that imports tree-sitter; what comes out
// (File, Symbol, Import, Export, Call, SyntaxError) is plain Go data whose JSON
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
// `local f = function`) is a function named f. JavaScript and TypeScript
// make their other function expressions symbols too, named by where they
// are (`<callback of app.get('/users')>`). In Go, PHP, Ruby, Lua and C#
// an anonymous function outside every named function is a Place
// (File.Places), named the same way: no symbol, its calls still its
// owner's, but a function of its own for code search. So is one inside a
// named function, outside test files, that its call labels with a string
// first (a route's handler: `<callback of r.Get("/orders")>`).
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
//     (without a go.mod, the directory), as the go command maps them: a
//     directory a replace directive of the root's go.work or go.mod names
//     takes the replaced module's path, the standard library's packages
//     (GOROOT/src, "module std") are named by their directory alone, and
//     vendored packages by the path they are vendored as. External test
//     packages end in "_test".
//   - Python: the dotted module path from the root (pkg/mod.py → pkg.mod;
//     pkg/__init__.py → pkg), then Class.method, func.inner.
//   - JavaScript, TypeScript, TSX: the path from the root without its
//     extension, '/' replaced by '.'.
//   - Java, Kotlin, Scala: the declared package (Scala: its package clauses
//     joined), then the class chain: package.Outer.Inner.method. C#: the
//     file-scoped namespace, or block namespaces as namespace symbols.
//   - C, C++: the path module (src/list.h and src/list.c are both
//     src.list); C++ adds namespaces and classes, and an out-of-line
//     `void ns::Foo::bar()` is named like its declaration, ns.Foo.bar.
//   - Rust: the module path under src/ with "crate" for lib.rs and main.rs
//     (src/x/mod.rs is crate.x); impl blocks name their methods' parent.
//   - Swift: the target (the directory after Sources/ or Tests/);
//     extensions name their members' parent.
//   - Ruby: the path module, then modules and classes as nested (a compact
//     `class A::B` is A.B). PHP: the declared namespace with '\' → '.'.
//     Lua: the require name (lua/x/init.lua is x). Bash: the path module.
//
// Each lang_<name>.go file states its language's rules for kinds, exported
// and imports in its header comment.
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
// queries are immutable and shared. A grammar whose scanner keeps global
// state (Lua) parses one file at a time. Every parse has a time limit, and
// parses never see a cancellable context (go-tree-sitter's watcher can
// poison a parser after the parse returned); ctx is checked between files.
package extract
