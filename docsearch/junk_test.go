package docsearch

import (
	"testing"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// TestJunkQuery, with the default embedder, checks that a query of made-up words finds nothing at the
// default threshold, in hybrid and lexical search, and that its
// candidates are still there, scored under it, for min_score 0; and that
// a query of the documents' words keeps its results.
func TestJunkQuery(t *testing.T) {
	ix := openTest(t, mapFS(workspace), Options{Embedder: embed.Default()})
	for _, mode := range []Mode{Hybrid, Lexical} {
		const junk = "pubokaha tequfu qede"
		res, err := ix.Search(ctx, Query{Text: junk, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) != 0 || res.Message == "" {
			t.Errorf("%s: %q found %d results (message %q), want none and a message", mode, junk, len(res.Results), res.Message)
		}
		all, err := ix.Search(ctx, Query{Text: junk, Mode: mode, MinScore: zero()})
		if err != nil {
			t.Fatal(err)
		}
		if mode == Hybrid && len(all.Results) == 0 {
			t.Errorf("%s: %q found nothing even with min_score 0; want its vector candidates", mode, junk)
		}
		for _, r := range all.Results {
			if r.Score >= DefaultMinScore {
				t.Errorf("%s: %q: %s scored %.3f, want under %.1f", mode, junk, r.Path, r.Score, DefaultMinScore)
			}
		}
		res, err = ix.Search(ctx, Query{Text: "configure the renderer", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].Path != "docs/guide.md" {
			t.Errorf("%s: a query of the guide's words found %v, want docs/guide.md first", mode, res.Results)
		}
	}
}
