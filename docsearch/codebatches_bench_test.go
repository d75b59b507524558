package docsearch

import (
	"context"
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// BenchmarkPutCodeBatches puts 8 batches of 25 files of 20 symbols, whose
// words repeat from batch to batch as a tree's identifiers do, with the
// built-in model: what a cold index's code pass spends in the doc index
// beside the parse. Two workers, as on a 2-core machine.
func BenchmarkPutCodeBatches(b *testing.B) {
	batches := spillCode(8, 25, 20)
	m := embed.Default()
	put := func(b *testing.B) {
		ix, err := Open(context.Background(), mapFS(nil), Options{Embedder: m, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
			b.Fatal(err)
		}
	}
	put(b) // the model's and the token counter's loading, once
	b.ReportAllocs()
	for b.Loop() {
		put(b)
	}
}
