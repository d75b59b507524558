package docsearch

import (
	"bytes"
	"context"
	"encoding/binary"
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
