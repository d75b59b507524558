package extract

import (
	"strings"
	"testing"
)

// valueExprs extracts src (Python) and renders each binding as
// "target = value" with both sides' Expr.
func valueExprs(t *testing.T, src string) []string {
	t.Helper()
	f := extractString(t, "m.py", src)
	var out []string
	for _, b := range f.Bindings {
		target, value := "<nil>", "<nil>"
		if b.TargetExpr.Valid() {
			target = b.TargetExpr.String()
		}
		if b.ValueExpr.Valid() {
			value = b.ValueExpr.String()
		}
		if b.Target == "<return>" {
			target = "<return>"
		}
		out = append(out, target+" = "+value)
	}
	return out
}

func TestPythonExpr(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"x = f", "x = f"},
		{"x = a.b.c", "x = a.b.c"},
		{"x = f(a, k=b, *c, **d)", "x = f(a, k=b, *c, **d)"},
		{"x = d['k']", `x = d["k"]`},
		{`x = d["k"]`, `x = d["k"]`},
		{"x = l[-1]", "x = l[-1]"},
		{"x = l[i]", "x = l[i]"},
		{"x = l[1:2]", "x = l[slice(1, 2, None)]"},
		{"x = l[:2]", "x = l[slice(None, 2, None)]"},
		{"x = l[1:]", "x = l[slice(1, None, None)]"},
		{"x = l[::2]", "x = l[slice(None, None, 2)]"},
		{"x = l[a:b:c]", "x = l[slice(a, b, c)]"},
		{"x = [a, *b]", "x = [a, *b]"},
		{"x = (a,)", "x = (a)"},
		{"x = (a)", "x = a"},
		{"x = a, b", "x = (a, b)"},
		{"x = {a, b}", "x = {a, b}"},
		{"x = {'a': f, **m}", `x = {"a": f, **m: ?}`},
		{"x = a or b", "x = (a | b)"},
		{"x = a if c else b", "x = (a | b)"},
		{"x = not a", "x = ?"},
		{"x = a + b", "x = ?"},
		{"x = f'{a}'", "x = ?"},
		{"x = lambda: f()", "x = lambda"},
		{"x = await g()", "x = g()"},
		{"x = (y := f)", "x = f"},
		{"x = y = f", "x = f\ny = f"},
		{"x: int = f", "x = f"},
		{"a, (b, *c) = v", "(a, (b, *c)) = v"},
		{"[a, b] = v", "[a, b] = v"},
		{"self.x[k] = v", "self.x[k] = v"},
		{"def f():\n    return a, b", "<return> = (a, b)"},
		{"for k, v in d.items(): pass", "(k, v) = d.items()"},
		{"@dec(1)\ndef f(): pass", "f = dec(1)"},
		// The comprehension shapes that crashed the text evaluator.
		{"x = ([(k) for k in d])", "x = [k for ...]"},
		{"m = [[[0,0] for i in x] for j in y]", "m = [[[0, 0] for ...] for ...]"},
		{"def f():\n    return ([(s, o) for s, o in a if s])", "<return> = [(s, o) for ...]"},
		{"x = {k: f for k in d}", "x = [k: f for ...]"},
		{"x = g(y for y in z)", "x = g([y for ...])"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			got := strings.Join(valueExprs(t, tc.src), "\n")
			if got != tc.want {
				t.Errorf("got\n  %s\nwant\n  %s", got, tc.want)
			}
		})
	}
}

func TestPythonCallExprs(t *testing.T) {
	f := extractString(t, "m.py", "a.b(c, k=d)\nf()(x)\nd['k'](y)\n")
	var got []string
	for _, c := range f.Calls {
		recv := "<nil>"
		if c.ReceiverExpr().Valid() {
			recv = c.ReceiverExpr().String()
		}
		var args []string
		for i := range c.ArgExprs().Len() {
			args = append(args, c.ArgExprs().Sub(i).String())
		}
		got = append(got, c.Name+" on "+recv+" with "+strings.Join(args, ", "))
	}
	want := []string{"b on a with c, k=d", "f on <nil> with ", "() on f() with x", `() on d["k"] with y`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\ngot\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestPythonExprBounds checks that an expression deeper or larger than
// the bounds is cut, not followed to the end.
func TestPythonExprBounds(t *testing.T) {
	deep := "x = " + strings.Repeat("f(", 5000) + "a" + strings.Repeat(")", 5000) + "\n"
	wide := "x = [" + strings.Repeat("a, ", 50000) + "]\n"
	for name, src := range map[string]string{"deep": deep, "wide": wide} {
		t.Run(name, func(t *testing.T) {
			f := extractString(t, "m.py", src)
			for _, b := range f.Bindings {
				if !b.ValueExpr.Valid() {
					t.Fatal("no ValueExpr")
				}
				if d, n := exprSize(b.ValueExpr); d > MaxExprDepth || n > MaxExprNodes {
					t.Errorf("depth %d, %d nodes; bounds are %d and %d", d, n, MaxExprDepth, MaxExprNodes)
				}
			}
			for _, c := range f.Calls {
				if d, n := exprSize(c.ArgExprs()); d > MaxExprDepth || n > MaxExprNodes+1 {
					t.Errorf("arguments: depth %d, %d nodes", d, n)
				}
				if len(c.Receiver) > 250 {
					t.Errorf("receiver text of %d bytes", len(c.Receiver))
				}
			}
		})
	}
}

// exprSize returns the depth and node count of e.
func exprSize(e Expr) (depth, nodes int) {
	nodes = 1
	for i := range e.Len() {
		d, n := exprSize(e.Sub(i))
		depth, nodes = max(depth, d), nodes+n
	}
	return depth + 1, nodes
}

// TestExprTotal checks that every accessor of Expr answers for any
// operand index, on the zero Expr and on a real one.
func TestExprTotal(t *testing.T) {
	f := extractString(t, "m.py", "x = f(a)\n")
	for _, e := range []Expr{{}, f.Bindings[0].ValueExpr} {
		for _, i := range []int{-1, 0, 1, 2, 1 << 20} {
			s := e.Sub(i)
			_ = s.Kind().String() + s.Name() + s.String()
			if s.Len() < 0 {
				t.Errorf("Len %d", s.Len())
			}
		}
	}
	if k := (Expr{}).Kind(); k != ExprOther {
		t.Errorf("zero Expr is %v, want other", k)
	}
}
