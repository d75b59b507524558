package callgraph

import (
	"go/ast"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Build resolves the calls of files into a Graph. Files are taken in path
// order, so the IDs of a set of files do not depend on their order.
func Build(files []extract.File) *Graph {
	g := &Graph{
		files:     make(map[string]*extract.File, len(files)),
		results:   map[string]*fileResult{},
		tokens:    map[string][]string{},
		byToken:   map[string]map[string]bool{},
		bindings:  map[gscopeKey][]gbinding{},
		importers: map[string]map[string]bool{},
		parsed:    map[string]ast.Expr{},
	}
	for i := range files {
		f := files[i]
		g.setFile(f.Path, &f)
	}
	g.reindex()
	g.resolve(g.Files())
	g.assemble()
	return g
}

// fileResult is what resolving one file's calls gave, in call order.
type fileResult struct {
	edges      []Edge
	unresolved []Unresolved
	unique     map[string]bool // names looked up in the whole repository (unique-name fallback)
}

// reindex recomputes nodes and lookups from g.files, in path order, so
// that IDs equal those of a fresh Build.
func (g *Graph) reindex() {
	paths := g.Files()
	g.nodes = make([]Node, 0, len(g.nodes))
	g.byQualified = make(map[string][]SymbolID, len(g.byQualified))
	g.byFile = make(map[string][]SymbolID, len(paths))
	g.ix = newIndex(g)
	for _, p := range paths {
		g.ix.addFile(g.files[p])
	}
}

// resolve resolves the calls of the files at paths into g.results. Flow
// tracking (Python) is global: it runs over every file that has it
// whenever one of paths does.
func (g *Graph) resolve(paths []string) {
	r := newResolver(g, g.ix)
	r.gotypes = newGoTypes(r, g.bindings, g.parsed)
	for _, p := range paths {
		if languageTraits[g.files[p].Language].flow {
			all := g.Files()
			ordered := make([]*extract.File, len(all))
			for i, q := range all {
				ordered[i] = g.files[q]
			}
			r.flow = runFlow(r, ordered, g.ix.sigs)
			break
		}
	}
	if r.flow == nil {
		r.flow = &flow{r: r, vars: map[varKey]valueSet{}, decorated: map[SymbolID]bool{}}
	}
	for _, p := range paths {
		g.results[p] = r.resolveFile(g.files[p])
	}
}

// assemble collects the results of every file into the edge list and the
// forward and reverse adjacency.
func (g *Graph) assemble() {
	g.edges, g.unresolved = g.edges[:0], g.unresolved[:0]
	for _, p := range g.Files() {
		res := g.results[p]
		g.edges = append(g.edges, res.edges...)
		g.unresolved = append(g.unresolved, res.unresolved...)
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
	g.out = make([][]int32, len(g.nodes))
	g.in = make([][]int32, len(g.nodes))
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
	flow := hasFlow(f)
	for _, s := range f.Symbols {
		id := ix.add(Node{
			Qualified: s.Qualified, Name: s.Name, Kind: s.Kind, Parent: s.Parent,
			File: f.Path, Line: s.StartLine, EndLine: s.EndLine, Language: f.Language,
		})
		ix.byName[s.Name] = append(ix.byName[s.Name], id)
		if len(s.Bases) > 0 {
			ix.bases[id] = s.Bases
		}
		if flow {
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
