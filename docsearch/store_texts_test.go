package docsearch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// putTexts returns Put documents with long texts found nowhere else.
func putTexts(n int) []Document {
	var docs []Document
	for i := range n {
		text := fmt.Sprintf("# Note %d\n\n%s\n", i, strings.Repeat(fmt.Sprintf("zebra%dquokka ", i), 400))
		docs = append(docs, Document{Path: fmt.Sprintf("put/%d", i), Scope: ScopeDocs, Text: text})
	}
	return docs
}

// metaPart returns the meta part of the index file in dir.
func metaPart(t *testing.T, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(data[len(data)-4:]))
	body := data[:len(data)-4-4*n]
	return data[:binary.LittleEndian.Uint64(body[len(body)-8:])]
}

// TestLoadLeavesTextsInFile checks that the texts of Put documents (a
// code document's is its symbol's source: most of a kernel's index) are
// not in the meta part a load reads and decodes, but used in place from
// the mapped file, and read back whole.
func TestLoadLeavesTextsInFile(t *testing.T) {
	dir := t.TempDir()
	docs := putTexts(3)
	a := openTest(t, mapFS(nil), Options{Dir: dir})
	if err := a.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
	putCode(t, a, flaskCode())
	meta := metaPart(t, dir)
	for _, d := range docs {
		if bytes.Contains(meta, []byte(d.Text)) {
			t.Errorf("%s: its text is in the meta part, read and decoded at every load", d.Path)
		}
	}
	b := openTest(t, mapFS(nil), Options{Dir: dir})
	mapped := 0
	for id := range uint32(b.ndocs()) {
		d := b.doc(id)
		if !d.put {
			continue
		}
		aid, _ := a.find(d.path)
		if want := a.doc(aid).text; d.text != want {
			t.Errorf("%s: loaded text %.40q; want %.40q", d.path, d.text, want)
		}
		if b.inMapping(d.text) {
			mapped++
		}
	}
	if runtime.GOOS == "linux" && mapped == 0 {
		t.Error("no loaded text lies in the mapped file")
	}
	for _, d := range docs {
		got, err := b.Fetch(d.Path, "")
		if err != nil || !strings.Contains(got.Content, "zebra") {
			t.Errorf("fetch %s = %.60q, %v", d.Path, got.Content, err)
		}
	}
}

// TestCompactionCopiesMappedTexts checks that a compaction, which
// unmaps the loaded file, first copies out the texts that lie in it: a
// text read afterwards would otherwise fault.
func TestCompactionCopiesMappedTexts(t *testing.T) {
	_, a, b := savedMapped(t, 4)
	want := map[string]string{}
	for _, d := range a.docs {
		if d.put {
			want[d.path] = strings.Clone(d.text)
		}
	}
	// Replacing a document leaves a hole; the save compacts and unmaps.
	replaced := Document{Path: "put/0", Scope: ScopeDocs, Text: "# Replaced\n\nnew text\n"}
	b.opts.Merge = true // the whole file is written: compacted first
	if err := b.Put(ctx, []Document{replaced}); err != nil {
		t.Fatal(err)
	}
	want[replaced.Path] = replaced.Text
	if b.unmap != nil || b.mapped != nil {
		t.Fatal("the save did not compact and unmap the loaded file")
	}
	runtime.GC() // nothing else holds the old mapping
	got := map[string]string{}
	for _, d := range b.docs {
		if d.put {
			got[d.path] = d.text
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("texts after compaction differ: %v", slices.Sorted(maps.Keys(got)))
	}
	res, err := b.Search(ctx, Query{Text: "register a blueprint", Scopes: []string{ScopeCode}, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Signature == "" {
		t.Errorf("code search after compaction = %+v, %v", res.Results, err)
	}
}

// TestOpenUnchangedDoesNotDerive checks that opening a saved index whose
// documents have not changed reads the scope names and the chunks'
// copies from the file instead of deriving them over every chunk, and
// that what it reads is what deriving gives, also after PutCode (which
// does not derive: the save does).
func TestOpenUnchangedDoesNotDerive(t *testing.T) {
	dir := t.TempDir()
	a := openTest(t, mapFS(nil), Options{Dir: dir})
	docs := []Document{{Path: "README.md", Scope: ScopeDocs, Text: "# Quokka\n\nQuokka draws themes.\n"}}
	for _, u := range []string{"blur", "opacity", "shadow"} {
		docs = append(docs, Document{Path: u + ".md", Scope: ScopeDocs, Text: fmt.Sprintf("# %s\n\n## Customizing\n\nBy default the %s scale of Quokka comes from your theme. To customize the theme values and colors, edit the theme section of your configuration file.\n", u, u)})
	}
	if err := a.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
	putCode(t, a, flaskCode())
	before := derives.Load()
	b := openTest(t, mapFS(nil), Options{Dir: dir})
	if n := derives.Load() - before; n != 0 {
		t.Errorf("opening an unchanged index derived %d times; want 0", n)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	loaded := make([]uint32, b.nchunks())
	for i := range loaded {
		loaded[i] = b.chunk(uint32(i)).copies
	}
	names := b.names
	b.derive()
	for i, c := range b.chunks {
		if loaded[i] != c.copies {
			t.Errorf("chunk %d (%s): %d copies loaded, %d derived", i, c.title, loaded[i], c.copies)
		}
	}
	if !slices.Contains(loaded, 3) {
		t.Errorf("copies %v; want the repeated section's 3", loaded)
	}
	if !maps.Equal(names, b.names) || len(names) == 0 {
		t.Errorf("scope names loaded %v, derived %v", names, b.names)
	}
}

// TestSealedDamagedPostings checks that a sealed load, which does not
// read the postings, serves a posting damaged under the saved time stamp
// without a fault (searches and compaction bound its chunk), and that
// Verify finds it and unseals the file for the next open to rebuild.
func TestSealedDamagedPostings(t *testing.T) {
	defer func(old int) { sumSegment = old }(sumSegment)
	sumSegment = 256 // the meta part's segments are summed at a sealed load
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	built := openTest(t, os.DirFS(root), Options{Dir: dir}) // builds, saves and seals
	if err := Verify(dir); err != nil {
		t.Fatal(err)
	}
	last := slices.Max(built.lex.terms)
	file := filepath.Join(dir, storeFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(file)
	// Where the last term's last posting lies: found by a load.
	loaded := openTest(t, os.DirFS(root), Options{Dir: dir})
	lid, _ := loaded.lex.id(last)
	lps := loaded.lex.postings(lid)
	at := int(uintptr(unsafe.Pointer(&lps[len(lps)-1])) - uintptr(unsafe.Pointer(&loaded.mapped[0])))
	if at < len(metaPart(t, dir))+sumSegment {
		t.Fatalf("the last posting, at %d, is in a segment of the meta part", at)
	}
	binary.LittleEndian.PutUint32(data[at:], 1<<20)
	os.WriteFile(file, data, 0o644)
	os.Chtimes(file, st.ModTime(), st.ModTime())
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	id, _ := ix.lex.id(last)
	if ps := ix.lex.postings(id); ps[len(ps)-1].chunk != 1<<20 {
		t.Fatalf("postings of %q %+v: the test damaged another byte", last, ps)
	}
	if _, err := ix.Search(ctx, Query{Text: last, Mode: Lexical, MinScore: zero()}); err != nil {
		t.Error(err)
	}
	if err := Verify(dir); !errors.Is(err, errCorrupt) {
		t.Errorf("Verify of a damaged posting: %v", err)
	}
	// The save after the update compacts the damaged postings.
	os.Remove(filepath.Join(root, "docs/notes.txt"))
	if err := ix.Update(ctx, []string{"docs/notes.txt"}); err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	ix.compact()
	ix.mu.Unlock()
}
