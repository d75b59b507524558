package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExtractCommand(t *testing.T) {
	root := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":      "module example.com/m\n",
		"a/a.go":      "package a\n\n// Hello greets.\nfunc Hello() { println(\"hi\") }\n",
		"b.py":        "def f():\n    return g()\n",
		"data.bin":    "\x00\x01",
		".gitignore":  "gen/\n",
		"gen/skip.go": "package gen\n",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	code, stdout, stderr := runCLI(t, "extract", "--root", root, "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out extractOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	var paths []string
	for _, f := range out.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "a/a.go,b.py" {
		t.Errorf("files = %v", paths)
	}
	if got := out.Files[0].Symbols[0]; got.Qualified != "example.com/m/a.Hello" || got.Doc != "Hello greets." {
		t.Errorf("symbol = %+v", got)
	}
	if !strings.Contains(stderr, "go ") || !strings.Contains(stderr, "MB/s") {
		t.Errorf("--stats output missing: %q", stderr)
	}
	var skippedBin bool
	for _, s := range out.Skipped {
		skippedBin = skippedBin || s.Path == "data.bin"
	}
	if !skippedBin {
		t.Errorf("data.bin not listed as skipped: %+v", out.Skipped)
	}

	// Named paths; one outside the root is skipped with a reason, not fatal.
	code, stdout, stderr = runCLI(t, "extract", "--root", root, "b.py", "../escape.go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out = extractOutput{}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 1 || len(out.Skipped) != 1 || !strings.Contains(out.Skipped[0].Reason, "outside") {
		t.Errorf("named paths: files %d skipped %+v", len(out.Files), out.Skipped)
	}
}

func TestUsageErrors(t *testing.T) {
	if code, _, stderr := runCLI(t); code != 2 || !strings.Contains(stderr, "usage") {
		t.Errorf("no args: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(stderr, "unknown command") {
		t.Errorf("unknown command: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCLI(t, "extract", "--no-such-flag"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
	if code, _, stderr := runCLI(t, "extract", "--root", "/definitely/not/here"); code != 1 || !strings.Contains(stderr, "not/here") {
		t.Errorf("missing root: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCLI(t, "extract", "-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}
