package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestHeapPeakKeepsLargest: the profile written is the largest live
// heap's; a later, smaller heap leaves it as it is, and a larger one
// writes it again.
func TestHeapPeakKeepsLargest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.prof")
	if err := writeHeapProfile(path); err != nil {
		t.Fatal(err)
	}
	h := watchHeap(path)
	defer h.close()

	if peak := markHolding(t, h, 64<<20); peak < 64<<20 {
		t.Fatalf("largest live heap written %d bytes, want at least the 64 MiB held", peak)
	}
	atPeak, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	if err := h.mark(); err != nil { // the 64 MiB let go of
		t.Fatal(err)
	}
	now, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, atPeak) {
		t.Error("the profile was written again for a smaller heap")
	}

	if peak := markHolding(t, h, 128<<20); peak < 128<<20 {
		t.Errorf("largest live heap written %d bytes after 128 MiB was held", peak)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files beside the profile, want none (temporary files left)", len(entries)-1)
	}
}

// markHolding marks h while n bytes are held and returns the live heap
// of the profile written last.
func markHolding(t *testing.T, h *heapPeak, n int) uint64 {
	t.Helper()
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	if err := h.mark(); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(b)
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.largest
}

// TestIndexMemprofile: `index --memprofile F` leaves a heap profile in F
// (gzipped, as pprof writes it); a path that cannot be written fails the
// command before its work.
func TestIndexMemprofile(t *testing.T) {
	root := writeTree(t, map[string]string{"lib.py": "def tax(amount):\n    return amount * 1.2\n"})
	mem := filepath.Join(t.TempDir(), "index.mem")
	if code, stdout, stderr := runCLI(t, "index", "--root", root, "--memprofile", mem); code != 0 {
		t.Fatalf("index: exit %d: %s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(mem)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("profile of %d bytes is not gzipped as pprof writes it", len(data))
	}
	bad := filepath.Join(root, "no", "such", "dir", "m")
	if code, stdout, _ := runCLI(t, "index", "--root", root, "--memprofile", bad); code == 0 || bytes.Contains([]byte(stdout), []byte("indexed")) {
		t.Errorf("a profile path that cannot be written: exit %d, output %q", code, stdout)
	}
}
