// Package callgraph resolves the call sites of extracted files into a call
// graph: []extract.File in, a Graph out. Symbols get dense integer IDs;
// each has forward (callees) and reverse (callers) edge lists, and every
// edge says how it was resolved:
//
//	local        a name bound in the same file or scope
//	import       through an import binding (alias, from-import, module attribute)
//	receiver     a method on self/this/cls, or on a receiver whose type is known
//	constructor  an instantiation, to the class's constructor (or the class)
//	inherited    a method found in a base class (MRO), through super(), or
//	             promoted from an embedded struct
//	interface    a call through an interface, to each implementer
//	name         the only symbol in the repository with that name
//
// Call sites with no target — builtins, the standard library, third-party
// code, dynamic calls, names with several candidates — are kept in
// Graph.Unresolved with the reason; nothing is guessed when a name is
// ambiguous.
//
// JavaScript, TypeScript and TSX follow imports through the export lists
// of modules (re-exports, barrels, CommonJS); see javascript.go.
//
// Each file's module is a node too (kind "module"): the caller of
// module-level code.
package callgraph
