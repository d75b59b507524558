package callgraph

import (
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Build resolves the calls of files into a Graph. Files are taken in path
// order, so the IDs of a set of files do not depend on their order.
func Build(files []extract.File) *Graph {
	g := &Graph{files: make(map[string]*extract.File, len(files))}
	for i := range files {
		f := files[i]
		g.files[f.Path] = &f
	}
	g.rebuild()
	return g
}

// rebuild recomputes nodes, edges and indexes from g.files.
func (g *Graph) rebuild() {
	paths := g.Files()
	g.nodes, g.edges, g.unresolved = g.nodes[:0], g.edges[:0], g.unresolved[:0]
	g.byQualified = map[string][]SymbolID{}
	g.byFile = map[string][]SymbolID{}
	ix := newIndex(g)
	for _, p := range paths {
		ix.addFile(g.files[p])
	}
	g.out = make([][]int32, len(g.nodes))
	g.in = make([][]int32, len(g.nodes))
	r := newResolver(g, ix)
	ordered := make([]*extract.File, len(paths))
	for i, p := range paths {
		ordered[i] = g.files[p]
	}
	r.flow = runFlow(r, ordered, ix.sigs)
	r.gotypes = newGoTypes(r, ordered)
	for _, f := range ordered {
		r.resolveFile(f)
	}
	sort.SliceStable(g.edges, func(i, j int) bool {
		a, b := g.edges[i], g.edges[j]
		if a.Caller != b.Caller {
			return a.Caller < b.Caller
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Callee < b.Callee
	})
	for i, e := range g.edges {
		g.out[e.Caller] = append(g.out[e.Caller], int32(i))
		g.in[e.Callee] = append(g.in[e.Callee], int32(i))
	}
}

// index holds the lookups resolution needs beyond g.byQualified.
type index struct {
	g      *Graph
	byName map[string][]SymbolID // callables and types by simple name
	module map[string]SymbolID   // module nodes by qualified name
	bases  map[SymbolID][]string // base types as written, by class
	sigs   map[SymbolID]string   // signatures of functions with bindings in their file
}

func newIndex(g *Graph) *index {
	return &index{g: g, byName: map[string][]SymbolID{}, module: map[string]SymbolID{}, bases: map[SymbolID][]string{}, sigs: map[SymbolID]string{}}
}

func (ix *index) add(n Node) SymbolID {
	g := ix.g
	id := SymbolID(len(g.nodes))
	g.nodes = append(g.nodes, n)
	g.byQualified[n.Qualified] = append(g.byQualified[n.Qualified], id)
	g.byFile[n.File] = append(g.byFile[n.File], id)
	return id
}

func (ix *index) addFile(f *extract.File) {
	mod := moduleName(f)
	if id, ok := ix.module[mod]; ok {
		// Files of one package or namespace share its module node.
		ix.g.byFile[f.Path] = append(ix.g.byFile[f.Path], id)
	} else {
		ix.module[mod] = ix.add(Node{Qualified: mod, Name: lastSegment(mod), Kind: KindModule, File: f.Path, Line: 1, EndLine: 1, Language: f.Language})
	}
	for _, s := range f.Symbols {
		id := ix.add(Node{
			Qualified: s.Qualified, Name: s.Name, Kind: s.Kind, Parent: s.Parent,
			File: f.Path, Line: s.StartLine, EndLine: s.EndLine, Language: f.Language,
		})
		ix.byName[s.Name] = append(ix.byName[s.Name], id)
		if len(s.Bases) > 0 {
			ix.bases[id] = s.Bases
		}
		if hasFlow(f) {
			ix.sigs[id] = s.Signature
		}
	}
}

// moduleName is the file's module, or its path module when it has none
// (a root-level Go file without go.mod).
func moduleName(f *extract.File) string {
	if f.Module != "" {
		return f.Module
	}
	p := f.Path
	if i := strings.LastIndexByte(p, '.'); i > strings.LastIndexByte(p, '/') {
		p = p[:i]
	}
	return strings.ReplaceAll(p, "/", ".")
}

func lastSegment(q string) string {
	return q[strings.LastIndexAny(q, "./")+1:]
}

// addEdge records a resolved call.
func (g *Graph) addEdge(caller, callee SymbolID, file string, line int, how Resolution) {
	g.edges = append(g.edges, Edge{Caller: caller, Callee: callee, File: file, Line: line, Resolution: how})
}
