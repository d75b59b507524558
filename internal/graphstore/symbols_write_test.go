package graphstore

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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

// writerSites returns reference sites for writerInput's nodes, sorted as
// callgraph.RefSitesOf sorts them: of node names and of others (which
// the index leaves out), bare and with receivers and imports.
func writerSites(nodes []callgraph.Node) []callgraph.RefSite {
	r := rand.New(rand.NewPCG(9, 10))
	var sites []callgraph.RefSite
	for i := range len(nodes) / 2 {
		n := nodes[r.IntN(len(nodes))]
		s := callgraph.RefSite{Name: n.Name, Caller: n.Qualified, File: n.File, Line: i, Go: n.Language == "go"}
		switch i % 4 {
		case 1:
			s.Name = fmt.Sprintf("local%d", i)
		case 2:
			s.Receiver = "mod"
			s.Imports = []callgraph.RefImport{{Path: "pkg/mod", Resolved: "x.pkg.mod"}, {Path: "mod"}}
		}
		sites = append(sites, s)
	}
	slices.SortStableFunc(sites, func(a, b callgraph.RefSite) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.File, b.File))
	})
	return sites
}

// TestSymbolsWriterBytes holds the symbols index's bytes to a digest:
// version 1's were those the writer gave when it laid every section out
// in memory, and writing a section at a time changed no byte; version 2
// (the reference sites) took others, with sites; version 3 (the names
// sections) these.
func TestSymbolsWriterBytes(t *testing.T) {
	for _, c := range []struct {
		n, e  int
		block uint64
		want  string
	}{
		{0, 0, symBlock, "9d7618f0a9b958b69090684b960b65333e703d469ec6bf0ef4a7b330cdedb4a0"},
		{3_000, 9_000, symBlock, "8463f32203a4b45d1317c6087cf53756a9ffb834c2bc592a6eeb11fb8390b29f"},
		{3_000, 9_000, minSymBlock * 2, "0113728cd0b4e674d013c328f16d93b72b10d10e04313ff8280360c5703907ac"},
	} {
		st, nodes, edges, files := writerInput(c.n, c.e)
		sites := writerSites(nodes)
		data, err := encodeSymbols(st, nodes, edges, files, sites, c.block)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("%d nodes, %d edges, block %d: %d bytes, sha256 %s, want %s", c.n, c.e, c.block, len(data), got, c.want)
		}
		dir := t.TempDir()
		id, err := writeSymbols(dir, st, nodes, edges, files, sites)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := ReadSymbols(filepath.Join(dir, SymbolsFile)); err != nil {
			t.Fatal(err)
		} else if got := s.identity(); got != id {
			t.Errorf("%d nodes: writeSymbols gave identity %x, the file's is %x", c.n, id, got)
			s.Close()
		} else {
			s.Close()
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
	sites := writerSites(nodes)
	dir := t.TempDir()
	base, most, sections := liveHeap(), uint64(0), 0
	sectionHook = func(int) {
		sections++
		if h := liveHeap(); h > base {
			most = max(most, h-base)
		}
	}
	defer func() { sectionHook = nil }()
	if _, err := writeSymbols(dir, st, nodes, edges, files, sites); err != nil {
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
	runtime.KeepAlive(sites)
}

// BenchmarkWriteSymbols writes the symbols index of a graph of 100,000
// nodes and 500,000 edges.
func BenchmarkWriteSymbols(b *testing.B) {
	st, nodes, edges, files := writerInput(100_000, 500_000)
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := writeSymbols(dir, st, nodes, edges, files, nil); err != nil {
			b.Fatal(err)
		}
	}
}
