package extract

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestExprTableRoundTrip checks a file's Exprs point into one table, and
// that the table loaded back gives equal Exprs.
func TestExprTableRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := "import os\n\ndef f(a, b=1):\n    x = g(a, k=[b, *a], **{'y': a.b})\n    return x or os.path.join(a)[0]\n"
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ex, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.File(context.Background(), "m.py")
	if err != nil {
		t.Fatal(err)
	}
	nodes := f.ExprTable()
	if len(nodes) == 0 {
		t.Fatal("no expression table")
	}
	tab, err := NewExprTable(nodes)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range f.exprs() {
		got, ok := tab.At(e.Index())
		if !ok || got.Valid() != e.Valid() || got.Valid() && !reflect.DeepEqual(got.x.nodes, f.exprTable().nodes) || got.String() != e.String() {
			t.Errorf("expr %d: %q loads as %q", e.Index(), e, got)
		}
		if e.Valid() {
			n++
		}
	}
	if n == 0 {
		t.Error("no valid Expr in the file")
	}
	if _, ok := tab.At(len(nodes)); ok {
		t.Error("At past the table succeeded")
	}
}

func TestNewExprTableRefusesForwardOperands(t *testing.T) {
	for name, nodes := range map[string][]ExprNode{
		"self":     {{Kind: ExprCall, First: 0, N: 1}},
		"forward":  {{Kind: ExprName, Name: "a"}, {Kind: ExprAttr, First: 2, N: 1}, {Kind: ExprName, Name: "b"}},
		"kind":     {{Kind: ExprKind(200)}},
		"negative": {{Kind: ExprAttr, First: -1, N: 1}},
	} {
		if _, err := NewExprTable(nodes); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := NewExprTable([]ExprNode{{Kind: ExprName, Name: "a"}, {Kind: ExprAttr, Name: "b", First: 0, N: 1}}); err != nil {
		t.Errorf("a.b refused: %v", err)
	}
}
