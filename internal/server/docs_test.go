package server

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// TestIndexStatusDocsSkipped checks that index_status says what the doc
// index passed over, and why.
func TestIndexStatusDocsSkipped(t *testing.T) {
	files := docsRepo()
	files["node_modules/x/README.md"] = "# x\n"
	files["docs/binary.md"] = "\x00\x01"
	s := connect(t, files, Options{})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err) // index_status answers "loading" without waiting
	}
	var st indexStatusOut
	var res *mcp.CallToolResult
	waitFor(t, "the doc index", func() bool {
		res = s.ok("index_status", map[string]any{}, &st)
		return !st.DocsLoading
	})
	want := map[string]string{"node_modules/": "dependencies", "docs/binary.md": "binary"}
	for _, sk := range st.DocsSkippedPaths {
		if r, ok := want[sk.Path]; ok && strings.Contains(sk.Reason, r) {
			delete(want, sk.Path)
		}
	}
	if len(want) > 0 || st.DocsSkipped != len(st.DocsSkippedPaths) {
		t.Errorf("docs skipped %d: %+v; missing %v", st.DocsSkipped, st.DocsSkippedPaths, want)
	}
	if !strings.Contains(text(res), "paths skipped") {
		t.Errorf("text: %s", text(res))
	}
}

// TestDocsIndexUnsaved makes the doc index's file a directory that
// holds something: the server still searches docs, from memory, and
// index_status says the index is not saved.
func TestDocsIndexUnsaved(t *testing.T) {
	files := docsRepo()
	files[".artifacts/.index/docsearch.idx/keep"] = "mine"
	s := connect(t, files, Options{})
	var out searchDocsOut
	s.ok("search_docs", map[string]any{"query": "negative price"}, &out)
	if len(out.Results) == 0 {
		t.Error("no doc search from memory")
	}
	var st indexStatusOut
	s.ok("index_status", map[string]any{}, &st)
	if !strings.Contains(st.DocsUnsaved, "not empty") {
		t.Errorf("docs_unsaved = %q", st.DocsUnsaved)
	}
	if _, err := os.Stat(filepath.Join(s.root, ".artifacts/.index/docsearch.idx/keep")); err != nil {
		t.Errorf("the directory's file is gone: %v", err)
	}
}

// TestAnswersBeforeDocsOpen: file_info and callers answer while the doc
// index is still being opened (the Linux kernel's takes 20 s), search
// waits for it, and a report written meanwhile is searchable once it is
// open.
func TestAnswersBeforeDocsOpen(t *testing.T) {
	release := make(chan struct{})
	s := connect(t, docsRepo(), Options{NoWatch: true, hooks: &testHooks{openDocs: func() { <-release }}})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	var st indexStatusOut
	s.ok("index_status", map[string]any{}, &st)
	if !st.DocsLoading {
		t.Fatal("index_status: the doc index is not loading while its opening is held")
	}
	var rep reportOut
	r := storeReport()
	r["overview"] = "Defines Store, the quartermaster ledger of integers by key."
	s.ok("report_file_info", r, &rep)
	found := make(chan bool)
	go func() {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": "quartermaster ledger", "scopes": []string{"artifacts"}}, &out)
		found <- len(out.Results) > 0
	}()
	select {
	case <-found:
		t.Fatal("search_docs answered before the doc index was open")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-found // the first search may come before the report is applied
	waitFor(t, "the report to be searchable", func() bool {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": "quartermaster ledger", "scopes": []string{"artifacts"}}, &out)
		return len(out.Results) > 0 && out.Results[0].Path == ".artifacts/lib/store.go.md"
	})
}
