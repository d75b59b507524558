package callgraph

import (
	"context"
	"go/ast"
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Build resolves the calls of files into a Graph. Files are taken in path
// order, so the IDs of a set of files do not depend on their order.
func Build(files []extract.File) *Graph {
	g, _ := BuildContext(context.Background(), files)
	return g
}

// BuildContext is Build that gives up when ctx is done, returning its
// error and no graph.
func BuildContext(ctx context.Context, files []extract.File) (*Graph, error) {
	g := newGraph(len(files))
	for i := range files {
		f := files[i]
		g.setFile(f.Path, &f)
	}
	return g.build(ctx)
}

// BuildToSave is BuildContext for a graph that is saved and let go, not
// updated (`fileinfo index`). It takes files over: a file's calls are
// let go as soon as they are resolved (its unresolved ones are kept as
// Unresolved records), and once every file is resolved each file keeps
// only its path, language, module and test flag, and the graph lets go
// of what only Update reads (the resolution index, the Go bindings, the
// names each file looked up), before the edge list is made. The graph
// answers every read as Build's over the same files would but those of
// the files' extractions (Signature, References); Update panics. On the
// Linux kernel the calls were 331 MB of the 1.48 GB a Build held with
// its files at its end, and the edges 236 MB more made while they were
// all held (docs/bigrepos.md).
//
// calls, when not nil, gives the calls of a file that has none (nil
// Calls): it is asked once for each such file, just before the file's
// calls are resolved (for the files of flow-tracked languages, Python's,
// before any is: their tracking is global), so a caller that leaves
// them out of files never holds them all. Its error ends the build and
// is returned.
func BuildToSave(ctx context.Context, files []extract.File, calls func(path string) ([]extract.Call, error)) (*Graph, error) {
	g := newGraph(len(files))
	g.toSave = true
	var fetchErr error
	if calls != nil {
		g.fetch = func(f *extract.File) bool {
			if fetchErr == nil && f.Calls == nil {
				f.Calls, fetchErr = calls(f.Path)
			}
			return fetchErr == nil
		}
	}
	for i := range files {
		g.setFile(files[i].Path, &files[i]) // taken over: resolve clears it
	}
	g, err := g.build(ctx)
	if fetchErr != nil {
		return nil, fetchErr
	}
	return g, err
}

func newGraph(n int) *Graph {
	return &Graph{
		files:     make(map[string]*extract.File, n),
		results:   map[string]*fileResult{},
		bindings:  map[gscopeKey][]gbinding{},
		importers: map[string]map[string]bool{},
		parsed:    map[string]ast.Expr{},
		failed:    map[string]string{},
	}
}

// build resolves the calls of g's files and makes the edge list.
func (g *Graph) build(ctx context.Context) (*Graph, error) {
	g.reindex()
	g.stop = func() bool { return ctx.Err() != nil }
	ok := g.resolve(g.Files())
	g.stop, g.fetch = nil, nil
	if err := ctx.Err(); err != nil || !ok {
		return nil, err
	}
	if g.toSave {
		g.letGoOfResolution()
	}
	g.assemble()
	return g, nil
}

// letGoOfResolution drops, in a graph built to be saved, what is left of
// its files but their identity and what only Update reads. The files
// are the callers' (BuildToSave takes them over), so they are cleared in
// place.
func (g *Graph) letGoOfResolution() {
	for _, f := range g.files {
		*f = extract.File{Path: f.Path, Language: f.Language, Module: f.Module, Test: f.Test}
	}
	for _, res := range g.results {
		res.unique = nil
	}
	g.ix = nil
	g.bindings, g.importers, g.parsed = nil, nil, nil
}

// settle makes res, file f's result, independent of f's calls, which it
// then lets go: a graph built to be saved resolves a file's calls once.
func (g *Graph) settle(f *extract.File, res *fileResult) {
	if len(res.calls) > 0 {
		res.unresolved = g.unresolvedOf(f, res)
		res.calls = nil
	}
	f.Calls = nil
}

// fileResult is what resolving one file's calls gave, in call order.
// Its edges live here only until assemble or splice moves them into
// g.edges: the graph holds each edge once (on Linux 6.1 a second copy
// was 158 MB). Its unresolved calls are kept as indexes into the file's
// Calls with an interned reason (8 bytes instead of 104), made into
// Unresolved records when asked (see UnresolvedIn).
type fileResult struct {
	edges      []fileEdge
	calls      []unresolvedCall
	unresolved []Unresolved    // given as such (a graph restored from saved data) instead of calls
	unique     map[string]bool // names looked up in the whole repository (unique-name fallback)
	includes   bool            // C: resolution read the include graph (lang_c.go)
}

// fileEdge is an edge as a file's result holds it until assemble or
// splice makes it an Edge of g.edges: its file is the result's, its
// resolution an index in g.hows. It is 16 bytes, Edge 48: assemble holds
// both while it copies, which on Linux was 225 MB of Edges on top of as
// many in the results, at the process's largest point.
type fileEdge struct {
	caller, callee SymbolID
	line           int32
	how            uint32
}

// fileEdge returns e as a result of e.File holds it.
func (g *Graph) fileEdge(e Edge) fileEdge {
	return fileEdge{caller: e.Caller, callee: e.Callee, line: int32(e.Line), how: g.howID(e.Resolution)}
}

// edge returns the Edge of file that fe is.
func (g *Graph) edge(file string, fe fileEdge) Edge {
	return Edge{Caller: fe.caller, Callee: fe.callee, File: file, Line: int(fe.line), Resolution: g.hows[fe.how]}
}

// howID interns a resolution, as reasonID a reason.
func (g *Graph) howID(how Resolution) uint32 {
	for i, h := range g.hows {
		if h == how {
			return uint32(i)
		}
	}
	g.hows = append(g.hows, how)
	return uint32(len(g.hows) - 1)
}

// unresolvedCall is a call of the file, f.Calls[call], without a target;
// reason indexes g.reasons.
type unresolvedCall struct {
	call   int32
	reason uint32
}

// reasonID interns an unresolved call's reason: on C most reasons repeat
// ("ambiguous: 2 definitions named min").
func (g *Graph) reasonID(reason string) uint32 {
	if id, ok := g.reasonIDs[reason]; ok {
		return id
	}
	if g.reasonIDs == nil {
		g.reasonIDs = map[string]uint32{}
	}
	id := uint32(len(g.reasons))
	g.reasons = append(g.reasons, reason)
	g.reasonIDs[reason] = id
	return id
}

// reindex recomputes nodes and lookups from g.files, in path order, so
// that IDs equal those of a fresh Build.
func (g *Graph) reindex() {
	paths := g.Files()
	n := 0 // at most a module node per file and a node per symbol: no room lost to growth
	for _, p := range paths {
		n += 1 + len(g.files[p].Symbols)
	}
	g.nodes = make([]Node, 0, n)
	g.viewed.Store(false) // a View keeps the old table
	g.byQualified = make(map[string][]SymbolID, len(g.byQualified))
	g.byFile = make(map[string][]SymbolID, len(paths))
	g.ix = newIndex(g)
	g.prefixes = nil
	for _, p := range paths {
		g.ix.addFile(g.files[p])
	}
}

// resolve resolves the calls of the files at paths into g.results. Flow
// tracking (Python) is global: it runs over every file that has it
// whenever one of paths does. It reports false when g.fetch could not
// give a file's calls (BuildToSave), which ends it.
func (g *Graph) resolve(paths []string) bool {
	r := newResolver(g, g.ix)
	// Keep parentOf's answers: 4 bytes a node, once per resolution
	// (never per question, as OutsideConstructors' resolvers are).
	r.parents = make([]SymbolID, len(g.nodes))
	r.gotypes = newGoTypes(r, g.bindings, g.parsed)
	for _, p := range paths {
		delete(g.failed, p) // a file re-resolved gets a new verdict
	}
	g.refetch(paths)             // the calls LetGoOfCalls let go of
	fetched := map[string]bool{} // by g.fetch, before flow tracking
	for _, p := range paths {
		if languageTraits[g.files[p].Language].flow {
			all := g.Files()
			if g.fetch != nil {
				for _, q := range all {
					if f := g.files[q]; languageTraits[f.Language].flow {
						if !g.fetch(f) {
							return false
						}
						fetched[q] = true
					}
				}
			}
			ordered := make([]*extract.File, len(all))
			for i, q := range all {
				ordered[i] = g.files[q]
			}
			r.flow = runFlow(r, ordered, g.ix.params)
			for p, reason := range r.flow.failed {
				g.failed[p] = reason
			}
			break
		}
	}
	if r.flow == nil {
		r.flow = &flow{r: r, vars: map[varKey]valueSet{}, decorated: map[SymbolID]bool{}, ext: map[varKey]extSet{}}
	}
	for _, p := range paths {
		if g.stop != nil && g.stop() {
			return true
		}
		if _, ok := g.failed[p]; ok {
			// Flow tracking panicked on p: its values are suspect.
			g.results[p] = &fileResult{unique: map[string]bool{}}
			continue
		}
		if g.fetch != nil && !fetched[p] && !g.fetch(g.files[p]) {
			return false
		}
		g.results[p] = g.resolveSafe(r, g.files[p])
		g.resolvedAll++
		if g.toSave {
			g.settle(g.files[p], g.results[p])
		} else {
			g.letGo(p)
		}
	}
	return true
}

// assemble makes the edge list from the results of every file, which it
// moves there, and the forward and reverse adjacency. The sort is stable
// and its ties lie within one file, whose edges keep their order: the
// list equals a fresh Build's whatever the order of resolution.
func (g *Graph) assemble() {
	n := 0
	for _, res := range g.results {
		n += len(res.edges)
	}
	edges := make([]Edge, 0, n)
	for _, p := range g.Files() {
		res := g.results[p]
		for _, fe := range res.edges {
			edges = append(edges, g.edge(p, fe))
		}
		res.edges = nil
	}
	sort.SliceStable(edges, func(i, j int) bool { return edgeLess(edges[i], edges[j]) })
	g.edges = edges
	g.adjacency()
}

// freshEdges moves the new results of the files at paths (sorted) out of
// their results, as edges in edgeLess order.
func (g *Graph) freshEdges(paths []string) []Edge {
	var fresh []Edge
	for _, p := range paths {
		res := g.results[p]
		for _, fe := range res.edges {
			fresh = append(fresh, g.edge(p, fe))
		}
		res.edges = nil
	}
	sort.SliceStable(fresh, func(i, j int) bool { return edgeLess(fresh[i], fresh[j]) })
	return fresh
}

// splice replaces the edges of the files at paths (sorted) with their new
// results, keeping the order assemble gives, when the graph's IDs did not
// change.
func (g *Graph) splice(paths []string) {
	fresh := g.freshEdges(paths)
	redone := func(file string) bool {
		_, ok := slices.BinarySearch(paths, file)
		return ok
	}
	edges := make([]Edge, 0, len(g.edges)+len(fresh))
	for _, e := range g.edges {
		if redone(e.File) {
			continue
		}
		for len(fresh) > 0 && edgeLess(fresh[0], e) {
			edges = append(edges, fresh[0])
			fresh = fresh[1:]
		}
		edges = append(edges, e)
	}
	g.edges = append(edges, fresh...)
	g.adjacency()
}

// edgeLess orders edges by caller, file, line and callee.
func edgeLess(a, b Edge) bool {
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
}

// adjacency indexes g.edges by caller and by callee, and counts the
// unresolved calls, whose list Unresolved gathers when asked.
func (g *Graph) adjacency() {
	g.out, g.in = index2(len(g.nodes), g.edges, true), index2(len(g.nodes), g.edges, false)
	n := 0
	for _, res := range g.results {
		n += len(res.calls) + len(res.unresolved)
	}
	g.unresolved = &lazyUnresolved{n: n}
	g.refs = &refIndex{}
}

// index2 lists the edges by caller (byCaller) or by callee.
func index2(n int, edges []Edge, byCaller bool) csr {
	end := func(e Edge) SymbolID {
		if byCaller {
			return e.Caller
		}
		return e.Callee
	}
	c := csr{off: make([]int32, n+1), idx: make([]int32, len(edges))}
	for _, e := range edges {
		c.off[end(e)+1]++
	}
	for i := 1; i <= n; i++ {
		c.off[i] += c.off[i-1]
	}
	at := slices.Clone(c.off[:n])
	for i, e := range edges {
		v := end(e)
		c.idx[at[v]] = int32(i)
		at[v]++
	}
	return c
}

// index holds the lookups resolution needs beyond g.byQualified.
type index struct {
	g      *Graph
	byName map[string][]SymbolID // callables and types by simple name
	module map[string]SymbolID   // module nodes by qualified name
	bases  map[SymbolID][]string // base types as written, by class
	params map[SymbolID][]string // parameter names of the functions of flow-tracked languages
	python bool                  // a Python file is indexed: canonical can rewrite names
	// test holds the symbols declared in test-only code (extract's
	// File.Test and Symbol.Test): never callees of production code that
	// does not import them (tests.go).
	test map[SymbolID]bool
	c    *cIndex // C and C++ functions and includes (lang_c.go)
}

func newIndex(g *Graph) *index {
	return &index{g: g, byName: map[string][]SymbolID{}, module: map[string]SymbolID{}, bases: map[SymbolID][]string{}, params: map[SymbolID][]string{}, test: map[SymbolID]bool{}}
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
	// Flow tracking passes arguments to the parameters of any function
	// of its languages, in files with bindings or not.
	flow := languageTraits[f.Language].flow
	ix.python = ix.python || f.Language == "python"
	c := family(f.Language) == "c"
	for i := range f.Symbols {
		s := &f.Symbols[i]
		id := ix.add(symbolNode(f, s))
		ix.byName[s.Name] = append(ix.byName[s.Name], id)
		if s.Test || f.Test {
			ix.test[id] = true
		}
		if c && s.Kind == extract.KindFunction {
			ix.addC(id, s)
		}
		if len(s.Bases) > 0 {
			ix.bases[id] = s.Bases
		}
		if flow && len(s.Params) > 0 {
			ix.params[id] = s.Params
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
