package docsearch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// syntheticDocs returns n markdown pages of about 4 KB each: headings,
// prose from a Zipf-distributed vocabulary with identifiers, and code.
func syntheticDocs(n int) fstest.MapFS {
	r := rand.New(rand.NewPCG(1, 2))
	words := make([]string, 5000)
	for i := range words {
		words[i] = fmt.Sprintf("%s%d", []string{"config", "render", "parse", "mapBy", "read_file", "http", "server", "value", "option", "index"}[i%10], i)
	}
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	para := func(k int) string {
		var b strings.Builder
		for i := range k {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[zipf.Uint64()])
		}
		return b.String()
	}
	fsys := fstest.MapFS{}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "# Page %d\n\n%s.\n\n", i, para(40))
		for s := range 4 {
			fmt.Fprintf(&b, "## %s %d\n\n%s.\n\n%s.\n\n```js\nconst x = %s(%q);\n```\n\n", para(2), s, para(60), para(50), words[zipf.Uint64()], para(3))
		}
		fsys[fmt.Sprintf("docs/p%05d.md", i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	return fsys
}

func fsBytes(fsys fstest.MapFS) int64 {
	var n int64
	for _, f := range fsys {
		n += int64(len(f.Data))
	}
	return n
}

// BenchmarkBuild indexes 500 synthetic pages (about 2 MB).
func BenchmarkBuild(b *testing.B) {
	fsys := syntheticDocs(500)
	b.SetBytes(fsBytes(fsys))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(ctx, fsys, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildDir indexes the documents under $DOCSEARCH_BENCH_DIR as an
// extra scope: the end-to-end measurement on real docs.
func BenchmarkBuildDir(b *testing.B) {
	dir := os.Getenv("DOCSEARCH_BENCH_DIR")
	if dir == "" {
		b.Skip("set DOCSEARCH_BENCH_DIR to a directory of docs")
	}
	for b.Loop() {
		ix, err := Open(ctx, fstest.MapFS{}, Options{Scopes: []Scope{{Name: "bench", Dir: ".", FS: os.DirFS(dir)}}})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(ix.Stats().Docs), "docs")
	}
}

func BenchmarkSearch(b *testing.B) {
	ix, err := Open(ctx, syntheticDocs(2000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	searchSynthetic(b, ix)
}

// searchSynthetic times searches of syntheticDocs' words over ix.
func searchSynthetic(b *testing.B, ix *Index) {
	queries := []string{"config12 render", "how to parse read_file options", "mapBy", "sever valeu", "what is an index"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ix.Search(ctx, Query{Text: queries[i%len(queries)]}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSearchAfterRemoval is BenchmarkSearch over an index some of
// whose documents were replaced: the searches of a server after edits.
func BenchmarkSearchAfterRemoval(b *testing.B) {
	ix, err := Open(ctx, syntheticDocs(2000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	for round := range 2 {
		var docs []Document
		for i := range 100 {
			docs = append(docs, Document{Path: fmt.Sprintf("put/%d", i), Scope: ScopeDocs,
				Text: fmt.Sprintf("# Note %d\n\nconfig12 render notes, round %d.\n", i, round)})
		}
		if err := ix.Put(ctx, docs); err != nil {
			b.Fatal(err)
		}
	}
	if ix.dead == 0 {
		b.Fatal("no chunk removed")
	}
	searchSynthetic(b, ix)
}

// BenchmarkLoad decodes the saved index of 2,000 synthetic pages.
func BenchmarkLoad(b *testing.B) {
	ix, err := Open(ctx, syntheticDocs(2000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ix.mu.Lock()
	data := ix.encode()
	ix.mu.Unlock()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeIndex(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVectorSearch scans 50,000 chunks of 256 dimensions.
func BenchmarkVectorSearch(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, dim = 50000, 256
	v := rowsOf(dim, randomUnit(r, n, dim))
	q := rowFloats(&v, 7)
	all := func(uint32) bool { return true }
	for b.Loop() {
		v.searchExact(q, candidates, all)
	}
}

// TestQuantizedRecall checks that int8 vectors find nearly the same
// neighbours as the float32 ones they were made from.
func TestQuantizedRecall(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, dim = 2000, 64
	data := randomUnit(r, n, dim)
	v := rowsOf(dim, data)
	all := func(uint32) bool { return true }
	same, total := 0, 0
	for qi := range 20 {
		q := data[qi*37*dim : (qi*37+1)*dim]
		exact := topK{k: 10}
		for i := range n {
			exact.push(uint32(i), dot(q, data[i*dim:(i+1)*dim]))
		}
		s, n := overlap(exact.sorted(), v.search(q, 10, all))
		same, total = same+s, total+n
	}
	if recall := float64(same) / float64(total); recall < 0.9 {
		t.Errorf("int8 recall@10 = %.2f, want >= 0.9", recall)
	}
}

// TestQuantizeBadVector checks that a vector with a NaN or an infinity is
// stored as the zero vector, whose scale the saved index accepts.
func TestQuantizeBadVector(t *testing.T) {
	nan := float32(math.NaN())
	for _, v := range [][]float32{{0.5, nan, 0.1}, {float32(math.Inf(1)), 0, 0}, {0, 0, 0}} {
		q := make([]int8, len(v))
		if s := quantizeTo(q, v); s != 0 || q[0] != 0 || q[1] != 0 || q[2] != 0 {
			t.Errorf("quantize %v = %v × %v, want the zero vector", v, q, s)
		}
	}
	q := make([]int8, 2)
	if s := quantizeTo(q, []float32{0.6, -0.8}); q[1] != -127 || q[0] != 95 || s < 0.0062 || s > 0.0064 {
		t.Errorf("quantize [0.6 -0.8] = %v × %v", q, s)
	}
}

// dot returns the dot product of two float vectors, the exact score
// quantised rows are checked against.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
