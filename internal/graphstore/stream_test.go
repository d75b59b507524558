package graphstore

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// withoutStreamed returns ForBuild of f, without its calls when its
// language is one of streamedLanguages: what streamedEntries decodes.
func withoutStreamed(f *extract.File) extract.File {
	g := ForBuild(f)
	if streamedLanguages[f.Language] {
		g.Calls = nil
	}
	return g
}

// smallSegments makes a run file's segments hold n entries for the
// test, so a small tree spans several.
func smallSegments(t testing.TB, n int) {
	old := spillPer
	spillPer = n
	t.Cleanup(func() { spillPer = old })
}

// TestCallSource checks, on a tree spread over segments of 3 entries,
// that streamedEntries decodes each file as ForBuild but for C's calls,
// that callSource gives each C file's calls as the whole decode has them
// and no others, asked in path order (not the run file's), and that the
// graph built to save over the two is Build's over the whole files.
func TestCallSource(t *testing.T) {
	smallSegments(t, 3)
	r, _ := spilled(t, buildTree(t))
	whole, err := r.entries()
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := r.streamedEntries()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.segs) < 3 {
		t.Fatalf("%d segments: the test wants several", len(r.segs))
	}
	var files []extract.File
	cFiles := 0
	for i := range whole {
		if whole[i].File == nil {
			continue
		}
		if want := withoutStreamed(whole[i].File); !reflect.DeepEqual(*streamed[i].File, want) {
			t.Errorf("%s: streamed decode differs", whole[i].Path)
		}
		if streamedLanguages[whole[i].File.Language] && len(whole[i].File.Calls) > 0 {
			cFiles++
		}
		files = append(files, *whole[i].File)
	}
	if cFiles < 3 {
		t.Fatalf("%d C files with calls: the tree has too few", cFiles)
	}
	src, err := r.callSource(streamed)
	if err != nil {
		t.Fatal(err)
	}
	byPath := byPath(whole)
	paths := make([]string, 0, len(files))
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	sort.Strings(paths)
	for _, p := range paths {
		calls, err := src(p)
		if err != nil {
			t.Fatal(err)
		}
		f := byPath[p].File
		switch {
		case !streamedLanguages[f.Language] && calls != nil:
			t.Errorf("%s (%s): the source gave calls", p, f.Language)
		case streamedLanguages[f.Language] && !reflect.DeepEqual(calls, f.Calls):
			t.Errorf("%s: the source gave %d calls, the whole decode has %d", p, len(calls), len(f.Calls))
		}
	}

	// The graph: built to save over a fresh streamed decode and its source,
	// against Build over the whole files.
	streamed, err = r.streamedEntries()
	if err != nil {
		t.Fatal(err)
	}
	if src, err = r.callSource(streamed); err != nil {
		t.Fatal(err)
	}
	var taken []extract.File
	for _, e := range streamed {
		if e.File != nil {
			taken = append(taken, *e.File)
		}
	}
	g, err := callgraph.BuildToSave(context.Background(), taken, src)
	if err != nil {
		t.Fatal(err)
	}
	want := callgraph.Build(files)
	if !reflect.DeepEqual(g.Save(), want.Save()) || !reflect.DeepEqual(g.Nodes(), want.Nodes()) {
		t.Error("the graph built to save over the streamed decode differs from Build's")
	}
	if len(g.Edges()) < 40 {
		t.Errorf("%d edges: the tree's calls did not resolve", len(g.Edges()))
	}
}

// TestCallSourceDamaged: a segment damaged after the streamed decode is
// an error when its calls are asked for, never a wrong graph.
func TestCallSourceDamaged(t *testing.T) {
	smallSegments(t, 3)
	r, _ := spilled(t, buildTree(t))
	streamed, err := r.streamedEntries()
	if err != nil {
		t.Fatal(err)
	}
	src, err := r.callSource(streamed)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.segs {
		if _, err := r.f.WriteAt([]byte{0xff, 0xff, 0xff}, s.off+s.size-3); err != nil {
			t.Fatal(err)
		}
	}
	var taken []extract.File
	for _, e := range streamed {
		if e.File != nil {
			taken = append(taken, *e.File)
		}
	}
	if _, err := callgraph.BuildToSave(context.Background(), taken, src); err == nil {
		t.Fatal("a damaged run file built a graph")
	}
}

// FuzzStreamedDecode: a run file's segment decoded for the streamed
// build, or for its calls alone, is an error or entries, never a panic;
// when it decodes whole, the streamed decode is withoutStreamed of each
// file and the calls decode has the whole one's calls of its C files.
func FuzzStreamedDecode(f *testing.F) {
	smallSegments(f, 3)
	seedSegments(f)
	full, err := planOf(reflect.TypeFor[Entry]())
	if err != nil {
		f.Fatal(err)
	}
	sp, cp, err := streamedEntryPlans()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rec []byte, n uint8) {
		streamed := make([]Entry, n)
		serr := decodeRunSegment(rec, streamed, sp)
		calls := make([]Entry, n)
		cerr := decodeRunSegment(rec, calls, cp)
		whole := make([]Entry, n)
		if err := decodeRunSegment(rec, whole, full); err != nil {
			return
		}
		if serr != nil || cerr != nil {
			t.Fatalf("decodes whole, not streamed (%v) or for its calls (%v)", serr, cerr)
		}
		for i := range whole {
			w := whole[i].File
			if w == nil {
				continue
			}
			if !reflect.DeepEqual(*streamed[i].File, withoutStreamed(w)) {
				t.Fatalf("file %d streamed differs from withoutStreamed of it whole", i)
			}
			if streamedLanguages[w.Language] && !reflect.DeepEqual(calls[i].File.Calls, w.Calls) {
				t.Fatalf("file %d: its calls decoded alone differ", i)
			}
		}
	})
}

// TestIndexedGraphUpdates: the graph `fileinfo index` saves (Discard:
// built to save, C's calls streamed), loaded as a server loads it,
// answers as Build and, after an edit, Updates to what Build makes of
// the edited tree.
func TestIndexedGraphUpdates(t *testing.T) {
	smallSegments(t, 3)
	root := buildTree(t)
	if _, err := Sync(context.Background(), Options{Root: root, Discard: true}); err != nil {
		t.Fatal(err)
	}
	snap, err := Sync(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Extracted != 0 {
		t.Fatalf("the load extracted %d files: the saved graph was not reused", snap.Extracted)
	}
	g := snap.Graph()
	if !g.Restored() {
		t.Fatal("the loaded graph was built again, not restored")
	}
	same := func(got, want *callgraph.Graph, when string) {
		t.Helper()
		if !reflect.DeepEqual(got.Save(), want.Save()) || !reflect.DeepEqual(got.Nodes(), want.Nodes()) {
			t.Errorf("%s: the graph differs from Build's", when)
		}
	}
	same(g, callgraph.Build(snap.Files), "loaded")
	write(t, root, "c/f1.c", "#include \"h2.h\"\nint f1_0(int a) { return f2_0(a) + f0_3(a); }\nint f1_1(int a) { return f1_0(a); }\n")
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.File(context.Background(), "c/f1.c")
	if err != nil {
		t.Fatal(err)
	}
	g.Update([]extract.File{*f}, nil)
	all, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	same(g, callgraph.Build(all), "after an edit")
}
