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
	g := ws.enrichGraph() // the saved view while the graph is pending: not restored for this
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
