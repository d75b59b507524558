// Package callgraph resolves the call sites of extracted files into a call
// graph: []extract.File in, a Graph out. Symbols get dense integer IDs;
// each has forward (callees) and reverse (callers) edge lists, and every
// edge says how it was resolved:
//
//	local        a name bound in the same file or scope (or package,
//	             namespace, enclosing class)
//	import       through an import binding (alias, from-import, module
//	             attribute, wildcard import) or a fully qualified name
//	receiver     a method on self/this/cls, or on a receiver whose type is known
//	constructor  an instantiation, to the class's constructor (or the class),
//	             or a constructor chaining to another: this(...), super(...)
//	inherited    a method found in a base class (MRO), through super(), or
//	             promoted from an embedded struct
//	interface    a call through an interface, to the interface's method and
//	             each implementer's (class hierarchy analysis)
//	name         the only symbol in the repository with that name
//	macro        a C or C++ function-like macro the caller's file defines
//	             or includes (the preprocessor expands it)
//	callback     a function handed to a builtin that calls it (JavaScript:
//	             arr.map(f), p.then(f), setTimeout(f))
//
// Call sites with no target — builtins, the standard library, third-party
// code, dynamic calls, names with several candidates — are kept in
// Graph.Unresolved with the reason; nothing is guessed when a name is
// ambiguous.
//
// C and C++ calls without a receiver resolve as the preprocessor and the
// linker would: the caller's own file, then what it includes and the
// definitions of what that declares, then a unique name; prototypes are
// declarations, never definitions (see lang_c.go).
//
// JavaScript, TypeScript and TSX follow imports through the export lists
// of modules (re-exports, barrels, CommonJS); see javascript.go.
//
// Each file's module is a node too (kind "module"): the caller of
// module-level code.
//
// For work on part of a graph, Neighbourhood cuts the Subgraph within N
// calls of some symbols (callers, callees or both) by walking the dense
// edge lists, and Subgraph.WriteDOT draws it through dominikbraun/graph.
// CalleeFirst orders the whole graph's strongly connected components so
// each comes after every component it calls — the order to enrich in. It
// is our own iterative Tarjan: dominikbraun/graph stays off whole-repo
// paths (see order_bench_test.go for the numbers).
package callgraph
