package docsearch

import (
	"maps"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestCompactionShedsMappedPages checks that a compaction of a loaded,
// mapped index gives back the pages it has read of the mapping as it
// goes, the whole mapping each time, and that what it copied out is
// what was there: the texts and a search are as before.
func TestCompactionShedsMappedPages(t *testing.T) {
	defer func(b int, f func([]byte)) { shedBytes, shed = b, f }(shedBytes, shed)
	_, a, b := savedMapped(t, 8)
	want := map[string]string{}
	for _, d := range a.docs {
		if d.put {
			want[d.path] = strings.Clone(d.text)
		}
	}
	start, size := unsafe.Pointer(&b.mapped[0]), len(b.mapped)
	calls := 0
	shedBytes = 64
	shed = func(m []byte) {
		if unsafe.Pointer(&m[0]) != start || len(m) != size {
			t.Errorf("shed %d bytes at %p; want the mapping, %d at %p", len(m), &m[0], size, start)
		}
		calls++
		shedPages(m)
	}
	replaced := Document{Path: "put/0", Scope: ScopeDocs, Text: "# Replaced\n\nnew text\n"}
	// The whole file is written: compacted first.
	b.opts.Merge = true
	if err := b.Put(ctx, []Document{replaced}); err != nil { // the save compacts
		t.Fatal(err)
	}
	want[replaced.Path] = replaced.Text
	if calls < 2 {
		t.Errorf("the compaction shed the mapping %d times; want one per %d bytes read", calls, shedBytes)
	}
	got := map[string]string{}
	for _, d := range b.docs {
		if d.put {
			got[d.path] = d.text
		}
	}
	if !maps.Equal(got, want) {
		t.Error("texts after a shedding compaction differ")
	}
	res, err := b.Search(ctx, Query{Text: "register a blueprint", Scopes: []string{ScopeCode}, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Signature == "" {
		t.Errorf("code search after compaction = %+v, %v", res.Results, err)
	}
}

// TestShedderUnmapped checks that an index read into memory, not
// mapped, never sheds: madvise on the heap is not for it to ask.
func TestShedderUnmapped(t *testing.T) {
	defer func(b int, f func([]byte)) { shedBytes, shed = b, f }(shedBytes, shed)
	shedBytes = 1
	shed = func([]byte) { t.Error("shed an index that is not mapped") }
	ix := &Index{mapped: make([]byte, 4096)}
	ix.shedder().read(4096)
}

// TestSaveShedsMappedPages checks that saving a loaded index to which a
// document was only added, so that nothing is compacted and the save
// reads the postings, rows and texts from the mapping, gives back the
// pages it read as it goes.
func TestSaveShedsMappedPages(t *testing.T) {
	defer func(b int, f func([]byte)) { shedBytes, shed = b, f }(shedBytes, shed)
	dir, _, b := savedMapped(t, 8)
	b.opts.Merge = true // the whole file is written, read from the mapping
	calls := 0
	shedBytes = 64
	shed = func(m []byte) { calls++; shedPages(m) }
	added := Document{Path: "put/added", Scope: ScopeDocs, Text: "# Added\n\nsparkline drawing\n"}
	if err := b.Put(ctx, []Document{added}); err != nil { // saves
		t.Fatal(err)
	}
	if b.unmap == nil {
		t.Fatal("the save compacted: this test wants a save that reads the mapping")
	}
	if calls < 2 {
		t.Errorf("the save shed the mapping %d times; want one per %d bytes read", calls, shedBytes)
	}
	c := openTest(t, mapFS(nil), Options{Dir: dir})
	for _, q := range []Query{{Text: "register a blueprint", Scopes: []string{ScopeCode}, MinScore: zero()}, {Text: "sparkline drawing", MinScore: zero()}} {
		rb, _ := b.Search(ctx, q)
		rc, err := c.Search(ctx, q)
		if err != nil || len(rc.Results) == 0 || !reflect.DeepEqual(rb.Results, rc.Results) {
			t.Errorf("%q from the saved file: %+v, %v; before the save: %+v", q.Text, rc.Results, err, rb.Results)
		}
	}
}

// savedMapped saves an index of n Put texts and flask's code in a new
// dir, a, and opens it again, b: loaded, its file mapped. It skips where
// the platform reads the file instead.
func savedMapped(t *testing.T, n int) (dir string, a, b *Index) {
	t.Helper()
	dir = t.TempDir()
	a = openTest(t, mapFS(nil), Options{Dir: dir})
	if err := a.Put(ctx, putTexts(n)); err != nil {
		t.Fatal(err)
	}
	putCode(t, a, flaskCode())
	b = openTest(t, mapFS(nil), Options{Dir: dir})
	if !b.fileMapped {
		t.Skip("the index is not mapped on", runtime.GOOS)
	}
	return dir, a, b
}
