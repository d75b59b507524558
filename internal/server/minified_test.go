package server

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// bundleSize is a minified bundle as large as extraction takes.
const bundleSize = 2_000_000

const appJS = "import {run} from './lib.js';\n\n// main starts the app.\nexport function main() {\n  return run();\n}\n"

// TestFileInfoMinified checks what a workspace holding a 2 MB minified
// bundle does with it: the load passes it over, index_status says why,
// file_info answers with what the bundle is rather than a prompt, and
// report_file_info takes nothing for it.
func TestFileInfoMinified(t *testing.T) {
	s := connect(t, map[string]string{"app.js": appJS, "dist/bundle.js": string(fixture.MinifiedJS(bundleSize))}, Options{NoWatch: true, NoDocs: true})
	var out fileInfoOut
	s.ok("file_info", map[string]any{"path": "app.js"}, &out) // after the load
	if out.Status != statusPromptReady {
		t.Errorf("app.js: %+v", out)
	}
	var st indexStatusOut
	s.ok("index_status", map[string]any{}, &st)
	found := false
	for _, sk := range st.SkippedPaths {
		if sk.Path == "dist/bundle.js" {
			found = strings.HasPrefix(sk.Reason, "minified: ")
		}
	}
	if !found || st.Files != 1 {
		t.Errorf("index_status: %d files, skipped %v; want dist/bundle.js skipped as minified", st.Files, st.SkippedPaths)
	}
	res := s.ok("file_info", map[string]any{"path": "dist/bundle.js"}, &out)
	body := text(res)
	for _, want := range []string{"minified: ", "bytes in 1 line", "Opening comment: bundle v1.0.0 | MIT", "`Bundle`", "report_file_info"} {
		if !strings.Contains(body, want) {
			t.Errorf("the summary does not say %q:\n%s", want, body)
		}
	}
	if out.Status != statusSummary || out.Parts != 1 || out.Language != "javascript" || out.EndLine != 1 || out.Tokens == 0 || out.Tokens > 2000 {
		t.Errorf("file_info: %+v", out)
	}
	s.fails("file_info", map[string]any{"path": "dist/bundle.js", "part": 2}, "summarised in one part")
	s.fails("report_file_info", map[string]any{"path": "dist/bundle.js", "overview": "x", "functions": []any{}}, "cannot be extracted", "minified")
}

// TestFileInfoCrowded checks that a file whose one line declares more
// symbols than max_tokens can list, too small to be judged minified, is
// summarised with its symbols rather than refused.
func TestFileInfoCrowded(t *testing.T) {
	s := connect(t, map[string]string{"lib.js": string(fixture.MinifiedJS(15 << 10))}, Options{NoWatch: true, NoDocs: true})
	var out fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "lib.js", "max_tokens": 3000}, &out)
	body := text(res)
	for _, want := range []string{"the symbols declared on its line 1 take", "more than max_tokens 3000", "Symbols: ", "`Ba`", "A larger `max_tokens`"} {
		if !strings.Contains(body, want) {
			t.Errorf("the summary does not say %q:\n%s", want, body)
		}
	}
	if out.Status != statusSummary {
		t.Errorf("file_info: %+v", out)
	}
	s.ok("file_info", map[string]any{"path": "lib.js", "max_tokens": 100000}, &out)
	if out.Status != statusPromptReady {
		t.Errorf("with room for its symbols: %+v", out)
	}
}

// TestLoadMinifiedBudget checks that a 2 MB minified bundle costs a
// workspace's load and file_info a fixed budget, whatever it holds: it
// took gigabytes (the load extracted it, built its graph and its code
// documents, and file_info split its one line).
func TestLoadMinifiedBudget(t *testing.T) {
	cost := func(files map[string]string) uint64 {
		root := t.TempDir()
		writeTree(t, root, files)
		return fixture.Allocated(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			srv, err := New(ctx, Options{Root: root, NoWatch: true, NoDocs: true, Logger: discard()})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			st, ct := mcp.NewInMemoryTransports()
			if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
				t.Fatal(err)
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for p := range files {
				if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": p}}); err != nil || res.IsError {
					t.Fatalf("file_info(%s): %v %v", p, err, res)
				}
			}
		})
	}
	base := cost(map[string]string{"app.js": appJS})
	with := cost(map[string]string{"app.js": appJS, "dist/bundle.js": string(fixture.MinifiedJS(bundleSize))})
	t.Logf("load and file_info: %d bytes allocated without the bundle, %d with", base, with)
	// Reading the bundle, hashing it, counting its lines and summarising
	// it is a few copies of its 2 MB.
	if extra := int64(with) - int64(base); extra > 16*bundleSize {
		t.Errorf("a %d-byte bundle cost %d more bytes of allocation, over the budget of %d", bundleSize, extra, 16*bundleSize)
	}
}

// multiline is a bundle of about size bytes written out one statement a
// line: the same code as a minified one, which the load extracts whole.
func multiline(size int) []byte {
	return bytes.ReplaceAll(fixture.MinifiedJS(size), []byte(";"), []byte(";\n"))
}

// loadAndAsk starts a server on root, waits for its load, asks file_info
// about path and closes it.
func loadAndAsk(tb testing.TB, root, path string) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := New(ctx, Options{Root: root, NoWatch: true, NoDocs: true, Logger: discard()})
	if err != nil {
		tb.Fatal(err)
	}
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": path, "max_tokens": maxTokensLimit}})
	if err != nil || res.IsError {
		tb.Fatalf("file_info(%s): %v %v", path, err, res)
	}
}

// TestLoadLinear checks that loading a workspace whose one file is a
// bundle written a statement a line, which is extracted whole, and
// asking file_info about it cost work in proportion to its size.
func TestLoadLinear(t *testing.T) {
	cost := func(size int) (uint64, int) {
		root := t.TempDir()
		src := multiline(size)
		writeTree(t, root, map[string]string{"bundle.js": string(src)})
		return fixture.Allocated(func() { loadAndAsk(t, root, "bundle.js") }), len(src)
	}
	cost(8 << 10) // the encoding and the grammar load once
	s, ns := cost(32 << 10)
	l, nl := cost(256 << 10)
	t.Logf("%d bytes: %d allocated; %d bytes: %d", ns, s, nl, l)
	if ratio, size := float64(l)/float64(s), float64(nl)/float64(ns); ratio > 2*size {
		t.Errorf("the load and file_info allocated %.1f times as much for %.1f times the bytes", ratio, size)
	}
}

// BenchmarkLoadOneFile starts a server on a workspace of one bundle of
// 250 KB or 2 MB, waits for the load and asks file_info about the
// bundle: minified (passed over and summarised), or written a statement a
// line (extracted, its graph built and its prompt made in one part).
// Each run starts from no saved state.
func BenchmarkLoadOneFile(b *testing.B) {
	for _, kind := range []string{"minified", "lines"} {
		for _, bs := range []struct {
			name string
			size int
		}{{"250KB", 250 << 10}, {"2MB", 2_000_000}} {
			b.Run(kind+"/"+bs.name, func(b *testing.B) {
				src := fixture.MinifiedJS(bs.size)
				if kind == "lines" {
					src = multiline(bs.size)
				}
				root := b.TempDir()
				writeTree(b, root, map[string]string{"bundle.js": string(src)})
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					if err := os.RemoveAll(filepath.Join(root, ".artifacts")); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					loadAndAsk(b, root, "bundle.js")
				}
			})
		}
	}
}
