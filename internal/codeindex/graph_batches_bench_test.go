package codeindex

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// BenchmarkSyncGraphBatches is a cold SyncGraph (no stamps, an empty
// index) of 2,048 Go files in batches of 256, the batches' extraction
// and their puts into the code index in turn (BenchmarkSyncGraph's 200
// files are one batch).
func BenchmarkSyncGraphBatches(b *testing.B) {
	root := b.TempDir()
	writeTree(b, root, 2048)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
		if err != nil {
			b.Fatal(err)
		}
		st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Graph: graphstore.Options{Batch: 256, Dir: b.TempDir()}})
		if err != nil || st.Extracted != 2048 {
			b.Fatalf("%+v, %v", st, err)
		}
	}
}
