package docsearch

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parsedDoc is a document cut into sections, ready for the chunker.
type parsedDoc struct {
	title string
	secs  []section
	bytes int // of the document as read
}

func parseDoc(name, text string) parsedDoc {
	f, ok := docFormat(name)
	if !ok {
		f = formatText
	}
	secs, _, _, _ := readSections(text, f)
	return parsedDoc{title: name, secs: secs, bytes: len(text)}
}

// repoDocs returns the repository's markdown and, as documents of one
// fenced code block each, the source files extract's golden tests read:
// prose, small examples and long code blocks that must be cut.
func repoDocs(tb testing.TB) []parsedDoc {
	tb.Helper()
	var docs []parsedDoc
	for _, name := range []string{"../README.md", "embed/README.md"} {
		data, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		docs = append(docs, parseDoc(name, string(data)))
	}
	err := filepath.WalkDir("../extract/testdata/golden", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		md := "# " + p + "\n\n```\n" + string(data) + "\n```\n"
		docs = append(docs, parseDoc(p+".md", md))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return docs
}

// dirDocs returns up to maxBytes of the documents under dir, in walk
// order.
func dirDocs(tb testing.TB, dir string, maxBytes int) []parsedDoc {
	tb.Helper()
	var docs []parsedDoc
	total := 0
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || total >= maxBytes {
			return err
		}
		if _, ok := docFormat(p); !ok {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return err
		}
		text, err := decodeText(data)
		if err != nil {
			return nil
		}
		doc := parseDoc(p, strings.Clone(text))
		docs = append(docs, doc)
		total += doc.bytes
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return docs
}

// benchmarkChunks chunks docs at the default limit with a new chunker
// each round, as an index build does: its token counter starts with an
// empty piece cache.
func benchmarkChunks(b *testing.B, docs []parsedDoc) {
	total := 0
	for _, d := range docs {
		total += d.bytes
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		tc, err := newTokenCounter()
		if err != nil {
			b.Fatal(err)
		}
		c := chunker{limit: 512, tc: tc}
		for _, d := range docs {
			c.chunks(d.secs, d.title)
		}
	}
}

// BenchmarkChunks chunks the repository's own docs and sources.
func BenchmarkChunks(b *testing.B) {
	benchmarkChunks(b, repoDocs(b))
}

// BenchmarkChunksDir chunks the first 32 MB of the documents under
// $DOCSEARCH_BENCH_DIR: chunking measured on real docs.
func BenchmarkChunksDir(b *testing.B) {
	dir := os.Getenv("DOCSEARCH_BENCH_DIR")
	if dir == "" {
		b.Skip("set DOCSEARCH_BENCH_DIR to a directory of docs")
	}
	benchmarkChunks(b, dirDocs(b, dir, 32<<20))
}
