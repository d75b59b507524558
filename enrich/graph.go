package enrich

import (
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// Graph is what enrich reads of a call graph: the nodes of a file, their
// callers and callees, the calls a file left unresolved, names used as
// values, and the nodes of a qualified name. *callgraph.Graph is one; a
// server also answers it from the saved lookup index, without restoring
// the graph. Each method answers as *callgraph.Graph's of the same name.
type Graph interface {
	Node(id callgraph.SymbolID) callgraph.Node
	InFile(file string) []callgraph.SymbolID
	Lookup(qualified string) []callgraph.SymbolID
	Callers(id callgraph.SymbolID) []callgraph.Edge
	Callees(id callgraph.SymbolID) []callgraph.Edge
	UnresolvedIn(file string) []callgraph.Unresolved
	ReferencesCapped(id callgraph.SymbolID, limit int) (refs []callgraph.Reference, total int)
}

var _ Graph = (*callgraph.Graph)(nil)

// PlaceGraph is a Graph that also lists the places of its files
// (extract.File.Places): a call made in one is its module's or type's in
// the graph, and is shown as made in the place (`rootCmd.Run`, `<callback
// of get('/users')>`). *callgraph.Graph is one.
type PlaceGraph interface {
	Graph
	PlacesIn(file string) []extract.Place
}

var _ PlaceGraph = (*callgraph.Graph)(nil)

// graphOf returns g, or nil for no graph: a nil *callgraph.Graph passed
// as a Graph is no graph too.
func graphOf(g Graph) Graph {
	if cg, ok := g.(*callgraph.Graph); ok && cg == nil {
		return nil
	}
	return g
}
