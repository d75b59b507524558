package enrich

import (
	"fmt"
	"strings"
	"testing"
)

func TestDependencyLines(t *testing.T) {
	if got := dependencyLines(nil); got != nil {
		t.Errorf("no dependencies gave %q", got)
	}
	got := strings.Join(dependencyLines([]DepSymbol{{
		Dep: "golang.org/x/sync@v0.20.0", Qualified: "golang.org/x/sync/errgroup.Group.Go",
		Signature: "func (g *Group) Go(f func() error)", Lead: "Go calls the given function\nin a new goroutine.",
	}}), "")
	want := "\n### Dependency APIs called (at the locked versions)\n" +
		"- `golang.org/x/sync/errgroup.Group.Go` from golang.org/x/sync@v0.20.0: `func (g *Group) Go(f func() error)` — Go calls the given function in a new goroutine.\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	var many []DepSymbol
	for i := range maxDependencies + 3 {
		many = append(many, DepSymbol{Dep: "d@1", Qualified: fmt.Sprint("f", i)})
	}
	lines := dependencyLines(many)
	if last := lines[len(lines)-1]; last != "- … and 3 more\n" || len(lines) != maxDependencies+3 {
		t.Errorf("%d lines, last %q", len(lines), last)
	}
}
