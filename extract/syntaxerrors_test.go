package extract

import (
	"context"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// parseWith parses src with the grammar of the language of path.
func parseWith(tb testing.TB, path, src string) *sitter.Tree {
	tb.Helper()
	l := LanguageOf(path, []byte(src))
	if l == nil {
		tb.Fatalf("no language for %s", path)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(l.grammarOf())
	tree, err := p.ParseCtx(context.Background(), nil, []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return tree
}

// childErrors is the recursive walk syntaxErrors replaced (Child(i) is
// O(i) in tree-sitter): the oracle for its results and order.
func childErrors(root *sitter.Node) []SyntaxError {
	errs := []SyntaxError{}
	if !root.HasError() {
		return errs
	}
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		if len(errs) >= 100 {
			return
		}
		if n.IsError() || n.IsMissing() {
			msg := "syntax error"
			if n.IsMissing() {
				msg = "missing " + n.Type()
			}
			errs = append(errs, syntaxError(n, msg))
			if n.IsMissing() {
				return
			}
		}
		for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
			if ch := n.Child(i); ch != nil && (ch.HasError() || ch.IsMissing()) {
				visit(ch)
			}
		}
	}
	visit(root)
	return errs
}

func TestSyntaxErrorsWalk(t *testing.T) {
	for _, tc := range []struct{ name, path, src string }{
		{"clean", "a.c", "int f(void) { return 1; }\n"},
		{"missing", "a.c", "int f(void) { return 1 }\n"},
		{"nested", "a.c", "int f(void) { if (x { g(; } }\nint h(void) { return @; }\n"},
		{"macros", "a.c", strings.Repeat("FOO(a) BAR(b) { ) ;\n", 50)},
		{"many", "a.py", strings.Repeat("def f(:\n    x = )\n", 80)},
		{"go", "a.go", "package p\nfunc f() { x := }\nfunc g( {\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := parseWith(t, tc.path, tc.src)
			defer tree.Close()
			got, want := syntaxErrors(tree.RootNode()), childErrors(tree.RootNode())
			if !reflect.DeepEqual(got, want) {
				t.Errorf("syntaxErrors:\n got %v\nwant %v", got, want)
			}
			if tc.name != "clean" && len(got) == 0 {
				t.Errorf("no errors found in %q", tc.src)
			}
		})
	}
}

func syntaxError(n *sitter.Node, msg string) SyntaxError {
	s, e := n.StartPoint(), n.EndPoint()
	return SyntaxError{
		StartLine: int(s.Row) + 1, StartColumn: int(s.Column) + 1,
		EndLine: int(e.Row) + 1, EndColumn: int(e.Column) + 1,
		Message: msg,
	}
}

// FuzzSyntaxErrors: the walk in C finds the errors, in the order, that
// the walk of Child(i) calls finds, in every grammar family.
func FuzzSyntaxErrors(f *testing.F) {
	f.Add("a.c", "int f(void) { if (x { g(; } }\nint h(void) { return @; }\n")
	f.Add("a.c", strings.Repeat("FOO(a) BAR(b) { ) ;\n", 60))
	f.Add("a.py", "def f(:\n    x = )\n")
	f.Add("a.go", "package p\nfunc f() { x := }\nfunc g( {\n")
	f.Add("a.ts", "let x: = ; function (")
	f.Fuzz(func(t *testing.T, path, src string) {
		if LanguageOf(path, []byte(src)) == nil || len(src) > 1<<16 {
			return
		}
		tree := parseWith(t, path, src)
		defer tree.Close()
		if got, want := syntaxErrors(tree.RootNode()), childErrors(tree.RootNode()); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %q: syntaxErrors\n got %v\nwant %v", path, src, got, want)
		}
	})
}

// TestNodeOf: nodeOf reads the C node a go-tree-sitter Node holds, not
// another: the errors under the second function, asked of that function,
// are its own.
func TestNodeOf(t *testing.T) {
	tree := parseWith(t, "a.c", "int f(void) { return g(; }\nint h(void) { if (x { return 1 }\n")
	defer tree.Close()
	n := tree.RootNode().NamedChild(1)
	if n == nil || !n.HasError() {
		t.Fatalf("no second function with errors in %s", tree.RootNode())
	}
	got, want := syntaxErrors(n), childErrors(n)
	if !reflect.DeepEqual(got, want) || len(got) == 0 {
		t.Fatalf("syntaxErrors of %s:\n got %v\nwant %v", n, got, want)
	}
	if all := syntaxErrors(tree.RootNode()); reflect.DeepEqual(all, got) {
		t.Errorf("the second function's errors %v are the whole file's", got)
	}
}

// BenchmarkSyntaxErrorsWide walks a C file whose translation unit has
// thousands of children around its errors, like the kernel's macro-heavy
// files.
func BenchmarkSyntaxErrorsWide(b *testing.B) {
	src := strings.Repeat("int a;\nFOO(x) {\n", 20000)
	tree := parseWith(b, "a.c", src)
	defer tree.Close()
	b.ReportAllocs()
	for b.Loop() {
		syntaxErrors(tree.RootNode())
	}
}
