package callgraph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// updateCorpus adds Python, JavaScript and Java files with imports,
// classes and inheritance to goTypesArchive.
const updateCorpus = goTypesArchive + `
-- py/base.py --
class Base:
    def run(self):
        return self.step()

    def step(self):
        return helper()

def helper():
    return 1
-- py/impl.py --
from py.base import Base, helper
import py.base as pb

class Impl(Base):
    def step(self):
        return pb.helper() + helper()

def make():
    f = Impl
    return f().run()
-- js/a.js --
import { b } from './b.js';
export function a() { return b() + c(); }
function c() { return 1; }
-- js/b.js --
export function b() { return 2; }
export { c as d } from './c.js';
-- js/c.js --
export function c() { return 3; }
-- js/d.js --
import { d } from './b.js';
import * as ns from './b.js';
export default function () { return d() + ns.b(); }
-- java/p/A.java --
package p;
public class A extends B {
    void run() { helper(); new B().go(); }
}
-- java/p/B.java --
package p;
public class B {
    void go() {}
    void helper() { go(); }
}
`

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// randomEdit makes one random change to a file of paths under root: it
// removes it (when more than keep files are left), copies it to a new
// file, or deletes, duplicates or renames an identifier on one of its
// lines (to one of idents). It returns the path changed (the copy's for
// a copy), what it did, and the path removed, if any.
func randomEdit(t *testing.T, rng *rand.Rand, root string, paths, idents []string, step, keep int) (p, what string, removed []string) {
	t.Helper()
	p = paths[rng.IntN(len(paths))]
	full := filepath.Join(root, p)
	src, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	switch op := rng.IntN(10); {
	case op == 0 && len(paths) > keep:
		os.Remove(full)
		return p, "remove " + p, []string{p}
	case op == 1:
		np := strings.TrimSuffix(p, filepath.Ext(p)) + fmt.Sprintf("_%d", step) + filepath.Ext(p)
		if err := os.WriteFile(filepath.Join(root, np), src, 0o644); err != nil {
			t.Fatal(err)
		}
		return np, "copy " + p + " to " + np, nil
	}
	i := rng.IntN(len(lines))
	switch rng.IntN(3) {
	case 0:
		what = fmt.Sprintf("delete line %d of %s", i+1, p)
		lines = append(lines[:i], lines[i+1:]...)
	case 1:
		what = fmt.Sprintf("duplicate line %d of %s", i+1, p)
		lines = append(lines[:i+1], lines[i:]...)
	default:
		ids := identRE.FindAllStringIndex(lines[i], -1)
		if len(ids) == 0 {
			what = "touch " + p
			break
		}
		m := ids[rng.IntN(len(ids))]
		repl := idents[rng.IntN(len(idents))]
		what = fmt.Sprintf("rename %q to %q on line %d of %s", lines[i][m[0]:m[1]], repl, i+1, p)
		lines[i] = lines[i][:m[0]] + repl + lines[i][m[1]:]
	}
	if err := os.WriteFile(full, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, what, nil
}

// updateCorpusGraph writes updateCorpus, extracts it and builds its
// graph; it returns the root, the extractor, the graph and the
// identifiers of the sources, which randomEdit draws from.
func updateCorpusGraph(t *testing.T) (root string, ex *extract.Extractor, g *Graph, idents []string) {
	t.Helper()
	root = writeArchive(t, updateCorpus)
	ex = newExtractor(t, root)
	files := extractAll(t, ex)
	for _, f := range files {
		src, _ := os.ReadFile(filepath.Join(root, f.Path))
		idents = append(idents, identRE.FindAllString(string(src), -1)...)
	}
	return root, ex, Build(files), idents
}

// TestUpdateEqualsBuild edits, adds and removes real files at random and
// checks after every Update that the graph equals a fresh Build.
func TestUpdateEqualsBuild(t *testing.T) {
	root, ex, g, idents := updateCorpusGraph(t)
	ctx := context.Background()
	steps, seed := 200, uint64(1)
	if testing.Short() {
		steps = 30
	}
	// FILEINFO_UPDATE_SEED and FILEINFO_UPDATE_STEPS run other and longer
	// sequences than CI's.
	if v, err := strconv.ParseUint(os.Getenv("FILEINFO_UPDATE_SEED"), 10, 64); err == nil {
		seed = v
	}
	if v, err := strconv.Atoi(os.Getenv("FILEINFO_UPDATE_STEPS")); err == nil {
		steps = v
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	fast := 0
	for step := range steps {
		p, what, removed := randomEdit(t, rng, root, g.Files(), idents, step, 4)
		var changed []extract.File
		if len(removed) == 0 {
			f, err := ex.File(ctx, p)
			if err != nil {
				t.Fatalf("step %d (%s): %v", step, what, err)
			}
			changed = append(changed, *f)
		}
		g.Update(changed, removed)
		if g.lastResolved == 1 {
			fast++
		}
		if diff := graphDiff(g, Build(extractAll(t, ex))); diff != "" {
			t.Fatalf("step %d (%s): Update differs from Build:\n%s", step, what, diff)
		}
	}
	// Body edits are most of the steps; each re-resolves one file.
	if fast == 0 {
		t.Errorf("no step of %d re-resolved only the edited file", steps)
	}
	t.Logf("%d of %d steps re-resolved one file", fast, steps)
}

// graphDiff describes how two graphs differ, or returns "".
func graphDiff(got, want *Graph) string {
	var b strings.Builder
	if n := len(got.Unresolved()); got.NumUnresolved() != n {
		fmt.Fprintf(&b, "NumUnresolved %d, Unresolved has %d\n", got.NumUnresolved(), n)
	}
	if !reflect.DeepEqual(got.nodes, want.nodes) {
		fmt.Fprintf(&b, "nodes: %d vs %d\n", len(got.nodes), len(want.nodes))
	}
	if d := tokensDiff(got); d != "" {
		fmt.Fprintf(&b, "token index: %s\n", d)
	}
	if d := lookupsDiff(got, want); d != "" {
		fmt.Fprintf(&b, "lookups: %s\n", d)
	}
	render := func(g *Graph) []string {
		var out []string
		for _, e := range g.edges {
			out = append(out, fmt.Sprintf("%d %s -> %d %s %s:%d %s", e.Caller, g.nodes[e.Caller].Qualified, e.Callee, g.nodes[e.Callee].Qualified, e.File, e.Line, e.Resolution))
		}
		for _, u := range g.Unresolved() {
			out = append(out, fmt.Sprintf("unresolved %+v", u))
		}
		for id := range g.nodes {
			out = append(out, fmt.Sprintf("adj %d out %v in %v", id, g.out.of(SymbolID(id)), g.in.of(SymbolID(id))))
		}
		return out
	}
	gs, ws := render(got), render(want)
	if !reflect.DeepEqual(gs, ws) {
		seen := map[string]int{}
		for _, s := range ws {
			seen[s]++
		}
		for _, s := range gs {
			seen[s]--
		}
		var lines []string
		for s, n := range seen {
			if n > 0 {
				lines = append(lines, "- "+s)
			} else if n < 0 {
				lines = append(lines, "+ "+s)
			}
		}
		sort.Strings(lines)
		if len(lines) == 0 {
			lines = append(lines, "same lines, other order")
		}
		fmt.Fprintf(&b, "%s\n", strings.Join(lines[:min(len(lines), 60)], "\n"))
	}
	return b.String()
}

// TestUpdateResolvesDependents changes definitions other files depend on:
// a new definition, a second one that makes a name ambiguous, a base
// class that gains a method.
func TestUpdateResolvesDependents(t *testing.T) {
	root := writeArchive(t, `
-- a.py --
from b import B

def caller():
    missing()
    unique_name_method_holder().only()

class C(B):
    def run(self):
        self.inherited()
-- b.py --
class B:
    pass
-- c.py --
class Holder:
    def only(self):
        pass
-- go.mod --
module m
-- x/x.go --
package x

func X() { later() }
-- y/y.go --
package y

func Y() { get().hidden() }
-- i/i.go --
package i

type I interface {
	X()
	Y()
}

func Use(v I) { v.X() }
-- i/t.go --
package i

type T struct{}

func (T) X() {}
-- i/t2.go --
package i

func (T) Z() {}
-- js/c.js --
function c() { return 3; }
-- js/b.js --
export { c as d } from './c.js';
-- js/d.js --
import { d } from './b.js';
export function e() { return d(); }
`)
	ex := newExtractor(t, root)
	ctx := context.Background()
	g := Build(extractAll(t, ex))
	for _, edit := range []struct{ path, src string }{
		{"x/y.go", "package x\n\nfunc later() {}\n"},
		// An unexported method of another package, found by unique name.
		{"x/z.go", "package x\n\ntype T struct{}\n\nfunc (T) hidden() {}\n"},
		{"d.py", "def missing():\n    pass\n"},
		{"e.py", "class Other:\n    def only(self):\n        pass\n"},
		{"b.py", "class B:\n    def inherited(self):\n        pass\n"},
		// T implements I once a file other than T's own gives it Y:
		// v.X() now reaches T.X, though nothing named X changed.
		{"i/t2.go", "package i\n\nfunc (T) Z() {}\n\nfunc (T) Y() {}\n"},
		// c becomes exported: d.js reaches it through b.js's re-export
		// under another name.
		{"js/c.js", "export function c() { return 3; }\n"},
		{"js/c.js", "function c() { return 3; }\n"},
	} {
		if err := os.WriteFile(filepath.Join(root, edit.path), []byte(edit.src), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := ex.File(ctx, edit.path)
		if err != nil {
			t.Fatal(err)
		}
		g.Update([]extract.File{*f}, nil)
		if diff := graphDiff(g, Build(extractAll(t, ex))); diff != "" {
			t.Fatalf("after writing %s (%q): Update differs from Build:\n%s", edit.path, edit.src, diff)
		}
	}
}

// TestUpdateXToolsEdits saves hub files of golang.org/x/tools@v0.39.0 the
// ways BenchmarkUpdateXTools does and checks the graph against a fresh
// Build: a body edit and a new exported function each re-resolve only the
// edited file, though hundreds of files read the hub's names; removing or
// renaming a function, or adding a file beside it, re-resolve what reads
// their names.
func TestUpdateXToolsEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts golang.org/x/tools")
	}
	files := xtoolsFiles(t)
	dir := downloadModule(t, "golang.org/x/tools@v0.39.0")
	g := Build(files)
	for _, path := range []string{"go/packages/packages.go", "go/ssa/builder.go"} {
		i := slices.IndexFunc(files, func(f extract.File) bool { return f.Path == path })
		if i < 0 {
			t.Fatalf("no %s in x/tools", path)
		}
		orig := files[i]
		kinds := editKinds
		if path != "go/packages/packages.go" {
			kinds = []string{"body", "api"} // a Build per check: the others once
		}
		for _, edit := range kinds {
			edited := editedFile(t, dir, &orig, edit)
			for k, f := range []extract.File{*edited, orig} {
				want := slices.Clone(files)
				switch {
				case edited.Path == orig.Path:
					g.Update([]extract.File{f}, nil)
					want[i] = f
				case k == 0:
					g.Update([]extract.File{f}, nil)
					want = append(want, f)
				default:
					g.Update(nil, []string{edited.Path})
				}
				if (edit == "body" || edit == "api") && g.lastResolved != 1 {
					t.Errorf("%s edit of %s re-resolved %d files, want 1", edit, path, g.lastResolved)
				}
				if diff := graphDiff(g, Build(want)); diff != "" {
					t.Fatalf("%s edit of %s: Update differs from Build:\n%s", edit, path, diff)
				}
			}
		}
	}
}

// tokensDiff describes how g's token index, kept by its updates, differs
// from one built anew over its files, or returns "".
func tokensDiff(g *Graph) string {
	if !g.hasTokens || g.fetchCalls != nil {
		return "" // the files' calls, which the tokens are of, are let go of
	}
	fresh := &Graph{files: g.files}
	fresh.indexTokens()
	if !reflect.DeepEqual(g.tokens, fresh.tokens) {
		return "files' tokens differ"
	}
	if len(g.byToken) != len(fresh.byToken) {
		return fmt.Sprintf("%d tokens, want %d", len(g.byToken), len(fresh.byToken))
	}
	for tok, want := range fresh.byToken {
		got := slices.Clone(g.byToken[tok])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			return fmt.Sprintf("token %q: files %v, want %v", tok, got, want)
		}
	}
	return ""
}

// lookupsDiff describes how the lookups resolution reads (by qualified
// name, by file, the index's) differ between two graphs of the same
// files, or returns "". An update renumbers them in place (reindexShift):
// they must be what reindex makes.
func lookupsDiff(got, want *Graph) string {
	if got.ix == nil || want.ix == nil {
		return ""
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"byQualified", got.byQualified, want.byQualified},
		{"byFile", got.byFile, want.byFile},
		{"byName", got.ix.byName, want.ix.byName},
		{"module", got.ix.module, want.ix.module},
		{"bases", got.ix.bases, want.ix.bases},
		{"params", got.ix.params, want.ix.params},
		{"test", got.ix.test, want.ix.test},
		{"python", got.ix.python, want.ix.python},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			return c.what + " differs"
		}
	}
	for id := range want.nodes {
		if g, w := got.ix.c.flag(SymbolID(id)), want.ix.c.flag(SymbolID(id)); g != w {
			return fmt.Sprintf("C flags of %s: %v, want %v", want.nodes[id].Qualified, g, w)
		}
	}
	if got.prefixes != nil {
		fresh := &resolver{g: &Graph{byQualified: want.byQualified}}
		if !reflect.DeepEqual(got.prefixes, fresh.qualifiedPrefixes()) {
			return "qualified prefixes differ"
		}
	}
	return ""
}

// TestUpdateEdgeOrder makes updates after which the edges other files
// keep are out of order under their new IDs, which assembleRenumbered
// must sort (it merges the new edges into a list it finds sorted):
// declarations of a file swap places (a caller's two calls on one line
// change order by callee), and a package's first file goes (its
// module's node moves past another package's files).
func TestUpdateEdgeOrder(t *testing.T) {
	root := writeArchive(t, `
-- go.mod --
module m
-- p/a.go --
package p

func A() {}

func B() {}
-- p/a/z.go --
package a

import "m/p"

func Z() { p.A(); p.B() }
-- p/a/w.go --
package a

import "m/p"

func W() { p.D() }
-- p/b.go --
package p

var x = A()

func D() int { return 1 }
-- p/c.go --
package p

var y, z = B(), A()
-- p/d.go --
package p

var w = D()
`)
	ex := newExtractor(t, root)
	g := Build(extractAll(t, ex))
	for _, s := range []struct{ what, path, src string }{
		{"swap A and B, add C", "p/a.go", "package p\n\nfunc B() {}\n\nfunc A() {}\n\nfunc C() {}\n"},
		{"remove p/a.go", "p/a.go", ""},
	} {
		writeAndUpdate(t, g, ex, root, s.path, s.src)
		if diff := graphDiff(g, Build(extractAll(t, ex))); diff != "" {
			t.Fatalf("%s: Update differs from Build:\n%s", s.what, diff)
		}
	}
}
