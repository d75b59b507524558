package callgraph

import "testing"

// TestGoRootPackageWithoutModule: a Go package at the root of a tree
// without go.mod (a GOPATH-era project, a scratch directory) qualifies
// its symbols by their bare names; calls inside it resolve as in any
// other package, and calls into it from a package below resolve too.
func TestGoRootPackageWithoutModule(t *testing.T) {
	g := buildArchive(t, `
-- a.go --
package p

type S struct{}

func (s *S) M() { s.N() }

func (s *S) N() {}

func A() { B() }

func B() { var s S; s.M() }
-- sub/c.go --
package sub

func C() { D() }

func D() {}
`)
	expectCallees(t, g, "A", "B:local")
	expectCallees(t, g, "B", "S.M:receiver")
	expectCallees(t, g, "S.M", "S.N:receiver")
	expectCallees(t, g, "sub.C", "sub.D:local")
}
