package callgraph

import (
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestComprehensionShapes checks the expressions that crashed the text
// evaluator (nested comprehensions in brackets and parentheses, what
// black writes for long returns): the graph builds, the file is not
// skipped, and values still flow through the containers around them.
func TestComprehensionShapes(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
def target():
    pass

def f(d, y, a):
    x = ([(k) for k in d])
    m = [[[0,0] for i in x] for j in y]
    return ([(s, o) for s, o in a if s])

def g():
    fs = [(target) for _ in range(3)]
    fs[0]()
    h = ((target))
    h()
`)
	if s := g.Skipped(); len(s) > 0 {
		t.Errorf("skipped: %v", s)
	}
	expectCallees(t, g, "m.g", "m.target:local", "m.target:receiver")
}

// TestPanicSkipsFile checks that a panic while resolving or tracking one
// file costs that file's edges only: the others resolve, and Skipped
// names the file with the reason and where the panic happened.
func TestPanicSkipsFile(t *testing.T) {
	archive := `
-- bad.py --
from good import helper
helper()
-- good.py --
def helper():
    pass

def caller():
    helper()
`
	files := extractDir(t, writeArchive(t, archive))
	testHookFile = func(path string) {
		if path == "bad.py" {
			var m map[string]int
			m["boom"] = 1 // a nil-map write stands for a bug
		}
	}
	defer func() { testHookFile = nil }()
	g := Build(files)
	expectCallees(t, g, "good.caller", "good.helper:local")
	skipped := g.Skipped()
	if len(skipped) != 1 || skipped[0].Path != "bad.py" {
		t.Fatalf("skipped = %v, want bad.py", skipped)
	}
	if r := skipped[0].Reason; !strings.Contains(r, "internal error") || !strings.Contains(r, "nil map") || !strings.Contains(r, "failed_test.go") {
		t.Errorf("reason %q should say internal error, the panic and where", r)
	}
	// Once the bug is gone, an update of the file resolves it again.
	testHookFile = nil
	g.Update([]extract.File{files[0]}, nil)
	if s := g.Skipped(); len(s) != 0 {
		t.Errorf("after the update, skipped = %v", s)
	}
	expectCallees(t, g, "bad", "good.helper:import")
}
