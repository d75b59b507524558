package docsearch

import (
	"errors"
	"strings"
	"testing"
)

// FuzzSearch searches an index with any query text, in each mode, with
// and without scopes, and checks that a search either fails as an empty
// query or returns at most the limit of results, each a document of the
// index with a relevance between 0 and 1.
func FuzzSearch(f *testing.F) {
	for _, q := range []string{"sparklines", "how to configure chart width", "mapBy", "error: no rows", "", "  ", "render(w, rows)", "Ünïcödé ⌘ 日本語", "a b c d e f g h", "python read only dictionary in c++", "chart width chart width", "in in set up"} {
		f.Add(q, uint8(0))
	}
	ix := openTest(f, mapFS(workspace), Options{Embedder: &trigramEmbedder{}})
	docs, err := ix.List("")
	if err != nil {
		f.Fatal(err)
	}
	paths := map[string]bool{}
	for _, d := range docs {
		paths[d.Path] = true
	}
	f.Fuzz(func(t *testing.T, text string, how uint8) {
		q := Query{Text: text, Mode: []Mode{Hybrid, Lexical, Vector}[int(how)%3], Limit: int(how>>2) % 4, MinScore: zero()}
		if how&0x80 != 0 {
			q.Scopes = []string{ScopeDocs, ScopeArtifacts}
		}
		res, err := ix.Search(ctx, q)
		if errors.Is(err, ErrEmptyQuery) {
			return
		}
		if err != nil {
			t.Fatalf("search %q: %v", text, err)
		}
		limit := q.Limit
		if limit == 0 {
			for _, p := range plans { // the query type's, at most the largest
				limit = max(limit, p.Limit)
			}
		}
		if len(res.Results) > limit {
			t.Errorf("%d results for a limit of %d", len(res.Results), q.Limit)
		}
		check := func(rs []Result) {
			for _, r := range rs {
				if !paths[r.Path] || r.Score < 0 || r.Score > 1 {
					t.Errorf("result %q with score %v", r.Path, r.Score)
				}
			}
		}
		check(res.Results)
		for s, rs := range res.ByScope {
			if len(rs) > limit {
				t.Errorf("%d results in scope %s for a limit of %d", len(rs), s, q.Limit)
			}
			check(rs)
		}
	})
}

// FuzzBareText: a code text without whitespace has none left, and a copy
// of it indented deeper, line by line, is the same without it.
func FuzzBareText(f *testing.F) {
	f.Add("export function f(a) {\n  return a + 1\n}\n")
	f.Add("def f(self):\n\treturn None\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		bare := bareText(text)
		if strings.ContainsAny(bare, " \t\n\r\v\f") {
			t.Fatalf("bareText(%q) = %q holds whitespace", text, bare)
		}
		indented := "    " + strings.ReplaceAll(text, "\n", "\n    ")
		if got := bareText(indented); got != bare {
			t.Fatalf("indented: %q, want %q", got, bare)
		}
		if !sameCode(bare, bare) {
			t.Fatalf("sameCode(%q, itself) = false", bare)
		}
	})
}
