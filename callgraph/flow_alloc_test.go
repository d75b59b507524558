package callgraph

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// Flow tracking allocates for what it finds, not for each name and
// attribute it passes on the way: evaluating `a.b.c.m` made a set for a,
// for a.b, for a.b.c and for the attribute, each copied into the next,
// and on the Python standard library those sets were half the
// allocations of a Build (see BenchmarkBuildPythonStdlib). The test
// counts the allocations one more statement costs, over all rounds.
func TestFlowAllocsPerStatement(t *testing.T) {
	const n = 200
	small, large := flowAllocs(t, n), flowAllocs(t, 2*n)
	per := (large - small) / n
	t.Logf("%.0f allocations for %d statements, %.0f for %d: %.1f a statement", small, n, large, 2*n, per)
	// Measured: 44 a statement at a20db0a, 80 at 772fa4b, 16 since
	// flow tracking writes into the caller's set.
	if per > 32 {
		t.Errorf("a statement `v = a.b.c.m; use(a.b.c)` costs %.1f allocations, want at most 32", per)
	}
}

// flowAllocs returns the allocations of tracking the values of a
// program of n statements, each reading a chain of attributes through
// instances and passing one to a function.
func flowAllocs(t *testing.T, n int) float64 {
	t.Helper()
	var b strings.Builder
	b.WriteString(`-- app.py --
class C:
    def m(self): pass
class B:
    def __init__(self):
        self.c = C()
class A:
    def __init__(self):
        self.b = B()
def use(x):
    x.m()
a = A()
def f():
`)
	for i := range n {
		fmt.Fprintf(&b, "    v%d = a.b.c.m\n    use(a.b.c)\n", i)
	}
	g := buildArchive(t, b.String())
	var files []*extract.File
	for _, p := range g.Files() {
		files = append(files, g.files[p])
	}
	if !hasEdge(t, g, "app.use", "app.C.m") {
		t.Fatalf("x.m() in use is no call of C.m: the values did not flow")
	}
	return testing.AllocsPerRun(3, func() {
		r := newResolver(g, g.ix)
		runFlow(r, files, g.ix.params)
	})
}

// OutsideConstructors, asked once per class by the PyCG export, costs
// the same in a graph four times as large: its resolver keeps no table
// by node (parentOf keeps one only while resolving files).
func TestOutsideConstructorsCostDoesNotGrowWithGraph(t *testing.T) {
	small, large := outsideCtorBytes(t, 1000), outsideCtorBytes(t, 4000)
	t.Logf("%.0f bytes a question with 1000 functions, %.0f with 4000", small, large)
	if large > 2*small+1024 {
		t.Errorf("OutsideConstructors allocates %.0f bytes in a graph of 4000 functions, %.0f in one of 1000", large, small)
	}
}

// outsideCtorBytes returns the bytes one OutsideConstructors question
// allocates in a program of n functions beside a class derived from an
// outside class.
func outsideCtorBytes(t *testing.T, n int) float64 {
	t.Helper()
	var b strings.Builder
	b.WriteString("-- app.py --\nfrom ext import Base\nclass App(Base):\n    def run(self): pass\n")
	for i := range n {
		fmt.Fprintf(&b, "def f%d(): pass\n", i)
	}
	g := buildArchive(t, b.String())
	ids := g.Lookup("app.App")
	if len(ids) != 1 {
		t.Fatalf("app.App: %v", ids)
	}
	if got := g.OutsideConstructors(ids[0]); len(got) != 1 || got[0] != "ext.Base.__init__" {
		t.Fatalf("OutsideConstructors(app.App) = %v, want [ext.Base.__init__]", got)
	}
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		g.OutsideConstructors(ids[0])
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / runs
}
