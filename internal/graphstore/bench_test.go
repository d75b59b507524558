package graphstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// BenchmarkSyncUnchanged measures a Sync that finds nothing changed (the
// CLI lookups' start) on the repository in FILEINFO_BENCH_ROOT, a
// writable copy, e.g. of golang.org/x/tools@v0.42.0.
func BenchmarkSyncUnchanged(b *testing.B) {
	root := os.Getenv("FILEINFO_BENCH_ROOT")
	if root == "" {
		b.Skip("FILEINFO_BENCH_ROOT is not set")
	}
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Key: "bench"}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		snap, err := Sync(ctx, Options{Root: root, Key: "bench", ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		if snap.Extracted != 0 {
			b.Fatalf("%d files extracted", snap.Extracted)
		}
	}
}

// BenchmarkLoad measures reading and decoding the saved state of the
// repository in FILEINFO_BENCH_ROOT (see BenchmarkSyncUnchanged): the
// part of a lookup's or a server's start that grows with the file
// (340 MB for the Linux kernel).
func BenchmarkLoad(b *testing.B) {
	root := os.Getenv("FILEINFO_BENCH_ROOT")
	if root == "" {
		b.Skip("FILEINFO_BENCH_ROOT is not set")
	}
	if _, err := Sync(context.Background(), Options{Root: root, Key: "bench"}); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	info, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(file); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSymbolsCallers opens a saved symbols index of 200,000 nodes
// and 600,000 edges, finds a name and reads its callers with their
// nodes, as `fileinfo callers` does: the work is a few blocks, not the
// graph.
func BenchmarkSymbolsCallers(b *testing.B) {
	const n, e = 200_000, 600_000
	r := rand.New(rand.NewPCG(5, 6))
	nodes := make([]callgraph.Node, n)
	for i := range nodes {
		f := fmt.Sprintf("dir%d/file%d.c", i%300, i%5000)
		nodes[i] = callgraph.Node{Qualified: fmt.Sprintf("%s:fn%d", f, i), Name: fmt.Sprintf("fn%d", i), Kind: "function", File: f, Line: i % 2000, Language: "c"}
	}
	edges := make([]callgraph.Edge, e)
	for i := range edges {
		edges[i] = callgraph.Edge{Caller: callgraph.SymbolID(r.IntN(n)), Callee: callgraph.SymbolID(r.IntN(n)), File: nodes[i%n].File, Line: i % 3000, Resolution: callgraph.Import}
	}
	data, err := encodeSymbols(&State{Key: "k"}, nodes, edges, nil)
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(b.TempDir(), SymbolsFile)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(data))/1e6, "MB-file")
	b.ReportAllocs()
	for b.Loop() {
		s, err := ReadSymbols(file)
		if err != nil {
			b.Fatal(err)
		}
		if err := Guard(func() {
			ids := s.Named("fn4242")
			if len(ids) != 1 {
				b.Fatalf("%d nodes named fn4242", len(ids))
			}
			for _, e := range s.Callers(ids[0]) {
				s.Node(e.Caller)
			}
		}); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
