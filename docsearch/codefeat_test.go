package docsearch

import (
	"testing"
)

// firstCode returns the symbol of the first code result of query with
// the code ranking weights w (nil: the built-in ones).
func firstCode(t *testing.T, ix *Index, query string, w []float64) string {
	t.Helper()
	res, err := ix.Search(ctx, Query{Text: query, Scopes: []string{ScopeCode}, MinScore: zero(), CodeWeights: w})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 {
		t.Fatalf("%q: no results", query)
	}
	return res.Results[0].Symbol
}

// TestCodeWeightsApply: the weights of Query.CodeWeights replace the
// built-in ones (a test that ranks under the code it tests with them
// ranks first without them, where it matches best), and nil means the
// built-in ones.
func TestCodeWeightsApply(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "pkg/cookie_test.go", Symbols: []CodeSymbol{{Name: "TestExpireCookie", Kind: "function", Signature: "func TestExpireCookie(t *testing.T)",
			Body: "jar := NewJar()\njar.Expire(\"session\")\nif jar.Len() != 0 { t.Fatal(\"expire cookie left a cookie\") }", Line: 1, End: 12}}},
		{Path: "pkg/cookie.go", Symbols: []CodeSymbol{{Name: "Jar.Expire", Kind: "method", Signature: "func (j *Jar) Expire(name string)",
			Body: "delete(j.cookies, name)\nj.log(name)", Line: 1, End: 12}}},
	})
	if got := firstCode(t, ix, "expire a cookie", nil); got != "Jar.Expire" {
		t.Errorf("built-in weights: first %s, want Jar.Expire", got)
	}
	if got := firstCode(t, ix, "expire a cookie", CodeWeights()); got != "Jar.Expire" {
		t.Errorf("CodeWeights(): first %s, want Jar.Expire", got)
	}
	if got := firstCode(t, ix, "expire a cookie", make([]float64, len(CodeFeatureNames))); got != "TestExpireCookie" {
		t.Errorf("zero weights: first %s, want TestExpireCookie (it matches best)", got)
	}
}

// TestExportedRanksFirst: of two functions that match a question alike,
// the one the package exports (its API) ranks over the unexported
// helper, though the helper is indexed first.
func TestExportedRanksFirst(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{{Path: "pkg/header.go", Symbols: []CodeSymbol{
		{Name: "pkg.parseHeader", Kind: "function", Signature: "func parseHeader(line string) Header", Body: "return split(line)", Line: 1, End: 9},
		{Name: "pkg.ParseHeader", Kind: "function", Signature: "func ParseHeader(line string) Header", Body: "return split(line)", Line: 11, End: 19},
	}}})
	if got := firstCode(t, ix, "parse the header line", nil); got != "pkg.ParseHeader" {
		t.Errorf("first %s, want pkg.ParseHeader", got)
	}
}
