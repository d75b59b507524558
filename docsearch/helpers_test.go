package docsearch

import (
	"context"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// trigramEmbedder is a deterministic test embedder: the character
// trigrams of the lower-cased text, hashed into 64 dimensions. Texts
// sharing words come out close.
type trigramEmbedder struct {
	name  string
	calls atomic.Int64
	texts atomic.Int64
}

func (e *trigramEmbedder) Name() string {
	if e.name == "" {
		return "test-trigram-64"
	}
	return e.name
}
func (e *trigramEmbedder) Dim() int { return 64 }
func (e *trigramEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	e.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 64)
		r := []rune(" " + toLowerASCII(t) + " ")
		for j := 0; j+3 <= len(r); j++ {
			h := fnv.New32a()
			h.Write([]byte(string(r[j : j+3])))
			v[h.Sum32()%64]++
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// workspace is a small set of documents in every scope and format.
var workspace = map[string]string{
	"README.md":                   "# Widget\n\nWidget renders charts from CSV files.\n\n## Install\n\nRun `go install example.com/widget@latest`.\n\n## Usage\n\nCall `mapBy` to group rows:\n\n```go\n# not a heading\nrows := widget.mapBy(data, key)\n```\n\nSee [the guide](docs/guide.md) and [API](./docs/api.md#render).\n",
	"docs/guide.md":               "---\ntitle: The Guide\nsecret_front_matter: zebra\n---\n# Guide\n\nThis guide explains how to configure the renderer.\n\n## Configuration\n\nSet `Options.Width` to change the chart width. Colours come from the theme.\n\n## Troubleshooting\n\nIf you see `error: no rows`, the CSV file is empty.\n",
	"docs/api.md":                 "# API\n\n## render(w, rows)\n\nParameters: `w` the writer, `rows` the data.\n\nReturns an error when the writer fails.\n\n## parseCSV(r)\n\nParameters: `r` a reader. Returns the rows.\n",
	"docs/notes.txt":              "Release notes\n\nVersion 2 adds histograms.\n",
	"docs/intro.rst":              "Introduction\n============\n\nThe widget library draws sparklines.\n",
	"docs/page.html":              "<html><head><title>Web Page</title><script>var ignored = 1;</script></head><body><h1>Dashboards</h1><p>Dashboards combine several charts.</p><pre>widget.Dashboard()</pre></body></html>",
	".artifacts/src/render.go.md": "---\nsource: \"src/render.go\"\nsource_sha256: \"abc\"\ncallers_digest: \"def\"\nextracted_at: 2026-01-02T03:04:05Z\ntool_version: \"v0.1.0\"\nstatus: enriched\n---\n# src/render.go\n\nRender draws a chart onto a writer using the quantile scale.\n\n## Functions\n\n### `Render`\n\nDraws the chart.\n",
	"docs/binary.md":              "\x00\x01\x02binary",
	"node_modules/x/README.md":    "# Dependency\n\nnot indexed\n",
	"src/main.go":                 "package main\n",
}

func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for name, text := range files {
		m[name] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	}
	return m
}

func openTest(t testing.TB, fsys fs.FS, opts Options) *Index {
	t.Helper()
	ix, err := Open(context.Background(), fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// rowsOf returns vectors of dim dimensions whose rows are data's, one
// after another, quantised.
func rowsOf(dim int, data []float32) vectors {
	v := vectors{dim: dim}
	n := len(data) / dim
	v.growTo(n)
	for i := range n {
		v.set(uint32(i), data[i*dim:(i+1)*dim])
	}
	return v
}

// rowFloats returns chunk i's vector as floats.
func rowFloats(v *vectors, i uint32) []float32 {
	r, s := v.row(i)
	out := make([]float32, len(r))
	for j, x := range r {
		out[j] = float32(x) * s
	}
	return out
}

// randomUnit returns n random unit vectors of dim floats, row after row.
func randomUnit(r *rand.Rand, n, dim int) []float32 {
	data := make([]float32, n*dim)
	for i := range n {
		row := data[i*dim : (i+1)*dim]
		for j := range row {
			row[j] = float32(r.NormFloat64())
		}
		normalize(row)
	}
	return data
}

// searchBeside starts n goroutines that search ix for q, and call also
// when it is set, over and over until the stop it returns is called;
// stop fails t with the first error a search returned.
func searchBeside(t *testing.T, n int, ix *Index, q Query, also func()) (stop func()) {
	t.Helper()
	done := make(chan struct{})
	errs := make(chan error, n)
	for range n {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := ix.Search(context.Background(), q); err != nil {
					errs <- err
					return
				}
				if also != nil {
					also()
				}
			}
		}()
	}
	return func() {
		t.Helper()
		close(done)
		for range n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
}
