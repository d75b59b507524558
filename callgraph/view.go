package callgraph

import (
	"maps"
	"slices"

	"github.com/fileinfo/fileinfo/extract"
)

// View is what a Graph answers lookups with (nodes, edges, the
// adjacency, the lookups by qualified name and by file, the files'
// extractions), as of the moment View was called: later Updates of the
// graph do not change it. It lets readers go on answering from the graph
// as it was while an update runs (on the Linux kernel an update that
// renumbers the graph held a server's lock for 10-30 s,
// docs/bigrepos.md). A View is safe for concurrent use.
type View struct {
	nodes       []Node
	edges       []Edge
	out, in     csr
	byQualified map[string][]SymbolID
	byFile      map[string][]SymbolID
	files       map[string]*extract.File
}

// View returns the graph's lookups as they are now. It shares g's tables,
// which an Update replaces rather than changes, but for the nodes' lines
// that an update in place writes and the lookup lists that an update
// moving the files' node runs renumbers: those are copied before the
// update writes them (updateInPlace, reindexShift). The files' map is copied (on
// the Linux kernel 55,000 entries, a few milliseconds). The caller must
// not run View beside an Update.
func (g *Graph) View() *View {
	g.viewed.Store(true)
	return &View{
		nodes: g.nodes, edges: g.edges, out: g.out, in: g.in,
		byQualified: g.byQualified, byFile: g.byFile, files: maps.Clone(g.files),
	}
}

// ownNodes gives g a node table of its own before it is written in
// place, when a View shares the one it has.
func (g *Graph) ownNodes() {
	if g.viewed.Swap(false) {
		g.nodes = slices.Clone(g.nodes)
	}
}

// Len returns the number of nodes.
func (v *View) Len() int { return len(v.nodes) }

// Node returns the node with the given ID.
func (v *View) Node(id SymbolID) Node { return v.nodes[id] }

// Callers returns the edges into id. It never returns nil.
func (v *View) Callers(id SymbolID) []Edge { return collectEdges(v.edges, v.in.of(id)) }

// Callees returns the edges out of id. It never returns nil.
func (v *View) Callees(id SymbolID) []Edge { return collectEdges(v.edges, v.out.of(id)) }

// Lookup returns the nodes with the qualified name q, in ID order.
func (v *View) Lookup(q string) []SymbolID { return v.byQualified[q] }

// InFile returns the nodes declared in file, in line order.
func (v *View) InFile(file string) []SymbolID { return v.byFile[file] }

// File returns the extraction of path the graph held, or nil.
func (v *View) File(path string) *extract.File { return v.files[path] }
