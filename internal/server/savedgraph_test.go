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
