package docsearch

import (
	"bytes"
	"testing"
)

// BenchmarkOpenSealed opens the saved index of 2,000 synthetic pages as
// a sealed file is opened (see sealFile): the meta part and the tables'
// ends, nothing per document, chunk or term. BenchmarkLoad is the full
// check of an unsealed file.
func BenchmarkOpenSealed(b *testing.B) {
	ix, err := Open(ctx, syntheticDocs(2000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ix.mu.Lock()
	data := ix.encode()
	ix.mu.Unlock()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeFrom(data, bytes.NewReader(data), false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadedSearch searches a saved and reopened index of 2,000
// synthetic pages and 2,000 symbols, in every scope and in the code scope
// alone (issue 34: a scoped search had been the slower).
func BenchmarkLoadedSearch(b *testing.B) {
	dir := b.TempDir()
	ix := openTest(b, syntheticDocs(2000), Options{Dir: dir})
	if err := ix.PutCode(ctx, syntheticCode(200), nil); err != nil {
		b.Fatal(err)
	}
	if err := ix.Save(); err != nil {
		b.Fatal(err)
	}
	loaded := openTest(b, syntheticDocs(2000), Options{Dir: dir})
	if loaded.tab == nil {
		b.Fatal("not loaded in place")
	}
	queries := []string{"parse the header of a request", "config12 render", "readCookie3", "how to parse read_file options"}
	for _, bc := range []struct {
		name   string
		scopes []string
	}{{"all", nil}, {"code", []string{ScopeCode}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := loaded.Search(ctx, Query{Text: queries[i%len(queries)], Scopes: bc.scopes}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
