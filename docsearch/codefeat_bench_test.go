package docsearch

import (
	"fmt"
	"testing"
)

// syntheticCode is n files of 10 symbols each, whose names, bodies and
// calls share a small vocabulary, so a query in words reaches many.
func syntheticCode(n int) []CodeFile {
	verbs := []string{"parse", "read", "write", "close", "open", "render", "flush", "send"}
	nouns := []string{"header", "request", "cookie", "buffer", "token", "config", "session", "stream", "frame"}
	files := make([]CodeFile, n)
	for i := range files {
		f := CodeFile{Path: fmt.Sprintf("pkg%d/file%d.go", i%20, i)}
		for j := range 10 {
			v, o := verbs[(i+j)%len(verbs)], nouns[(i*3+j)%len(nouns)]
			name := fmt.Sprintf("T%d.%s%s%d", i, v, o, j)
			f.Symbols = append(f.Symbols, CodeSymbol{
				Name: name, Kind: "method", Signature: fmt.Sprintf("func (t *T%d) %s%s%d(%s []byte) error", i, v, o, j, o),
				Body:  fmt.Sprintf("if len(%s) == 0 {\n\treturn nil\n}\nt.%s(%s)\nreturn t.%s%s(%s)", o, v, o, verbs[(j+1)%len(verbs)], nouns[j%len(nouns)], o),
				Calls: []string{v, verbs[(j+1)%len(verbs)] + nouns[j%len(nouns)]},
				Line:  1 + 12*j, End: 10 + 12*j,
			})
		}
		files[i] = f
	}
	return files
}

// BenchmarkCodeSearch is a query in words and an identifier over the
// code scope of 2,000 symbols: fusion, then ranking by features.
func BenchmarkCodeSearch(b *testing.B) {
	ix := openTest(b, mapFS(map[string]string{}), Options{})
	if err := ix.PutCode(ctx, syntheticCode(200), nil); err != nil {
		b.Fatal(err)
	}
	queries := []string{"parse the header of a request", "flush the session buffer to the stream", "readCookie3"}
	searchCodeLoop(b, ix, queries, nil)
}

// searchCodeLoop runs queries over ix's code scope in turn, b.N in all,
// under the code weights w (nil: the built-in ones).
func searchCodeLoop(b *testing.B, ix *Index, queries []string, w []float64) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ix.Search(ctx, Query{Text: queries[i%len(queries)], Scopes: []string{ScopeCode}, CodeWeights: w}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
