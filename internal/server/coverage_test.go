package server

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
)

// TestFirstSearchSaysWhatItCovers: a search made while the doc index is
// still being opened answers code queries from symbol names, says which
// scopes are not complete and how far they are, and once everything is
// indexed says nothing of the kind.
func TestFirstSearchSaysWhatItCovers(t *testing.T) {
	release := make(chan struct{})
	s := connect(t, docsRepo(), Options{NoWatch: true, DocsWait: 50 * time.Millisecond, hooks: &testHooks{openDocs: func() { <-release }}})
	s.srv.workspace().wait(context.Background()) // loaded, the doc index opening
	var out searchDocsOut
	res := s.ok("search_docs", map[string]any{"query": "new store"}, &out)
	txt := text(res)
	if !slices.ContainsFunc(out.Results, func(r docsearch.Result) bool {
		return r.Symbol == "example.com/shop/lib.NewStore" || strings.HasSuffix(r.Symbol, ".NewStore")
	}) {
		t.Errorf("no code result by name while the indexes build: %+v\n%s", out.Results, txt)
	}
	if !strings.HasPrefix(out.Coverage["docs"], "opening") || out.Coverage["code"] == "complete" || !strings.Contains(txt, "Not complete yet") {
		t.Errorf("coverage %v; text:\n%s", out.Coverage, txt)
	}
	s.ok("search_docs", map[string]any{"query": "zzqx nothing"}, &out)
	if strings.HasPrefix(out.Message, "No matching documents found. Try") {
		t.Errorf("a search of what is not indexed yet answers %q", out.Message)
	}
	close(release)
	waitFor(t, "the code index", func() bool { return s.srv.workspace().code.complete() })
	names := &s.srv.workspace().names
	names.mu.Lock()
	held := names.byWord != nil
	names.mu.Unlock()
	if held {
		t.Error("the names index the first search built is still held once the code scope is complete")
	}
	res = s.ok("search_docs", map[string]any{"query": "new store"}, &out)
	for sc, c := range out.Coverage {
		if c != "complete" {
			t.Errorf("after indexing, coverage of %s is %q", sc, c)
		}
	}
	if strings.Contains(text(res), "Not complete yet") {
		t.Errorf("complete search says it is not:\n%s", text(res))
	}
}

// TestLookupSaysWhatItCovers: a lookup over a graph that leaves a file
// out says so; one over a complete graph says it is complete.
func TestLookupSaysWhatItCovers(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	s.srv.workspace().wait(context.Background()) // the loaded graph's coverage, not a scan's
	var out findSymbolOut
	if s.ok("find_symbol", map[string]any{"query": "NewStore"}, &out); out.Coverage != "complete" {
		t.Errorf("coverage of a complete graph: %q", out.Coverage)
	}
	files := map[string]string{"big/huge.go": "package big\n\nvar X = `" + strings.Repeat("x", 3<<20) + "`\n"}
	for p, c := range shop {
		files[p] = c
	}
	s = connect(t, files, Options{NoWatch: true})
	s.srv.workspace().wait(context.Background())
	var tree treeOut
	res := s.ok("callers", map[string]any{"symbol": "NewStore"}, &tree)
	if !strings.Contains(tree.Coverage, "1 files left out") || !strings.Contains(text(res), "not complete") {
		t.Errorf("coverage %q; text:\n%s", tree.Coverage, text(res))
	}
}
