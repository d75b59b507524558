package graphstore

import (
	"context"
	"os"
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
