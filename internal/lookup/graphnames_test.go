package lookup

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"golang.org/x/tools/txtar"
)

// goPackage is a Go package of two files (which share its module node)
// beside a second package that calls into it.
const goPackage = `-- go.mod --
module example.com/m
-- a/a.go --
package a

// Run runs. It is documented.
func Run() { helper() }

func helper() {}
-- a/b.go --
package a

type T struct{}

// Do does.
func (t *T) Do() { Run() }
-- b/b.go --
package b

import "example.com/m/a"

func Main() { a.Run(); (&a.T{}).Do() }
`

// extractArchive writes a txtar archive's files under a temporary
// directory and extracts them.
func extractArchive(t testing.TB, archive string) []extract.File {
	t.Helper()
	dir := t.TempDir()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		full := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := extract.New(dir, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNewGraphAnswersAsNew checks that the index NewGraph reads from a
// graph's own lookups gives New's names, files and details, for built
// and restored graphs of every test archive.
func TestNewGraphAnswersAsNew(t *testing.T) {
	archives := map[string]string{"go": goPackage}
	for _, name := range []string{"app.txtar", "cproto.txtar", "guesses.txtar"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		archives[name] = string(data)
	}
	for name, archive := range archives {
		t.Run(name, func(t *testing.T) {
			files := extractArchive(t, archive)
			built := callgraph.Build(files)
			restored, err := callgraph.Restore(files, built.Save())
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range []*callgraph.Graph{built, restored} {
				want := New(g, g.File)
				got := NewGraph(g)
				compareNames(t, g, want.names, got.names)
				for i := range g.Len() {
					m := Match{ID: callgraph.SymbolID(i), How: Exact}
					if a, b := want.Symbol(m), got.Symbol(m); a != b {
						t.Errorf("Symbol(%d) = %+v, want %+v", i, b, a)
					}
				}
			}
		})
	}
}

func compareNames(t *testing.T, g *callgraph.Graph, want, got Names) {
	t.Helper()
	var wantNames, gotNames []string
	want.EachName(func(s string) bool { wantNames = append(wantNames, s); return true })
	got.EachName(func(s string) bool { gotNames = append(gotNames, s); return true })
	slices.Sort(wantNames)
	slices.Sort(gotNames)
	if !slices.Equal(wantNames, gotNames) {
		t.Errorf("names %v, want %v", gotNames, wantNames)
	}
	for _, n := range wantNames {
		if a, b := want.Named(n), got.Named(n); !slices.Equal(a, b) {
			t.Errorf("Named(%q) = %v, want %v", n, b, a)
		}
	}
	for i := range g.Len() {
		n := g.Node(callgraph.SymbolID(i))
		if a, b := want.Qualified(n.Qualified), got.Qualified(n.Qualified); !slices.Equal(a, b) {
			t.Errorf("Qualified(%q) = %v, want %v", n.Qualified, b, a)
		}
		s1, d1, b1 := want.Detail(callgraph.SymbolID(i))
		s2, d2, b2 := got.Detail(callgraph.SymbolID(i))
		if s1 != s2 || d1 != d2 || !slices.Equal(b1, b2) {
			t.Errorf("Detail(%s) = %q %q %v, want %q %q %v", n.Qualified, s2, d2, b2, s1, d1, b1)
		}
	}
	for _, p := range append(g.Files(), "missing.go") {
		if a, b := want.InFile(p), got.InFile(p); !slices.Equal(a, b) {
			t.Errorf("InFile(%q) = %v, want %v", p, b, a)
		}
	}
	if got.Qualified("no.such.name") != nil || got.Named("nosuchname") != nil {
		t.Error("an unknown name has nodes")
	}
}
