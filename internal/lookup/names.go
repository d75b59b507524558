package lookup

import (
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
)

// EachName calls f with each distinct lower-case name of the graph's
// nodes, in no set order, until f returns false.
func (ix *Index) EachName(f func(lower string) bool) { ix.names.EachName(f) }

// Named returns the nodes whose lower-case name is lower, in increasing
// ID order.
func (ix *Index) Named(lower string) []callgraph.SymbolID { return ix.names.Named(lower) }

// nameHolder is a Names with an index of its own for the names holding a
// word (graphstore.Symbols: by trigram).
type nameHolder interface {
	EachNameHolding(words []string, f func(lower string, ids []callgraph.SymbolID) bool)
}

// EachNameHolding calls f with each distinct lower-case name that holds
// one of words (lower-case) as a substring, and the nodes of that name
// in increasing ID order, in no set order, until f returns false. A
// saved symbols index looks the words up; other Names are read whole.
func (ix *Index) EachNameHolding(words []string, f func(lower string, ids []callgraph.SymbolID) bool) {
	if h, ok := ix.names.(nameHolder); ok {
		h.EachNameHolding(words, f)
		return
	}
	ix.names.EachName(func(name string) bool {
		for _, w := range words {
			if strings.Contains(name, w) {
				return f(name, ix.names.Named(name))
			}
		}
		return true
	})
}
