package docsearch

import (
	"context"
	"slices"
	"testing"
	"unsafe"
)

// sharesBytes reports whether s's bytes lie inside of's.
func sharesBytes(s, of string) bool {
	if len(s) == 0 || len(of) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(of)))
	return p >= lo && p < lo+uintptr(len(of))
}

// TestCommitOwnsDocStrings checks that a committed code document keeps
// none of its symbol's strings: its title held the symbol's name and its
// summary a part of the symbol's doc comment, and so kept the comment
// whole, alive as long as the document.
func TestCommitOwnsDocStrings(t *testing.T) {
	batches := spillCode(1, 3, 4)
	ix := openTest(t, mapFS(nil), Options{})
	if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
		t.Fatal(err)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n := 0
	for _, d := range ix.docs {
		if d == nil {
			continue
		}
		n++
		for _, f := range batches[0] {
			for _, s := range f.Symbols {
				for _, of := range []string{s.Name, s.Doc, s.Signature, f.Path} {
					if sharesBytes(d.title, of) || sharesBytes(d.summary, of) || sharesBytes(d.path, of) {
						t.Errorf("%s: title %q, summary %q or path shares the memory of the symbol's %q", d.path, d.title, d.summary, of)
					}
				}
			}
		}
		for c := d.first; c < d.first+d.count; c++ {
			if r := ix.chunks[c]; r.title != d.title || unsafe.StringData(r.title) != unsafe.StringData(d.title) {
				t.Errorf("%s: chunk titled %q apart from its document's %q", d.path, r.title, d.title)
			}
		}
	}
	if n != 12 {
		t.Fatalf("%d documents, want 12", n)
	}
}

// TestCompactMovesDocs checks that compaction moves the documents left
// into records and strings of their own, so that the slabs and blocks
// the removed ones shared with them are let go; and that the index then
// searches and saves as one built from the documents left.
func TestCompactMovesDocs(t *testing.T) {
	batches := spillCode(1, 10, 10)
	ix := openTest(t, mapFS(nil), Options{})
	if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
		t.Fatal(err)
	}
	ix.mu.RLock()
	before := map[*doc]bool{}
	for _, d := range ix.docs {
		before[d] = true
	}
	ix.mu.RUnlock()
	var removed []string
	for _, f := range batches[0][:8] { // 80 of 100: past the quarter and the 64 that compact
		removed = append(removed, f.Path)
	}
	if err := ix.PutCode(context.Background(), nil, removed); err != nil {
		t.Fatal(err)
	}
	ix.mu.RLock()
	if ix.holes != 0 || len(ix.docs) != 20 {
		t.Fatalf("%d documents, %d holes; want 20 compacted", len(ix.docs), ix.holes)
	}
	for _, d := range ix.docs {
		if before[d] {
			t.Errorf("%s: the record from before the compaction", d.path)
		}
	}
	ix.mu.RUnlock()

	want := openTest(t, mapFS(nil), Options{})
	if err := want.PutCode(context.Background(), batches[0][8:], nil); err != nil {
		t.Fatal(err)
	}
	name := batches[0][9].Symbols[3].Name
	expectTop(t, ix, name, batches[0][9].Path)
	a, b := ix.Stats(), want.Stats()
	if a.Docs != b.Docs || a.Chunks != b.Chunks {
		t.Errorf("compacted: %d docs, %d chunks; built from what is left: %d, %d", a.Docs, a.Chunks, b.Docs, b.Chunks)
	}
}
