package extract

import (
	"strings"
	"testing"
)

// jsValueExprs extracts src (JavaScript) and renders each binding as
// "target = value" and each call's arguments as "name(args)".
func jsValueExprs(t *testing.T, path, src string) []string {
	t.Helper()
	f := extractString(t, path, src)
	var out []string
	for _, b := range f.Bindings {
		out = append(out, b.Target+" = "+b.ValueExpr.String())
	}
	for _, c := range f.Calls {
		if c.Name == "()" {
			out = append(out, c.ReceiverExpr().String()+c.ArgExprs().String())
			continue
		}
		out = append(out, c.Name+c.ArgExprs().String())
	}
	return out
}

func TestJavaScriptExpr(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"const x = new C(a, ...b);", "x = new C(a, *b)\nC(a, *b)"},
		{"let x = new ns.C;", "x = new ns.C()\nC?"}, // no argument list
		{"x = y;", "x = y"},
		{"var h = obj.m;", "h = obj.m"},
		{"const o = {a: f, 'b': g, m() {}, s, ...r, [k]: v, 1: n};",
			`o = {"a": f, "b": g, "m": lambda, "s": s, *r: ?, ?: v, "1": n}`},
		{"const l = [f, g];", "l = [f, g]"},
		{"arr.map(foo);", "map(foo)"},
		{"p.then(a => a).catch(this.fail);", "then(lambda)\ncatch(this.fail)"},
		{"setTimeout(function () {}, 10);", "setTimeout(lambda, 10)"},
		{"f(a?.b, c[0], d['k'], -1, `t`, a || b, c ? d : e, (x), await y, z = w);",
			"z = w\n" + `f(a.b, c[0], d["k"], -1, "t", (a | b), (d | e), x, y, w)`},
		{"routes[0](x);", "routes[0](x)"},
		{"f(g(h));", "f(g(h))\ng(h)"},
		{"tag`x`;", `tag("x")`},
		{"const f = () => {};", ""},
	} {
		got := strings.Join(jsValueExprs(t, "m.js", tc.src), "\n")
		if got != tc.want {
			t.Errorf("%s:\n got  %q\n want %q", tc.src, got, tc.want)
		}
	}
}

func TestTypeScriptExpr(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"const x = new C<T>(a);", "x = new C(a)\nC(a)"},
		{"f(a as B, c!, d satisfies E, <F>g);", "f(a, c, d, g)"},
		{"g<T>(h);", "g(h)"},
	} {
		got := strings.Join(jsValueExprs(t, "m.ts", tc.src), "\n")
		if got != tc.want {
			t.Errorf("%s:\n got  %q\n want %q", tc.src, got, tc.want)
		}
	}
}

func TestJavaScriptParams(t *testing.T) {
	for _, tc := range []struct{ path, src, want string }{
		{"m.js", "function f(a, b = 1, {c}, [d], ...e) {}", "f(a, b, , , e)"},
		{"m.js", "const g = x => x;", "g(x)"},
		{"m.js", "const h = async (p, q) => p;", "h(p, q)"},
		{"m.js", "exports.i = function (cb) {};", "i(cb)"},
		{"m.js", "class C { m(fn) {} }", "C() m(fn)"},
		{"m.js", "const o = { k: (v) => v, n(w) {} };", "o() k(v) n(w)"},
		{"m.ts", "function t(this: Window, a: number, b?: string) {}", "t(a, b)"},
	} {
		f := extractString(t, tc.path, tc.src)
		var got []string
		for _, s := range f.Symbols {
			got = append(got, s.Name+"("+strings.Join(s.Params, ", ")+")")
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: got %q, want %q", tc.src, strings.Join(got, " "), tc.want)
		}
	}
}
