package server

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fileinfo/fileinfo/internal/watch"
)

// panicOnce returns a function that panics with msg the first time only,
// and counts its calls in n.
func panicOnce(n *atomic.Int32, msg string) func() {
	return func() {
		if n.Add(1) == 1 {
			panic(msg)
		}
	}
}

// TestLoadPanicFailsTheWorkspace: a panic in the background load leaves
// the server answering, its tools say why, and loading again works.
func TestLoadPanicFailsTheWorkspace(t *testing.T) {
	var n atomic.Int32
	var logs logBuffer
	boom := panicOnce(&n, "load bug")
	s := connect(t, shop, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		hooks: &testHooks{load: func(string) { boom() }}})
	s.fails("file_info", map[string]any{"path": "main.go"}, "could not be loaded: internal error", "load bug")
	s.fails("index_status", map[string]any{}, "could not be loaded: internal error")
	if !strings.Contains(logs.String(), "loading the workspace panicked") {
		t.Errorf("the panic was not logged:\n%s", logs.String())
	}
	var out setRootOut
	s.ok("set_workspace_root", map[string]any{"path": s.root}, &out)
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "main.go"}, &fi)
}

// TestBatchPanicSkipsTheBatch: a panic while applying a watched batch
// skips it, marks its files to be extracted again, and watching goes on.
func TestBatchPanicSkipsTheBatch(t *testing.T) {
	var n atomic.Int32
	boom := panicOnce(&n, "batch bug")
	// The panic is in the batch that names main.go: a batch of the
	// server's own writes (the saved graph under .artifacts) may come first.
	s := watchedWith(t, shop, Options{hooks: &testHooks{batch: func(b watch.Batch) {
		if slices.Contains(b.Paths, "main.go") {
			boom()
		}
	}}})
	writeTree(t, s.root, map[string]string{"main.go": shop["main.go"] + "\nfunc extra() {}\n"})
	waitFor(t, "the batch", func() bool { return n.Load() >= 1 })
	ws := s.srv.workspace()
	waitFor(t, "main.go to be marked", func() bool {
		ws.mu.RLock()
		defer ws.mu.RUnlock()
		return ws.files["main.go"] != nil && ws.files["main.go"].suspect
	})
	var fi fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "main.go"}, &fi)
	if !strings.Contains(text(res), "extra") {
		t.Errorf("main.go was not extracted again: %s", text(res))
	}
	writeTree(t, s.root, map[string]string{"lib/more.go": "package lib\n\nfunc More() { NewStore() }\n"})
	settle(t, s, "a batch after the one that panicked")
}

// TestDocsPanicSkipsTheChange: a panic in the doc index's update loop
// drops that change, and later ones are applied.
func TestDocsPanicSkipsTheChange(t *testing.T) {
	var n atomic.Int32
	boom := panicOnce(&n, "docs bug")
	s := connect(t, docsRepo(), Options{NoWatch: true, hooks: &testHooks{docs: func([]string) { boom() }}})
	ws, err := s.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, s.root, map[string]string{"README.md": "# Shop\n\nThe shop sells kumquats.\n"})
	ws.docsChanged([]string{"README.md"})
	waitFor(t, "the first update", func() bool { return n.Load() >= 1 })
	writeTree(t, s.root, map[string]string{"README.md": "# Shop\n\nThe shop sells kumquats and figs.\n"})
	ws.docsChanged([]string{"README.md"})
	waitFor(t, "the README to be indexed again", func() bool {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": "figs"}, &out)
		return len(out.Results) > 0
	})
}
