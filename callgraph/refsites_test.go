package callgraph

import (
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// slimOf returns files as a store restores them: their symbols, not
// their imports, calls or references.
func slimOf(files []extract.File) []extract.File {
	out := make([]extract.File, len(files))
	for i, f := range files {
		out[i] = extract.File{Path: f.Path, Language: f.Language, Module: f.Module, Symbols: f.Symbols, Test: f.Test}
	}
	return out
}

// TestRestoreSlimReferences restores graphs over slim files with their
// saved reference sites (Saved.Refs) and checks that every References
// is the built graph's: without the sites, a restored graph found none.
func TestRestoreSlimReferences(t *testing.T) {
	cases := map[string][]extract.File{"corpus": extractAll(t, newExtractor(t, writeArchive(t, updateCorpus)))}
	if !testing.Short() {
		cases["x/tools"] = xtoolsFiles(t)
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			g := Build(files)
			s := g.Save()
			s.Refs = RefSitesOf(files)
			r, err := Restore(slimOf(files), s)
			if err != nil {
				t.Fatal(err)
			}
			if d := restoreDiff(r, g); d != "" {
				t.Fatalf("restored over slim files with the saved sites:\n%s", d)
			}
			bare, err := Restore(slimOf(files), g.Save())
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for id := range g.Len() {
				if n := len(g.References(SymbolID(id))); n > 0 {
					found++
					if len(bare.References(SymbolID(id))) != 0 {
						t.Fatalf("a graph restored over slim files without sites found %s's references", g.Node(SymbolID(id)).Qualified)
					}
				}
			}
			if found == 0 {
				t.Fatal("no node has references: the test checks nothing")
			}
			t.Logf("%d nodes with references, %d sites", found, len(s.Refs))
		})
	}
}

// TestRefSitesOfOrder checks RefSitesOf's order (name, path, the file's
// order) and the imports it keeps for each kind of site.
func TestRefSitesOfOrder(t *testing.T) {
	files := []extract.File{
		{Path: "b.py", Language: "python", Imports: []extract.Import{
			{Path: "m", Names: []extract.ImportName{{Name: "f"}}},
			{Path: "n", Names: []extract.ImportName{{Name: "f", Alias: "g"}}},
			{Path: "pkg.mod", Resolved: "x.pkg.mod"},
		}, Refs: []extract.Ref{{Name: "f", Line: 3}, {Name: "f", Receiver: "mod", Line: 4}, {Name: "a", Line: 5}}},
		{Path: "a.go", Language: "go", Refs: []extract.Ref{{Name: "f", Line: 1}}},
	}
	got := RefSitesOf(files)
	want := []RefSite{
		{Name: "a", File: "b.py", Line: 5},
		{Name: "f", File: "a.go", Line: 1, Go: true},
		{Name: "f", File: "b.py", Line: 3, Imports: []RefImport{{Path: "m"}}},
		{Name: "f", Receiver: "mod", File: "b.py", Line: 4, Imports: []RefImport{{Path: "pkg.mod", Resolved: "x.pkg.mod"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RefSitesOf = %+v\nwant %+v", got, want)
	}
}
