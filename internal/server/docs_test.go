package server

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// logBuffer is a bytes.Buffer that a logger and a test share.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDocsIgnoreSourceChanges hands the doc index what the watcher
// hands it, changed source files among documents: the documents are
// updated, and the source files passed over without a warning.
func TestDocsIgnoreSourceChanges(t *testing.T) {
	var logs logBuffer
	s := connect(t, docsRepo(), Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	ws, err := s.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, s.root, map[string]string{"README.md": "# Shop\n\nThe shop sells kumquats.\n", "main.go": shop["main.go"] + "\n// edited\n"})
	ws.docsChanged([]string{"main.go", "lib/store.go", "README.md"})
	waitFor(t, "the README to be indexed again", func() bool {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": "kumquats"}, &out)
		return len(out.Results) > 0
	})
	if l := logs.String(); strings.Contains(l, "level=WARN") {
		t.Errorf("a change of source files logged a warning:\n%s", l)
	}
}
