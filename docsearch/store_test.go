package docsearch

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &trigramEmbedder{}
	a := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	b := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if emb.calls.Load() == 0 {
		t.Fatal("nothing embedded")
	}
	if sa, sb := a.Stats(), b.Stats(); sa != sb {
		t.Errorf("stats after load %+v, before %+v", sb, sa)
	}
	q := Query{Text: "configure the chart width", MinScore: new(float64)}
	ra, err := a.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ra, rb) {
		t.Errorf("results after load differ:\n%+v\n%+v", rb, ra)
	}
}

// TestArraysInPlace checks that the arrays part's numbers are used
// where they lie when aligned on a little-endian machine, and decoded to
// the same values otherwise.
func TestArraysInPlace(t *testing.T) {
	le := binary.LittleEndian
	f := []float32{1.5, -2.25, 3e-7, 0}
	u32 := []uint32{7, 1 << 31, 0, 42}
	u64 := []uint64{1 << 63, 3, 0, 1<<40 + 5}
	ps := []posting{{3, 1}, {1 << 30, 1 << 24}}
	buf := make([]byte, 40)
	for _, off := range []int{0, 1, 4} {
		b := buf[off : off+32]
		check := func(name string, got any, first unsafe.Pointer, align uintptr, want any) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("offset %d: %s = %v, want %v", off, name, got, want)
			}
			aligned := uintptr(unsafe.Pointer(&b[0]))%align == 0
			if shared := first == unsafe.Pointer(&b[0]); shared != (aligned && littleEndian) {
				t.Errorf("offset %d: %s in place = %v, aligned = %v", off, name, shared, aligned)
			}
		}
		for i, x := range f {
			le.PutUint32(b[4*i:], math.Float32bits(x))
		}
		got := floats(b[:16])
		check("floats", got, unsafe.Pointer(&got[0]), 4, f)
		for i, x := range u32 {
			le.PutUint32(b[4*i:], x)
		}
		g32 := uint32s(b[:16])
		check("uint32s", g32, unsafe.Pointer(&g32[0]), 4, u32)
		for i, x := range u64 {
			le.PutUint64(b[8*i:], x)
		}
		g64 := uint64s(b)
		check("uint64s", g64, unsafe.Pointer(&g64[0]), 8, u64)
		for i, p := range ps {
			le.PutUint32(b[8*i:], p.chunk)
			le.PutUint32(b[8*i+4:], p.tf)
		}
		gp := postings(b[:16])
		check("postings", gp, unsafe.Pointer(&gp[0]), 4, ps)
		if cap(gp) != len(gp) {
			t.Errorf("offset %d: postings have room to grow in place", off)
		}
	}
}

// TestLoadedVectorsUpdate changes a document of an index loaded from disk,
// whose vectors lie in the mapped file: re-embedding writes to them, and
// the saved file the mapping came from is replaced, not changed.
func TestLoadedVectorsUpdate(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &trigramEmbedder{}
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	saved, err := os.ReadFile(filepath.Join(dir, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	// Merge: the whole file is written, not a delta beside it.
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb, Merge: true})
	writeTree(t, root, map[string]string{"docs/intro.rst": "Quokkas\n=======\n\nQuokka quokka quokka.\n"})
	if err := ix.Update(ctx, []string{"docs/intro.rst"}); err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(ctx, Query{Text: "quokka quokka", Mode: Vector, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/intro.rst" {
		t.Errorf("vector search after update = %+v, %v", res.Results, err)
	}
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	q := Query{Text: "widget quokka", MinScore: zero()}
	ra, _ := ix.Search(ctx, q)
	rb, _ := again.Search(ctx, q)
	if !reflect.DeepEqual(ra, rb) {
		t.Errorf("results after reloading differ:\n%+v\n%+v", rb, ra)
	}
	now, _ := os.ReadFile(filepath.Join(dir, storeFile))
	if bytes.Equal(now, saved) {
		t.Error("the saved index did not change after the update")
	}
}

// TestVectorsAcrossBlocks grows, saves, loads, grows again and compacts an
// index of more chunks than a vector block holds, checking after each
// step that vector search still finds a chunk of every block by its text.
func TestVectorsAcrossBlocks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	doc := func(i int) (string, string) {
		return fmt.Sprintf("docs/d%04d.md", i), fmt.Sprintf("# Note %d\n\nzq%dx kw%dy %d\n", i, i, i*7, i)
	}
	files := map[string]string{}
	for i := range blockRows + 500 {
		name, text := doc(i)
		files[name] = text
	}
	writeTree(t, root, files)
	emb := &trigramEmbedder{}
	expect := func(ix *Index, i int, step string) {
		t.Helper()
		name, text := doc(i)
		res, err := ix.Search(ctx, Query{Text: text, Mode: Vector, MinScore: zero()})
		if err != nil || len(res.Results) == 0 || res.Results[0].Path != name {
			var top []string
			for _, r := range res.Results[:min(3, len(res.Results))] {
				top = append(top, r.Path)
			}
			t.Errorf("%s: vector search for %s's text found %v, %v", step, name, top, err)
		}
	}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	for _, i := range []int{0, blockRows - 1, blockRows, blockRows + 499} {
		expect(ix, i, "built")
	}

	// Loaded: the rows alias the mapped file, the last block is short;
	// new documents grow it.
	ix = openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	var added []string
	for i := blockRows + 500; i < 2*blockRows+100; i++ {
		name, text := doc(i)
		writeTree(t, root, map[string]string{name: text})
		added = append(added, name)
	}
	if err := ix.Update(ctx, added); err != nil {
		t.Fatal(err)
	}
	if got, want := ix.vec.chunks(), ix.nchunks(); got != want {
		t.Fatalf("%d vector rows for %d chunks", got, want)
	}
	for _, i := range []int{3, blockRows + 400, blockRows + 500, 2*blockRows + 99} {
		expect(ix, i, "loaded and grown")
	}

	// Removing most documents compacts the index into new blocks.
	var removed []string
	for i := 0; i < 2*blockRows; i += 4 {
		if i%8 != 0 {
			continue
		}
		name, _ := doc(i)
		removed = append(removed, name)
	}
	for i := 1; i < 2*blockRows; i += 2 {
		name, _ := doc(i)
		removed = append(removed, name)
	}
	for _, name := range removed {
		if err := os.Remove(filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Update(ctx, removed); err != nil {
		t.Fatal(err)
	}
	if ix.dead != 0 {
		t.Fatalf("%d dead chunks after removing %d of %d documents; want a compaction", ix.dead, len(removed), 2*blockRows+100)
	}
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	for _, i := range []int{2, 4, blockRows + 2, 2*blockRows + 98, 2*blockRows + 99} {
		expect(ix, i, "compacted")
		expect(again, i, "compacted and reloaded")
	}
}

func TestVectorsGrowZero(t *testing.T) {
	v := vectors{dim: 2}
	v.setRows([]int8{1, 2, 3, 4, 5, 6}, []float32{0.5, 0.5, 0.25}) // 3 rows, one short block, as a loaded file's
	v.growTo(blockRows + 2)
	if v.chunks() != blockRows+2 || len(v.blocks) != 2 || len(v.scales) != 2 {
		t.Fatalf("after grow: %d rows in %d blocks", v.chunks(), len(v.blocks))
	}
	if r, s := v.row(2); r[0] != 5 || r[1] != 6 || s != 0.25 {
		t.Errorf("row 2 = %v × %v after growing; want [5 6] × 0.25", r, s)
	}
	for _, i := range []uint32{3, blockRows - 1, blockRows, blockRows + 1} {
		if r, s := v.row(i); r[0] != 0 || r[1] != 0 || s != 0 {
			t.Errorf("new row %d = %v × %v; want zero", i, r, s)
		}
	}
}

// TestReopenWithSkippedFileDoesNotSave reopens an unchanged tree holding
// undecodable files: they are skipped again, and the saved index is left
// alone rather than written anew at every open.
func TestReopenWithSkippedFileDoesNotSave(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	writeTree(t, root, map[string]string{"docs/latin1.txt": "caf\xe9 cr\xe8me\n"})
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &trigramEmbedder{}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if len(ix.skipped) != 3 {
		t.Fatalf("skipped %v; want node_modules/, the binary and the Latin-1 file", ix.skipped)
	}
	before, err := os.Stat(filepath.Join(dir, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if !reflect.DeepEqual(again.skipped, ix.skipped) {
		t.Errorf("skipped after reopening %v; want %v", again.skipped, ix.skipped)
	}
	after, err := os.Stat(filepath.Join(dir, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("reopening an unchanged tree wrote the index again")
	}
}

// TestRemoveEverythingThenAdd removes every document, enough of them for
// the index to compact down to no chunks at all, commits nothing, then
// adds one: growing the vectors of an empty index to its chunk count once
// asked for row 2³² − 1.
func TestRemoveEverythingThenAdd(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	var paths []string
	for i := range 100 {
		p := fmt.Sprintf("docs/d%d.md", i)
		files[p] = fmt.Sprintf("# D%d\n\nalpha%d beta\n", i, i)
		paths = append(paths, p)
	}
	writeTree(t, root, files)
	ix := openTest(t, os.DirFS(root), Options{Embedder: &trigramEmbedder{}})
	for _, p := range paths {
		if err := os.Remove(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Update(ctx, paths); err != nil {
		t.Fatal(err)
	}
	if len(ix.chunks) != 0 || ix.vec.chunks() != 0 {
		t.Fatalf("%d chunks, %d vector rows after removing everything; want a compaction to none", len(ix.chunks), ix.vec.chunks())
	}
	// A commit that adds nothing to the empty index.
	if err := ix.Update(ctx, paths[:1]); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"docs/c.md": "# C\n\ndelta epsilon\n"})
	if err := ix.Update(ctx, []string{"docs/c.md"}); err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(ctx, Query{Text: "delta epsilon", Mode: Vector, MinScore: zero()})
	if err != nil || len(res.Results) != 1 || res.Results[0].Path != "docs/c.md" {
		t.Errorf("vector search after adding to an emptied index = %+v, %v", res.Results, err)
	}
}

// TestSketchesSaved checks that an index large enough to be sketched
// saves its sketches and loads them in place of computing them again:
// the loaded sketches are the computed ones, alias the file, and search
// as they did.
func TestSketchesSaved(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := sketchMin + 100
	ix := &Index{lex: newLexicon(), embName: "test", vec: clustered(r, n, 100)}
	ix.docs = []*doc{{path: "docs/all.md", scope: ScopeDocs, count: uint32(n), prose: noProse}}
	for c := range n {
		ix.chunks = append(ix.chunks, chunkRec{title: fmt.Sprint("chunk ", c)})
		ix.lex.add([]termFreq{{"all", 1}, {fmt.Sprint("c", c%97), 2}})
	}
	ix.vec.resketch()
	data := ix.encode()
	st, err := decodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	got, want := st.vec.sk, ix.vec.sk
	if got.base != want.base || got.words != want.words || !slices.Equal(got.mean, want.mean) || !slices.Equal(got.bits, want.bits) {
		t.Fatalf("loaded sketches differ: base %d words %d, want %d %d", got.base, got.words, want.base, want.words)
	}
	start, p := uintptr(unsafe.Pointer(&data[0])), uintptr(unsafe.Pointer(&got.bits[0]))
	if inData := p >= start && p < start+uintptr(len(data)); inData != (littleEndian && start%8 == 0) {
		t.Errorf("sketch bits in the encoded bytes = %v", inData)
	}
	q := rowFloats(&ix.vec, 1234)
	all := func(uint32) bool { return true }
	if a, b := ix.vec.searchSketched(q, 10, all), st.vec.searchSketched(q, 10, all); !reflect.DeepEqual(a, b) {
		t.Errorf("sketched search after loading = %v, before %v", b, a)
	}
}

// TestLoadedTermsAndNewOnes checks term lookup in a loaded index, whose
// terms are found by binary search until a change maps them all, then
// once the change has added terms of its own and removed a document whose
// terms are then gone from the saved vocabulary.
func TestLoadedTermsAndNewOnes(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	openTest(t, os.DirFS(root), Options{Dir: dir})
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	if ix.lex.tab == nil || ix.lex.nterms() == 0 || ix.lex.ids.len() != 0 {
		t.Fatalf("loaded lexicon: %d terms in place, %d in the map", ix.lex.nterms(), ix.lex.ids.len())
	}
	expectTop(t, ix, "sparklines", "docs/intro.rst")
	writeTree(t, root, map[string]string{"docs/zoo.md": "# Zoo\n\nQuokkas and sparklines live here. Quokkas.\n"})
	os.Remove(filepath.Join(root, "docs/notes.txt"))
	if err := ix.Update(ctx, []string{"docs/zoo.md", "docs/notes.txt"}); err != nil {
		t.Fatal(err)
	}
	if ix.lex.sortedBase != 0 || ix.lex.ids.len() != len(ix.lex.terms) {
		t.Errorf("after a change: %d sorted terms, %d of %d in the map", ix.lex.sortedBase, ix.lex.ids.len(), len(ix.lex.terms))
	}
	expectTop(t, ix, "quokkas", "docs/zoo.md")
	expectTop(t, ix, "dashboards combine", "docs/page.html")
	if res, _ := ix.Search(ctx, Query{Text: "histograms", Mode: Lexical, MinScore: zero()}); len(res.Results) != 0 {
		t.Errorf("removed document found: %+v", res.Results)
	}
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	expectTop(t, again, "quokkas", "docs/zoo.md")
	if _, ok := again.lex.id("histogram"); ok {
		t.Error("a term only a removed document had was saved")
	}
}

// TestCompactionUnmaps checks that a loaded index lets its mapped file go
// once a compaction has copied everything out of it: a long-running
// server would otherwise hold the disk space of a file saves replaced.
func TestCompactionUnmaps(t *testing.T) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps:", err)
	}
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &trigramEmbedder{}
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	file := filepath.Join(dir, storeFile)
	mapped := func() bool {
		maps, _ = os.ReadFile("/proc/self/maps")
		return bytes.Contains(maps, []byte(file))
	}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb, Merge: true}) // a save compacts
	if !mapped() {
		t.Fatal("the loaded index is not mapped")
	}
	os.Remove(filepath.Join(root, "docs/notes.txt"))
	if err := ix.Update(ctx, []string{"docs/notes.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(); err != nil { // compacts, then replaces the file
		t.Fatal(err)
	}
	if mapped() {
		t.Error("the replaced index file is still mapped after compaction")
	}
	expectTop(t, ix, "sparklines", "docs/intro.rst")
	res, err := ix.Search(ctx, Query{Text: "sparkline drawing", Mode: Vector, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/intro.rst" {
		t.Errorf("vector search after compaction = %+v, %v", res.Results, err)
	}
	runtime.KeepAlive(ix)
}

// TestLoadSkipsPagesOfCode checks an index opened from disk reads the
// page signals of the documents ranked by them, not of code documents
// (pageSignal passes them over), and searches code as before.
func TestLoadSkipsPagesOfCode(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	a := openTest(t, os.DirFS(root), Options{Dir: dir})
	putCode(t, a, flaskCode())
	b := openTest(t, os.DirFS(root), Options{Dir: dir})
	code, pages := 0, 0
	for id := range uint32(b.ndocs()) {
		d := b.doc(id)
		switch {
		case d.scope == ScopeCode && d.page != nil:
			t.Errorf("code document %s: page signals read at load", d.path)
		case d.scope == ScopeCode:
			code++
		case d.page != nil:
			pages++
		}
	}
	if code == 0 || pages == 0 {
		t.Fatalf("%d code documents, %d pages with signals; want both", code, pages)
	}
	for _, q := range []Query{{Text: "register a blueprint", MinScore: new(float64)}, {Text: "configure the chart width", MinScore: new(float64)}} {
		ra, _ := a.Search(context.Background(), q)
		rb, _ := b.Search(context.Background(), q)
		if len(ra.Results) == 0 || !reflect.DeepEqual(ra, rb) {
			t.Errorf("%q after load:\n%+v\nbefore:\n%+v", q.Text, rb, ra)
		}
	}
}

// TestSealedLoad checks that a load of an index file checked whole
// before (sealed) sums only its meta part's segments, that a file
// changed since is checked whole and, when damaged, rebuilt; and that
// Verify finds damage the seal hides (a byte changed under the same time
// stamp) and unseals it, so that the next open rebuilds it.
func TestSealedLoad(t *testing.T) {
	defer func(old int) { sumSegment = old }(sumSegment)
	sumSegment = 256
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &trigramEmbedder{}
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb}) // builds, saves and seals
	file := filepath.Join(dir, storeFile)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	meta := binary.LittleEndian.Uint64(good[len(good)-4-4*int(binary.LittleEndian.Uint32(good[len(good)-4:]))-8:])
	if len(good)-int(meta) < 3*sumSegment {
		t.Fatalf("index of %d bytes, meta %d: want several segments of arrays", len(good), meta)
	}
	load := func() (int64, *Index) {
		t.Helper()
		before := checkedBytes.Load()
		ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
		return checkedBytes.Load() - before, ix
	}
	sealed, _ := load()
	if sealed > int64(meta)+int64(sumSegment) {
		t.Errorf("sealed load summed %d bytes; want the meta part's segments, %d bytes or less", sealed, int64(meta)+int64(sumSegment))
	}
	os.Remove(filepath.Join(dir, sealFile))
	whole, _ := load()
	if whole < int64(len(good))-int64(sumSegment) {
		t.Errorf("unsealed load summed %d of %d bytes; want all", whole, len(good))
	}
	// A damaged vector byte, written as any process writes: the time
	// stamp changes, the file is checked whole and rebuilt.
	bad := slices.Clone(good)
	bad[len(bad)-200] ^= 0x40
	st, _ := os.Stat(file)
	os.WriteFile(file, bad, 0o644)
	later := st.ModTime().Add(time.Second)
	os.Chtimes(file, later, later)
	if err := Verify(dir); err == nil {
		t.Fatal("Verify passed a damaged index")
	}
	calls := emb.calls.Load()
	_, ix := load()
	if emb.calls.Load() == calls {
		t.Error("a damaged index was loaded, not rebuilt")
	}
	if err := Verify(dir); err != nil {
		t.Errorf("the rebuilt index: %v", err)
	}
	_ = ix
	// The same damage under the saved time stamp: the seal hides it from
	// a load, not from Verify, which unseals the file.
	rebuilt, _ := os.ReadFile(file)
	st, _ = os.Stat(file)
	bad = slices.Clone(rebuilt)
	bad[len(bad)-200] ^= 0x40
	os.WriteFile(file, bad, 0o644)
	os.Chtimes(file, st.ModTime(), st.ModTime())
	if err := Verify(dir); err == nil || !errors.Is(err, errCorrupt) {
		t.Fatalf("Verify of a damaged, sealed index: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, sealFile)); err == nil {
		t.Error("Verify left the damaged index sealed")
	}
	calls = emb.calls.Load()
	load()
	if emb.calls.Load() == calls {
		t.Error("after Verify, the damaged index was loaded, not rebuilt")
	}
}

// TestSaveIgnoredByGit checks the index directory ignores itself, so
// that saving an index leaves git status clean.
func TestSaveIgnoredByGit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	openTest(t, os.DirFS(root), Options{Dir: dir})
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil || !slices.Contains(strings.Split(string(b), "\n"), "*") {
		t.Errorf(".gitignore of the index directory: %q, %v; want one that ignores everything", b, err)
	}
}
