package docsearch

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	trigramEmbedder
	texts atomic.Int64
}

func (e *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.texts.Add(int64(len(texts)))
	return e.trigramEmbedder.Embed(ctx, texts)
}

// TestOpenFresh: Options.Fresh leaves the saved index unread, so every
// chunk is made and embedded again from the files, where an Open without
// it reuses every saved one; the fresh index holds and finds what the
// saved one did, and its save replaces it.
func TestOpenFresh(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &countingEmbedder{}
	first := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if err := first.Save(); err != nil {
		t.Fatal(err)
	}
	made := emb.texts.Swap(0)
	if made == 0 {
		t.Fatal("nothing embedded by the first open")
	}
	want := first.Stats()

	if openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb}); emb.texts.Swap(0) != 0 {
		t.Fatal("an open of the saved index embedded again: the control does not load it")
	}

	fresh := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb, Fresh: true})
	if got := emb.texts.Swap(0); got != made {
		t.Errorf("a fresh open embedded %d texts, want every chunk's %d", got, made)
	}
	if got := fresh.Stats(); got.Docs != want.Docs || got.Chunks != want.Chunks {
		t.Errorf("fresh index: %d docs, %d chunks; saved: %d, %d", got.Docs, got.Chunks, want.Docs, want.Chunks)
	}
	res, err := fresh.Search(ctx, Query{Text: "configure the renderer", MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/guide.md" {
		t.Errorf("fresh index search = %+v, %v", res.Results, err)
	}
	if err := fresh.Save(); err != nil {
		t.Fatal(err)
	}
	emb.texts.Store(0) // the query's
	again := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if n := emb.texts.Load(); n != 0 {
		t.Errorf("the fresh index's save: %d texts embedded again when it was opened", n)
	}
	if got := again.Stats(); got.Docs != want.Docs || got.Chunks != want.Chunks {
		t.Errorf("reopened: %d docs, %d chunks; want %d, %d", got.Docs, got.Chunks, want.Docs, want.Chunks)
	}
}
