package extract

import (
	"fmt"
	"strings"
	"testing"
)

// expectGoBindings checks the bindings of f, with Go's index and end
// line, each rendered as
// "scope target=value:type#index@line-endline" with empty parts left out.
func expectGoBindings(t *testing.T, f *File, want ...string) {
	t.Helper()
	var got []string
	for _, b := range f.Bindings {
		s := b.Scope + " " + b.Target
		if b.Value != "" {
			s += "=" + b.Value
		}
		if b.Type != "" {
			s += ":" + b.Type
		}
		if b.Index != 0 {
			s += fmt.Sprintf("#%d", b.Index)
		}
		s += fmt.Sprintf("@%d", b.Line)
		if b.EndLine != 0 {
			s += fmt.Sprintf("-%d", b.EndLine)
		}
		got = append(got, s)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bindings:\n got:\n  %s\n want:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestGoBindings(t *testing.T) {
	f := extractString(t, "p.go", `package p

var a, b = f()
var c T

type S struct {
	x, y *T
	Embedded
	fn func(arg int) error
}

type I interface{ M(q int) (*T, error) }

func (s *S) F(p1 int, rest ...string) (n int, err error) {
	x, err := g()
	for i, v := range xs {
		v.Use(i)
	}
	switch w := z.(type) {
	case *T:
		w.M()
	case A, B:
	default:
	}
	h := func(k int) *T { return nil }
	anon := struct{ f int }{}
	if ok := x.Ok(); ok {
	}
	return
}
`)
	expectGoBindings(t, f,
		" a=f()@3",
		" b=f()#1@3",
		" c:T@4",
		"S x:*T@7",
		"S y:*T@7",
		"S fn:func(arg int) error@9",
		"I.M <result>:*T@12",
		"I.M <result>:error#1@12",
		"I.M q:int@12",
		"S.F <result>:int@14",
		"S.F <result>:error#1@14",
		"S.F s:*S@14",
		"S.F p1:int@14",
		"S.F rest:[]string@14",
		"S.F n:int@14",
		"S.F err:error@14",
		"S.F x=g()@15-30",
		"S.F err=g()#1@15-30",
		"S.F i=range xs@16-18",
		"S.F v=range xs#1@16-18",
		"S.F w:*T@20-21",
		"S.F w=z@22-22",
		"S.F w=z@23-23",
		"S.F h=func(k int) *T { return nil }@25-30",
		"S.F k:int@25-25", // a function literal's parameter
		"S.F anon=struct{ f int }{}@26-30",
		"S.F ok=x.Ok()@27-28",
	)
}
