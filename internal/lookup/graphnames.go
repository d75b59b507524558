package lookup

import (
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// NewGraph returns the index of a call graph that holds its own name and
// file lookups (callgraph.Graph's Lookup and InFile): it answers as New
// does, but indexes only the lower-case names, reading the rest from g,
// and finds a node's symbol in its file when asked, not for every node
// up front. On the Linux kernel New's copies of the graph's lookups and
// its symbol table were a quarter of a gigabyte of heap, built again
// after every update of a server's graph (docs/bigrepos.md). The index
// answers as g was when NewGraph was called: it reads g's View, which
// later updates of g leave as it is. NewGraph must not run beside an
// update of g.
func NewGraph(g *callgraph.Graph) *Index { return NewView(g.View()) }

// NewView returns NewGraph's index of a graph's View: it may be read
// while the graph is updated.
func NewView(v *callgraph.View) *Index {
	n := &graphNames{g: v, byName: byName{}}
	for i := range v.Len() {
		id := callgraph.SymbolID(i)
		n.add(v.Node(id).Name, id)
	}
	return &Index{g: v, names: n}
}

// graphNames is the Names of NewView.
type graphNames struct {
	byName
	g *callgraph.View
}

func (n *graphNames) Qualified(q string) []callgraph.SymbolID { return n.g.Lookup(q) }

// InFile returns the file's nodes as New indexes them, by the file each
// names: a module node the file shares with an earlier file of its
// package (first in the graph's list) is that file's.
func (n *graphNames) InFile(path string) []callgraph.SymbolID {
	ids := n.g.InFile(path)
	if len(ids) > 0 && n.g.Node(ids[0]).File != path {
		ids = ids[1:]
	}
	if len(ids) == 0 {
		return nil
	}
	return ids
}

// Detail finds the node's symbol in its file's extraction as New does:
// the last symbol with its qualified name and line.
func (n *graphNames) Detail(id callgraph.SymbolID) (string, string, []string) {
	node := n.g.Node(id)
	if node.Kind == callgraph.KindModule {
		return "", "", nil
	}
	f := n.g.File(node.File)
	if f == nil {
		return "", "", nil
	}
	var s *extract.Symbol
	for i := range f.Symbols {
		if f.Symbols[i].Qualified == node.Qualified && f.Symbols[i].StartLine == node.Line {
			s = &f.Symbols[i]
		}
	}
	if s == nil {
		return "", "", nil
	}
	return s.Signature, s.Doc, s.Bases
}
