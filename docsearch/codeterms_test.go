package docsearch

import (
	"strings"
	"testing"
)

func TestScopeName(t *testing.T) {
	for q, want := range map[string]string{
		"flask.app.Flask.make_config":             "Flask",
		"flask.app.make_response":                 "app",
		"github.com/spf13/cobra.OnlyValidArgs":    "cobra",
		"github.com/spf13/cobra.Command.Execute":  "Command",
		"lib.router.index.<callback of .forEach>": "index",
		"lib.app.<callback of app.get('/users')>": "app",
		"std::vector::push_back":                  "vector",
		"register_blueprint":                      "",
		"":                                        "",
		".":                                       "",
	} {
		if got := scopeName(q); got != want {
			t.Errorf("scopeName(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestCodeTermsScopeOnce checks the weights of a method's fields in its
// terms: its own name nameWeight times, its class and its path once. The
// class and the file counted 3 to 5 times each, the same in every
// member, so that a query naming them matched every member alike.
func TestCodeTermsScopeOnce(t *testing.T) {
	w, err := newWorker(0)
	if err != nil {
		t.Fatal(err)
	}
	s := CodeSymbol{Name: "flask.app.Flask.make_config", Kind: "method", Signature: "def make_config(self, instance_relative)",
		Body: "root_path = self.root_path\nreturn self.config_class(root_path, defaults)", Line: 817, End: 832}
	text := CodeText("src/flask/app.py", s)
	tf := map[string]uint32{}
	for _, t := range w.analyzeCode(localName(s.Name), s.Name, "src/flask/app.py", codeLead(s), text) {
		tf[t.term] = t.tf
	}
	for term, want := range map[string]uint32{
		"makeconfig": nameWeight + 1, // its name, and its signature once
		"flask":      2,              // the class and the path's directory, once each
		"app":        1,              // the path
		"src":        1,
		"rootpath":   2, // the body, twice
	} {
		if got := tf[term]; got != want {
			t.Errorf("term %q: tf %d, want %d; terms %v", term, got, want, tf)
		}
	}
}

// FuzzScopeName checks that scopeName never panics and returns a part of
// the name it is given.
func FuzzScopeName(f *testing.F) {
	for _, q := range []string{"flask.app.Flask.make_config", "github.com/spf13/cobra.Command.Execute", "a::b::c", "lib.<callback of a.b>", "x.<y", ">.", "..", ""} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if s := scopeName(q); !strings.Contains(q, s) {
			t.Errorf("scopeName(%q) = %q, not a part of it", q, s)
		}
	})
}

// BenchmarkAnalyzeCode measures the terms of a code chunk, done once per
// symbol at index time.
func BenchmarkAnalyzeCode(b *testing.B) {
	w, err := newWorker(0)
	if err != nil {
		b.Fatal(err)
	}
	f := flaskCode()[0]
	texts := make([]string, len(f.Symbols))
	for i, s := range f.Symbols {
		texts[i] = CodeText(f.Path, s)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, s := range f.Symbols {
			w.analyzeCode(localName(s.Name), s.Name, f.Path, codeLead(s), texts[i])
		}
	}
}

// TestCodeTermsRulesRehash checks that a code document recorded under
// other rules of its terms (an index saved before they changed) is made
// again when its file is put, though its text is the same.
func TestCodeTermsRulesRehash(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	files := flaskCode()
	putCode(t, ix, files)
	docs := func() map[string]*doc {
		out := map[string]*doc{}
		ix.eachCodeDoc(func(key string, id uint32) { out[key] = ix.doc(id) })
		return out
	}
	for _, d := range docs() {
		if d.hash != codeDocHash(d.text) {
			t.Fatalf("%s: hash is not codeDocHash of its text", d.path)
		}
		d.hash = contentHash([]byte(d.text)) // as the rules before recorded it
	}
	putCode(t, ix, files)
	for key, d := range docs() {
		if d.hash != codeDocHash(d.text) {
			t.Errorf("%s: not made again under the current rules", key)
		}
	}
}
