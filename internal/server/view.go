package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/view"
)

// viewSource is the web view's window on a server: always its current
// workspace. It implements view.Source.
type viewSource struct{ s *Server }

var _ view.Source = viewSource{}

func (v viewSource) Tree(ctx context.Context) (view.Tree, error) {
	ws := v.s.workspace()
	t := view.Tree{Root: ws.root, Counts: map[string]int{}}
	select {
	case <-ws.ready:
	default:
		t.Loading = true
		return t, nil
	}
	if ws.err != nil {
		return t, fmt.Errorf("workspace %s could not be loaded: %w", ws.root, ws.err)
	}
	entries, err := ws.artifactEntries(ctx)
	if err != nil {
		return t, err
	}
	status := make(map[string]string, len(entries))
	for _, e := range entries {
		status[e.Path] = e.Status
	}
	ws.mu.RLock()
	t.Files = make([]view.FileEntry, 0, len(ws.files))
	for p, src := range ws.files {
		st := cmp.Or(status[p], string(artifacts.Missing))
		t.Files = append(t.Files, view.FileEntry{Path: p, Language: src.file.Language, Status: st})
		t.Counts[st]++
	}
	ws.mu.RUnlock()
	slices.SortFunc(t.Files, func(a, b view.FileEntry) int { return strings.Compare(a.Path, b.Path) })
	t.Docs = []view.DocEntry{}
	if ix := ws.docIndex(); ix != nil {
		if docs, err := ix.List(docsearch.ScopeDocs); err == nil {
			for _, d := range docs {
				t.Docs = append(t.Docs, view.DocEntry{Path: d.Path, Title: d.Title})
			}
		}
	}
	return t, nil
}

func (v viewSource) File(ctx context.Context, path string) (view.File, error) {
	ws, err := v.s.ready(ctx, nil)
	if err != nil {
		return view.File{}, err
	}
	rel, err := ws.rel(path)
	if err != nil {
		return view.File{}, fmt.Errorf("%w: %w", view.ErrNotFound, err)
	}
	src, text, err := ws.current(ctx, rel)
	if err != nil {
		if notExist(err) {
			return view.File{}, fmt.Errorf("%w: %w", view.ErrNotFound, err)
		}
		return view.File{}, err
	}
	f := view.File{FileEntry: view.FileEntry{Path: rel, Language: src.file.Language}, Text: string(text)}
	ws.mu.RLock()
	fp := ws.fingerprint(src)
	g := ws.callGraph()
	for _, id := range g.InFile(rel) {
		f.Symbols = append(f.Symbols, viewSymbol(g.Node(id)))
	}
	ws.mu.RUnlock()
	st, _ := ws.artifactStatus(rel, fp) // an unreadable artifact shows as stale or missing
	f.Status = string(st)
	if st != artifacts.Missing {
		if _, body, err := ws.store.Read(rel); err == nil {
			f.Artifact = string(body)
		}
	}
	return f, nil
}

func (v viewSource) Doc(ctx context.Context, path string) (string, error) {
	ix, err := v.s.docsIndex(ctx, nil)
	if err != nil {
		return "", err
	}
	doc, err := ix.Fetch(path, "")
	if err != nil {
		var nf *docsearch.NotFoundError
		if errors.As(err, &nf) {
			return "", fmt.Errorf("%w: %w", view.ErrNotFound, err)
		}
		return "", err
	}
	return doc.Content, nil
}

func (v viewSource) Graph(ctx context.Context, q view.GraphQuery) (view.Graph, error) {
	ws, err := v.s.ready(ctx, nil)
	if err != nil {
		return view.Graph{}, err
	}
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	g := ws.callGraph()
	id, err := findSymbol(g, q)
	if err != nil {
		return view.Graph{}, err
	}
	side := map[callgraph.SymbolID]int{id: 0}
	cone := func(dir callgraph.Direction, sign int) {
		sub := g.Neighbourhood([]callgraph.SymbolID{id}, q.Depth, dir)
		for i, n := range sub.Nodes {
			d := sub.Depth[i] * sign
			if old, ok := side[n]; !ok || abs(d) < abs(old) {
				side[n] = d
			}
		}
	}
	if q.Dir != "callers" {
		cone(callgraph.Forward, 1)
	}
	if q.Dir != "callees" {
		cone(callgraph.Backward, -1)
	}
	ids := make([]callgraph.SymbolID, 0, len(side))
	for n := range side {
		ids = append(ids, n)
	}
	// The symbol first, then the nearest; by name within a distance.
	slices.SortFunc(ids, func(a, b callgraph.SymbolID) int {
		return cmp.Or(cmp.Compare(abs(side[a]), abs(side[b])), cmp.Compare(side[a], side[b]),
			strings.Compare(g.Node(a).Qualified, g.Node(b).Qualified), cmp.Compare(a, b))
	})
	out := view.Graph{Total: len(ids)}
	ids = ids[:min(len(ids), q.MaxNodes)]
	index := make(map[callgraph.SymbolID]int, len(ids))
	for i, n := range ids {
		index[n] = i
		out.Nodes = append(out.Nodes, view.GraphNode{Symbol: viewSymbol(g.Node(n)), Side: side[n]})
	}
	type pair struct{ from, to int }
	seen := map[pair]bool{}
	for _, e := range g.Subgraph(ids).Edges {
		p := pair{index[e.Caller], index[e.Callee]}
		if !seen[p] {
			seen[p] = true
			out.Edges = append(out.Edges, view.GraphEdge{From: p.from, To: p.to, Resolution: string(e.Resolution), Line: e.Line})
		}
	}
	return out, nil
}

// findSymbol picks the symbol q names: the one at q.File and q.Line (of
// q.Symbol's name, when given), else the first named q.Symbol.
func findSymbol(g *callgraph.Graph, q view.GraphQuery) (callgraph.SymbolID, error) {
	if q.File != "" {
		ids := g.InFile(q.File)
		for _, id := range ids {
			n := g.Node(id)
			if n.Line == q.Line && (q.Symbol == "" || n.Qualified == q.Symbol) {
				return id, nil
			}
		}
		if q.Symbol == "" {
			if id, ok := g.At(q.File, q.Line); ok {
				return id, nil
			}
		}
	}
	if q.Symbol != "" {
		if ids := g.Lookup(q.Symbol); len(ids) > 0 {
			return ids[0], nil
		}
	}
	var known []string
	for _, id := range g.InFile(q.File) {
		if n := g.Node(id); n.Kind != callgraph.KindModule && len(known) < 10 {
			known = append(known, n.Qualified)
		}
	}
	if q.File == "" {
		return 0, fmt.Errorf("%w: no symbol is named %q; search for its name", view.ErrNotFound, q.Symbol)
	}
	if len(known) == 0 {
		return 0, fmt.Errorf("%w: no symbols in %s (not a source file of the workspace?)", view.ErrNotFound, q.File)
	}
	return 0, fmt.Errorf("%w: symbol %q at %s:%d; known in that file: %s", view.ErrNotFound, q.Symbol, q.File, q.Line, strings.Join(known, ", "))
}

func (v viewSource) Search(ctx context.Context, query string, limit int) ([]view.Hit, error) {
	ws, err := v.s.ready(ctx, nil)
	if err != nil {
		return nil, err
	}
	hits := codeHits(ws, query, limit)
	ix, err := ws.waitDocs(ctx)
	if err != nil || ix == nil {
		return hits, err
	}
	res, err := ix.Search(ctx, docsearch.Query{Text: query, Limit: limit})
	if err != nil {
		if errors.Is(err, docsearch.ErrEmptyQuery) {
			return hits, nil
		}
		return hits, err
	}
	for _, r := range res.Results {
		h := view.Hit{Kind: view.HitDocs, Path: r.Path, Title: r.Title, Heading: r.Heading, Summary: r.Summary, Line: r.Lines[0], Score: r.Score}
		switch r.Scope {
		case docsearch.ScopeArtifacts:
			h.Kind = view.HitArtifacts
			h.Source = sourceOfArtifact(r.Path)
		case docsearch.ScopeCode, docsearch.ScopeVendor: // source files, the project's and vendored
			h.Kind = view.HitCode
		}
		hits = append(hits, h)
	}
	return hits, nil
}

// codeHits returns up to limit symbols whose name holds a word of query:
// names equal to a word first, then names starting with one, then the
// rest; shorter qualified names first within each.
func codeHits(ws *workspace, query string, limit int) []view.Hit {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return nil
	}
	type cand struct {
		id   callgraph.SymbolID
		rank int
	}
	var cands []cand
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	g := ws.callGraph()
	for i := range g.Len() {
		n := g.Node(callgraph.SymbolID(i))
		if n.Kind == callgraph.KindModule {
			continue
		}
		name, rank := strings.ToLower(n.Name), 0
		for _, w := range words {
			switch {
			case name == w:
				rank = max(rank, 3)
			case strings.HasPrefix(name, w):
				rank = max(rank, 2)
			case strings.Contains(name, w):
				rank = max(rank, 1)
			}
		}
		if rank > 0 {
			cands = append(cands, cand{callgraph.SymbolID(i), rank})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		na, nb := g.Node(a.id), g.Node(b.id)
		return cmp.Or(cmp.Compare(b.rank, a.rank), cmp.Compare(len(na.Qualified), len(nb.Qualified)),
			strings.Compare(na.Qualified, nb.Qualified), cmp.Compare(a.id, b.id))
	})
	hits := make([]view.Hit, 0, min(len(cands), limit))
	for _, c := range cands[:min(len(cands), limit)] {
		sym := viewSymbol(g.Node(c.id))
		hits = append(hits, view.Hit{Kind: view.HitCode, Path: sym.File, Line: sym.Line, Title: sym.Qualified, Summary: sym.Kind, Symbol: &sym})
	}
	return hits
}

// Version changes with the workspace, its files, its graph and its
// artifacts' statuses.
func (v viewSource) Version(ctx context.Context) string {
	ws := v.s.workspace()
	select {
	case <-ws.ready:
	default:
		return fmt.Sprintf("loading %s %d", ws.root, ws.done.Load())
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00", ws.root)
	if entries, err := ws.artifactEntries(ctx); err == nil {
		for _, e := range entries {
			fmt.Fprintf(h, "%s\x00%s\x00", e.Path, e.Status)
		}
	}
	ws.mu.RLock()
	symbols, edges, _ := ws.graphCounts()
	fmt.Fprintf(h, "%d %d %d %d", ws.loaded.UnixNano(), len(ws.files), symbols, edges)
	ws.mu.RUnlock()
	// The tree lists the docs: a doc index that opens, or gains or
	// loses a document, changes it.
	if ix := ws.docIndex(); ix != nil {
		fmt.Fprintf(h, " docs %d", ix.Stats().Docs)
	}
	return fmt.Sprintf("%x", h.Sum64())
}

func viewSymbol(n callgraph.Node) view.Symbol {
	return view.Symbol{Qualified: n.Qualified, Name: n.Name, Kind: string(n.Kind), File: n.File, Line: n.Line, EndLine: n.EndLine}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
