package docsearch

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
)

// codeDocKeys returns the keys of ix's code documents, sorted.
func codeDocKeys(ix *Index) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var keys []string
	for key, id := range ix.paths() {
		if isCodeScope(ix.docScope(id)) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// symFile is a code file of the named functions.
func symFile(path string, names ...string) CodeFile {
	f := CodeFile{Path: path}
	for i, n := range names {
		f.Symbols = append(f.Symbols, CodeSymbol{Name: n, Kind: "function", Signature: "func " + n + "()", Line: i + 1, End: i + 1})
	}
	return f
}

// putBatches puts each of batches in turn, calling between (when set)
// before each batch but the first.
func putBatches(t *testing.T, ix *Index, removed []string, between func(i int), batches ...[]CodeFile) {
	t.Helper()
	seq := func(yield func([]CodeFile) bool) {
		for i, b := range batches {
			if i > 0 && between != nil {
				between(i)
			}
			if !yield(b) {
				return
			}
		}
	}
	if err := ix.PutCodeBatches(context.Background(), seq, removed); err != nil {
		t.Fatal(err)
	}
}

// TestPutCodeBatchesWalkOnce: a batch finds its files' documents without
// walking every document of the index; one PutCodeBatches walks them at
// most twice (its first batch, then once to know them all), whatever
// the number of batches.
func TestPutCodeBatchesWalkOnce(t *testing.T) {
	ix := openTest(t, os.DirFS(t.TempDir()), Options{})
	walked, kept := 0, 0
	scanned = func(n int) { walked += n }
	keysKept = func(n int) { kept = max(kept, n) }
	t.Cleanup(func() { scanned, keysKept = nil, nil })
	var batches [][]CodeFile
	for b := range 40 {
		var files []CodeFile
		for f := range 5 {
			files = append(files, symFile(fmt.Sprintf("p%02d/f%d.go", b, f), "A", "B"))
		}
		batches = append(batches, files)
	}
	putBatches(t, ix, nil, nil, batches...)
	if n := len(codeDocKeys(ix)); n != 400 {
		t.Fatalf("%d code documents; want 400", n)
	}
	// The first batch walks an empty index, the second the first's 10.
	if walked > 10 {
		t.Errorf("walked %d documents for 40 batches; want at most 10", walked)
	}
	// The keys of the files it put are not held to the end of the pass:
	// at most the first batch's, which the walk found.
	if kept > 10 {
		t.Errorf("%d keys held for 40 batches; want at most the first batch's 10", kept)
	}

	// Again, every file changed: each batch replaces its files' documents.
	walked = 0
	for _, files := range batches {
		for i := range files {
			files[i] = symFile(files[i].Path, "A", "C")
		}
	}
	putBatches(t, ix, nil, nil, batches...)
	keys := codeDocKeys(ix)
	if len(keys) != 400 || slices.ContainsFunc(keys, func(k string) bool { return k[len(k)-2:] == "#B" }) {
		t.Errorf("after a change, %d code documents, B among them: %v", len(keys), keys[:4])
	}
	if walked > 2*400 {
		t.Errorf("walked %d documents for 40 batches over 400; want at most two walks", walked)
	}
}

// TestPutCodeBatchesKnowsItsOwn: a file that comes again in a later batch
// of the same call (put by its first batch, or by a later one, whose keys
// are not kept), or that another writer put code documents of between
// two batches, has those documents replaced, not kept beside the new.
func TestPutCodeBatchesKnowsItsOwn(t *testing.T) {
	ix := openTest(t, os.DirFS(t.TempDir()), Options{})
	putCode(t, ix, []CodeFile{symFile("old.go", "Old")})
	other := func(i int) {
		if i == 2 {
			if err := ix.PutCode(context.Background(), []CodeFile{symFile("b.go", "FromOther")}, nil); err != nil {
				t.Error(err)
			}
		}
	}
	putBatches(t, ix, []string{"old.go"}, other,
		[]CodeFile{symFile("a.go", "A1")},
		[]CodeFile{symFile("c.go", "C")},
		[]CodeFile{symFile("b.go", "B"), symFile("d.go", "D1")},
		[]CodeFile{symFile("a.go", "A2"), symFile("d.go", "D2")},
	)
	want := []string{"a.go#A2", "b.go#B", "c.go#C", "d.go#D2"}
	if got := codeDocKeys(ix); !slices.Equal(got, want) {
		t.Errorf("code documents %q; want %q", got, want)
	}
}
