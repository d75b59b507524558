package callgraph

import (
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// The graph holds each edge once, in g.edges: per-file results keep only
// what Update needs (unresolved calls as indexes, unique names), and the
// token index waits for the first Update.
func TestResultsHoldNoEdges(t *testing.T) {
	g := buildArchive(t, `
-- a.py --
import b
def f():
    b.g()
    missing()
-- b.py --
def g():
    pass
`)
	check := func(when string) {
		t.Helper()
		if len(g.Edges()) == 0 {
			t.Fatalf("%s: no edges", when)
		}
		for p, res := range g.results {
			if res.edges != nil {
				t.Errorf("%s: results of %s keep %d edges", when, p, len(res.edges))
			}
		}
		us := g.UnresolvedIn("a.py")
		if len(us) != 1 || us[0].Name != "missing" || us[0].Caller != "a.f" || us[0].File != "a.py" || us[0].Line != 4 || us[0].Reason == "" {
			t.Errorf("%s: UnresolvedIn(a.py) = %+v", when, us)
		}
	}
	check("Build")
	if g.hasTokens {
		t.Errorf("Build made the token index")
	}
	f := *g.files["b.py"]
	f.Symbols = append([]extract.Symbol(nil), f.Symbols...)
	f.Symbols[0].EndLine++ // a body edit
	g.Update([]extract.File{f}, nil)
	check("Update")
	if !g.hasTokens {
		t.Errorf("Update did not make the token index")
	}
}
