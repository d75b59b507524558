package docsearch

import (
	"fmt"
	"testing"
)

// TestContainerRanksUnder: a class ranked after its own method repeats
// that method's words; another function that matches comes between
// them. A class ranked before its members keeps its place. The features
// are weighed 0, so that the order is fusion's and the rule's alone.
func TestContainerRanksUnder(t *testing.T) {
	load := "def load(self, name):\n    for d in self.search_path:\n        p = os.path.join(d, name)\n        if os.path.exists(p):\n            return Template(open(p).read())\n"
	loader := CodeSymbol{Name: "templating.Loader", Kind: "class", Signature: "class Loader", Doc: "Loads templates by name from a search path.",
		Body: "members: load\nclass Loader:\n    search_path = []\n" + load, Line: 1, End: 20}
	method := CodeSymbol{Name: "templating.Loader.load", Kind: "method", Signature: "def load(self, name)",
		Doc: "Load a template by name from the search path.", Body: load, Line: 4, End: 20}
	find := CodeSymbol{Name: "helpers.find_template", Kind: "function", Signature: "def find_template(name, search_path)",
		Doc: "Return the first template on a path.", Body: "def find_template(name, search_path):\n    return first(search_path, name)\n", Line: 1, End: 9}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{{Path: "pkg/templating.py", Symbols: []CodeSymbol{loader, method}}, {Path: "pkg/helpers.py", Symbols: []CodeSymbol{find}}})
	for q, want := range map[string]string{
		"load a template by name from the search path": "[load find_template Loader]",
		"templates loader": "[Loader load find_template]",
	} {
		res, err := ix.Search(ctx, Query{Text: q, Scopes: []string{ScopeCode}, MinScore: zero(), CodeWeights: make([]float64, numCodeFeatures)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Results {
			got = append(got, localName(r.Symbol))
		}
		if fmt.Sprint(got) != want {
			t.Errorf("%q: results %v, want %s", q, got, want)
		}
	}
}

// TestModuleAroundTypeRanksUnder: a namespace module that wraps a whole
// file (Ruby's "module Rack" around "class Static") holds the text of
// the class ranked before it; it ranks under the next match.
func TestModuleAroundTypeRanksUnder(t *testing.T) {
	static := "def call(env)\n  path = env['PATH_INFO']\n  serve_static_file(path) if can_serve(path)\nend\n"
	class := CodeSymbol{Name: "rack.static.Rack.Static", Kind: "class", Signature: "class Static",
		Doc: "Serves static files from a directory.", Body: "class Static\n" + static + "end\n", Line: 10, End: 90}
	module := CodeSymbol{Name: "rack.static.Rack", Kind: "module", Signature: "module Rack",
		Body: "module Rack\n  class Static\n" + static + "  end\nend\n", Line: 3, End: 92}
	files := CodeSymbol{Name: "rack.files.Rack.Files.serving", Kind: "method", Signature: "def serving(request, path)",
		Doc: "Serves a file.", Body: "def serving(request, path)\n  File.open(path)\nend\n", Line: 70, End: 121}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{{Path: "lib/rack/static.rb", Symbols: []CodeSymbol{module, class}}, {Path: "lib/rack/files.rb", Symbols: []CodeSymbol{files}}})
	if got, want := codeOrder(t, ix, "serve static files from a directory"), "[Static serving Rack]"; fmt.Sprint(got) != want {
		t.Errorf("results %v, want %s", got, want)
	}
}
