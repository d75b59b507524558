package callgraph

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReferences(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "refs", "refs.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	g := buildArchive(t, string(data))
	for _, tc := range []struct {
		symbol string
		want   []string
	}{
		{"example.com/app/cobra.NoArgs", []string{"cobra/command.go:3", "main.go:5"}},
		{"example.com/app/cobra.Never", nil},
		{"flaskish.logging.wsgi_errors_stream", []string{"flaskish/app.py:4", "flaskish/logging.py:5"}},
		{"web.handler.handler", []string{"web/app.js:2"}},
	} {
		ids := g.Lookup(tc.symbol)
		if len(ids) != 1 {
			var names []string
			for i := range g.Len() {
				names = append(names, g.Node(SymbolID(i)).Qualified)
			}
			t.Fatalf("%s: %d nodes; have %q", tc.symbol, len(ids), names)
		}
		var got []string
		for _, r := range g.References(ids[0]) {
			got = append(got, fmt.Sprintf("%s:%d", r.File, r.Line))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s is used as a value at %q, want %q", tc.symbol, got, tc.want)
		}
	}
}

// TestReferencesConcurrent has readers gather the reference index at
// once, as the server's tools do (run with -race).
func TestReferencesConcurrent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "refs", "refs.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	g := buildArchive(t, string(data))
	id := g.Lookup("flaskish.logging.wsgi_errors_stream")[0]
	done := make(chan int)
	for range 4 {
		go func() { done <- len(g.References(id)) }()
	}
	for range 4 {
		if n := <-done; n != 2 {
			t.Errorf("%d references, want 2", n)
		}
	}
}

// BenchmarkReferencesXTools asks for the value references of every
// function of golang.org/x/tools@v0.39.0, as documenting the whole module
// does: the first call gathers the index, the others look names up.
func BenchmarkReferencesXTools(b *testing.B) {
	g := Build(xtoolsFiles(b))
	b.ReportAllocs()
	refs := 0
	for b.Loop() {
		g.refs = &refIndex{} // each iteration gathers the index again
		refs = 0
		for id := range g.Len() {
			refs += len(g.References(SymbolID(id)))
		}
	}
	b.ReportMetric(float64(refs), "refs")
	b.ReportMetric(float64(g.Len()), "nodes")
}
