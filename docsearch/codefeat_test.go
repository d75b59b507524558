package docsearch

import (
	"math"
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

// TestCodeCandidatesSeeEveryFeature: Query.CodeCandidates is given the
// code candidates with every feature computed, also those the weights
// leave at 0 (text), and the results are in the order of
// Fused × exp(w·Features).
func TestCodeCandidatesSeeEveryFeature(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{{Path: "pkg/header.go", Symbols: []CodeSymbol{
		{Name: "pkg.ParseHeader", Kind: "function", Signature: "func ParseHeader(line string) Header", Body: "return split(line, \"header\")", Line: 1, End: 9},
		{Name: "pkg.splitLine", Kind: "function", Signature: "func splitLine(line string) []string", Body: "return strings.Fields(line)", Line: 11, End: 19},
		{Name: "pkg.Header", Kind: "struct", Signature: "type Header struct", Body: "Name string\nValue string", Line: 21, End: 24},
	}}})
	var cands []CodeCandidate
	res, err := ix.Search(ctx, Query{Text: "parse the header line", Scopes: []string{ScopeCode}, MinScore: zero(),
		CodeCandidates: func(c []CodeCandidate) { cands = c }})
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 3 {
		t.Fatalf("%d candidates, want 3", len(cands))
	}
	w := CodeWeights()
	for _, k := range []int{featText} {
		if w[k] != 0 {
			t.Fatalf("%s is weighed: the test needs a feature the weights leave out", CodeFeatureNames[k])
		}
		set := false
		for _, c := range cands {
			set = set || c.Features[k] != 0
		}
		if !set {
			t.Errorf("%s is 0 for every candidate: not computed", CodeFeatureNames[k])
		}
	}
	final := map[string]float64{}
	for _, c := range cands {
		var s float64
		for k, v := range c.Features {
			s += w[k] * v
		}
		final[c.Result.Symbol] = c.Fused * math.Exp(s)
	}
	for i := 1; i < len(res.Results); i++ {
		a, b := res.Results[i-1].Symbol, res.Results[i].Symbol
		if final[a] < final[b] {
			t.Errorf("%s (%.4f) ranks over %s (%.4f)", a, final[a], b, final[b])
		}
	}
}

// TestExportedPythonPrivateModule: a Python symbol in a module or
// package named with one leading underscore is not exported, whatever
// its own name; __init__.py and __main__.py are public, and the rule is
// Python's only.
func TestExportedPythonPrivateModule(t *testing.T) {
	cases := []struct {
		name, file string
		want       bool
	}{
		{"getchar", "click/termui.py", true},
		{"getchar", "click/_termui_impl.py", false},
		{"helper", "pkg/_internal/util.py", false},
		{"setup", "pkg/__init__.py", true},
		{"main", "pkg/__main__.py", true},
		{"_private", "pkg/mod.py", false},
		{"baseFlatten", "_baseFlatten.js", true},
		{"Run", "internal/_x/run.go", true},
	}
	for _, c := range cases {
		if got := exported(c.name, c.file); got != c.want {
			t.Errorf("exported(%q, %q) = %v, want %v", c.name, c.file, got, c.want)
		}
	}
}

// TestPrivateModuleRanksUnder: of two Python functions that match a
// question alike, the one of the public module ranks over its private
// implementation, whose path has a word of the question and which
// ranks first without the rule.
func TestPrivateModuleRanksUnder(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	body := "def edit(text, editor):\n    return open_editor(text, editor)"
	putCode(t, ix, []CodeFile{
		{Path: "click/termui.py", Symbols: []CodeSymbol{{Name: "click.termui.edit", Kind: "function", Signature: "def edit(text, editor)", Body: body, Line: 1, End: 2}}},
		{Path: "click/_editor.py", Symbols: []CodeSymbol{{Name: "click._editor.edit", Kind: "function", Signature: "def edit(text, editor)", Body: body, Line: 1, End: 2}}},
	})
	if got := firstCode(t, ix, "open an editor to edit the text", nil); got != "click.termui.edit" {
		t.Errorf("first %s, want click.termui.edit", got)
	}
}
