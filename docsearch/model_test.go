package docsearch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRandomChanges drives an index through random edits, removals and
// additions of documents, applied by Update, Rescan, Save and reopening,
// an Update whose embedding fails and a change of embedder,
// and checks after each step that what the index finds is what the files
// say: every document changed, and a sample of the others, is found first
// by its own marker word and, by vector search, by its own text; no
// removed document is found; the index counts the documents on disk.
// The changes are sometimes large enough to compact the index, and the
// workspace holds more documents than one batch.
func TestRandomChanges(t *testing.T) {
	steps, files := 24, applyBatch+60
	if testing.Short() {
		steps = 8
	}
	r := rand.New(rand.NewPCG(11, 12))
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	version := map[int]int{} // document number → version on disk; absent when removed
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	name := func(i int) string { return fmt.Sprintf("docs/n%03d.md", i) }
	text := func(i, v int) string {
		// Letters drawn from the document and version, so that texts
		// differ in most trigrams, as the test embedder sees them.
		g := rand.New(rand.NewPCG(uint64(i), uint64(v)))
		salt := make([]byte, 40)
		for k := range salt {
			salt[k] = "abcdefghijklmnopqrstuvwxyz   "[g.IntN(29)]
		}
		return fmt.Sprintf("# Note %d\n\nmk%dv%d %s\n", i, i, v, salt)
	}
	write := func(i, v int) {
		p := filepath.Join(root, filepath.FromSlash(name(i)))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text(i, v)), 0o644); err != nil {
			t.Fatal(err)
		}
		tick = tick.Add(time.Second) // distinct times: a rescan trusts size and time
		os.Chtimes(p, tick, tick)
		version[i] = v
	}
	for i := range files {
		write(i, 0)
	}
	next := files // the next document number
	emb := &flakyEmbedder{}
	open := func() *Index { return openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb}) }
	ix := open()

	// check verifies the documents in docs and, when all is set, the
	// count and 40 others.
	check := func(step string, docs []int, all bool) {
		t.Helper()
		if all {
			for range 40 {
				docs = append(docs, r.IntN(next))
			}
		}
		for _, i := range docs {
			v, ok := version[i]
			marker := fmt.Sprintf("mk%dv%d", i, v)
			res, err := ix.Search(ctx, Query{Text: marker, Mode: Lexical, MinScore: zero()})
			if err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			found := len(res.Results) > 0 && res.Results[0].Path == name(i)
			if ok && !found {
				t.Fatalf("%s: %s (version %d) not found by %s: %v", step, name(i), v, marker, res.Results)
			}
			if !ok {
				for _, r := range res.Results {
					if r.Path == name(i) {
						t.Fatalf("%s: removed %s still found", step, name(i))
					}
				}
				continue
			}
			res, err = ix.Search(ctx, Query{Text: text(i, v), Mode: Vector, MinScore: zero()})
			if err != nil || len(res.Results) == 0 || res.Results[0].Path != name(i) {
				var top []string
				for _, r := range res.Results[:min(3, len(res.Results))] {
					top = append(top, r.Path)
				}
				t.Fatalf("%s: vector search for %s's text found %v, %v", step, name(i), top, err)
			}
		}
		if all {
			if got := ix.Stats().Docs; got != len(version) {
				t.Fatalf("%s: %d documents indexed, %d on disk", step, got, len(version))
			}
		}
	}
	check("built", nil, true)

	for step := range steps {
		// Change some documents: edit, remove or add.
		n := 1 + r.IntN(8)
		if r.IntN(4) == 0 {
			n = 2 * files // enough edits to compact in the commit that adds their new text
		}
		var changed []int
		for range n {
			switch i := r.IntN(next); {
			case r.IntN(5) == 0:
				write(next, 0)
				changed = append(changed, next)
				next++
			case r.IntN(4) == 0:
				os.Remove(filepath.Join(root, filepath.FromSlash(name(i))))
				delete(version, i)
				changed = append(changed, i)
			default:
				write(i, version[i]+1)
				changed = append(changed, i)
			}
		}
		slices.Sort(changed)
		changed = slices.Compact(changed)
		label := fmt.Sprintf("step %d", step)
		switch r.IntN(6) {
		case 0:
			var paths []string
			for _, i := range changed {
				paths = append(paths, name(i))
			}
			if err := ix.Update(ctx, paths); err != nil {
				t.Fatal(err)
			}
			check(label+" (update)", changed, false)
		case 1:
			if err := ix.Rescan(ctx); err != nil {
				t.Fatal(err)
			}
			check(label+" (rescan)", changed, true)
		case 2:
			if err := ix.Save(); err != nil {
				t.Fatal(err)
			}
			ix = open()
			check(label+" (save, reopen)", changed, true)
		case 3:
			ix = open()
			check(label+" (reopen)", changed, true)
		case 4:
			// The embedder fails on the update; the rescan after it
			// embeds what it could not.
			var paths []string
			for _, i := range changed {
				paths = append(paths, name(i))
			}
			emb.down.Store(true)
			ix.Update(ctx, paths) // fails if anything needed embedding
			emb.down.Store(false)
			if err := ix.Rescan(ctx); err != nil {
				t.Fatal(err)
			}
			check(label+" (failed update, rescan)", changed, true)
		default:
			// Another embedder: everything is embedded again.
			emb = &flakyEmbedder{trigramEmbedder: trigramEmbedder{name: fmt.Sprint("test-trigram-64-", step)}}
			ix = open()
			check(label+" (new embedder)", changed, true)
		}
	}
}
