//go:build linux && cgo

package extract

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// vmRSS returns the process's resident set in KB, from /proc.
func vmRSS(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}

// TestCloseReleasesCMemory: the memory tree-sitter took for a big file's
// tree goes back to the system when the Extractor is closed, not kept in
// malloc's free lists while the caller builds its graph on the Go heap.
func TestCloseReleasesCMemory(t *testing.T) {
	var src bytes.Buffer
	for i := 0; src.Len() < 1<<20; i++ {
		fmt.Fprintf(&src, "int f%d(int a)\n{\n\tif (a > %d)\n\t\treturn g%d(a, b[%d], c->d);\n\treturn 0;\n}\n\n", i, i, i, i)
	}
	ex, err := New(t.TempDir(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ex.Source(context.Background(), "big.c", src.Bytes()); err != nil {
		t.Fatal(err)
	}
	before := vmRSS(t)
	ex.Close()
	after := vmRSS(t)
	t.Logf("VmRSS %d KB -> %d KB", before, after)
	if before-after < 8<<10 {
		t.Errorf("Close released %d KB of a 1 MB file's parse, want 8 MB or more", before-after)
	}
}
