package docsearch

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// overlayCase is a workspace indexed and saved, then changed: files
// added, changed and removed, documents Put again, code files added,
// replaced and removed.
type overlayCase struct {
	root, dir string
	emb       Embedder
}

// overlayCode is the code of the workspace before (first) and after the
// change.
func overlayCode(after bool) []CodeFile {
	files := flaskCode()
	files = append(files, CodeFile{Path: "src/chart/scale.py", Stamp: 7, Symbols: []CodeSymbol{
		{Name: "quantile_scale", Kind: "function", Signature: "def quantile_scale(rows, q)", Doc: "Quantile scale of the rows.", Line: 1, End: 9},
		{Name: "linear_scale", Kind: "function", Signature: "def linear_scale(rows)", Doc: "Linear scale of the chart axis.", Line: 11, End: 20},
	}})
	if after {
		files = files[1:] // the first file's symbols are removed
		files[len(files)-1].Symbols[1].Doc = "Linear scale of the chart axis, clamped to the widget's range."
		files[len(files)-1].Stamp = 8
		// Written by a tool: a delta keeps the mark (TestDeltaRoundTrip).
		files = append(files, CodeFile{Path: "src/chart/axis.c", Stamp: 3, Generated: true, Symbols: []CodeSymbol{
			{Name: "kmem_axis_create", Kind: "function", Signature: "struct axis *kmem_axis_create(const char *name)", Doc: "Create an axis cache for the widget chart.", Line: 4, End: 30},
		}})
	}
	return files
}

var overlayPut = []Document{
	{Path: "put/a", Scope: ScopeDocs, Text: "# Sparkline cache\n\nThe sparkline cache keeps rendered charts.\n"},
	{Path: "put/b", Scope: ScopeDocs, Text: "# Quokka notes\n\nQuokkas are not charts.\n"},
}

var overlayPutAfter = []Document{
	{Path: "put/b", Scope: ScopeDocs, Text: "# Quokka notes\n\nQuokkas draw sparkline charts now, with a cache.\n"},
	{Path: "put/c", Scope: ScopeDocs, Text: "# Histogram axis\n\nThe axis of a histogram chart, and its quantile scale.\n"},
}

// change applies the change to the workspace's files and to ix.
func (oc *overlayCase) change(t *testing.T, ix *Index) {
	t.Helper()
	writeTree(t, oc.root, map[string]string{
		"docs/added.md":  "# Axis guide\n\nHow the widget draws a chart axis with the quantile scale.\n",
		"docs/intro.rst": "Introduction\n============\n\nThe widget library draws sparklines and histogram axes.\n",
	})
	os.Remove(filepath.Join(oc.root, "docs/notes.txt"))
	if err := ix.Update(ctx, []string{"docs/added.md", "docs/intro.rst", "docs/notes.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Put(ctx, overlayPutAfter); err != nil {
		t.Fatal(err)
	}
	putCode(t, ix, overlayCode(true), "src/flask/app.py")
}

// whole returns the index of the changed workspace built at once.
func (oc *overlayCase) whole(t *testing.T) *Index {
	t.Helper()
	return oc.wholeOf(t, append([]Document{overlayPut[0]}, overlayPutAfter...), overlayCode(true))
}

// wholeOf returns the index of the workspace's files, puts and code
// built at once: nothing in it is removed, so that its statistics are
// those of a rebuild.
func (oc *overlayCase) wholeOf(t *testing.T, puts []Document, code []CodeFile) *Index {
	t.Helper()
	ix := openTest(t, os.DirFS(oc.root), Options{Embedder: oc.emb})
	if err := ix.Put(ctx, puts); err != nil {
		t.Fatal(err)
	}
	putCode(t, ix, code)
	return ix
}

func newOverlayCase(t *testing.T, emb Embedder) *overlayCase {
	t.Helper()
	oc := &overlayCase{root: t.TempDir(), emb: emb}
	writeTree(t, oc.root, workspace)
	oc.dir = filepath.Join(oc.root, ".artifacts", ".index")
	ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: emb})
	if err := ix.Put(ctx, overlayPut); err != nil {
		t.Fatal(err)
	}
	putCode(t, ix, overlayCode(false))
	return oc
}

var overlayQueries = []Query{
	{Text: "sparkline cache"},
	{Text: "quantile scale axis"},
	{Text: "histogram"},
	{Text: "release notes histograms"},
	{Text: "kmem_axis_create"},
	{Text: "linear scale clamped"},
	{Text: "quokka"},
	{Text: "blueprint request", Scopes: []string{ScopeCode}},
	{Text: "chart axis", Scopes: []string{ScopeDocs}},
	{Text: "chart axis", Scopes: []string{ScopeCode}},
	{Text: "spark"},   // a prefix
	{Text: "quantle"}, // a typo
	{Text: "render widget", ContentType: Code},
	{Text: "widget chart", Mode: Lexical},
}

// expectSameResults checks that got and want return the same results,
// scores included, for every query of overlayQueries.
func expectSameResults(t *testing.T, got, want *Index) {
	t.Helper()
	for _, q := range overlayQueries {
		q.MinScore = zero()
		rg, err := got.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		rw, err := want.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rg.Results, rw.Results) {
			t.Errorf("%+v:\n got %+v\nwant %+v", q, rg.Results, rw.Results)
		}
	}
}

// TestOverlaySearchEqualsWhole checks that an index changed after it
// was loaded keeps the change beside its mapped tables, and that its
// searches (results and scores, across scopes, with and without
// vectors) are those of the changed workspace indexed at once, before
// and after a reload from the index file and its delta.
func TestOverlaySearchEqualsWhole(t *testing.T) {
	for name, emb := range map[string]Embedder{"lexical": nil, "vectors": &trigramEmbedder{}} {
		t.Run(name, func(t *testing.T) {
			oc := newOverlayCase(t, emb)
			main := filepath.Join(oc.dir, storeFile)
			before, err := os.ReadFile(main)
			if err != nil {
				t.Fatal(err)
			}
			ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: emb})
			oc.change(t, ix)
			if ix.tab == nil {
				t.Fatal("the change decoded the tables (materialize)")
			}
			want := oc.whole(t)
			expectSameResults(t, ix, want)
			if s, w := ix.Stats(), want.Stats(); s.Docs != w.Docs || s.Chunks != w.Chunks || s.Bytes != w.Bytes {
				t.Errorf("stats %+v, want %+v", s, w)
			}
			now, _ := os.ReadFile(main)
			if !bytes.Equal(now, before) {
				t.Error("the save rewrote the index file; want a delta beside it")
			}
			if _, err := os.Stat(filepath.Join(oc.dir, deltaFile)); err != nil {
				t.Fatal("no delta:", err)
			}
			again, err := OpenSaved(ctx, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: emb})
			if err != nil {
				t.Fatal(err)
			}
			if again.tab == nil {
				t.Fatal("the reload decoded the tables")
			}
			expectSameResults(t, again, want)
			reopened := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: emb})
			expectSameResults(t, reopened, want)
			now, _ = os.ReadFile(main)
			if !bytes.Equal(now, before) {
				t.Error("an open with nothing changed rewrote the index file")
			}
		})
	}
}

// TestOverlayMerge checks that a save past the delta's bound, or with
// Merge, rewrites the index file and removes the delta, and that the
// merged index searches as the whole one.
func TestOverlayMerge(t *testing.T) {
	oc := newOverlayCase(t, nil)
	ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir})
	oc.change(t, ix)
	ix.opts.Merge = true
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(oc.dir, deltaFile)); !os.IsNotExist(err) {
		t.Errorf("the delta is still there after a merge: %v", err)
	}
	want := oc.whole(t)
	expectSameResults(t, ix, want)
	expectSameResults(t, openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir}), want)
}

// TestOverlayChainedChanges checks a change to an index loaded with a
// delta: the delta's documents replaced and removed again.
func TestOverlayChainedChanges(t *testing.T) {
	oc := newOverlayCase(t, nil)
	oc.change(t, openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir}))
	ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir})
	putCode(t, ix, nil, "src/chart/axis.c")
	if err := ix.Put(ctx, []Document{{Path: "put/c", Scope: ScopeDocs, Text: "# Histogram\n\nBins of a histogram.\n"}}); err != nil {
		t.Fatal(err)
	}
	code := overlayCode(true)
	want := oc.wholeOf(t, []Document{overlayPut[0], overlayPutAfter[0], {Path: "put/c", Scope: ScopeDocs, Text: "# Histogram\n\nBins of a histogram.\n"}},
		code[:len(code)-1])
	if ix.tab == nil {
		t.Error("the change decoded the tables")
	}
	expectSameResults(t, ix, want)
	expectSameResults(t, openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir}), want)
}
