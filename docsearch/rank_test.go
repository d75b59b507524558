package docsearch

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestRankFixtures runs the ranking cases of testdata/rank: each archive
// holds documents, and in its comment a query, the path that must come
// first ("want"), optionally the heading that result must show
// ("heading") and a query that must not find the wanted path at all
// ("absent"). Lexical and hybrid search (with the trigram embedder) must
// both put it first.
func TestRankFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/rank/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			keys := map[string]string{}
			for _, ln := range strings.Split(string(ar.Comment), "\n") {
				if k, v, ok := strings.Cut(ln, ": "); ok && !strings.Contains(k, " ") {
					keys[k] = v
				}
			}
			if keys["query"] == "" || keys["want"] == "" {
				t.Fatal("fixture needs query: and want: lines")
			}
			var docs []Document
			for _, f := range ar.Files {
				format := "markdown"
				if path.Ext(f.Name) == ".rst" {
					format = "rst"
				}
				docs = append(docs, Document{Path: f.Name, Scope: ScopeDocs, Text: string(f.Data), Format: format})
			}
			for _, mode := range []Mode{Lexical, Hybrid} {
				ix := openTest(t, mapFS(nil), Options{Embedder: &trigramEmbedder{}})
				if err := ix.Put(ctx, docs); err != nil {
					t.Fatal(err)
				}
				res, err := ix.Search(ctx, Query{Text: keys["query"], Mode: mode, MinScore: zero()})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range res.Results {
					got = append(got, r.Path)
				}
				if len(got) == 0 || got[0] != keys["want"] {
					t.Errorf("%s: %q ranked %v; want %s first", mode, keys["query"], got, keys["want"])
					continue
				}
				if h := keys["heading"]; h != "" && res.Results[0].Heading != h {
					t.Errorf("%s: heading %q; want %q", mode, res.Results[0].Heading, h)
				}
				if q := keys["absent"]; q != "" && mode == Lexical {
					res, err := ix.Search(ctx, Query{Text: q, Mode: Lexical, MinScore: zero()})
					if err != nil {
						t.Fatal(err)
					}
					if slices.ContainsFunc(res.Results, func(r Result) bool { return r.Path == keys["want"] }) {
						t.Errorf("%q found %s: its markup was indexed", q, keys["want"])
					}
				}
			}
		})
	}
}
