package server

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStartFromSavedGraph: a second start reads the saved graph and
// extracts only the file changed meanwhile; its answers are current.
func TestStartFromSavedGraph(t *testing.T) {
	s := connect(t, lookupTree, Options{NoDocs: true})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	old := time.Now().Add(-time.Hour) // out of the racy window: reused by time stamp
	for p := range lookupTree {
		os.Chtimes(filepath.Join(s.root, p), old, old)
	}
	start := func() (*session, string) {
		var logs logBuffer
		s2 := reconnect(t, s, Options{NoDocs: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if _, err := s2.srv.ready(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		return s2, logs.String()
	}
	s2, logs := start()
	if !strings.Contains(logs, "extracted=0 reused=3") {
		t.Errorf("second start did not reuse the saved graph:\n%s", logs)
	}
	var out treeOut
	s2.ok("callers", map[string]any{"symbol": "record"}, &out)
	if out.Total != 1 {
		t.Errorf("callers from the saved graph: %+v", out)
	}
	s2.srv.Close()
	writeTree(t, s.root, map[string]string{"pkg/app.py": lookupTree["pkg/app.py"] + "\ndef extra(f):\n    f.record(1)\n"})
	s3, logs := start()
	if !strings.Contains(logs, "extracted=1 reused=2") {
		t.Errorf("third start:\n%s", logs)
	}
	s3.ok("callers", map[string]any{"symbol": "record"}, &out)
	if out.Total != 2 {
		t.Errorf("callers after an edit between starts: %+v", out)
	}
}

// TestRestoredGraphUpdates: a start from the saved graph answers from the
// restored graph, and builds nothing more while nothing changes (the
// resolution state for updates was a second full graph, built at every
// start and held for the whole session); the first edit builds it,
// outside the write lock: callers keep answering from the restored graph
// while it builds, and the edit's answer is right once it is in.
func TestRestoredGraphUpdates(t *testing.T) {
	s := connect(t, lookupTree, Options{NoDocs: true, NoWatch: true})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	old := time.Now().Add(-time.Hour)
	for p := range lookupTree {
		os.Chtimes(filepath.Join(s.root, p), old, old)
	}
	var builds atomic.Int32
	release, building := make(chan struct{}), make(chan struct{})
	s2 := reconnect(t, s, Options{NoDocs: true, NoWatch: true, hooks: &testHooks{complete: func() {
		if builds.Add(1) == 1 {
			close(building)
			<-release
		}
	}}})
	ws, err := s2.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restored := ws.callGraph()
	if !restored.Restored() {
		t.Fatal("the second start built its graph instead of restoring the saved one")
	}
	settled := make(chan struct{})
	go func() {
		ws.docsLoops.Wait() // what the load left to the background is done
		close(settled)
	}()
	select {
	case <-settled:
	case <-building:
		close(release)
		t.Fatal("with nothing changed, the start builds the graph for updates")
	}
	if n := builds.Load(); n != 0 || ws.callGraph() != restored || !restored.Restored() {
		t.Errorf("with nothing changed, the start built the graph for updates (%d builds; restored in place: %v)", n, ws.callGraph() == restored && restored.Restored())
	}
	var out treeOut
	s2.ok("callers", map[string]any{"symbol": "record"}, &out)
	if out.Total != 1 {
		t.Errorf("callers from the restored graph: %+v", out)
	}

	writeTree(t, s.root, map[string]string{"pkg/app.py": lookupTree["pkg/app.py"] + "\ndef extra(f):\n    f.record(1)\n"})
	edited := make(chan error, 1)
	go func() {
		res, err := s2.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": "pkg/app.py"}})
		if err == nil && res.IsError {
			err = errors.New(text(res))
		}
		edited <- err
	}()
	select {
	case <-building:
	case err := <-edited:
		t.Fatalf("file_info of the edited file returned (%v) without building the graph for updates", err)
	}
	s2.ok("callers", map[string]any{"symbol": "record"}, &out) // not held up by the build
	if out.Total != 1 {
		t.Errorf("callers while the graph for updates builds: %+v, want the restored graph's 1", out)
	}
	close(release)
	if err := <-edited; err != nil {
		t.Fatal(err)
	}
	s2.ok("callers", map[string]any{"symbol": "record"}, &out)
	if out.Total != 2 {
		t.Errorf("callers after the edit: %+v, want 2", out)
	}
	ws.mu.RLock()
	if ws.callGraph() == restored || ws.callGraph().Restored() {
		t.Error("the edit did not put the built graph in place of the restored one")
	}
	ws.mu.RUnlock()
	if n := builds.Load(); n != 1 {
		t.Errorf("%d builds of the graph for updates, want 1", n)
	}
	// A second edit updates the built graph: nothing is built again.
	writeTree(t, s.root, map[string]string{"pkg/app.py": lookupTree["pkg/app.py"]})
	var info map[string]any
	s2.ok("file_info", map[string]any{"path": "pkg/app.py"}, &info)
	s2.ok("callers", map[string]any{"symbol": "record"}, &out)
	if out.Total != 1 || builds.Load() != 1 {
		t.Errorf("after the second edit: callers %+v, %d builds; want 1 caller, 1 build", out, builds.Load())
	}
}

// TestRestoredGraphWatchedEdits: watched edits of a workspace started
// from the saved graph build the graph for updates once, on the first
// batch, and the callers follow an added call and a removed file.
func TestRestoredGraphWatchedEdits(t *testing.T) {
	s := connect(t, lookupTree, Options{NoDocs: true, NoWatch: true})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	old := time.Now().Add(-time.Hour)
	for p := range lookupTree {
		os.Chtimes(filepath.Join(s.root, p), old, old)
	}
	var builds atomic.Int32
	s2 := watchedWith(t, nil, Options{Root: s.root, NoDocs: true, hooks: &testHooks{complete: func() { builds.Add(1) }}})
	s2.root = s.root
	ws := s2.srv.workspace()
	ws.mu.RLock()
	restored := ws.callGraph().Restored()
	ws.mu.RUnlock()
	if !restored {
		t.Fatal("the second start built its graph instead of restoring the saved one")
	}
	callers := func() int {
		var out treeOut
		s2.ok("callers", map[string]any{"symbol": "record"}, &out)
		return out.Total
	}
	writeTree(t, s.root, map[string]string{"pkg/app.py": lookupTree["pkg/app.py"] + "\ndef extra(f):\n    f.record(1)\n"})
	waitFor(t, "callers to see the added call", func() bool { return callers() == 2 })
	if err := os.Remove(filepath.Join(s.root, "pkg", "app.py")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "callers to drop the removed file", func() bool { return callers() == 1 })
	if n := builds.Load(); n != 1 {
		t.Errorf("%d builds of the graph for updates over two batches, want 1", n)
	}
}

// TestKeptGraphStaysInPlace: a workspace that keeps its graph (Enrich,
// which reads it without mu) updates a restored graph in place on an
// edit; no built graph takes its place.
func TestKeptGraphStaysInPlace(t *testing.T) {
	s := connect(t, lookupTree, Options{NoDocs: true, NoWatch: true})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	old := time.Now().Add(-time.Hour)
	for p := range lookupTree {
		os.Chtimes(filepath.Join(s.root, p), old, old)
	}
	ws, err := openWorkspace(s.root, 0, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.close()
	ws.keepGraph = true
	if err := ws.load(context.Background(), Options{NoDocs: true}); err != nil {
		t.Fatal(err)
	}
	g := ws.callGraph()
	if !g.Restored() {
		t.Fatal("the load built its graph instead of restoring the saved one")
	}
	writeTree(t, s.root, map[string]string{"pkg/app.py": lookupTree["pkg/app.py"] + "\ndef extra(f):\n    f.record(1)\n"})
	if _, _, err := ws.current(context.Background(), "pkg/app.py"); err != nil {
		t.Fatal(err)
	}
	if ws.callGraph() != g {
		t.Error("an edit replaced the kept graph")
	}
	if ids := g.Lookup("pkg.scaffold.Scaffold.record"); len(ids) != 1 || len(g.Callers(ids[0])) != 2 {
		t.Errorf("the kept graph after the edit: %v", ids)
	}
}
