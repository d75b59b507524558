//go:build linux

package graphstore

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/fileinfo/fileinfo/callgraph"
)

// residentKB returns the kilobytes of b's pages mapped into the process,
// from /proc/self/smaps: the Rss of the mappings b lies in.
func residentKB(t *testing.T, b []byte) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	lo := uint64(uintptr(unsafe.Pointer(&b[0])))
	hi := lo + uint64(len(b))
	kb, in := 0, false
	for _, l := range strings.Split(string(raw), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if a, z, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			start, err1 := strconv.ParseUint(a, 16, 64)
			end, err2 := strconv.ParseUint(z, 16, 64)
			in = err1 == nil && err2 == nil && start < hi && end > lo
			continue
		}
		if in && f[0] == "Rss:" && len(f) > 1 {
			n, _ := strconv.Atoi(f[1])
			kb += n
		}
	}
	return kb
}

// TestSymbolsDropPages: a pass over every node (serve's names by word)
// leaves the index's pages mapped; DropPages unmaps them, and lookups
// after it read the same answers (their pages mapped again).
func TestSymbolsDropPages(t *testing.T) {
	file := filepath.Join(t.TempDir(), SymbolsFile)
	if err := os.WriteFile(file, bigSymbols(t, 20_000, 60_000, symBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSymbols(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var nodes []callgraph.Node
	lookup := func() (out [][]callgraph.Edge) {
		for _, name := range []string{"fn7", "fn4242", "fn19999"} {
			for _, id := range s.Named(name) {
				out = append(out, s.Callers(id), s.Callees(id))
			}
		}
		return out
	}
	if err := Guard(func() {
		for i := range s.Len() {
			nodes = append(nodes, s.Node(callgraph.SymbolID(i)))
		}
	}); err != nil {
		t.Fatal(err)
	}
	var want [][]callgraph.Edge
	Guard(func() { want = lookup() })
	before := residentKB(t, s.data)
	if before < len(s.data)/2>>10 {
		t.Fatalf("a pass over every node left %d KB of %d KB mapped", before, len(s.data)>>10)
	}
	if !s.DropPages() {
		t.Fatal("DropPages dropped nothing")
	}
	if after := residentKB(t, s.data); after > 8 {
		t.Errorf("after DropPages %d KB of the index are mapped, %d before", after, before)
	}
	var got [][]callgraph.Edge
	if err := Guard(func() { got = lookup() }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("lookups after DropPages differ from before")
	}
	if err := Guard(func() {
		for i := range s.Len() {
			if n := s.Node(callgraph.SymbolID(i)); n != nodes[i] {
				t.Fatalf("node %d after DropPages: %+v, before %+v", i, n, nodes[i])
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
}
