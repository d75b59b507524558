package docsearch

import (
	"fmt"
	"math"
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
			for name, l := range map[string]int{"acc": len(sc.acc), "kept": len(sc.kept)} {
				if l != n {
					t.Fatalf("threshold %d, %d chunks: %s has %d", bytes, n, name, l)
				}
			}
			for i := range n {
				if sc.acc[i] != (chunkAcc{}) || sc.kept[i] != 0 {
					t.Fatalf("threshold %d, %d chunks: chunk %d not zero", bytes, n, i)
				}
				sc.acc[i], sc.kept[i] = chunkAcc{1, 2, 3, 4}, 5
			}
		}
	}
}

// TestScratchStamps: a pooled scratch's stamps, left by earlier searches,
// never count for a later one, also when their numbers run out and
// start again.
func TestScratchStamps(t *testing.T) {
	var docs []Document
	for i := range 30 {
		text := fmt.Sprintf("# Page %d\n\nNumber %d", i, i)
		for j, w := range []string{"widget", "cache", "lock", "created"} {
			if i%(j+2) == 0 {
				text += " " + w
			}
		}
		docs = append(docs, Document{Path: fmt.Sprintf("d%02d.md", i), Scope: ScopeDocs, Format: "markdown", Text: text + ".\n"})
	}
	ix := openTest(t, mapFS(nil), Options{})
	if err := ix.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
	defer func() { scratchPool = sync.Pool{} }()
	queries := []string{"widget cache created", "cache lock", "created lock widget cache number"}
	search := func(q string) Results {
		t.Helper()
		res, err := ix.Search(ctx, Query{Text: q, Mode: Lexical, MinScore: zero(), Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	fresh := map[string]Results{}
	for _, q := range queries {
		scratchPool = sync.Pool{}
		fresh[q] = search(q)
	}
	// stale is the stamp of every chunk: gen, as the search that ended
	// at gen left them, or numbers that the searches after gen would
	// reach again if they did not start over when the numbers run out.
	for _, c := range []struct {
		gen, stale int32
		spread     bool // chunk i's stamp is stale+i%5: one of its words would meet it
	}{{0, 0, false}, {7, 7, false}, {math.MaxInt32 - 4, math.MinInt32 + 2, true}, {math.MaxInt32, math.MinInt32 + 1, true}} {
		gen := c.gen
		scratchPool = sync.Pool{}
		sc := &scratch{gen: gen}
		sc.alloc(ix.nchunks())
		for i := range sc.acc {
			sc.acc[i].stamp = c.stale
			if c.spread {
				sc.acc[i].stamp += int32(i % 5)
			}
		}
		scratchPool.Put(sc)
		for range 3 {
			for _, q := range queries {
				if got := search(q); !reflect.DeepEqual(got, fresh[q]) {
					t.Fatalf("gen %d, %q:\n%+v\nfresh:\n%+v", gen, q, got, fresh[q])
				}
			}
		}
	}
}
