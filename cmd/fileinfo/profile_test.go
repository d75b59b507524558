package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestIndexTrace: `index --trace F` leaves an execution trace in F (what
// `go tool trace` reads: it starts "go 1."), and a trace path that cannot
// be created fails the command.
func TestIndexTrace(t *testing.T) {
	root := writeTree(t, map[string]string{"lib.py": "def tax(amount):\n    return amount * 1.2\n"})
	tr := filepath.Join(t.TempDir(), "index.trace")
	if code, stdout, stderr := runCLI(t, "index", "--root", root, "--trace", tr); code != 0 {
		t.Fatalf("index: exit %d: %s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("go 1.")) {
		t.Errorf("trace of %d bytes does not start as an execution trace: %q", len(data), data[:min(len(data), 16)])
	}
	if code, _, _ := runCLI(t, "index", "--root", root, "--trace", filepath.Join(root, "no", "such", "dir", "t")); code == 0 {
		t.Error("a trace path that cannot be created did not fail")
	}
}
