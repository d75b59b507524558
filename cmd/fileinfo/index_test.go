package main

import (
	"bytes"
	"fmt"
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

// TestIndexAfterUpgradeLeavesSavedDocsUnread: saved code stamps of
// another build (an upgrade) mean every code document is put again, so
// `fileinfo index` builds the doc index anew instead of decoding the
// saved one onto the heap to replace it: a saved doc index it cannot
// read is not even looked at (no rebuild notice), and the new one is
// saved and found.
func TestIndexAfterUpgradeLeavesSavedDocsUnread(t *testing.T) {
	root := upgradedTree(t)
	code, stdout, stderr := runCLI(t, "index", "--root", root)
	if code != 0 || !strings.Contains(stdout, "1 read again") {
		t.Fatalf("index after an upgrade: exit %d: %s%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "rebuilding the index") {
		t.Errorf("index after an upgrade read the saved doc index:\n%s", stderr)
	}
	for q, want := range map[string]string{"tax": "lib.py", "configure the renderer": "docs/guide.md"} {
		if code, stdout, stderr := runCLI(t, "search", "--root", root, q); code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("search %q: exit %d: %s%s", q, code, stdout, stderr)
		}
	}
}

// TestSearchAfterUpgradeLeavesSavedDocsUnread: a search that finds the
// saved index of another build brings it up to date as index does: built
// anew, the saved one not read.
func TestSearchAfterUpgradeLeavesSavedDocsUnread(t *testing.T) {
	root := upgradedTree(t)
	code, stdout, stderr := runCLI(t, "search", "--root", root, "configure the renderer")
	if code != 0 || !strings.Contains(stdout, "docs/guide.md") {
		t.Fatalf("search after an upgrade: exit %d: %s%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "rebuilding the index") {
		t.Errorf("search after an upgrade read the saved doc index:\n%s", stderr)
	}
	if code, stdout, stderr := runCLI(t, "search", "--root", root, "tax"); code != 0 || !strings.Contains(stdout, "lib.py") {
		t.Errorf("search tax: exit %d: %s%s", code, stdout, stderr)
	}
}

// upgradedTree is an indexed tree as an upgrade finds it: its code
// stamps of another build, and a saved doc index that cannot be read.
func upgradedTree(t *testing.T) string {
	t.Helper()
	root := writeTree(t, map[string]string{
		"lib.py":        "def tax(amount):\n    return amount * 1.2\n",
		"docs/guide.md": "# Guide\n\nHow to configure the renderer.\n",
	})
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d: %s%s", code, stdout, stderr)
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	for name, text := range map[string]string{"docsearch.idx": "not an index", "code-build.txt": "fileinfo v0 (another build)"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestIndexUpdatesGraph: `fileinfo index` after a file is edited updates
// the saved graph instead of building it whole, says so, and the
// callers after it see the edit from symbols.idx as saved.
func TestIndexUpdatesGraph(t *testing.T) {
	root := writeTree(t, map[string]string{
		"lib.py":  "def tax(amount):\n    return amount * 1.2\n",
		"shop.py": "from lib import tax\n\ndef basket(items):\n    return sum(tax(i) for i in items)\n",
		"util.py": "def helper():\n    return 1\n",
	})
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"lib.py", "shop.py", "util.py"} {
		os.Chtimes(filepath.Join(root, p), old, old)
	}
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 || !strings.Contains(stdout, "graph: built whole: no saved graph") {
		t.Fatalf("index: exit %d: %s%s", code, stdout, stderr)
	}
	writeFiles(t, root, map[string]string{"util.py": "from lib import tax\n\ndef helper():\n    return tax(1)\n"})
	os.Chtimes(filepath.Join(root, "util.py"), old, old)
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 || !strings.Contains(stdout, "graph: updated, 1 files changed") {
		t.Fatalf("index after an edit: exit %d: %s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, "callers", "--root", root, "lib.tax"); code != 0 || !strings.Contains(stdout, "util.helper") || !strings.Contains(stdout, "shop.basket") {
		t.Fatalf("callers: exit %d: %s%s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI(t, "index", "--root", root); code != 0 || !strings.Contains(stdout, "graph: as saved") {
		t.Errorf("index again: exit %d: %s", code, stdout)
	}
}

// TestIndexSavesSmallChangeAsDelta: index after one file changed saves
// the change beside the doc index file (docsearch.delta), leaving the
// file as it was, rather than decoding the whole index to rewrite it;
// a search then finds the change.
func TestIndexSavesSmallChangeAsDelta(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("pkg/m%02d.py", i)] = fmt.Sprintf("def handler_%02d(request):\n    \"\"\"Answer request %d.\"\"\"\n    return request\n", i, i)
	}
	root := writeTree(t, files)
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d: %s%s", code, stdout, stderr)
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	before, err := os.ReadFile(filepath.Join(dir, "docsearch.idx"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"pkg/m07.py": "def quokka_census(herd):\n    \"\"\"Count the quokkas of a herd.\"\"\"\n    return len(herd)\n"})
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 {
		t.Fatalf("index after an edit: exit %d: %s%s", code, stdout, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "docsearch.idx"))
	if !bytes.Equal(after, before) {
		t.Error("index rewrote the doc index file for one changed file; want a delta beside it")
	}
	if _, err := os.Stat(filepath.Join(dir, "docsearch.delta")); err != nil {
		t.Errorf("no delta after one changed file: %v", err)
	}
	if code, stdout, stderr := runCLI(t, "search", "--root", root, "quokka census"); code != 0 || !strings.Contains(stdout, "quokka_census") {
		t.Errorf("search after the delta: exit %d: %s%s", code, stdout, stderr)
	}
}
