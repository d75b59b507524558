package docsearch

import (
	"context"
	"slices"
	"testing"
	"unsafe"
)

// TestDocRecordSize keeps a document's record at 144 bytes, the size
// class of a code document without prose: 240 when the prose was in it.
func TestDocRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(doc{}); n > 144 {
		t.Errorf("doc is %d bytes; want at most 144", n)
	}
}

// TestCodeDocsShareNoProse checks that code documents, put, saved and
// loaded, hold the shared empty prose, and that indexing prose beside
// them never writes to it.
func TestCodeDocsShareNoProse(t *testing.T) {
	dir := t.TempDir()
	fsys := mapFS(map[string]string{"README.md": "# Readme\n\nWhat it does.\n\n## Install\n\nRun it.\n"})
	ix := openTest(t, fsys, Options{Dir: dir})
	if err := ix.PutCodeBatches(context.Background(), slices.Values(spillCode(1, 3, 4)), nil); err != nil {
		t.Fatal(err)
	}
	check := func(ix *Index, when string) {
		t.Helper()
		code, prosed := 0, 0
		for i := range ix.ndocs() {
			d := ix.doc(uint32(i))
			if d == nil {
				continue
			}
			if d.scope == ScopeCode {
				code++
				if d.prose != noProse {
					t.Errorf("%s: code document %s has prose of its own", when, d.path)
				}
			} else if len(d.headings) > 0 {
				prosed++
			}
		}
		if code == 0 || prosed == 0 {
			t.Errorf("%s: %d code documents, %d with headings; want some of each", when, code, prosed)
		}
		if z := noProse; len(z.headings) != 0 || len(z.entities) != 0 || !z.updated.IsZero() || z.note != "" || z.page != nil {
			t.Fatalf("%s: the shared empty prose was written to: %+v", when, *z)
		}
	}
	check(ix, "built")
	loaded := openTest(t, fsys, Options{Dir: dir})
	check(loaded, "loaded")
}
