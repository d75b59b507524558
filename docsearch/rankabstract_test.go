package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

// abstractText is the text a method of the given body is indexed by.
func abstractText(name, sig, doc, body string) string {
	return CodeText("pkg/a.py", CodeSymbol{Name: name, Kind: "method", Signature: sig, Doc: doc, Body: body, Line: 1, End: 9})
}

func TestAbstractBody(t *testing.T) {
	for _, c := range []struct {
		name, sig, doc, body string
		want                 bool
	}{
		{"A.run", "def run(self)", "Run it.", "def run(self):\n    raise NotImplementedError\n", true},
		{"A.run", "def run(self)", "", "def run(self):\n    raise NotImplementedError(\"run\")\n", true},
		{"A.run", "def run(self, a,", "Run it.", "def run(self, a,\n        b):\n    # subclasses do it\n    raise NotImplementedError\n", true},
		{"A.run", "run(a)", "Run it.", "run(a) {\n  throw new Error('not implemented');\n}\n", true},
		{"A.run", "run(a)", "Run it.", "run(a) {\n  throw new Error('bad a');\n}\n", false},
		{"A.run", "def run(self)", "Run it.", "def run(self):\n    if self.x:\n        raise NotImplementedError\n    return 1\n", false},
		{"A.run", "def run(self)", "Run it.", "def run(self):\n    return 1\n", false},
		{"A.run", "def run(self)", "Run it.", "def run(self):\n    pass\n", false},
		{"A.run", "def run(self)", "Run it.", "", false},
		{"A.run", "", "Run it.", "raise NotImplementedError\n", false},
	} {
		if got := abstractBody(c.name, abstractText(c.name, c.sig, c.doc, c.body)); got != c.want {
			t.Errorf("abstractBody(%q) = %v, want %v", c.body, got, c.want)
		}
	}
	class := CodeText("pkg/a.py", CodeSymbol{Name: "A", Kind: "class", Signature: "class A", Body: "class A:\n    raise NotImplementedError\n"})
	if abstractBody("A", class) {
		t.Error("a class is not an abstract method")
	}
}

func FuzzAbstractBody(f *testing.F) {
	f.Add("A.run", "def run(self)", "Run it.", "def run(self):\n    raise NotImplementedError\n")
	f.Add("A.run", "run(a)", "", "run(a) {\n  throw new Error('not implemented')\n}")
	f.Add("<callback>", "() =>", "", "() => {\n}\n")
	f.Fuzz(func(t *testing.T, name, sig, doc, body string) {
		text := abstractText(name, sig, doc, body)
		if abstractBody(name, text) && !strings.Contains(text, "raise NotImplementedError") && !strings.Contains(text, "throw ") {
			t.Errorf("abstract without a raise or throw: %q", text)
		}
	})
}

// TestAbstractRanksUnder: a base class's method that raises "not
// implemented" repeats the name and doc of the subclass's method that
// does the work; the implementation ranks first.
func TestAbstractRanksUnder(t *testing.T) {
	doc := "Sends a prepared request and returns the response."
	base := CodeSymbol{Name: "adapters.BaseAdapter.send", Kind: "method", Signature: "def send(self, request, timeout=None)", Doc: doc,
		Body: "def send(self, request, timeout=None):\n    raise NotImplementedError\n", Calls: []string{"NotImplementedError"}, Line: 10, End: 20}
	impl := CodeSymbol{Name: "adapters.HTTPAdapter.send", Kind: "method", Signature: "def send(self, request, timeout=None)", Doc: doc,
		Body:  "def send(self, request, timeout=None):\n    conn = self.get_connection(request.url)\n    resp = conn.urlopen(request.method, request.url, timeout=timeout)\n    return self.build_response(request, resp)\n",
		Calls: []string{"get_connection", "urlopen", "build_response"}, Line: 40, End: 80}
	for _, order := range [][]CodeSymbol{{base, impl}, {impl, base}} {
		ix := openTest(t, mapFS(nil), Options{})
		putCode(t, ix, []CodeFile{{Path: "requests/adapters.py", Symbols: order}})
		res, err := ix.Search(ctx, Query{Text: "send a request", Scopes: []string{ScopeCode}, MinScore: zero()})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Results {
			got = append(got, r.Symbol)
		}
		if want := "[adapters.HTTPAdapter.send adapters.BaseAdapter.send]"; fmt.Sprint(got) != want {
			t.Errorf("results %v, want %s", got, want)
		}
	}
}
