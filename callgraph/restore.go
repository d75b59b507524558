package callgraph

import (
	"fmt"
	"go/ast"
	"slices"

	"github.com/fileinfo/fileinfo/extract"
)

// Saved is what a graph's readers see, in a form a store can keep: a
// graph restored from it over the same files answers every query as the
// graph it was taken from, without resolving a call.
type Saved struct {
	Nodes []Node
	Edges []Edge // in the order of Edges
	// Unresolved are the call sites without a target, in file and line
	// order (the order of Unresolved).
	Unresolved []Unresolved
	// Skipped are the files whose resolution failed (Skipped).
	Skipped []extract.Skipped
}

// Save returns what Restore needs to give g back over g's files. The
// slices are g's own or new; g must not be updated while they are used.
func (g *Graph) Save() Saved {
	var un []Unresolved
	if g.unresolved.n > 0 {
		un = make([]Unresolved, 0, g.unresolved.n)
		for _, p := range g.Files() {
			un = append(un, g.results[p].unresolved...)
		}
	}
	return Saved{Nodes: g.nodes, Edges: g.edges, Unresolved: un, Skipped: g.Skipped()}
}

// Restore gives back, over files, the graph s was saved from: reads
// answer at once, as from that graph. The resolution state Update needs
// is rebuilt by the first Update, which costs what Build does; until
// then the graph holds no more than its answers.
//
// Restore checks that s fits files (every node and edge in range, in a
// file of files, in order) and returns an error when it does not: the
// caller builds the graph instead. It does not check that s is what
// Build would make of files; that is the store's part (it saves s with
// the content hashes of files).
func Restore(files []extract.File, s Saved) (*Graph, error) {
	g := &Graph{
		nodes:       s.Nodes,
		edges:       s.Edges,
		files:       make(map[string]*extract.File, len(files)),
		results:     make(map[string]*fileResult, len(files)),
		byQualified: make(map[string][]SymbolID, len(s.Nodes)),
		byFile:      make(map[string][]SymbolID, len(files)),
		failed:      map[string]string{},
	}
	for i := range files {
		f := &files[i]
		if g.files[f.Path] != nil {
			return nil, fmt.Errorf("restore: file %s given twice", f.Path)
		}
		g.files[f.Path] = f
		g.results[f.Path] = &fileResult{}
	}
	for i, n := range s.Nodes {
		if g.files[n.File] == nil {
			return nil, fmt.Errorf("restore: node %d (%s) is in %s, not among the files", i, n.Qualified, n.File)
		}
		id := SymbolID(i)
		g.byQualified[n.Qualified] = append(g.byQualified[n.Qualified], id)
		g.byFile[n.File] = append(g.byFile[n.File], id)
	}
	// A module node is listed first in each of its files (as addFile
	// does): files of one package share the node declared by the first.
	for i := range files {
		f := &files[i]
		mod := moduleName(f)
		ids := g.byFile[f.Path]
		if len(ids) > 0 && g.nodes[ids[0]].Qualified == mod && g.nodes[ids[0]].Kind == KindModule {
			continue
		}
		m := slices.IndexFunc(g.byQualified[mod], func(id SymbolID) bool { return g.nodes[id].Kind == KindModule })
		if m < 0 {
			return nil, fmt.Errorf("restore: no module node %s for %s", mod, f.Path)
		}
		g.byFile[f.Path] = append([]SymbolID{g.byQualified[mod][m]}, ids...)
	}
	for i, e := range s.Edges {
		if int(e.Caller) >= len(s.Nodes) || int(e.Callee) >= len(s.Nodes) {
			return nil, fmt.Errorf("restore: edge %d points past the %d nodes", i, len(s.Nodes))
		}
		if i > 0 && edgeLess(e, s.Edges[i-1]) {
			return nil, fmt.Errorf("restore: edge %d is out of order", i)
		}
	}
	for _, u := range s.Unresolved {
		r := g.results[u.File]
		if r == nil {
			return nil, fmt.Errorf("restore: unresolved call in %s, not among the files", u.File)
		}
		r.unresolved = append(r.unresolved, u)
	}
	for _, sk := range s.Skipped {
		g.failed[sk.Path] = sk.Reason
	}
	g.adjacency()
	return g, nil
}

// Restored reports whether g lacks the resolution state: it was
// restored and not updated since, so its first Update costs a Build.
func (g *Graph) Restored() bool { return g.ix == nil }

// complete rebuilds the resolution state of a restored graph from its
// files, as Build does: afterwards g equals Build of its files.
func (g *Graph) complete() {
	files := g.files
	g.files = make(map[string]*extract.File, len(files))
	g.results = map[string]*fileResult{}
	g.tokens = map[string][]string{}
	g.byToken = map[string]map[string]bool{}
	g.bindings = map[gscopeKey][]gbinding{}
	g.importers = map[string]map[string]bool{}
	g.parsed = map[string]ast.Expr{}
	g.failed = map[string]string{}
	for p, f := range files {
		g.setFile(p, f)
	}
	g.reindex()
	g.resolve(g.Files())
	g.assemble()
}
