package callgraph

import (
	"go/ast"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/fileinfo/fileinfo/extract"
)

// SymbolID is a dense index into a Graph's nodes.
type SymbolID uint32

// Resolution says how an edge was resolved; see the package doc.
type Resolution string

const (
	Local       Resolution = "local"
	Import      Resolution = "import"
	Receiver    Resolution = "receiver"
	Constructor Resolution = "constructor"
	Inherited   Resolution = "inherited"
	Interface   Resolution = "interface"
	Name        Resolution = "name"
)

// KindModule is the kind of the node standing for a module's top-level code.
const KindModule extract.Kind = "module"

// Node is a symbol of the graph.
type Node struct {
	Qualified string       `json:"qualified"`
	Name      string       `json:"name"`
	Kind      extract.Kind `json:"kind"`
	Parent    string       `json:"parent"`
	File      string       `json:"file"`
	Line      int          `json:"line"`
	EndLine   int          `json:"end_line"`
	Language  string       `json:"language"`
	// Declaration marks a function declared without a body (a C or C++
	// prototype, see extract.Symbol.Declaration). Calls resolve to its
	// definition where there is one; a lookup by name prefers that.
	Declaration bool `json:"declaration,omitempty"`
}

// symbolNode is the node of symbol s of file f.
func symbolNode(f *extract.File, s *extract.Symbol) Node {
	return Node{
		Qualified: s.Qualified, Name: s.Name, Kind: s.Kind, Parent: s.Parent,
		File: f.Path, Line: s.StartLine, EndLine: s.EndLine, Language: f.Language,
		Declaration: s.Declaration,
	}
}

// Edge is one resolved call site.
type Edge struct {
	Caller     SymbolID   `json:"caller"`
	Callee     SymbolID   `json:"callee"`
	File       string     `json:"file"`
	Line       int        `json:"line"`
	Resolution Resolution `json:"resolution"`
}

// Unresolved is a call site without a target in the repository.
type Unresolved struct {
	Caller   string `json:"caller"`
	Name     string `json:"name"`
	Receiver string `json:"receiver"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Reason   string `json:"reason"`
}

// Graph is a call graph over dense symbol IDs. It is not safe for
// concurrent mutation; readers may share a Graph that is not updated.
type Graph struct {
	nodes      []Node
	edges      []Edge
	out, in    csr // edge indexes by caller, by callee
	unresolved *lazyUnresolved
	reasons    []string          // of unresolved calls, interned (see reasonID)
	hows       []Resolution      // of the edges of file results, interned (see howID)
	reasonIDs  map[string]uint32 // index in reasons
	refs       *refIndex         // names used as values, gathered on first use

	byQualified map[string][]SymbolID
	byFile      map[string][]SymbolID // sorted by line
	files       map[string]*extract.File

	// What Update needs to re-resolve only what a change can affect.
	ix        *index
	results   map[string]*fileResult     // by file
	tokens    map[string][]string        // identifiers each file's resolution reads, by file
	byToken   map[string][]string        // files by identifier they read, each once (see addTokens)
	hasTokens bool                       // tokens and byToken are built (see indexTokens)
	bindings  map[gscopeKey][]gbinding   // declarations (Go, Java, C#, Kotlin) of every file, by scope and name
	importers map[string]map[string]bool // Go files by the import paths they import
	parsed    map[string]ast.Expr        // Go expressions and types by source text (immutable syntax)

	prefixes map[string]bool // proper prefixes of every qualified name, built on first use

	failed map[string]string // files whose resolution panicked, with the reason (see Skipped)

	lastResolved int  // files the last Update re-resolved, for tests and benchmarks
	renumbered   bool // the last Update made the tables anew (see Renumbered)
	resolvedAll  int  // files resolved since the graph was made, for tests

	stop     func() bool // set while BuildContext resolves: true gives up
	restored bool        // see Restored
	toSave   bool        // built by BuildToSave: no resolution state, no Update
	// fetch, set while BuildToSave resolves with a source of calls, puts
	// a file's calls in it; false means it could not (the build ends).
	fetch func(*extract.File) bool
	// fetchCalls, set by LetGoOfCalls, puts back the calls of the files
	// in callsOut, which it let go of, before they are resolved again.
	fetchCalls func([]*extract.File)
	callsOut   map[string]bool

	// viewed says that a View shares nodes: an update in place copies
	// them before writing (see ownNodes).
	viewed atomic.Bool
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.nodes) }

// Node returns the node with the given ID.
func (g *Graph) Node(id SymbolID) Node { return g.nodes[id] }

// PlacesIn returns the places of file (extract.File.Places: anonymous
// functions outside every named function, and labelled callbacks inside
// one), as its extraction lists them; nil when the graph does not hold
// the file. A call made in one is its module's, type's or function's,
// and the place says where.
func (g *Graph) PlacesIn(file string) []extract.Place {
	if f := g.files[file]; f != nil {
		return f.Places
	}
	return nil
}

// Edges returns every edge, in caller order.
func (g *Graph) Edges() []Edge { return g.edges }

// Unresolved returns the call sites without a target, in file and line
// order. The list is gathered on first use after a change.
func (g *Graph) Unresolved() []Unresolved {
	u := g.unresolved
	u.once.Do(func() {
		u.list = make([]Unresolved, 0, u.n)
		for _, p := range g.Files() {
			u.list = append(u.list, g.UnresolvedIn(p)...)
		}
	})
	return u.list
}

// NumUnresolved returns len(g.Unresolved()) without gathering the list.
func (g *Graph) NumUnresolved() int { return g.unresolved.n }

// lazyUnresolved is the list of unresolved calls, gathered once from the
// files' results; n is its length.
type lazyUnresolved struct {
	once sync.Once
	n    int
	list []Unresolved
}

// Callers returns the edges into id, in O(degree). It never returns nil.
func (g *Graph) Callers(id SymbolID) []Edge { return g.collect(g.in.of(id)) }

// Callees returns the edges out of id, in O(degree). It never returns nil.
func (g *Graph) Callees(id SymbolID) []Edge { return g.collect(g.out.of(id)) }

// csr holds lists of edge indexes by node in one array: node v's list is
// idx[off[v]:off[v+1]].
type csr struct {
	off []int32
	idx []int32
}

func (c csr) of(v SymbolID) []int32 { return c.idx[c.off[v]:c.off[v+1]:c.off[v+1]] }

func (g *Graph) collect(idx []int32) []Edge { return collectEdges(g.edges, idx) }

// collectEdges returns the edges at the indexes idx.
func collectEdges(edges []Edge, idx []int32) []Edge {
	out := make([]Edge, len(idx))
	for i, e := range idx {
		out[i] = edges[e]
	}
	return out
}

// Lookup returns the nodes with the qualified name q (overloads and
// reopened classes share one), in ID order.
func (g *Graph) Lookup(q string) []SymbolID { return g.byQualified[q] }

// At returns the innermost symbol of file whose lines contain line, or
// false. The module node counts for lines outside every symbol.
func (g *Graph) At(file string, line int) (SymbolID, bool) {
	ids := g.byFile[file]
	best, found := SymbolID(0), false
	for _, id := range ids {
		n := g.nodes[id]
		if n.Kind == KindModule || n.Line > line || n.EndLine < line {
			continue
		}
		if !found || n.Line >= g.nodes[best].Line && n.EndLine <= g.nodes[best].EndLine {
			best, found = id, true
		}
	}
	if !found {
		for _, id := range ids {
			if g.nodes[id].Kind == KindModule {
				return id, true
			}
		}
	}
	return best, found
}

// InFile returns the nodes declared in file, in line order.
func (g *Graph) InFile(file string) []SymbolID { return g.byFile[file] }

// Files returns the paths of the files the graph was built from, sorted.
func (g *Graph) Files() []string {
	out := make([]string, 0, len(g.files))
	for p := range g.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func sortIDs(ids []SymbolID) {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
}
