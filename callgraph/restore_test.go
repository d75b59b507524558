package callgraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// indexDiff describes how got's edges (graphDiff), files, names and
// skipped files differ from want's, or returns "": the reads every way
// of building a graph answers alike.
func indexDiff(got, want *Graph) string {
	var b strings.Builder
	b.WriteString(graphDiff(got, want))
	if !reflect.DeepEqual(got.byFile, want.byFile) {
		b.WriteString("InFile differs\n")
	}
	if !reflect.DeepEqual(got.byQualified, want.byQualified) {
		b.WriteString("Lookup differs\n")
	}
	if !reflect.DeepEqual(got.Skipped(), want.Skipped()) {
		fmt.Fprintf(&b, "Skipped %v, want %v\n", got.Skipped(), want.Skipped())
	}
	if !reflect.DeepEqual(got.Files(), want.Files()) {
		b.WriteString("Files differ\n")
	}
	return b.String()
}

// restoreDiff describes how a restored graph's answers differ from
// those of the graph it was saved from, or returns "".
func restoreDiff(got, want *Graph) string {
	var b strings.Builder
	b.WriteString(indexDiff(got, want))
	for id := range want.Len() {
		id := SymbolID(id)
		if g, w := got.References(id), want.References(id); !reflect.DeepEqual(g, w) {
			fmt.Fprintf(&b, "References(%s) %v, want %v\n", want.Node(id).Qualified, g, w)
		}
		if g, w := got.Signature(id), want.Signature(id); g != w {
			fmt.Fprintf(&b, "Signature(%s) %q, want %q\n", want.Node(id).Qualified, g, w)
		}
	}
	for _, p := range want.Files() {
		if !reflect.DeepEqual(got.UnresolvedIn(p), want.UnresolvedIn(p)) {
			fmt.Fprintf(&b, "UnresolvedIn(%s) differs\n", p)
		}
		for line := range 40 {
			gi, gok := got.At(p, line)
			wi, wok := want.At(p, line)
			if gi != wi || gok != wok {
				fmt.Fprintf(&b, "At(%s, %d) = %d %v, want %d %v\n", p, line, gi, gok, wi, wok)
			}
		}
	}
	return b.String()
}

// TestRestoreAnswersAsBuild restores graphs of every language the update
// corpus has, and of golang.org/x/tools, and checks every read against
// the graph they were saved from; then edits files of the restored graph
// and checks it against a fresh Build.
func TestRestoreAnswersAsBuild(t *testing.T) {
	root := writeArchive(t, updateCorpus)
	ex := newExtractor(t, root)
	files := extractAll(t, ex)
	if r := restoreBuilt(t, files); !r.Restored() {
		t.Fatal("a restored graph has its resolution state already")
	}
	// Each edit starts from a graph restored anew, so the first Update of
	// a restored graph is what every step exercises.
	for _, edit := range []struct{ path, src string }{
		{"py/base.py", "class Base:\n    def run(self):\n        return helper()\n\ndef helper():\n    return 2\n"},
		{"js/b.js", "export function b() { return a(); }\nimport { a } from './a.js';\n"},
		{"java/p/B.java", "package p;\npublic class B {\n    void go() { helper(); }\n    void helper() {}\n}\n"},
	} {
		if err := os.WriteFile(filepath.Join(root, edit.path), []byte(edit.src), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := ex.File(context.Background(), edit.path)
		if err != nil {
			t.Fatal(err)
		}
		base := extractAll(t, ex)
		i := slices.IndexFunc(base, func(x extract.File) bool { return x.Path == edit.path })
		base[i] = files[slices.IndexFunc(files, func(x extract.File) bool { return x.Path == edit.path })]
		r, err := Restore(base, Build(base).Save())
		if err != nil {
			t.Fatal(err)
		}
		r.Update([]extract.File{*f}, nil)
		if r.Restored() {
			t.Fatal("Update left the restored graph without its resolution state")
		}
		if d := graphDiff(r, Build(extractAll(t, ex))); d != "" {
			t.Fatalf("after writing %s, the restored graph's Update differs from Build:\n%s", edit.path, d)
		}
		files = extractAll(t, ex)
	}
}

func TestRestoreXTools(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts golang.org/x/tools")
	}
	restoreBuilt(t, xtoolsFiles(t))
}

// restoreBuilt builds the graph of files, restores it from what it
// saves, checks every read of the two agrees, and returns the restored.
func restoreBuilt(t *testing.T, files []extract.File) *Graph {
	t.Helper()
	g := Build(files)
	r, err := Restore(files, g.Save())
	if err != nil {
		t.Fatal(err)
	}
	if d := restoreDiff(r, g); d != "" {
		t.Fatalf("restored graph differs:\n%s", d)
	}
	return r
}

// TestRestoreRefusesMisfits gives Restore saved graphs that do not fit
// their files: each is an error, never a panic or a wrong graph.
func TestRestoreRefusesMisfits(t *testing.T) {
	files := extractDir(t, writeArchive(t, updateCorpus))
	s := Build(files).Save()
	if len(s.Edges) < 2 || len(s.Unresolved) == 0 {
		t.Fatalf("corpus too small: %d edges, %d unresolved", len(s.Edges), len(s.Unresolved))
	}
	cases := map[string]func(s *Saved) []extract.File{
		"edge past the nodes": func(s *Saved) []extract.File { s.Edges[0].Callee = SymbolID(1 << 20); return files },
		"edges out of order": func(s *Saved) []extract.File {
			last := len(s.Edges) - 1
			s.Edges[0], s.Edges[last] = s.Edges[last], s.Edges[0]
			return files
		},
		"unresolved call elsewhere": func(s *Saved) []extract.File {
			s.Unresolved[0].File = "nowhere.py"
			return files
		},
		"file given twice": func(s *Saved) []extract.File { return append(slices.Clone(files), files[0]) },
		"a file fewer": func(s *Saved) []extract.File {
			// Its nodes are gone: edges point past the rest, or the
			// unresolved calls made in it are nowhere.
			return files[1:]
		},
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			c := Saved{
				Edges:      slices.Clone(s.Edges),
				Unresolved: slices.Clone(s.Unresolved),
				Skipped:    slices.Clone(s.Skipped),
			}
			fs := spoil(&c)
			if g, err := Restore(fs, c); err == nil {
				t.Fatalf("Restore accepted it (%d nodes)", g.Len())
			}
		})
	}
}

// TestBuildContextCancels: a cancelled build gives up with the context's
// error; an uncancelled one is Build.
func TestBuildContextCancels(t *testing.T) {
	files := extractDir(t, writeArchive(t, updateCorpus))
	ctx, cancel := context.WithCancel(context.Background())
	g, err := BuildContext(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	if d := restoreDiff(g, Build(files)); d != "" {
		t.Fatalf("BuildContext differs from Build:\n%s", d)
	}
	cancel()
	if g, err := BuildContext(ctx, files); err != context.Canceled || g != nil {
		t.Fatalf("cancelled: %v, %v; want nil, context.Canceled", g, err)
	}
}

// TestRestoreSharesUnresolved checks a restored graph's unresolved calls
// by file are the runs of the saved list, not copies of it, and that a
// file's calls saved in two runs come back whole, in order.
func TestRestoreSharesUnresolved(t *testing.T) {
	files := []extract.File{
		{Path: "a.py", Language: "python", Module: "a", Symbols: []extract.Symbol{{Name: "f", Qualified: "a.f", Kind: extract.KindFunction, StartLine: 1, EndLine: 2}}},
		{Path: "b.py", Language: "python", Module: "b", Symbols: []extract.Symbol{{Name: "g", Qualified: "b.g", Kind: extract.KindFunction, StartLine: 1, EndLine: 2}}},
	}
	un := []Unresolved{
		{Caller: "a.f", Name: "x", File: "a.py", Line: 1, Reason: "no definition"},
		{Caller: "a.f", Name: "y", File: "a.py", Line: 2, Reason: "no definition"},
		{Caller: "b.g", Name: "z", File: "b.py", Line: 1, Reason: "no definition"},
		{Caller: "a.f", Name: "w", File: "a.py", Line: 3, Reason: "no definition"},
	}
	g, err := Restore(files, Saved{Unresolved: un})
	if err != nil {
		t.Fatal(err)
	}
	if b := g.UnresolvedIn("b.py"); len(b) != 1 || &b[0] != &un[2] {
		t.Errorf("b.py's unresolved calls are a copy of the saved list, or wrong: %+v", b)
	}
	a := g.UnresolvedIn("a.py")
	if want := []Unresolved{un[0], un[1], un[3]}; !reflect.DeepEqual(a, want) {
		t.Errorf("a.py's unresolved calls = %+v, want %+v", a, want)
	}
	if un[2].Name != "z" {
		t.Error("restoring changed the saved list")
	}
}
