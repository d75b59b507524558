package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
)

// TestIndexVerify checks `index --verify` finds damage that the seal of
// the doc index hides from a load (a byte changed under the same time
// stamp) and damage in the symbols index, and that both are rebuilt.
func TestIndexVerify(t *testing.T) {
	root := writeTree(t, map[string]string{
		"README.md": "# Shop\n\nThe shop sells widgets and computes the tax of an order.\n",
		"lib.py":    "def tax(amount):\n    return amount * 1.2\n\ndef order(x):\n    return tax(x)\n",
	})
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"README.md", "lib.py"} {
		os.Chtimes(filepath.Join(root, p), old, old)
	}
	for _, args := range [][]string{{"index", "--root", root}, {"callers", "--root", root, "lib.tax"}} {
		if code, _, stderr := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	code, stdout, stderr := runCLI(t, "index", "--root", root, "--verify")
	if code != 0 || strings.Count(stdout, ": ok") != 2 {
		t.Fatalf("verify of good indexes: exit %d: %s%s", code, stdout, stderr)
	}
	for _, name := range []string{"docsearch.idx", "symbols.idx"} {
		file := filepath.Join(dir, name)
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(file)
		data[len(data)*2/3] ^= 0x10
		os.WriteFile(file, data, 0o644)
		os.Chtimes(file, st.ModTime(), st.ModTime())
	}
	code, stdout, stderr = runCLI(t, "index", "--root", root, "--verify")
	if code != 0 || !strings.Contains(stdout, "docsearch.idx: corrupt index") || !strings.Contains(stdout, "symbols.idx: corrupt symbols index") {
		t.Fatalf("verify of damaged indexes: exit %d: %s%s", code, stdout, stderr)
	}
	if err := docsearch.Verify(dir); err != nil {
		t.Errorf("the doc index was not rebuilt: %v", err)
	}
	if code, stdout, _ := runCLI(t, "callers", "--root", root, "lib.tax"); code != 0 || !strings.Contains(stdout, "lib.order") {
		t.Errorf("callers after verify: exit %d: %s", code, stdout)
	}
	code, stdout, stderr = runCLI(t, "index", "--root", root, "--verify")
	if code != 0 || strings.Count(stdout, ": ok") != 2 {
		t.Errorf("verify after the rebuild: exit %d: %s%s", code, stdout, stderr)
	}
}
