package extract

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func expectSkip(t *testing.T, err error, reason string) {
	t.Helper()
	var se *SkipError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a skip (%s)", err, reason)
	}
	if !strings.Contains(se.Reason, reason) {
		t.Fatalf("skip reason %q, want %q", se.Reason, reason)
	}
}

func TestBadInput(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"bin.go":      "package x\x00\x01\x02",
		"big.py":      "x = 1\n" + strings.Repeat("# padding\n", 200),
		"notes.xyz":   "hello",
		"latin1.py":   "def caf\xe9():\n    return '\xff'\n",
		"broken.go":   "package x\n\nfunc ok() {}\n\nfunc broken( {\n\nfunc after() {}\n",
		"script":      "#!/usr/bin/env python3\ndef main():\n    pass\n",
		"sub/deep.go": "package sub\nfunc F() {}\n",
	})
	ex, err := New(root, Options{MaxFileSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx := context.Background()

	_, err = ex.File(ctx, "bin.go")
	expectSkip(t, err, "binary")
	_, err = ex.File(ctx, "big.py")
	expectSkip(t, err, "too large")
	_, err = ex.File(ctx, "notes.xyz")
	expectSkip(t, err, "unknown language")
	_, err = ex.File(ctx, "../outside.go")
	expectSkip(t, err, "outside the workspace")
	_, err = ex.File(ctx, "/etc/passwd")
	expectSkip(t, err, "outside the workspace")

	f, err := ex.File(ctx, "latin1.py")
	if err != nil {
		t.Fatal(err)
	}
	// tree-sitter ends the identifier at the invalid byte; what matters is
	// that the structure survives and every string is valid UTF-8.
	if s := f.Symbols[0]; s.StartLine != 1 || s.EndLine != 2 || !strings.Contains(s.Signature, "\uFFFD") {
		t.Errorf("invalid UTF-8: %+v", s)
	}

	f, err = ex.File(ctx, "broken.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Errors) == 0 {
		t.Errorf("no syntax errors reported for broken.go")
	}
	if symbol(t, f, "ok").StartLine != 3 {
		t.Errorf("symbol before the error lost")
	}

	f, err = ex.File(ctx, "script")
	if err != nil {
		t.Fatal(err)
	}
	if f.Language != "python" || f.Symbols[0].Name != "main" {
		t.Errorf("shebang script: %s %+v", f.Language, f.Symbols)
	}

	f, err = ex.File(ctx, filepath.Join(root, "sub", "deep.go"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != "sub/deep.go" || f.Module != "sub" {
		t.Errorf("absolute path inside root: path %q module %q", f.Path, f.Module)
	}
}

func TestSymlinkEscape(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.go": "package s\nfunc Secret() {}\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"in.go": "package in\nfunc In() {}\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(root, "link.go")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dirlink")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(root, "in.go"), filepath.Join(root, "alias.go")); err != nil {
		t.Skip(err)
	}
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx := context.Background()
	_, err = ex.File(ctx, "link.go")
	expectSkip(t, err, "escapes")
	_, err = ex.File(ctx, "dirlink/secret.go")
	expectSkip(t, err, "escapes")
	if _, err := ex.File(ctx, "alias.go"); err != nil {
		t.Errorf("symlink inside the root: %v", err)
	}
	files, skipped, err := ex.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(f.Path, "link") {
			t.Errorf("walk extracted %s through an escaping symlink", f.Path)
		}
	}
	var escaped bool
	for _, s := range skipped {
		escaped = escaped || s.Path == "link.go"
	}
	if !escaped {
		t.Errorf("escaping symlink not reported as skipped: %+v", skipped)
	}
}

// TestConcurrentExtraction runs many extractions at once on one Extractor;
// with -race it proves that trees and cursors stay inside their worker.
func TestConcurrentExtraction(t *testing.T) {
	srcs := map[string]string{}
	golden, _ := filepath.Glob("testdata/golden/*/*")
	for _, g := range golden {
		if strings.HasSuffix(g, ".json") || strings.HasSuffix(g, "go.mod") {
			continue
		}
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		srcs[filepath.Base(g)] = string(b)
	}
	ex, err := New(t.TempDir(), Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	want := map[string]int{}
	for name, src := range srcs {
		f, err := ex.Source(context.Background(), name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = len(f.Symbols)*1000 + len(f.Calls)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, src := range srcs {
				f, err := ex.Source(context.Background(), name, []byte(src))
				if err != nil {
					t.Error(err)
					return
				}
				if got := len(f.Symbols)*1000 + len(f.Calls); got != want[name] {
					t.Errorf("%s: concurrent extraction differs", name)
				}
			}
		}()
	}
	wg.Wait()
}

func TestAllIsDeterministic(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{".gitignore": "ignored/\n"}
	for i := range 30 {
		files[filepath.ToSlash(filepath.Join("pkg", string(rune('a'+i%26))+strings.Repeat("x", i/26), "f.go"))] = "package p\nfunc F() { G() }\n"
	}
	files["ignored/skip.go"] = "package skip\n"
	files["node_modules/m/index.js"] = "function f() {}\n"
	writeFiles(t, root, files)
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	var prev []string
	for range 3 {
		got, _, err := ex.All(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, f := range got {
			paths = append(paths, f.Path)
			if strings.HasPrefix(f.Path, "ignored/") || strings.HasPrefix(f.Path, "node_modules/") {
				t.Errorf("extracted ignored file %s", f.Path)
			}
		}
		if len(paths) != 30 {
			t.Fatalf("extracted %d files, want 30", len(paths))
		}
		if prev != nil && strings.Join(prev, ",") != strings.Join(paths, ",") {
			t.Fatalf("order differs between runs")
		}
		prev = paths
	}
}

func TestLanguageOf(t *testing.T) {
	for _, tc := range []struct {
		path, head, want string
	}{
		{"a.go", "", "go"},
		{"a/b.py", "", "python"},
		{"A.PY", "", "python"},
		{"bin/tool", "#!/usr/bin/env python3 -u\n", "python"},
		{"bin/tool", "#!/usr/bin/python3.11\n", "python"},
		{"bin/tool", "just text", ""},
		{"notes.txt", "#!/usr/bin/env python3\n", ""},
		{"Makefile.unknown", "", ""},
	} {
		l := LanguageOf(tc.path, []byte(tc.head))
		got := ""
		if l != nil {
			got = l.Name
		}
		if got != tc.want {
			t.Errorf("LanguageOf(%q, %q) = %q, want %q", tc.path, tc.head, got, tc.want)
		}
	}
}

func TestQueriesCompile(t *testing.T) {
	for _, name := range Languages() {
		if _, err := languages[name].query(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := compileQuery([]byte("(identifier) @nonsense"), languages["go"].grammarOf()); err == nil {
		t.Errorf("unknown capture names must be rejected")
	}
	if _, err := compileQuery([]byte("(identifier) @definition.widget"), languages["go"].grammarOf()); err == nil {
		t.Errorf("unknown kinds must be rejected")
	}
}

func TestDocComments(t *testing.T) {
	f := extractString(t, "d.go", `package d

// Block comment separated by a blank line is not a doc.

// F does things.
//
//	indented example
func F() {}

/**
 * G is documented javadoc-style.
 */
func G() {}

var x = 1 // trailing comment, not a doc for H
func H() {}
`)
	for _, tc := range []struct{ q, doc string }{
		{"F", "F does things.\n\nindented example"},
		{"G", "G is documented javadoc-style."},
		{"H", ""},
	} {
		if got := symbol(t, f, tc.q).Doc; got != tc.doc {
			t.Errorf("%s doc = %q, want %q", tc.q, got, tc.doc)
		}
	}
}

func TestBinarySniffOnlyHead(t *testing.T) {
	src := bytes.Repeat([]byte("# comment line\n"), binarySniff/10)
	src = append(src, 0)
	f := extractString(t, "late_nul.py", string(src)+"\ndef f(): pass\n")
	if f.Language != "python" {
		t.Errorf("a NUL after the sniffed head should not make the file binary")
	}
}

// TestCancelledContextLeavesParserUsable: a cancelled request fails with
// the context's error, and the pooled parser still parses the next one
// (go-tree-sitter's cancel flag can outlive a parse when a cancellable
// context is handed to it).
func TestCancelledContextLeavesParserUsable(t *testing.T) {
	ex, err := New(t.TempDir(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	src := []byte("package p\nfunc F() {}\n")
	for range 200 {
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		_, _ = ex.Source(ctx, "p.go", src)
		if _, err := ex.Source(context.Background(), "p.go", src); err != nil {
			t.Fatalf("parse after a cancelled one: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ex.Source(ctx, "p.go", src); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
}

// TestParserHangIsSkipped: the Swift grammar loops on this fuzzer-found
// input; the parse limit turns that into a skip with a reason, and the
// worker's next parse works. The parse never ends, so a limit the test
// sets small cuts it as surely as the real one, in a tenth of a second;
// the next parse has the real one again.
func TestParserHangIsSkipped(t *testing.T) {
	src, err := os.ReadFile("testdata/parse_hang.swift")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := New(t.TempDir(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	bound := parseTimeout
	parseTimeout = func(int) time.Duration { return 100 * time.Millisecond }
	_, err = ex.Source(context.Background(), "hang.swift", src)
	parseTimeout = bound
	expectSkip(t, err, "did not finish within 100ms")
	if _, err := ex.Source(context.Background(), "ok.swift", []byte("func f() {}\n")); err != nil {
		t.Fatalf("parse after a timed-out one: %v", err)
	}
}

func TestLanguagesOption(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.go": "package a\n", "b.py": "def f(): pass\n", "tool": "#!/bin/sh\nf() { :; }\n"})
	if _, err := New(root, Options{Languages: []string{"go", "cobol"}}); err == nil || !strings.Contains(err.Error(), "cobol") {
		t.Fatalf("unknown language: err = %v", err)
	}
	ex, err := New(root, Options{Languages: []string{"go"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, skipped, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "a.go" {
		t.Errorf("files = %+v", files)
	}
	reasons := map[string]string{}
	for _, s := range skipped {
		reasons[s.Path] = s.Reason
	}
	if reasons["b.py"] != "language python not selected" || reasons["tool"] != "language bash not selected" {
		t.Errorf("skipped = %v", reasons)
	}
}

func TestReadSeesWhatWasExtracted(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"a.go":    "package a\nfunc A() {}\n",
		"b.py":    "def b():\n    pass\n",
		"bin.go":  "package bin\x00\n",
		"notes.x": "plain",
	})
	var mu sync.Mutex
	seen := map[string]string{}
	ex, err := New(root, Options{Read: func(rel string, src []byte) {
		mu.Lock()
		defer mu.Unlock()
		seen[rel] = string(src)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || len(seen) != 2 {
		t.Fatalf("extracted %d files and saw %d (%v), want 2 and 2", len(files), len(seen), seen)
	}
	if seen["a.go"] != "package a\nfunc A() {}\n" || seen["b.py"] != "def b():\n    pass\n" {
		t.Errorf("Read saw %q", seen)
	}
}
