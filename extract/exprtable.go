package extract

import "fmt"

// ExprNode is one node of a file's expression table as plain data, for
// saving an extraction and loading it again: the operands of the node are
// the First..First+N-1 nodes of the same table.
type ExprNode struct {
	Kind  ExprKind
	Name  string
	First int32
	N     uint16
}

// ExprTable returns the expression nodes shared by every Expr of f (all
// of a file's Exprs index one table), or nil when f has none.
func (f *File) ExprTable() []ExprNode {
	x := f.exprTable()
	if x == nil {
		return nil
	}
	out := make([]ExprNode, len(x.nodes))
	for i, n := range x.nodes {
		out[i] = ExprNode{Kind: n.kind, Name: n.name, First: n.first, N: n.n}
	}
	return out
}

func (f *File) exprTable() *exprs {
	for _, e := range f.exprs() {
		if e.x != nil {
			return e.x
		}
	}
	return nil
}

// exprs returns every Expr field of f, in a fixed order.
func (f *File) exprs() []Expr {
	var out []Expr
	for _, b := range f.Bindings {
		out = append(out, b.ValueExpr, b.TargetExpr)
	}
	for _, c := range f.Calls {
		out = append(out, c.ReceiverExpr(), c.ArgExprs())
	}
	return out
}

// Index returns e's position in its file's table, or -1 for the zero Expr.
func (e Expr) Index() int {
	if e.x == nil {
		return -1
	}
	return int(e.i)
}

// ExprTable is a table of expression nodes loaded back, whose Exprs a
// loaded File points into: see NewExprTable.
type ExprTable struct{ x *exprs }

// NewExprTable checks nodes and returns their table. Every node's
// operands must come before it (First+N <= its own index), as in every
// table ExprTable returns, so that no Expr walk can loop.
func NewExprTable(nodes []ExprNode) (ExprTable, error) {
	x := &exprs{nodes: make([]exprNode, len(nodes))}
	for i, n := range nodes {
		if n.First < 0 || int(n.First)+int(n.N) > i || n.Kind >= ExprKind(len(exprKindNames)) {
			return ExprTable{}, fmt.Errorf("expression node %d: operands %d+%d not before it, or unknown kind %d", i, n.First, n.N, n.Kind)
		}
		x.nodes[i] = exprNode{kind: n.Kind, name: n.Name, first: n.First, n: n.N}
	}
	return ExprTable{x}, nil
}

// At returns the Expr at index i of t; -1 gives the zero Expr. ok is
// false for an index outside the table.
func (t ExprTable) At(i int) (e Expr, ok bool) {
	switch {
	case i == -1:
		return Expr{}, true
	case t.x == nil || i < 0 || i >= len(t.x.nodes):
		return Expr{}, false
	}
	return Expr{t.x, int32(i)}, true
}
