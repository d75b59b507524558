package graphstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
// nodes, as `fileinfo callers` does: the work is the blocks it touches,
// not the graph. It runs with the block size written now and with the
// 1 MiB of the first writers.
func BenchmarkSymbolsCallers(b *testing.B) {
	for _, block := range []uint64{symBlock, maxSymBlock} {
		b.Run(fmt.Sprintf("block=%dKiB", block>>10), func(b *testing.B) {
			data := bigSymbols(b, 200_000, 600_000, block)
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
		})
	}
}
