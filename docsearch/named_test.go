package docsearch

import (
	"fmt"
	"testing"
)

// TestNamedHitsFindTheDefinition: in a tree where the callers of
// packages.Load write its name whole, more of them than the rules after
// fusion read, a search for "packages.Load" or "Load" still puts the
// definition first.
func TestNamedHitsFindTheDefinition(t *testing.T) {
	load := CodeSymbol{Name: "golang.org/x/tools/go/packages.Load", Kind: "function", Signature: "func Load(cfg *Config, patterns ...string) ([]*Package, error)",
		Doc: "Load returns the Go packages named by the patterns.", Body: "ld := newLoader(cfg)\nreturn ld.refine(defaultDriver(&ld.Config, patterns...))", Line: 267, End: 294}
	files := []CodeFile{{Path: "go/packages/packages.go", Symbols: []CodeSymbol{load}}}
	for i := range copyWindow + 10 {
		files = append(files, CodeFile{Path: fmt.Sprintf("go/tool%d/main.go", i), Symbols: []CodeSymbol{{
			Name: fmt.Sprintf("golang.org/x/tools/go/tool%d.load", i), Kind: "function", Signature: "func load(patterns []string) ([]*packages.Package, error)",
			Body: "pkgs, err := packages.Load(conf, patterns...)\nif err != nil {\n\treturn nil, err\n}\nreturn pkgs, nil", Calls: []string{"packages.Load"}, Line: 10, End: 16}}})
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, files)
	for _, q := range []string{"packages.Load", "Load"} {
		if got := codePaths(t, ix, q); len(got) == 0 || got[0] != "go/packages/packages.go" {
			t.Errorf("%s: results %v, want go/packages/packages.go first", q, got)
		}
	}
}

// TestNamedBy: a symbol is named by its whole name or an end of it after
// a separator, not by the end of a longer word.
func TestNamedBy(t *testing.T) {
	for _, c := range []struct {
		title, q string
		want     bool
	}{
		{"golang.org/x/tools/go/packages.Load", "packages.Load", true},
		{"golang.org/x/tools/go/packages.Load", "Load", true},
		{"flask.app.Flask.route", "Flask.route", true},
		{"crate::io::read", "read", true},
		{"Load", "Load", true},
		{"golang.org/x/tools/go/packages.AutoLoad", "Load", false},
		{"Load", "packages.Load", false},
	} {
		if got := namedBy(c.title, c.q); got != c.want {
			t.Errorf("namedBy(%q, %q) = %v, want %v", c.title, c.q, got, c.want)
		}
	}
}
