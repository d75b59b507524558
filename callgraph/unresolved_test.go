package callgraph

import "testing"

func TestUnresolvedIn(t *testing.T) {
	g := buildArchive(t, `
-- a.py --
class A:
    def add(self): pass
class B:
    def add(self): pass
def f(x):
    x.add()
    missing()
-- b.py --
def g():
    pass
`)
	us := g.UnresolvedIn("a.py")
	if len(us) != 2 {
		t.Fatalf("UnresolvedIn(a.py) = %+v, want 2 calls", us)
	}
	if !us[0].IsAmbiguous() || us[0].Name != "add" || us[1].IsAmbiguous() {
		t.Errorf("UnresolvedIn(a.py) = %+v: want add ambiguous, missing not", us)
	}
	if us := g.UnresolvedIn("b.py"); len(us) != 0 {
		t.Errorf("UnresolvedIn(b.py) = %+v, want none", us)
	}
	if us := g.UnresolvedIn("nope.py"); us != nil {
		t.Errorf("UnresolvedIn(nope.py) = %+v, want nil", us)
	}
}
