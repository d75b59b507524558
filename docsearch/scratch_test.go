package docsearch

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestScratchMapped: with every scratch mapped apart (as a large
// index's is on Linux), searches answer as with scratch on the heap,
// also once the index has grown and a pooled scratch is sized again.
func TestScratchMapped(t *testing.T) {
	var docs []Document
	for i := range 40 {
		docs = append(docs, Document{Path: fmt.Sprintf("d%02d.md", i), Scope: ScopeDocs, Format: "markdown",
			Text: fmt.Sprintf("# Page %d\n\nThe widget cache number %d is created here; spin the lock %d times.\n", i, i, i%7)})
	}
	ix := openTest(t, mapFS(nil), Options{})
	if err := ix.Put(ctx, docs[:10]); err != nil {
		t.Fatal(err)
	}
	search := func() Results {
		t.Helper()
		res, err := ix.Search(ctx, Query{Text: "widget cache created", Mode: Lexical, MinScore: zero(), Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	old := hugeScratchBytes
	defer func() { hugeScratchBytes, scratchPool = old, sync.Pool{} }()
	use := func(bytes int) { hugeScratchBytes, scratchPool = bytes, sync.Pool{} }

	use(1 << 62)
	onHeap := search()
	use(0)
	if mapped := search(); !reflect.DeepEqual(mapped, onHeap) {
		t.Errorf("mapped scratch:\n%+v\nheap:\n%+v", mapped, onHeap)
	}
	if err := ix.Put(ctx, docs[10:]); err != nil {
		t.Fatal(err)
	}
	grown := search() // the pooled scratch, mapped, is sized again
	use(1 << 62)
	if onHeap := search(); !reflect.DeepEqual(grown, onHeap) {
		t.Errorf("mapped scratch, grown:\n%+v\nheap:\n%+v", grown, onHeap)
	}
	if len(grown.Results) < 20 {
		t.Errorf("%d results, want the 40 pages' best", len(grown.Results))
	}
}

// TestScratchAlloc: a scratch sized again is zeroed, and of the new size.
func TestScratchAlloc(t *testing.T) {
	old := hugeScratchBytes
	defer func() { hugeScratchBytes = old }()
	for _, bytes := range []int{0, 1 << 62} {
		hugeScratchBytes = bytes
		sc := &scratch{}
		for _, n := range []int{1000, 5000, 300000} {
			sc.alloc(n)
			for name, l := range map[string]int{"score": len(sc.score), "cov": len(sc.cov), "freq": len(sc.freq), "stamp": len(sc.stamp), "kept": len(sc.kept)} {
				if l != n {
					t.Fatalf("threshold %d, %d chunks: %s has %d", bytes, n, name, l)
				}
			}
			for i := range n {
				if sc.score[i] != 0 || sc.cov[i] != 0 || sc.freq[i] != 0 || sc.stamp[i] != 0 || sc.kept[i] != 0 {
					t.Fatalf("threshold %d, %d chunks: chunk %d not zero", bytes, n, i)
				}
				sc.score[i], sc.cov[i], sc.freq[i], sc.stamp[i], sc.kept[i] = 1, 2, 3, 4, 5
			}
		}
	}
}
