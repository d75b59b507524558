package lookup

import "github.com/fileinfo/fileinfo/callgraph"

// EachName calls f with each distinct lower-case name of the graph's
// nodes, in no set order, until f returns false.
func (ix *Index) EachName(f func(lower string) bool) { ix.names.EachName(f) }

// Named returns the nodes whose lower-case name is lower, in increasing
// ID order.
func (ix *Index) Named(lower string) []callgraph.SymbolID { return ix.names.Named(lower) }
