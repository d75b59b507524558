package docsearch

import (
	"fmt"
	"os"
	"testing"
)

// TestCompactionDuringChange changes most documents at once, so that the
// commit that brings their new text in also compacts the index: the new
// chunks' vectors must follow them to their new numbers.
func TestCompactionDuringChange(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("docs/d%03d.md", i)] = fmt.Sprintf("# Note %d\n\nqx%dz old text %d\n", i, i, i)
	}
	writeTree(t, root, files)
	emb := &trigramEmbedder{}
	ix := openTest(t, os.DirFS(root), Options{Embedder: emb})
	for i := range 120 {
		files[fmt.Sprintf("docs/d%03d.md", i)] = fmt.Sprintf("# Page %d\n\nwv%dk brand new words %d\n", i, i*7, i)
	}
	writeTree(t, root, files)
	if err := ix.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	if ix.dead != 0 {
		t.Fatalf("no compaction: %d dead chunks", ix.dead)
	}
	for _, i := range []int{0, 57, 119, 150, 199} {
		name := fmt.Sprintf("docs/d%03d.md", i)
		text := files[name]
		res, err := ix.Search(ctx, Query{Text: text, Mode: Vector, MinScore: zero()})
		if err != nil || len(res.Results) == 0 || res.Results[0].Path != name {
			var top []string
			for _, r := range res.Results[:min(3, len(res.Results))] {
				top = append(top, r.Path)
			}
			t.Errorf("vector search for %s's text found %v, %v", name, top, err)
		}
	}
}
