package server

import (
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// firstStartOn starts a server on a copy of files with no saved state,
// the files dated an hour ago (out of the racy window), with the first
// pass taken from pass files on; it returns the session, the loaded
// workspace and the log.
func firstStartOn(t *testing.T, files map[string]string, pass int, opt Options) (*session, *workspace, *logBuffer) {
	t.Helper()
	return startAfter(t, files, pass, opt, nil)
}

// startAfter is firstStartOn with before run on the tree first (to leave
// some state there), when it is not nil.
func startAfter(t *testing.T, files map[string]string, pass int, opt Options, before func(root string)) (*session, *workspace, *logBuffer) {
	t.Helper()
	defer func(n int) { firstPassFiles = n }(firstPassFiles)
	firstPassFiles = pass
	root := t.TempDir()
	writeTree(t, root, files)
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	if before != nil {
		before(root)
	}
	logs := &logBuffer{}
	opt.Root, opt.Logger = root, slog.New(slog.NewTextHandler(logs, nil))
	s := connect(t, nil, opt)
	s.root = root
	ws, err := s.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, ws, logs
}

// TestFirstPass: a first start on a tree past firstPassFiles extracts
// each file once for the graph and the code index (codeindex.SyncGraph),
// and then holds what a later start holds: the saved graph restored over
// slim files, not every file's full extraction and the graph built from
// them; the pass's free heap is given back. Its graph equals a fresh build's, and its searches answer as the
// first start of a smaller tree, which takes the graph first and the
// code index after.
func TestFirstPass(t *testing.T) {
	defer func(f func()) { giveBackPages = f }(giveBackPages)
	var given atomic.Int32
	giveBackPages = func() { given.Add(1) }
	opt := Options{NoWatch: true}
	s, ws, logs := firstStartOn(t, slimTree(), 1, opt)
	if !strings.Contains(logs.String(), "first pass: code indexed, graph saved") {
		t.Fatalf("no first pass:\n%s", logs.String())
	}
	// The pass's heap is given back once the saved graph is read back.
	for deadline := time.Now().Add(5 * time.Second); given.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond) // giveBackPages runs on a goroutine
	}
	if given.Load() != 1 {
		t.Errorf("pages given back %d times after the first pass, want 1", given.Load())
	}
	ws.mu.RLock()
	if ws.saved == nil || !ws.callGraph().Restored() {
		t.Errorf("after the first pass: saved extractions %v, graph restored %v", ws.saved != nil, ws.callGraph().Restored())
	}
	for p, src := range ws.files {
		if !src.slim || src.file.Calls != nil {
			t.Errorf("%s is held whole after the first pass", p)
			break
		}
	}
	ws.mu.RUnlock()
	expectFreshGraph(t, ws)

	base, bws, blogs := firstStartOn(t, slimTree(), math.MaxInt, opt)
	if strings.Contains(blogs.String(), "first pass") {
		t.Fatalf("a first pass under the threshold:\n%s", blogs.String())
	}
	// The code scope as the first pass left it, and as afterLoad makes it
	// on the smaller tree's path.
	for _, w := range []*workspace{ws, bws} {
		if _, err := w.waitDocs(context.Background()); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Minute)
		for !w.code.complete() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, q := range []string{"twice", "probe7", "helper returns", "Base step"} {
		args := map[string]any{"query": q, "scopes": []string{"code"}}
		got, want := text(s.ok("search_docs", args, &searchDocsOut{})), text(base.ok("search_docs", args, &searchDocsOut{}))
		if got != want || !strings.Contains(got, "1. ") {
			t.Errorf("search %q after the first pass:\n%s\nas the graph first:\n%s", q, got, want)
		}
	}
}

// TestFirstPassAfterAnotherBuild: a saved graph of another build (or
// other options) is rebuilt from every file, as if none were saved, so
// the start takes the first pass as a start with none does: after an
// upgrade, the Linux kernel's first start otherwise built the graph and
// the code index on the heap (7.5 GB where the pass holds 2.7 GB).
func TestFirstPassAfterAnotherBuild(t *testing.T) {
	opt := Options{NoWatch: true}
	_, _, logs := startAfter(t, slimTree(), 1, opt, func(root string) {
		if _, err := graphstore.Sync(context.Background(), graphstore.Options{Root: root, Key: "another build"}); err != nil {
			t.Fatal(err)
		}
	})
	if !strings.Contains(logs.String(), "first pass: code indexed, graph saved") {
		t.Fatalf("a graph of another build saved, and no first pass:\n%s", logs.String())
	}
	_, _, logs = startAfter(t, slimTree(), 1, opt, func(root string) {
		if _, err := graphstore.Sync(context.Background(), graphstore.Options{Root: root}); err != nil {
			t.Fatal(err)
		}
	})
	if strings.Contains(logs.String(), "first pass") {
		t.Fatalf("a first pass over a graph saved for this build:\n%s", logs.String())
	}
}

// TestFirstPassSearchable: the code scope is searched, ranked and
// complete, as soon as the first pass saved it, while the load still
// reads the graph back; the heap is held to FirstMemory while the pass
// runs, and the limit put back after it.
func TestFirstPassSearchable(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	var mu sync.Mutex
	var during int64
	release, reached := make(chan struct{}), make(chan struct{})
	opt := Options{NoWatch: true, FirstMemory: 3 << 30, hooks: &testHooks{
		streamed: func(string) {
			mu.Lock()
			during = debug.SetMemoryLimit(-1)
			mu.Unlock()
		},
		sync: func() { close(reached); <-release },
	}}
	s, _ := heldFirstPass(t, opt, reached, "read the graph back")
	expectCodeSearched(t, s, "while the graph is read back")
	close(release)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if during != 3<<30 {
		t.Errorf("memory limit during the first pass: %d, want %d", during, int64(3<<30))
	}
	if now := debug.SetMemoryLimit(-1); now != before {
		t.Errorf("memory limit after the first pass: %d, want %d as before it", now, before)
	}
}

// TestFirstPassSearchableWhileSaved: the code scope is searched,
// complete, once every code document is in the index the first pass
// built, before that index is saved (on the Linux kernel 8-10 s); the
// saved one takes its place after.
func TestFirstPassSearchableWhileSaved(t *testing.T) {
	release, reached := make(chan struct{}), make(chan struct{})
	opt := Options{NoWatch: true, hooks: &testHooks{
		searchable: func() { close(reached); <-release },
	}}
	s, root := heldFirstPass(t, opt, reached, "made its index searchable")
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".index", "docsearch.idx")); err == nil {
		t.Error("the index was saved before it was searchable")
	}
	expectCodeSearched(t, s, "while the index is saved")
	close(release)
	w, err := s.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".index", "docsearch.idx")); err != nil {
		t.Errorf("not saved after: %v", err)
	}
	if ix := w.docIndex(); ix == nil || ix.Unsaved() != "" {
		t.Errorf("after the pass, the doc index is %v; want the saved one", ix)
	}
	if got := text(s.ok("search_docs", map[string]any{"query": "twice"}, &searchDocsOut{})); !strings.Contains(got, "lib/util.c") {
		t.Errorf("search after the save:\n%s", got)
	}
}

// TestFirstPassSearchesDocsFirst: the first pass publishes its index
// once the docs are in it, before the code: a search while the code is
// extracted finds the docs, finds code by symbol name, and says how far
// the code scope has got; after the pass the code is ranked and
// complete.
func TestFirstPassSearchesDocsFirst(t *testing.T) {
	release, reached := make(chan struct{}), make(chan struct{})
	releasePut, put := make(chan struct{}), make(chan struct{})
	var once, oncePut sync.Once
	opt := Options{NoWatch: true, loadWait: 100 * time.Millisecond, hooks: &testHooks{
		streamed: func(string) { once.Do(func() { close(reached); <-release }) },
		batchPut: func(int, int) { oncePut.Do(func() { close(put); <-releasePut }) },
	}}
	tree := slimTree()
	tree["docs/guide.md"] = "# Guide\n\nHow to configure the renderer.\n"
	s, _ := heldFirstPassOn(t, tree, opt, reached, "extracted a file")
	var out searchDocsOut
	res := text(s.ok("search_docs", map[string]any{"query": "configure the renderer"}, &out))
	if len(out.Results) == 0 || out.Results[0].Path != "docs/guide.md" || out.Coverage[docsearch.ScopeDocs] != "complete" {
		t.Errorf("docs while the code is extracted:\n%s", res)
	}
	if c := out.Coverage[docsearch.ScopeCode]; c == "complete" || !strings.Contains(res, "code "+c) {
		t.Errorf("code coverage %q while it is extracted:\n%s", c, res)
	}
	out = searchDocsOut{}
	res = text(s.ok("search_docs", map[string]any{"query": "twice", "scopes": []string{docsearch.ScopeCode}}, &out))
	if !slices.ContainsFunc(out.Results, func(r docsearch.Result) bool { return r.Path == "lib/util.c" }) || !strings.Contains(res, "symbol name") || strings.Contains(res, "lib.util.helper") {
		t.Errorf("code by name while it is extracted:\n%s", res)
	}
	close(release)
	// A batch in: its code is ranked, the rest still found by name.
	<-put
	out = searchDocsOut{}
	res = text(s.ok("search_docs", map[string]any{"query": "twice", "scopes": []string{docsearch.ScopeCode}}, &out))
	if c := out.Coverage[docsearch.ScopeCode]; !strings.HasPrefix(c, "indexing: ") || !strings.Contains(res, "ranked in the files indexed so far") ||
		!slices.ContainsFunc(out.Results, func(r docsearch.Result) bool { return r.Path == "lib/util.c" }) {
		t.Errorf("code while its batches are put (%q):\n%s", c, res)
	}
	// helper calls twice: ranked code finds it, a lookup by name does not.
	if !strings.Contains(res, "lib.util.helper") {
		t.Errorf("no ranked code while its batches are put:\n%s", res)
	}
	close(releasePut)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	expectCodeSearched(t, s, "after the pass")
}

// heldFirstPass starts a server whose first pass (over slimTree, with
// firstPassFiles lowered so that it takes one) opt's hooks hold, and
// waits until they close reached; root is the tree's.
func heldFirstPass(t *testing.T, opt Options, reached <-chan struct{}, held string) (s *session, root string) {
	t.Helper()
	return heldFirstPassOn(t, slimTree(), opt, reached, held)
}

// heldFirstPassOn is heldFirstPass over tree.
func heldFirstPassOn(t *testing.T, tree map[string]string, opt Options, reached <-chan struct{}, held string) (s *session, root string) {
	t.Helper()
	old := firstPassFiles
	firstPassFiles = 1
	t.Cleanup(func() { firstPassFiles = old })
	root = t.TempDir()
	writeTree(t, root, tree)
	opt.Root = root
	s = connect(t, nil, opt)
	select {
	case <-reached:
	case <-time.After(time.Minute):
		t.Fatalf("the first pass never %s", held)
	}
	return s, root
}

// expectCodeSearched checks that search_docs finds slimTree's code,
// and says the code scope is complete.
func expectCodeSearched(t *testing.T, s *session, when string) {
	t.Helper()
	res := text(s.ok("search_docs", map[string]any{"query": "twice"}, &searchDocsOut{}))
	if strings.Contains(res, "Not complete yet") || !strings.Contains(res, "lib/util.c") {
		t.Errorf("search %s:\n%s", when, res)
	}
}

// TestFirstPassAfterUpgradeBuildsDocsAnew: after an upgrade (saved code
// stamps of another build) the first pass puts every code document
// again, so it leaves the saved doc index unread and builds it anew,
// where loading it decoded all of it onto the heap before replacing
// most of it (4.2 GB on the Linux kernel against 2.7 GB from nothing).
// Code and docs are found as before. Saved by this build, with only the
// graph's key another (other options), the code documents are current
// and the saved doc index is loaded.
func TestFirstPassAfterUpgradeBuildsDocsAnew(t *testing.T) {
	tree := slimTree()
	tree["docs/guide.md"] = "# Guide\n\nHow to configure the renderer.\n"
	for _, upgrade := range []bool{true, false} {
		opt := Options{NoWatch: true}
		s, ws, logs := startAfter(t, tree, 1, opt, func(root string) {
			first := connect(t, nil, Options{Root: root, NoWatch: true})
			w, err := first.srv.ready(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			waitCodeComplete(t, w)
			first.srv.Close()
			if upgrade {
				if err := os.WriteFile(filepath.Join(root, ".artifacts", ".index", "code-build.txt"), []byte("fileinfo v0 (another build)"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := graphstore.Sync(context.Background(), graphstore.Options{Root: root, Key: "another build"}); err != nil {
				t.Fatal(err)
			}
		})
		log := logs.String()
		if !strings.Contains(log, "first pass: code indexed, graph saved") {
			t.Fatalf("upgrade %v: no first pass:\n%s", upgrade, log)
		}
		// The pass's open loads the saved index or not; the index it
		// saved is loaded once it is done (firstIndexed).
		loads, want := strings.Count(log, "docsearch: index loaded"), 2
		if upgrade {
			want = 1
		}
		if loads != want {
			t.Errorf("upgrade %v: the doc index loaded %d times, want %d:\n%s", upgrade, loads, want, log)
		}
		waitCodeComplete(t, ws)
		for q, want := range map[string]string{"probe7": "drivers/d007.c", "configure the renderer": "docs/guide.md"} {
			if got := text(s.ok("search_docs", map[string]any{"query": q}, &searchDocsOut{})); !strings.Contains(got, want) {
				t.Errorf("upgrade %v: search %q:\n%s", upgrade, q, got)
			}
		}
	}
}

// waitCodeComplete waits for w's doc index and its code scope.
func waitCodeComplete(t *testing.T, w *workspace) {
	t.Helper()
	if _, err := w.waitDocs(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !w.code.complete() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFirstPassAdoptsSymbols: once the first pass saved the graph and
// the load found it current, lookups and file_info read the symbols
// index the pass saved from the load's end, instead of restoring the
// graph (which a server then held for as long as it ran) until a walk
// had checked the index.
func TestFirstPassAdoptsSymbols(t *testing.T) {
	defer func(n int) { pendingMinEdges = n }(pendingMinEdges)
	pendingMinEdges = 0 // the graph pending, however small
	s, ws, logs := firstStartOn(t, slimTree(), 1, Options{NoWatch: true})
	if !strings.Contains(logs.String(), "first pass: code indexed, graph saved") {
		t.Fatalf("no first pass:\n%s", logs.String())
	}
	ws.mu.RLock()
	current, pending := ws.symIdxCurrent(), ws.unrestored() != nil
	ws.mu.RUnlock()
	if !current || !pending {
		t.Fatalf("at the load's end: symbols index current %v, graph pending %v; want both", current, pending)
	}
	s.ok("file_info", map[string]any{"path": "drivers/d007.c"}, &map[string]any{})
	s.ok("callers", map[string]any{"symbol": "helper"}, &map[string]any{})
	ws.mu.RLock()
	restored := ws.unrestored() == nil
	ws.mu.RUnlock()
	if restored {
		t.Error("file_info and callers after the first pass restored the graph")
	}
}
