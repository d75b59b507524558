package docsearch

import (
	"context"
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// TestPutCodeBatchesKeepsWorkers: one PutCodeBatches makes its analysis
// workers once, at its first batch, and keeps them (with their caches of
// words and stems) for the others; the index it saves is the same bytes
// as one whose every batch had new workers, as each did before.
func TestPutCodeBatchesKeepsWorkers(t *testing.T) {
	made := 0
	workerMade = func() { made++ }
	t.Cleanup(func() { workerMade = nil })
	batches := spillCode(5, 6, 8)
	dirA, dirB := t.TempDir(), t.TempDir()
	opts := func(dir string) Options {
		return Options{Dir: dir, Embedder: embed.Default(), Workers: 2}
	}
	a := openTest(t, mapFS(nil), opts(dirA))
	if err := a.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
		t.Fatal(err)
	}
	if made != 2 {
		t.Errorf("%d workers made for 5 batches on 2 workers; want 2", made)
	}

	// Every batch with workers of its own.
	b := openTest(t, mapFS(nil), opts(dirB))
	var known codeKeys
	for _, batch := range batches {
		known.workers = nil
		if _, err := b.putCode(context.Background(), batch, nil, &known); err != nil {
			t.Fatal(err)
		}
	}
	b.update.Lock()
	b.saved(b.save())
	b.update.Unlock()
	if made != 2+2*5 {
		t.Errorf("%d workers made in all; want 12", made)
	}
	sameSaved(t, dirA, dirB)
}
