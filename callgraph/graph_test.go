package callgraph

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// buildArchive writes a txtar-style archive ("-- path --" lines start
// files) to a temp dir, extracts it and builds the graph.
func buildArchive(t *testing.T, archive string) *Graph {
	t.Helper()
	return Build(extractDir(t, writeArchive(t, archive)))
}

// writeArchive writes a txtar-style archive to a temp dir and returns it.
func writeArchive(t *testing.T, archive string) string {
	t.Helper()
	root := t.TempDir()
	var name string
	var body strings.Builder
	flush := func() {
		defer body.Reset()
		if name == "" {
			return // text before the first file is a comment
		}
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range strings.SplitAfter(archive, "\n") {
		if h := strings.TrimSpace(line); strings.HasPrefix(h, "-- ") && strings.HasSuffix(h, " --") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(h, "-- "), " --")
			continue
		}
		body.WriteString(line)
	}
	flush()
	return root
}

// extractDir extracts every file under root.
func extractDir(t testing.TB, root string) []extract.File {
	t.Helper()
	return extractAll(t, newExtractor(t, root))
}

// newExtractor opens an extractor on root, closed when the test ends.
func newExtractor(t testing.TB, root string) *extract.Extractor {
	t.Helper()
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ex.Close)
	return ex
}

// extractAll extracts every file ex sees.
func extractAll(t testing.TB, ex *extract.Extractor) []extract.File {
	t.Helper()
	files, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// expectCallees checks the distinct callees of caller, each rendered as
// "qualified:resolution".
func expectCallees(t *testing.T, g *Graph, caller string, want ...string) {
	t.Helper()
	ids := g.Lookup(caller)
	if len(ids) == 0 {
		t.Fatalf("no node %s", caller)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		for _, e := range g.Callees(id) {
			seen[g.Node(e.Callee).Qualified+":"+string(e.Resolution)] = true
		}
	}
	var got []string
	for k := range seen {
		got = append(got, k)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("callees of %s:\n got  %v\n want %v", caller, got, want)
	}
}

// expectUnresolved checks that a call of name from caller is unresolved
// with a reason containing reason.
func expectUnresolved(t *testing.T, g *Graph, caller, name, reason string) {
	t.Helper()
	for _, u := range g.Unresolved() {
		if u.Caller == caller && u.Name == name {
			if !strings.Contains(u.Reason, reason) {
				t.Errorf("unresolved %s → %s: reason %q, want %q", caller, name, u.Reason, reason)
			}
			return
		}
	}
	t.Errorf("call %s → %s is not in the unresolved list", caller, name)
}

func TestPythonResolution(t *testing.T) {
	g := buildArchive(t, `
-- pkg/__init__.py --
-- pkg/base.py --
class Base:
    def __init__(self):
        self.setup()

    def setup(self):
        pass

    def shared(self):
        pass
-- pkg/child.py --
from .base import Base
import os

class Child(Base):
    def __init__(self):
        super().__init__()
        self.shared()

    def setup(self):
        os.getcwd()
-- main.py --
import pkg.child as pc
from pkg import base

def helper():
    pass

def run():
    c = pc.Child()
    helper()
    base.Base()
    undefined_thing()
    print("x")

run()
`)
	expectCallees(t, g, "main", "main.run:local")
	expectCallees(t, g, "main.run", "main.helper:local", "pkg.child.Child.__init__:constructor", "pkg.base.Base.__init__:constructor")
	expectCallees(t, g, "pkg.child.Child.__init__", "pkg.base.Base.__init__:inherited", "pkg.base.Base.shared:inherited")
	expectCallees(t, g, "pkg.base.Base.__init__", "pkg.base.Base.setup:receiver")
	expectUnresolved(t, g, "pkg.child.Child.setup", "getcwd", "external: os")
	expectUnresolved(t, g, "main.run", "print", "builtin: print")
	expectUnresolved(t, g, "main.run", "undefined_thing", "not defined")
}

func TestGoResolution(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- util/util.go --
package util

func Helper() int { return inner() }
func inner() int { return 1 }

type Box struct{}

func (b *Box) Open() { b.Close() }
func (b *Box) Close() {}
-- main.go --
package main

import (
	u "example.com/m/util"
	"fmt"
)

func main() {
	u.Helper()
	fmt.Println(local())
}
-- other.go --
package main

func local() int { return 0 }
`)
	expectCallees(t, g, "example.com/m.main", "example.com/m/util.Helper:import", "example.com/m.local:local")
	expectCallees(t, g, "example.com/m/util.Helper", "example.com/m/util.inner:local")
	expectUnresolved(t, g, "example.com/m.main", "Println", "external: fmt")
}

func TestAmbiguousNamesAreNotGuessed(t *testing.T) {
	g := buildArchive(t, `
-- a.py --
class A:
    def close(self): pass
class B:
    def close(self): pass
class C:
    def only_here(self): pass
def use(x):
    x.close()
    x.only_here()
`)
	expectCallees(t, g, "a.use", "a.C.only_here:name")
	expectUnresolved(t, g, "a.use", "close", "ambiguous: 2")
}

func TestLookupAndAt(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
def f():
    def inner():
        pass
    inner()
`)
	ids := g.Lookup("m.f.inner")
	if len(ids) != 1 {
		t.Fatalf("Lookup = %v", ids)
	}
	if id, ok := g.At("m.py", 3); !ok || g.Node(id).Qualified != "m.f.inner" {
		t.Errorf("At(m.py, 3) = %v %v", g.Node(id).Qualified, ok)
	}
	if id, ok := g.At("m.py", 4); !ok || g.Node(id).Qualified != "m.f" {
		t.Errorf("At(m.py, 4) = %v", g.Node(id).Qualified)
	}
	if callers := g.Callers(ids[0]); len(callers) != 1 || g.Node(callers[0].Caller).Qualified != "m.f" {
		t.Errorf("Callers(inner) = %+v", callers)
	}
}
