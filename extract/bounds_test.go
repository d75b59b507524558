package extract

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCursorLimits checks that the query's bounds hold on a tree deeper
// than any real code: 100,000 nested calls, which took minutes in one
// step of tree-sitter's cursor, give a bounded number of calls; and that
// the bounds change nothing for nesting real code has.
func TestCursorLimits(t *testing.T) {
	deep := strings.Repeat("f(", 100000) + "x" + strings.Repeat(")", 100000) + ";\n"
	f := extractString(t, "deep.js", deep)
	// Each level is call_expression > arguments: two tree levels.
	if n := len(f.Calls); n == 0 || n > maxStartDepth/2+1 {
		t.Errorf("%d calls, want between 1 and %d", n, maxStartDepth/2+1)
	}
	real := strings.Repeat("f(", 60) + "x" + strings.Repeat(")", 60) + ";\n"
	if n := len(extractString(t, "real.js", real).Calls); n != 60 {
		t.Errorf("60 nested calls gave %d", n)
	}
}

// TestDeclarationNesting checks that declarations nested past maxNesting
// are dropped, and their calls belong to the deepest symbol kept: a
// qualified name never has more than maxNesting+1 segments.
func TestDeclarationNesting(t *testing.T) {
	var b strings.Builder
	const depth = 2000
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i) + "def f():\n")
	}
	b.WriteString(strings.Repeat(" ", depth) + "g()\n")
	f := extractString(t, "nest.py", b.String())
	if len(f.Symbols) != maxNesting+1 {
		t.Errorf("%d symbols, want %d", len(f.Symbols), maxNesting+1)
	}
	for _, s := range f.Symbols {
		if n := strings.Count(s.Qualified, "."); n > maxNesting+1 {
			t.Fatalf("qualified name of %d segments", n+1)
		}
	}
	if len(f.Calls) != 1 || f.Calls[0].Caller != f.Symbols[len(f.Symbols)-1].Qualified {
		t.Errorf("calls %v, want g() in the deepest symbol kept", f.Calls)
	}
}

// TestPathologicalInputsBounded extracts the shapes a hostile-input probe
// found expensive; each must finish (the test's timeout is the bound).
func TestPathologicalInputsBounded(t *testing.T) {
	var funcs strings.Builder
	for i := range 20000 {
		funcs.WriteString("function f")
		funcs.WriteString(strings.Repeat("x", i%7))
		funcs.WriteString("(){\n")
	}
	funcs.WriteString(strings.Repeat("}\n", 20000))
	for name, src := range map[string]string{
		"funcs.js":  funcs.String(),
		"blocks.go": "package a\nfunc f() {\n" + strings.Repeat("{", 100000) + strings.Repeat("}", 100000) + "\n}\n",
		"calls.py":  "x = " + strings.Repeat("f(", 50000) + "a" + strings.Repeat(")", 50000) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			ex, err := New(t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ex.Close()
			start := time.Now()
			f, err := ex.Source(context.Background(), name, []byte(src))
			if err == nil {
				t.Logf("%d symbols, %d calls in %v", len(f.Symbols), len(f.Calls), time.Since(start))
			} else {
				t.Logf("skipped in %v: %v", time.Since(start), err)
			}
		})
	}
}
