package graphstore

import (
	"context"
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
