package docsearch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// putNotes saves, in dir, an index of n Put documents.
func putNotes(t testing.TB, dir string, n int) {
	t.Helper()
	ix := openTest(t, mapFS(nil), Options{Dir: dir})
	docs := make([]Document, n)
	for i := range docs {
		docs[i] = Document{Path: fmt.Sprintf("notes/%05d.md", i), Scope: ScopeDocs,
			Text: fmt.Sprintf("# Note %d\n\nThe quokka%d sleeps in the shade of the gum tree.\n", i, i)}
	}
	if err := ix.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
}

// TestOpenDoesNotAllocatePerDocument checks that opening a saved index
// decodes no document, chunk or term: the allocations of an open do not
// grow with the index (before format 10 they were a few per document).
func TestOpenDoesNotAllocatePerDocument(t *testing.T) {
	allocs := func(n int) float64 {
		dir := t.TempDir()
		putNotes(t, dir, n)
		return testing.AllocsPerRun(3, func() {
			ix, err := Open(ctx, mapFS(nil), Options{Dir: dir})
			if err != nil || ix.Stats().Docs != n {
				t.Fatalf("open: %v", err)
			}
		})
	}
	small, large := allocs(10), allocs(10_000)
	t.Logf("allocations to open an index of 10 documents: %.0f, of 10,000: %.0f", small, large)
	if large > 2*small+100 {
		t.Errorf("opening 10,000 documents allocates %.0f times, 10 documents %.0f: the open decodes per document", large, small)
	}
}

// TestSearchDecodesOnlyWhatItRanks checks that a search of a loaded index
// decodes the records of the documents it ranks, not the others.
func TestSearchDecodesOnlyWhatItRanks(t *testing.T) {
	dir := t.TempDir()
	putNotes(t, dir, 2_000)
	ix := openTest(t, mapFS(nil), Options{Dir: dir})
	res, err := ix.Search(ctx, Query{Text: "quokka1234", Mode: Lexical})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "notes/01234.md" {
		t.Fatalf("search = %+v, %v", res.Results, err)
	}
	if ix.tab == nil {
		t.Fatal("a search materialized the index")
	}
	ix.tab.mu.Lock()
	decoded := len(ix.tab.cache)
	ix.tab.mu.Unlock()
	if decoded > candidates { // what it ranks: typos of quokka1234 match
		t.Errorf("a search decoded %d of 2,000 documents; want at most its %d candidates", decoded, candidates)
	}
}

// tableOffset returns where p, which points into ix's mapping, lies in
// the file.
func tableOffset(t *testing.T, ix *Index, p unsafe.Pointer) int {
	t.Helper()
	off := int(uintptr(p) - uintptr(unsafe.Pointer(&ix.mapped[0])))
	if off < 0 || off >= len(ix.mapped) {
		t.Fatalf("offset %d outside the mapping", off)
	}
	return off
}

// TestDamagedTablesAreRebuilt checks that a file whose tables are
// damaged, with checksums made to match (so that only the tables' own
// checks can tell), or cut short, is rebuilt at the next open, never
// served.
func TestDamagedTablesAreRebuilt(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts/.index")
	openTest(t, os.DirFS(root), Options{Dir: dir})
	file := filepath.Join(dir, storeFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	tab := ix.tab
	if tab == nil || len(tab.docs) < 3 || len(tab.terms) < 3 {
		t.Fatal("the loaded index has no tables")
	}
	at := func(p unsafe.Pointer) int { return tableOffset(t, ix, p) }
	put32 := func(off int, v uint32) []byte {
		b := bytes.Clone(data)
		binary.LittleEndian.PutUint32(b[off:], v)
		fixSums(b)
		return b
	}
	put64 := func(off int, v uint64) []byte {
		b := bytes.Clone(data)
		binary.LittleEndian.PutUint64(b[off:], v)
		fixSums(b)
		return b
	}
	cases := map[string][]byte{
		"document's first chunk":  put32(at(unsafe.Pointer(&tab.docs[1].first)), 0),
		"document's record":       put64(at(unsafe.Pointer(&tab.docs[1].rec)), 1<<40),
		"document's scope":        put32(at(unsafe.Pointer(&tab.docs[2].recLen))+8, 0xFFFF), // scope, flags, format
		"chunk's document":        put32(at(unsafe.Pointer(&tab.chunks[0].doc)), 7777),
		"chunk's lines":           put32(at(unsafe.Pointer(&tab.chunks[0].end)), 1<<31),
		"term's string":           put64(at(unsafe.Pointer(&tab.terms[1].str)), 0),
		"term's postings":         put64(at(unsafe.Pointer(&tab.terms[1].post)), 1<<50),
		"path table":              put32(at(unsafe.Pointer(&tab.byPath[0])), tab.byPath[1]),
		"record":                  put32(at(unsafe.Pointer(&tab.records[0])), 0xFFFFFFFF),
		"truncated in the tables": data[:at(unsafe.Pointer(&tab.docs[len(tab.docs)/2]))],
		"flipped in the tables": func() []byte {
			b := bytes.Clone(data)
			b[at(unsafe.Pointer(&tab.chunks[1].copies))] ^= 0x80 // the checksum tells
			return b
		}(),
	}
	for name, bad := range cases {
		if err := os.WriteFile(file, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		ix := openTest(t, os.DirFS(root), Options{Dir: dir, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		if !strings.Contains(log.String(), "rebuilding the index") {
			t.Errorf("%s: no rebuild logged: %q", name, log.String())
		}
		expectTop(t, ix, "sparklines", "docs/intro.rst")
	}
}

// TestSealedDamagedTable checks that a sealed load, which does not read
// the tables, serves a table damaged under the saved time stamp without a
// fault, and that Verify finds it.
func TestSealedDamagedTable(t *testing.T) {
	defer func(old int) { sumSegment = old }(sumSegment)
	sumSegment = 256 // the meta part's segments are summed at a sealed load
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts/.index")
	openTest(t, os.DirFS(root), Options{Dir: dir})
	ix := openTest(t, os.DirFS(root), Options{Dir: dir}) // checks and seals
	file := filepath.Join(dir, storeFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(file)
	tab := ix.tab
	for i := range tab.chunks {
		binary.LittleEndian.PutUint32(data[tableOffset(t, ix, unsafe.Pointer(&tab.chunks[i].doc)):], 1<<30)
		binary.LittleEndian.PutUint64(data[tableOffset(t, ix, unsafe.Pointer(&tab.chunks[i].title)):], 1<<60)
	}
	for i := range tab.docs {
		binary.LittleEndian.PutUint64(data[tableOffset(t, ix, unsafe.Pointer(&tab.docs[i].rec)):], 1<<60)
	}
	binary.LittleEndian.PutUint64(data[tableOffset(t, ix, unsafe.Pointer(&tab.terms[1].post)):], 1<<60)
	os.WriteFile(file, data, 0o644)
	os.Chtimes(file, st.ModTime(), st.ModTime())
	damaged := openTest(t, os.DirFS(root), Options{Dir: dir})
	if damaged.tab == nil {
		t.Fatal("the damaged file was not loaded sealed")
	}
	for _, q := range []string{"sparklines", "chart width", "docs/intro.rst"} {
		if _, err := damaged.Search(ctx, Query{Text: q, MinScore: zero()}); err != nil {
			t.Error(err)
		}
	}
	damaged.Fetch("docs/intro.rst", "")
	damaged.List("")
	damaged.Stats()
	if err := Verify(dir); !errors.Is(err, errCorrupt) {
		t.Errorf("Verify of a damaged table: %v", err)
	}
}

// FuzzOpenTable checks that any bytes that pass the checks of a sealed
// open (which does not read the tables) can be searched and read through
// every accessor without a panic, and that a full check of them never
// panics either.
func FuzzOpenTable(f *testing.F) {
	f.Add(encodedWorkspace(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		fixSums(data)
		st, err := decodeFrom(data, bytes.NewReader(data), false)
		if err != nil {
			return
		}
		ix := &Index{tab: st.tab, lex: st.lex, vec: st.vec, embName: st.embName, names: st.names,
			opts: Options{}, scopes: &scopeSet{}}
		ix.opts.defaults()
		for id := range uint32(ix.ndocs()) {
			d := ix.doc(id)
			ix.find(d.path)
			ix.docScope(id)
		}
		for p := range ix.paths() {
			ix.find(p)
		}
		for c := range uint32(ix.nchunks()) {
			rec := ix.chunk(c)
			ix.doc(rec.doc)
		}
		for id := range uint32(ix.lex.nterms()) {
			ix.lex.id(ix.lex.term(id))
			ix.lex.postings(id)
		}
		for _, q := range []string{"sparklines", "chart", "put/doc"} {
			ix.Search(ctx, Query{Text: q, MinScore: zero()})
		}
		st.tab.check(st.lex.all, st.lex.lens)
	})
}

// TestReopenDropsGoneFiles checks the saved list of documents that have a
// file: a file removed while the index was closed leaves at the next
// open, Put documents stay.
func TestReopenDropsGoneFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts/.index")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	if err := ix.Put(ctx, []Document{{Path: "put/zebra", Scope: ScopeDocs, Text: "# Zebra\n\nStripes of the zebra.\n"}}); err != nil {
		t.Fatal(err)
	}
	loaded := openTest(t, os.DirFS(root), Options{Dir: dir})
	if loaded.tab == nil || len(loaded.tab.files) != loaded.liveDocs()-1 {
		t.Fatalf("loaded: %d documents with a file of %d", len(loaded.tab.files), loaded.liveDocs())
	}
	os.Remove(filepath.Join(root, "docs/intro.rst"))
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	if _, ok := again.find("docs/intro.rst"); ok {
		t.Error("a file removed while the index was closed is still indexed")
	}
	expectTop(t, again, "zebra stripes", "put/zebra")
}

// TestFixedEntries checks that the table entries' encoders and decoders
// agree with each other and with the entries used in place: Go lays the
// structs out as the format does.
func TestFixedEntries(t *testing.T) {
	d := docFixed{path: 1, rec: 2, text: 3, textLen: 4, size: 5, mtime: 6, stamp: 7, first: 8, count: 9,
		recLen: 10, pathLen: 11, scope: 12, flags: 13, format: 14, pad: 15}
	c := chunkFixed{template: 1, hash: [8]byte{2, 3}, title: 4, doc: 5, line: 6, end: 7, copies: 8, titleLen: 9,
		scope: 10, ctype: 11, pad: 12}
	tf := termFixed{str: 1, post: 2}
	ahead := func() []byte { return make([]byte, 1, 128) } // one byte ahead: not aligned
	db := appendDocFixed(ahead(), d)[1:]
	cb := appendChunkFixed(ahead(), c)[1:]
	tb := appendTermFixed(ahead(), tf)[1:]
	if got := decodeDocFixed(db); got != d || len(db) != docFixedSize {
		t.Errorf("document entry: %+v from %d bytes; want %+v", got, len(db), d)
	}
	if got := decodeChunkFixed(cb); got != c || len(cb) != chunkFixedSize {
		t.Errorf("chunk entry: %+v from %d bytes; want %+v", got, len(cb), c)
	}
	if got := decodeTermFixed(tb); got != tf || len(tb) != termFixedSize {
		t.Errorf("term entry: %+v; want %+v", got, tf)
	}
	if !littleEndian {
		return
	}
	aligned := func(b []byte) []byte { return append(make([]byte, 0, 128), b...) }
	if got := array(aligned(db), decodeDocFixed); got[0] != d {
		t.Errorf("document entry in place: %+v; want %+v", got[0], d)
	}
	if got := array(aligned(cb), decodeChunkFixed); got[0] != c {
		t.Errorf("chunk entry in place: %+v; want %+v", got[0], c)
	}
}
