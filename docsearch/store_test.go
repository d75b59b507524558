package docsearch

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
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

// TestFloatsInPlace checks that aligned little-endian vectors are used
// where they lie and unaligned ones decoded to the same values.
func TestFloatsInPlace(t *testing.T) {
	want := []float32{1.5, -2.25, 3e-7}
	buf := make([]byte, 4*len(want)+4)
	for _, off := range []int{0, 1} {
		for i, x := range want {
			binary.LittleEndian.PutUint32(buf[off+4*i:], math.Float32bits(x))
		}
		b := buf[off : off+4*len(want)]
		got := floats(b)
		if !slices.Equal(got, want) {
			t.Errorf("offset %d: floats = %v, want %v", off, got, want)
		}
		aligned := uintptr(unsafe.Pointer(&b[0]))%4 == 0
		if shared := inside(b, got); shared != (aligned && littleEndian) {
			t.Errorf("offset %d: vectors in place = %v, aligned = %v", off, shared, aligned)
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
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
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
	if got, want := ix.vec.chunks(), len(ix.chunks); got != want {
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
	v := rowsOf(2, []float32{1, 2, 3, 4, 5, 6}) // 3 rows, one short block
	v.growTo(blockRows + 2)
	if v.chunks() != blockRows+2 || len(v.blocks) != 2 {
		t.Fatalf("after grow: %d rows in %d blocks", v.chunks(), len(v.blocks))
	}
	if r := v.row(2); r[0] != 5 || r[1] != 6 {
		t.Errorf("row 2 = %v after growing; want [5 6]", r)
	}
	for _, i := range []uint32{3, blockRows - 1, blockRows, blockRows + 1} {
		if r := v.row(i); r[0] != 0 || r[1] != 0 {
			t.Errorf("new row %d = %v; want zero", i, r)
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
	if len(ix.skipped) != 2 {
		t.Fatalf("skipped %v; want the binary and the Latin-1 file", ix.skipped)
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
