package server

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
// restored graph at once; an edit before the graph for updates is built
// updates the restored graph itself, which the build then leaves alone;
// without an edit, the build takes its place with the same answers.
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
	for _, edit := range []bool{true, false} {
		release, built := make(chan struct{}), make(chan struct{})
		s2 := reconnect(t, s, Options{NoDocs: true, NoWatch: true, hooks: &testHooks{complete: func() {
			defer close(built)
			<-release
		}}})
		ws, err := s2.srv.ready(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		restored := ws.graph
		if !restored.Restored() {
			t.Fatal("the second start built its graph instead of restoring the saved one")
		}
		var out treeOut
		want := 1
		if edit {
			writeTree(t, s.root, map[string]string{"pkg/app.py": lookupTree["pkg/app.py"] + "\ndef extra(f):\n    f.record(1)\n"})
			var info map[string]any
			s2.ok("file_info", map[string]any{"path": "pkg/app.py"}, &info)
			want = 2
		}
		s2.ok("callers", map[string]any{"symbol": "record"}, &out)
		if out.Total != want {
			t.Errorf("edit %v: callers before the build: %+v, want %d", edit, out, want)
		}
		close(release)
		<-built
		waitFor(t, "the build to end", func() bool {
			ws.mu.RLock()
			defer ws.mu.RUnlock()
			return !ws.graph.Restored()
		})
		ws.mu.RLock()
		swapped := ws.graph != restored
		ws.mu.RUnlock()
		if swapped == edit {
			t.Errorf("edit %v: the built graph replaced the restored one: %v", edit, swapped)
		}
		s2.ok("callers", map[string]any{"symbol": "record"}, &out)
		if out.Total != want {
			t.Errorf("edit %v: callers after the build: %+v, want %d", edit, out, want)
		}
		s2.srv.Close()
		writeTree(t, s.root, lookupTree)
		for p := range lookupTree {
			os.Chtimes(filepath.Join(s.root, p), old, old)
		}
	}
}
