package docsearch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// flakyEmbedder fails while down is set.
type flakyEmbedder struct {
	trigramEmbedder
	down atomic.Bool
}

func (e *flakyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.down.Load() {
		return nil, errors.New("embedding service unavailable")
	}
	return e.trigramEmbedder.Embed(ctx, texts)
}

// TestEmbedFailureIsRetried checks that chunks whose vectors could not be
// made, because the embedder failed, get them at the next rescan, and
// that an index saved meanwhile does not keep them without.
func TestEmbedFailureIsRetried(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &flakyEmbedder{}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	writeTree(t, root, map[string]string{"docs/zoo.md": "# Zoo\n\nQuokkas live here.\n"})
	emb.down.Store(true)
	if err := ix.Update(ctx, []string{"docs/zoo.md"}); err == nil {
		t.Fatal("Update with a failing embedder succeeded")
	}
	emb.down.Store(false)
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	find := func(ix *Index, step string) {
		t.Helper()
		res, err := ix.Search(ctx, Query{Text: "quokkas live here", Mode: Vector, MinScore: zero()})
		if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/zoo.md" {
			t.Errorf("%s: vector search = %+v, %v", step, res.Results, err)
		}
	}
	if err := ix.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	find(ix, "rescan")
	again := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	find(again, "reopened")
}

// pickyEmbedder fails on any text holding bad while bad is set.
type pickyEmbedder struct {
	trigramEmbedder
	bad atomic.Value // string
}

func (e *pickyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if bad, _ := e.bad.Load().(string); bad != "" {
		for _, t := range texts {
			if strings.Contains(t, bad) {
				return nil, errors.New("embedding service unavailable")
			}
		}
	}
	return e.trigramEmbedder.Embed(ctx, texts)
}

// TestEmbedderChangeFailureIsResumed changes the embedder of a saved
// index of more documents than one batch, and fails the embedding of the
// last batch: the next open embeds what the failed one did not reach.
func TestEmbedderChangeFailureIsResumed(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range applyBatch + 50 {
		late := ""
		if i >= applyBatch {
			late = " zzlate"
		}
		files[fmt.Sprintf("docs/d%03d.md", i)] = fmt.Sprintf("# Note %d\n\nqx%dz words %d%s\n", i, i*3, i, late)
	}
	writeTree(t, root, files)
	dir := filepath.Join(root, ".artifacts", ".index")
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: &trigramEmbedder{}})
	e2 := &pickyEmbedder{trigramEmbedder: trigramEmbedder{name: "test-trigram-64-v2"}}
	e2.bad.Store("zzlate")
	if _, err := Open(ctx, os.DirFS(root), Options{Dir: dir, Embedder: e2}); err == nil {
		t.Fatal("Open with a failing embedder succeeded")
	}
	e2.bad.Store("")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: e2})
	for _, i := range []int{3, applyBatch + 10} {
		name := fmt.Sprintf("docs/d%03d.md", i)
		res, err := ix.Search(ctx, Query{Text: files[name], Mode: Vector, MinScore: zero()})
		if err != nil || len(res.Results) == 0 || res.Results[0].Path != name {
			t.Errorf("vector search for %s's text = %v", name, err)
		}
	}
}

// TestEmbedderChangeReembedsEveryBatch changes the embedder of a saved
// index of more documents than one batch: every chunk is embedded again,
// those of the later batches too, whose old vectors are gone.
func TestEmbedderChangeReembedsEveryBatch(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range applyBatch + 50 {
		files[fmt.Sprintf("docs/d%03d.md", i)] = fmt.Sprintf("# Note %d\n\nqx%dz words %d\n", i, i*3, i)
	}
	writeTree(t, root, files)
	dir := filepath.Join(root, ".artifacts", ".index")
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: &trigramEmbedder{}})
	e2 := &trigramEmbedder{name: "test-trigram-64-v2"}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: e2})
	if n := ix.Stats().Chunks; int(e2.texts.Load()) != n {
		t.Errorf("embedded %d texts again for %d chunks", e2.texts.Load(), n)
	}
	name := fmt.Sprintf("docs/d%03d.md", applyBatch+20)
	res, err := ix.Search(ctx, Query{Text: files[name], Mode: Vector, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != name {
		t.Errorf("vector search for %s's text = %v", name, err)
	}
}

// TestReusedRows: a document saved again with the same chunks (here,
// blank lines added) takes its old vectors without embedding, and is
// found by them.
func TestReusedRows(t *testing.T) {
	fsys := mapFS(map[string]string{"docs/a.md": "# Alpha\n\nZebra crossing rules.\n", "docs/b.md": "# Beta\n\nOther text.\n"})
	emb := &trigramEmbedder{}
	ix := openTest(t, fsys, Options{Embedder: emb})
	calls := emb.calls.Load()
	fsys["docs/a.md"] = &fstest.MapFile{Data: []byte("# Alpha\n\nZebra crossing rules.\n\n\n")}
	if err := ix.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	if emb.calls.Load() != calls {
		t.Fatal("the unchanged chunks were embedded again; the test needs reused vectors")
	}
	res, err := ix.Search(ctx, Query{Text: "zebra crossing rules", Mode: Vector, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/a.md" {
		t.Errorf("search = %+v, %v; want docs/a.md first", res.Results, err)
	}
}

// TestTextRulesChangeEmbedsAgain checks that an index saved under other
// text rules (embedTextRules) is embedded again when opened, not served
// with vectors of texts the code no longer makes.
func TestTextRulesChangeEmbedsAgain(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	defer func(was int) { embedTextRules = was }(embedTextRules)
	embedTextRules = 1
	first := &trigramEmbedder{}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: first})
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	same := &trigramEmbedder{}
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: same})
	if n := same.texts.Load(); n != 0 {
		t.Fatalf("reopened under the same rules: %d texts embedded again", n)
	}
	embedTextRules = 2
	next := &trigramEmbedder{}
	again := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: next})
	if n, want := next.texts.Load(), first.texts.Load(); n != want {
		t.Errorf("reopened under new rules: %d texts embedded, want all %d", n, want)
	}
	if got := again.Stats().Embedder; !strings.HasSuffix(got, "+text=2") {
		t.Errorf("index records %q", got)
	}
}
