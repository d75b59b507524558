package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// TestIndexLeavesGraph: `fileinfo index` extracts each file once for the
// code index and the saved graph, and leaves graph.bin and symbols.idx
// behind, so the first `callers` after it reads them as they are: it
// extracts nothing and writes nothing (it used to extract the whole tree
// again and build the graph, minutes on the Linux kernel).
func TestIndexLeavesGraph(t *testing.T) {
	root := writeTree(t, map[string]string{
		"lib.py":  "def tax(amount):\n    return amount * 1.2\n\ndef order(x):\n    return tax(x)\n",
		"shop.py": "from lib import tax\n\ndef basket(items):\n    return sum(tax(i) for i in items)\n",
	})
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"lib.py", "shop.py"} {
		os.Chtimes(filepath.Join(root, p), old, old)
	}
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 || !strings.Contains(stdout, "code: 2 source files, 2 read again") {
		t.Fatalf("index: exit %d: %s%s", code, stdout, stderr)
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	before := map[string]os.FileInfo{}
	for _, name := range []string{graphstore.FileName, graphstore.SymbolsFile} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("index left no %s: %v", name, err)
		}
		before[name] = st
	}
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "lib.tax")
	if code != 0 || !strings.Contains(stdout, "lib.order") || !strings.Contains(stdout, "shop.basket") {
		t.Fatalf("callers: exit %d: %s%s", code, stdout, stderr)
	}
	for name, st := range before {
		now, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !os.SameFile(st, now) || !now.ModTime().Equal(st.ModTime()) {
			t.Errorf("callers after index rewrote %s: the index left it stale", name)
		}
	}
	// Nothing changed: index again reads nothing and rewrites neither.
	if code, stdout, _ := runCLI(t, "index", "--root", root); code != 0 || !strings.Contains(stdout, "0 read again") {
		t.Errorf("index again: exit %d: %s", code, stdout)
	}
	for name, st := range before {
		if now, err := os.Stat(filepath.Join(dir, name)); err != nil || !os.SameFile(st, now) {
			t.Errorf("index again rewrote %s", name)
		}
	}
}
