package server

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/docsearch"
)

// TestFirstPassDocToolsAnswer: while the first pass extracts the code
// (held there), index_status says what is searchable meanwhile, and
// list_docs, doc_outline and fetch_doc answer from the
// index the pass published, whose docs are whole, rather than waiting
// for the load; list_docs of the code scope says it is not complete. A
// path the pass's index does not hold waits for the load, as before, and
// is answered once it is over.
func TestFirstPassDocToolsAnswer(t *testing.T) {
	release, reached := make(chan struct{}), make(chan struct{})
	var once, closed sync.Once
	opt := Options{NoWatch: true, hooks: &testHooks{
		streamed: func(string) { once.Do(func() { close(reached); <-release }) },
	}}
	tree := slimTree()
	tree["docs/guide.md"] = "# Guide\n\nHow to configure the renderer.\n\n## Install\n\nRun the installer.\n"
	s, _ := heldFirstPassOn(t, tree, opt, reached, "extracted a file")
	defer closed.Do(func() { close(release) })

	var status indexStatusOut
	res := heldOK(t, s, "index_status", map[string]any{}, &status)
	if !status.Loading || status.Docs == 0 || status.Code == "complete" || !strings.Contains(res, "Searchable meanwhile") || !strings.Contains(res, "code "+status.Code) {
		t.Errorf("index_status while the code is extracted: %+v\n%s", status, res)
	}
	var list listDocsOut
	res = heldOK(t, s, "list_docs", map[string]any{}, &list)
	if !strings.Contains(res, "docs/guide.md") || list.Coverage != "" || strings.Contains(res, "Not complete") {
		t.Errorf("list_docs while the code is extracted: %+v\n%s", list, res)
	}
	res = heldOK(t, s, "list_docs", map[string]any{"scope": docsearch.ScopeCode}, &list)
	if list.Coverage == "" || !strings.Contains(res, "Not complete yet: code "+list.Coverage) {
		t.Errorf("list_docs of the code scope while it is extracted: %+v\n%s", list, res)
	}
	var outline docOutlineOut
	res = heldOK(t, s, "doc_outline", map[string]any{"path": "docs/guide.md"}, &outline)
	if len(outline.Headings) != 2 || outline.Headings[1].Text != "Install" {
		t.Errorf("doc_outline while the code is extracted: %+v\n%s", outline, res)
	}
	var doc docsearch.Doc
	res = heldOK(t, s, "fetch_doc", map[string]any{"path": "docs/guide.md", "heading": "Install"}, &doc)
	if !strings.Contains(res, "Run the installer.") || strings.Contains(res, "configure") {
		t.Errorf("fetch_doc of a section while the code is extracted:\n%s", res)
	}

	// Not in the pass's index: answered after the load, not before.
	got := make(chan *mcp.CallToolResult, 1)
	go func() { got <- s.call("fetch_doc", map[string]any{"path": "docs/missing.md"}) }()
	select {
	case r := <-got:
		t.Fatalf("fetch_doc of a missing path answered during the pass: %s", text(r))
	case <-time.After(200 * time.Millisecond):
	}
	closed.Do(func() { close(release) })
	if r := <-got; !r.IsError || !strings.Contains(text(r), "docs/missing.md") {
		t.Errorf("fetch_doc of a missing path after the load: %s", text(r))
	}
	waitCodeComplete(t, s.srv.workspace())
	res = text(s.ok("index_status", map[string]any{}, &status))
	if status.Loading || status.Code != "complete" || strings.Contains(res, "Code search:") {
		t.Errorf("index_status after the load: %+v\n%s", status, res)
	}
	res = text(s.ok("list_docs", map[string]any{"scope": docsearch.ScopeCode}, &list))
	if list.Coverage != "" || strings.Contains(res, "Not complete") {
		t.Errorf("list_docs of the code scope after the load: %+v\n%s", list, res)
	}
}

// heldOK is session.ok for a call made while the load is held: an answer
// that waits for the load fails the test rather than hanging it.
func heldOK(t *testing.T, s *session, tool string, args, out any) string {
	t.Helper()
	res, err := s.callHeld(tool, args)
	if err != nil {
		t.Fatalf("%s(%v) while the load is held: %v", tool, args, err)
	}
	decodeOK(t, tool, args, res, out)
	return text(res)
}

// TestFirstPassSearchWaitsForNothing: a search answered from the first
// pass's index while its code batches go in merges the names of the
// files not indexed yet as they are, without waiting for the load to
// end (which takes minutes on a tree that has a first pass), however
// long a small tree's load would be waited for. index_status meanwhile
// gives the pass's progress in files.
func TestFirstPassSearchWaitsForNothing(t *testing.T) {
	releasePut, put := make(chan struct{}), make(chan struct{})
	var oncePut, closed sync.Once
	opt := Options{NoWatch: true, loadWait: time.Hour, coldWait: time.Hour, hooks: &testHooks{
		batchPut: func(int, int) { oncePut.Do(func() { close(put); <-releasePut }) },
	}}
	s, _ := heldFirstPass(t, opt, put, "put a batch")
	defer closed.Do(func() { close(releasePut) })
	start := time.Now()
	var out searchDocsOut
	res := heldOK(t, s, "search_docs", map[string]any{"query": "twice", "scopes": []string{docsearch.ScopeCode}}, &out)
	if took := time.Since(start); took > 20*time.Second || !strings.Contains(res, "lib.util.helper") {
		t.Errorf("search while a batch is put, after %v:\n%s", took, res)
	}
	// The load's progress is the pass's, in files: not the bytes of the
	// batch its extractor was last given.
	var status indexStatusOut
	res = heldOK(t, s, "index_status", map[string]any{}, &status)
	if l := status.Load; l == nil || l.Total < len(slimTree())-1 || l.TotalMB != 0 || strings.Contains(res, " MB RSS") {
		t.Errorf("index_status's load while a batch is put: %+v\n%s", l, res)
	}
}
