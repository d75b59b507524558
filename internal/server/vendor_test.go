package server

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/watch"
)

// vendoring is a Go module that vendors a rate limiter, holds a copy of
// one of the vendored files, and vendors C code with its licence.
var vendoring = map[string]string{
	"go.mod":             "module example.com/shop\n\ngo 1.22\n",
	"main.go":            "package main\n\n// main serves the shop.\nfunc main() {}\n",
	"vendor/modules.txt": "# github.com/acme/ratelimit v1.0.0\n## explicit\ngithub.com/acme/ratelimit\n",
	"vendor/github.com/acme/ratelimit/refill.go": "package ratelimit\n\n// Refill adds the tokens earned by the time passed to the token bucket.\nfunc Refill(b *Bucket) { b.tokens += rate }\n",
	"vendor/github.com/acme/ratelimit/bucket.go": bucketGo,
	"internal/limit/bucket.go":                   bucketGo,
	"third_party/zlib/LICENSE":                   "zlib licence\n",
	"third_party/zlib/inflate.c":                 "/* inflate decompresses a deflate stream. */\nint inflate(void *strm, int flush) { return 0; }\n",
}

// bucketGo is over the 256 bytes that make a copy.
const bucketGo = `package ratelimit

// Allow takes a token from the token bucket of key: a token bucket
// refills at a fixed rate, and a request is allowed while it holds one.
func Allow(key string) bool {
	b := buckets[key]
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
`

// waitVendored waits for s to choose the code scope's files and index
// the vendored ones. It polls no tool: the background work waits for the
// calls in flight.
func waitVendored(t *testing.T, s *session) {
	t.Helper()
	sel := &s.srv.workspace().sel
	waitFor(t, "the vendor scope indexed", func() bool {
		sel.mu.Lock()
		defer sel.mu.Unlock()
		return sel.decided && (sel.stats.Files == 0 || sel.state == "complete")
	})
}

// TestVendorScope checks that serve indexes vendored code in the vendor
// scope, which search_docs searches on its own and index_status
// accounts for, with the copy left out and the reason why.
func TestVendorScope(t *testing.T) {
	s := connect(t, vendoring, Options{NoWatch: true})
	waitVendored(t, s)
	var st indexStatusOut
	status := text(s.ok("index_status", map[string]any{}, &st))
	if st.Vendor == nil || st.Vendor.State != "complete" {
		t.Fatalf("vendor status %+v", st.Vendor)
	}
	if st.Vendor.Files != 2 || len(st.Vendor.Roots) != 2 || st.Vendor.Roots[0].Dir != "third_party" || st.Vendor.Roots[1].Why != "Go's vendor/modules.txt" {
		t.Errorf("vendor status %+v", *st.Vendor)
	}
	if st.CodeLeft != 1 || st.CodeLeftPaths[0].Path != "vendor/github.com/acme/ratelimit/bucket.go" ||
		!strings.Contains(st.CodeLeftPaths[0].Reason, "exact copy of internal/limit/bucket.go") {
		t.Errorf("code left out: %d %+v", st.CodeLeft, st.CodeLeftPaths)
	}
	if !strings.Contains(status, "Vendored code (scope vendor") || !strings.Contains(status, "third_party (1, a licence (LICENSE))") {
		t.Errorf("index_status text:\n%s", status)
	}

	var out searchDocsOut
	res := text(s.ok("search_docs", map[string]any{"query": "refill token bucket", "scopes": []string{"vendor"}, "min_score": 0}, &out))
	hits := out.ResultsByScope["vendor"]
	if len(hits) == 0 || !strings.HasSuffix(hits[0].Symbol, "ratelimit.Refill") || hits[0].Path != "vendor/github.com/acme/ratelimit/refill.go" {
		t.Fatalf("vendor search: %+v", out.Results)
	}
	if !strings.Contains(res, "(vendor, score") {
		t.Errorf("search_docs text:\n%s", res)
	}
	// The code scope holds the project's code only; the copy is there once.
	s.ok("search_docs", map[string]any{"query": "token bucket allow", "scopes": []string{"code"}, "min_score": 0}, &out)
	for _, r := range out.Results {
		if strings.HasPrefix(r.Path, "vendor/") || strings.HasPrefix(r.Path, "third_party/") {
			t.Errorf("code search found %s", r.Path)
		}
	}
	s.ok("search_docs", map[string]any{"query": "inflate deflate stream", "min_score": 0}, &out)
	if len(out.Results) == 0 || out.Results[0].Scope != "vendor" || out.Results[0].Path != "third_party/zlib/inflate.c" {
		t.Errorf("search of every scope: %+v", out.Results)
	}
}

// TestCodeScopeLeavesLinks checks that serve's code scope holds a file
// once, at its real path, when a symbolic link in the tree points at it,
// as `fileinfo index` (codeindex.Sync) does: the kernel's
// include/dt-bindings links would otherwise be indexed after serve
// reopened a saved index, and a file the watcher sees become a link
// leaves the scope.
func TestCodeScopeLeavesLinks(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"scripts/dtc/clock.c": "/* clock_rate_lookup finds a clock's rate. */\nint clock_rate_lookup(int id) { return id; }\n",
		"lib/timer.c":         "/* timer_wheel_advance moves the timer wheel on. */\nint timer_wheel_advance(int t) { return t; }\n",
		"main.c":              "int main(void) { return 0; }\n",
	})
	if err := os.MkdirAll(filepath.Join(root, "include"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../scripts/dtc/clock.c", filepath.Join(root, "include", "clock.c")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	s := connect(t, nil, Options{Root: root, Debounce: 20 * time.Millisecond})
	if _, err := s.srv.ready(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the code index", func() bool { return s.srv.workspace().code.complete() })
	paths := func(query string) []string {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": query, "scopes": []string{"code"}, "min_score": 0}, &out)
		var ps []string
		for _, r := range out.Results {
			ps = append(ps, r.Path)
		}
		return ps
	}
	if got := paths("clock rate lookup"); !slices.Contains(got, "scripts/dtc/clock.c") || slices.Contains(got, "include/clock.c") {
		t.Errorf("code search for the linked file's function found %v; want its real path only", got)
	}

	// lib/timer.c becomes a link to main.c: its code leaves the scope.
	w := s.srv.workspace()
	waitFor(t, "the watcher to start", func() bool { return w.watchState().Mode == watch.Events })
	full := filepath.Join(root, "lib", "timer.c")
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../main.c", full); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the link noticed", func() bool {
		out, _ := w.sel.out("lib/timer.c")
		return out && !slices.Contains(paths("timer wheel advance"), "lib/timer.c")
	})
}

// TestFirstPassLeavesLinks: after a first pass (codeindex.SyncGraph,
// which leaves links out and makes no documents of an empty file),
// afterLoad finds nothing of the code scope to add, so it never writes
// into the index the pass saved and reopened in place (a write decodes
// its tables onto the heap: +0.75 GB on half the kernel).
func TestFirstPassLeavesLinks(t *testing.T) {
	defer func(n int) { firstPassFiles = n }(firstPassFiles)
	firstPassFiles = 1
	root := t.TempDir()
	writeTree(t, root, slimTree())
	if err := os.Symlink("../lib/util.c", filepath.Join(root, "include", "util.c")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	logs := &logBuffer{}
	s := connect(t, nil, Options{Root: root, NoWatch: true, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ws, err := s.srv.ready(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the code index", func() bool { return ws.code.complete() })
	if !strings.Contains(logs.String(), "first pass: code indexed") {
		t.Fatalf("no first pass:\n%s", logs.String())
	}
	waitFor(t, "afterLoad's vendor scope (after the code scope)", func() bool {
		ws.sel.mu.Lock()
		defer ws.sel.mu.Unlock()
		return ws.sel.state == "complete"
	})
	if files := ws.docIndex().CodeFiles(); slices.Contains(files, "include/util.c") || !slices.Contains(files, "lib/util.c") {
		t.Errorf("code files after the first pass: %v", files)
	}
	if strings.Contains(logs.String(), "msg=\"code indexed\"") {
		t.Errorf("afterLoad indexed code after the first pass (the link, the empty py/__init__.py):\n%s", logs.String())
	}
}

// TestVendorCoverageBeforeSelection checks what a search says of the
// vendor scope after a warm load, before the code scope's files are
// chosen: nothing in a tree whose saved index has no vendored code, and
// that the scope is as last indexed in one whose index has.
func TestVendorCoverageBeforeSelection(t *testing.T) {
	plain := map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n", "internal/limit/bucket.go": bucketGo}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // in the text, "" for no word of the vendor scope
	}{
		{"no vendored code", plain, ""},
		{"vendored code", vendoring, "vendor as last indexed; checking for changes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := connect(t, tc.files, Options{NoWatch: true})
			waitVendored(t, first)
			first.srv.Close()
			release := make(chan struct{})
			hooks := &testHooks{selecting: func() { <-release }}
			again := connect(t, nil, Options{Root: first.root, NoWatch: true, hooks: hooks})
			defer close(release)
			if _, err := again.srv.ready(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			<-again.srv.workspace().docsReady
			var out searchDocsOut
			res := text(again.ok("search_docs", map[string]any{"query": "token bucket allow", "min_score": 0}, &out))
			if len(out.Results) == 0 {
				t.Fatalf("no results: %s", res)
			}
			switch {
			case tc.want == "" && strings.Contains(res, "vendor"):
				t.Errorf("a tree without vendored code:\n%s", res)
			case tc.want != "" && !strings.Contains(res, tc.want):
				t.Errorf("want %q in:\n%s", tc.want, res)
			}
			res = text(again.ok("search_docs", map[string]any{"query": "token bucket allow", "scopes": []string{"vendor"}, "min_score": 0}, &out))
			if tc.want == "" && !strings.Contains(res, "vendor not looked for yet") {
				t.Errorf("the vendor scope asked for by name:\n%s", res)
			}
		})
	}
}
