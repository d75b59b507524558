package docsearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// manyHeadings is a markdown document of n headings, then a last
// paragraph that mentions zanzibar.
func manyHeadings(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "## %d\n", i)
	}
	b.WriteString("\nThe last paragraph mentions zanzibar.\n")
	return b.String()
}

// TestDocumentBudget indexes a document of 300,000 headings, what used
// to take 55 s with every tool waiting: its outline and its chunks are
// capped, it is listed with a note saying so, and its text past the cap
// is still found.
func TestDocumentBudget(t *testing.T) {
	files := map[string]string{"docs/huge.md": manyHeadings(300_000), "README.md": "# Widget\n\nsparklines\n"}
	ix := openTest(t, mapFS(files), Options{})
	hs, err := ix.Outline("docs/huge.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) > maxDocHeadings {
		t.Errorf("outline of %d headings, over the %d cap", len(hs), maxDocHeadings)
	}
	ix.mu.RLock()
	d := ix.docs[ix.byPath["docs/huge.md"]]
	chunks := int(d.count)
	ix.mu.RUnlock()
	if chunks > maxDocChunks {
		t.Errorf("%d chunks, over the %d cap", chunks, maxDocChunks)
	}
	if r := skippedReason(ix, "docs/huge.md"); !strings.Contains(r, "300000 headings") {
		t.Errorf("note on the document = %q", r)
	}
	expectTop(t, ix, "zanzibar", "docs/huge.md")
	expectTop(t, ix, "sparklines", "README.md")
	// The note outlives a reopening: it is saved with the document.
	dir := t.TempDir()
	ix = openTest(t, mapFS(files), Options{Dir: dir})
	again := openTest(t, mapFS(files), Options{Dir: dir})
	if r := skippedReason(again, "docs/huge.md"); !strings.Contains(r, "300000 headings") {
		t.Errorf("note after reopening = %q", r)
	}
}

// TestDocumentChunkCap checks that a document of more chunks than the
// cap keeps the first ones, and says so.
func TestDocumentChunkCap(t *testing.T) {
	var b strings.Builder
	for i := range 2 * maxDocChunks {
		fmt.Fprintf(&b, "paragraph number %d about koalas\n\n", i)
	}
	ix := openTest(t, mapFS(map[string]string{"long.txt": b.String()}), Options{ChunkTokens: 8, MaxFileBytes: 64 << 20})
	if st := ix.Stats(); st.Chunks != maxDocChunks {
		t.Errorf("%d chunks, want the cap, %d", st.Chunks, maxDocChunks)
	}
	if r := skippedReason(ix, "long.txt"); !strings.Contains(r, "truncated") {
		t.Errorf("note on the document = %q", r)
	}
}

// BenchmarkManyHeadings processes a document of 300,000 headings: the
// per-document budget bounds it (about 55 s before it).
func BenchmarkManyHeadings(b *testing.B) {
	text := manyHeadings(300_000)
	w, err := newWorker(512)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		p := w.process(&doc{path: "huge.md"}, text, formatMarkdown, "")
		if len(p.doc.headings) > maxDocHeadings || len(p.chunks) > maxDocChunks {
			b.Fatal("over budget")
		}
	}
}

// TestCommitParts checks that a batch enters the index in parts of
// bounded size, so that searches never wait for a whole batch of large
// documents.
func TestCommitParts(t *testing.T) {
	doc := func(chunks int) processed { return processed{chunks: make([]chunk, chunks)} }
	ps := []processed{doc(3000), doc(3000), doc(3000), doc(maxDocChunks), doc(1), doc(0)}
	var sizes []int
	for _, part := range commitParts(ps) {
		n := 0
		for _, p := range part {
			n += len(p.chunks)
		}
		sizes = append(sizes, n)
	}
	if want := []int{6000, 3000, maxDocChunks, 1}; !slices.Equal(sizes, want) {
		t.Errorf("parts of %v chunks, want %v", sizes, want)
	}
	if commitParts(nil) != nil {
		t.Error("parts of nothing")
	}
}

// skippedReason returns the reason Skipped gives for p, or "".
func skippedReason(ix *Index, p string) string {
	for _, s := range ix.Skipped() {
		if s.Path == p {
			return s.Reason
		}
	}
	return ""
}
