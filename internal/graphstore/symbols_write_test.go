package graphstore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// writerInput is a graph of files C-like and not, n nodes and e edges,
// with signatures and docs (some past their cuts), bases, module nodes,
// declarations and stamps: every kind of string the symbols index
// holds, many of them repeated.
func writerInput(n, e int) (*State, []callgraph.Node, []callgraph.Edge, []extract.File) {
	r := rand.New(rand.NewPCG(7, 8))
	st := &State{Key: "k; build test", Config: []Entry{{Path: "go.mod", Size: 12, ModTime: 34}}}
	var files []extract.File
	var nodes []callgraph.Node
	for len(nodes) < n {
		f := extract.File{Path: fmt.Sprintf("dir%d/f%d.c", len(files)%37, len(files)), Language: []string{"c", "go", "javascript"}[len(files)%3]}
		nodes = append(nodes, callgraph.Node{Qualified: f.Path, Name: f.Path, Kind: callgraph.KindModule, File: f.Path, Language: f.Language})
		for k := range 1 + r.IntN(30) {
			s := extract.Symbol{Name: fmt.Sprintf("fn%d", r.IntN(n)), Kind: extract.KindFunction, StartLine: 1 + 10*k, EndLine: 5 + 10*k,
				Declaration: k%7 == 3, Signature: "int fn(" + strings.Repeat("int a, ", r.IntN(60)) + "é)",
				Doc: strings.Repeat("Does things. ", r.IntN(200))}
			s.Qualified = f.Path + ":" + s.Name
			if k%5 == 0 {
				s.Kind, s.Bases = extract.KindClass, []string{"Base", fmt.Sprintf("B%d", k)}
			}
			f.Symbols = append(f.Symbols, s)
			if k%4 != 1 { // some symbols are not nodes, some nodes no symbol's
				nodes = append(nodes, callgraph.Node{Qualified: s.Qualified, Name: s.Name, Kind: s.Kind, Parent: f.Path, File: f.Path,
					Line: s.StartLine, EndLine: s.EndLine, Language: f.Language, Declaration: s.Declaration})
			}
		}
		files = append(files, f)
		st.Files = append(st.Files, Entry{Path: f.Path, Size: int64(r.IntN(1 << 20)), ModTime: r.Int64()})
	}
	st.Files = append(st.Files, Entry{Path: "skipped.bin", Size: 3, Skip: "binary"})
	nodes = nodes[:n]
	edges := make([]callgraph.Edge, e)
	how := []callgraph.Resolution{callgraph.Local, callgraph.Import, callgraph.Name}
	for i := range edges {
		c := callgraph.SymbolID(r.IntN(n))
		edges[i] = callgraph.Edge{Caller: c, Callee: callgraph.SymbolID(r.IntN(n)), File: nodes[c].File, Line: r.IntN(500), Resolution: how[i%3]}
	}
	return st, nodes, edges, files
}

// TestSymbolsWriterBytes holds the symbols index's bytes to what they
// were when the writer laid every section out in memory (the digest
// below, taken then): writing it a section at a time changes no byte.
func TestSymbolsWriterBytes(t *testing.T) {
	for _, c := range []struct {
		n, e  int
		block uint64
		want  string
	}{
		{0, 0, symBlock, "60b7d3e36faea1daa4b19a6d0da7b2bf879f1c81e57eefd22472bc2527c6e2dd"},
		{3_000, 9_000, symBlock, "bea7a9bb3d9683dd05dafbcfebb2e8c14f9d3b0f5aed707dd929c680cb8e52a0"},
		{3_000, 9_000, minSymBlock * 2, "e5bbf16535a6a1c57bf0f498465d7b9ba86a439ff474a33a5fc97c39a9519b12"},
	} {
		st, nodes, edges, files := writerInput(c.n, c.e)
		data, err := encodeSymbols(st, nodes, edges, files, c.block)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("%d nodes, %d edges, block %d: %d bytes, sha256 %s, want %s", c.n, c.e, c.block, len(data), got, c.want)
		}
		dir := t.TempDir()
		if err := writeSymbols(dir, st, nodes, edges, files); err != nil {
			t.Fatal(err)
		}
		if c.block == symBlock {
			if saved, err := os.ReadFile(filepath.Join(dir, SymbolsFile)); err != nil || string(saved) != string(data) {
				t.Errorf("%d nodes: writeSymbols saved %d bytes (%v), not encodeSymbols' %d", c.n, len(saved), err, len(data))
			}
		}
	}
}

// TestSymbolsWriterHoldsNoSections checks the writer makes the symbols
// index a section at a time: after each section is written, what it
// holds beside its input (the strings' offsets, a CSR index between its
// two sections) is a fraction of the file, not the file's sections laid
// out together (more than the file, with the strings' growth).
func TestSymbolsWriterHoldsNoSections(t *testing.T) {
	st, nodes, edges, files := writerInput(20_000, 400_000)
	dir := t.TempDir()
	base, most, sections := liveHeap(), uint64(0), 0
	sectionHook = func(int) {
		sections++
		if h := liveHeap(); h > base {
			most = max(most, h-base)
		}
	}
	defer func() { sectionHook = nil }()
	if err := writeSymbols(dir, st, nodes, edges, files); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, SymbolsFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes written, at most %d held after a section", fi.Size(), most)
	if sections != secSums || most > uint64(fi.Size())/3 {
		t.Errorf("writing a %d-byte symbols index held %d bytes after one of its %d sections, want at most a third of the file after each of %d", fi.Size(), most, sections, secSums)
	}
	runtime.KeepAlive(files)
}

// BenchmarkWriteSymbols writes the symbols index of a graph of 100,000
// nodes and 500,000 edges.
func BenchmarkWriteSymbols(b *testing.B) {
	st, nodes, edges, files := writerInput(100_000, 500_000)
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if err := writeSymbols(dir, st, nodes, edges, files); err != nil {
			b.Fatal(err)
		}
	}
}
