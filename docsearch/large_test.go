package docsearch

import (
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// openLarge opens the index `fileinfo index --root $DOCSEARCH_ROOT --docs
// $DOCSEARCH_DOCS` saved (DOCSEARCH_DOCS is NAME=DIR), with the embedded
// model, or skips t.
func openLarge(t *testing.T) *Index {
	root := os.Getenv("DOCSEARCH_ROOT")
	name, dir, ok := strings.Cut(os.Getenv("DOCSEARCH_DOCS"), "=")
	if root == "" || !ok {
		t.Skip("set DOCSEARCH_ROOT to a workspace indexed with --docs NAME=DIR, and DOCSEARCH_DOCS to NAME=DIR")
	}
	start := time.Now()
	ix, err := Open(ctx, os.DirFS(root), Options{Dir: root + "/.artifacts/.index", Embedder: embed.Default(), Scopes: []Scope{{Name: name, Dir: ".", FS: os.DirFS(dir)}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("opened %d docs, %d chunks in %v", ix.Stats().Docs, ix.Stats().Chunks, time.Since(start))
	return ix
}

var largeQueries = []string{"iterator adapter", "how to read a file line by line", "borrow checker error E0502", "HashMap entry API", "async await tokio", "configure webpack loader", "react useEffect cleanup", "express middleware error handling", "lifetime elision rules", "Vec capacity reserve"}

// TestLargeQueryTime times queries on a large saved index (see openLarge).
func TestLargeQueryTime(t *testing.T) {
	ix := openLarge(t)
	for _, mode := range []Mode{Hybrid, Lexical, Vector} {
		var ds []time.Duration
		for r := 0; r < 3; r++ {
			for _, q := range largeQueries {
				s := time.Now()
				if _, err := ix.Search(ctx, Query{Text: q, Mode: mode}); err != nil {
					t.Fatal(err)
				}
				ds = append(ds, time.Since(s))
			}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		t.Logf("%s p50 %v p95 %v", mode, ds[len(ds)/2], ds[len(ds)*95/100])
	}
}

// TestLargeSketchRecall compares the sketched vector search with the exact
// scan on a large saved index (see openLarge): near-duplicates of chunks,
// then the text queries.
func TestLargeSketchRecall(t *testing.T) {
	ix := openLarge(t)
	all := func(uint32) bool { return true }
	same, total := 0, 0
	var te, ts time.Duration
	for i := 0; i < 300; i++ {
		c := uint32(i * 911 % ix.vec.chunks())
		q := rowFloats(&ix.vec, c)
		for j := range q {
			q[j] += float32((i*j)%7-3) * 0.02
		}
		normalize(q)
		s := time.Now()
		ex := ix.vec.searchExact(q, 10, all)
		te += time.Since(s)
		s = time.Now()
		sk := ix.vec.searchSketched(q, 200, all)[:10]
		ts += time.Since(s)
		k, n := overlap(ex, sk)
		same, total = same+k, total+n
	}
	t.Logf("rows %d sketched %d recall@10 %.3f exact %v/q sketched %v/q", ix.vec.chunks(), ix.vec.sk.rows(), float64(same)/float64(total), te/300, ts/300)
	same, total = 0, 0
	for _, text := range largeQueries {
		vs, _ := embedAll(ctx, embed.Default(), []string{text}, 1)
		q := vs[0]
		normalize(q)
		k, n := overlap(ix.vec.searchExact(q, 10, all), ix.vec.searchSketched(q, 200, all)[:10])
		same, total = same+k, total+n
	}
	t.Logf("text queries recall@10 %.3f", float64(same)/float64(total))
}
