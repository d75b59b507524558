package extract

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Expr is the structure of an expression, as far as a call graph follows
// values: names, attribute access, calls, subscripts, containers,
// comprehensions and the alternatives of a conditional. What a call graph
// does not follow (arithmetic, comparisons, f-strings) is ExprOther.
// tree-sitter parsed the expression already; Expr carries that parse out
// of this package as plain data, so that no later stage re-parses source
// text.
//
// An Expr is a handle on a node of its file's expressions, which share
// one slice: 24 bytes a node, about a third of a tree of structs (the
// Python standard library with its tests has 7.5 million nodes). The zero
// Expr is ExprOther with no operands, and every accessor is total: an
// operand past the end is the zero Expr, so walking an Expr cannot panic.
//
// An Expr is bounded: at most MaxExprDepth levels deep and MaxExprNodes
// nodes in all. Past either bound a subexpression becomes ExprOther and a
// container keeps its first elements only.
type Expr struct {
	x *exprs
	i int32
}

// exprs are the expression nodes of one file; a node's operands are
// consecutive, and come before it.
type exprs struct {
	nodes []exprNode
}

type exprNode struct {
	name  string
	first int32 // index of the first operand
	n     uint16
	kind  ExprKind
}

// ExprKind is the kind of an Expr.
type ExprKind uint8

// The kinds of expressions, and the operands (Sub) of each:
//
//	ExprAttr     [object]
//	ExprCall     [callee, argument...]; arguments may be ExprKeyword
//	             or ExprSplat
//	ExprIndex    [object, index]
//	ExprTuple, ExprList, ExprSet
//	             the elements, which may be ExprSplat
//	ExprDict     key, value, key, value...; a `**m` entry is an
//	             ExprSplat key with an ExprOther value
//	ExprComp     [element] (a dict comprehension: [key, value])
//	ExprAlt      the alternatives: `a or b`, `a and b`, `a if c else b`
//	             give [a, b]
//	ExprKeyword  [value]
//	ExprSplat    [value]
const (
	ExprOther   ExprKind = iota // anything not followed
	ExprName                    // an identifier
	ExprAttr                    // object.name
	ExprCall                    // callee(args)
	ExprIndex                   // object[index]
	ExprTuple                   // (a, b), a, b; also a call's argument list
	ExprList                    // [a, b]
	ExprSet                     // {a, b}
	ExprDict                    // {k: v}
	ExprComp                    // [e for x in xs], (e for ...), {k: v for ...}
	ExprAlt                     // a or b, a if c else b
	ExprKeyword                 // name=value, as a call argument
	ExprSplat                   // *a, **a
	ExprString                  // a string literal without interpolation
	ExprNumber                  // an integer literal
	ExprLambda                  // an anonymous function
)

var exprKindNames = [...]string{
	ExprOther: "other", ExprName: "name", ExprAttr: "attr", ExprCall: "call",
	ExprIndex: "index", ExprTuple: "tuple", ExprList: "list", ExprSet: "set",
	ExprDict: "dict", ExprComp: "comp", ExprAlt: "alt", ExprKeyword: "keyword",
	ExprSplat: "splat", ExprString: "string", ExprNumber: "number", ExprLambda: "lambda",
}

func (k ExprKind) String() string {
	if int(k) < len(exprKindNames) {
		return exprKindNames[k]
	}
	return fmt.Sprintf("ExprKind(%d)", k)
}

// Bounds on one Expr: MaxExprDepth levels, MaxExprNodes nodes. Real
// expressions stay far below both (a dispatch table of 200 entries has
// about 600 nodes); the bounds keep one generated or hostile line from
// costing more than a fixed amount, here and in every stage that walks
// the tree.
const (
	MaxExprDepth = 32
	MaxExprNodes = 2048
)

func (e Expr) node() exprNode {
	if e.x == nil || e.i < 0 || int(e.i) >= len(e.x.nodes) {
		return exprNode{}
	}
	return e.x.nodes[e.i]
}

// Valid reports whether e stands for an expression of a file, rather
// than being the zero Expr.
func (e Expr) Valid() bool { return e.x != nil }

// Kind returns e's kind.
func (e Expr) Kind() ExprKind { return e.node().kind }

// Name returns the identifier (ExprName), the attribute (ExprAttr), the
// keyword (ExprKeyword), the splat ("*" or "**", ExprSplat), a string
// literal's value without quotes or prefix (ExprString), an integer
// literal as written (ExprNumber), or what a comprehension makes
// (ExprComp: "list", "set", "generator" or "dict"); else "".
func (e Expr) Name() string { return e.node().name }

// Len returns the number of e's operands.
func (e Expr) Len() int { return int(e.node().n) }

// Sub returns e's i-th operand (see ExprKind), or the zero Expr when it
// has none.
func (e Expr) Sub(i int) Expr {
	n := e.node()
	if i < 0 || i >= int(n.n) {
		return Expr{}
	}
	return Expr{e.x, n.first + int32(i)}
}

// String writes e in a Python-like notation, for tests and debugging:
// `f(a, k=b)`, `a.b`, `d["k"]`, `[x, *y]`, `{k: v}`, `[e for ...]`,
// `(a | b)` for alternatives, `?` for ExprOther.
func (e Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e Expr) write(b *strings.Builder) {
	list := func(open, sep, close string, from int) {
		b.WriteString(open)
		for i := from; i < e.Len(); i++ {
			if i > from {
				b.WriteString(sep)
			}
			e.Sub(i).write(b)
		}
		b.WriteString(close)
	}
	switch e.Kind() {
	case ExprName, ExprNumber:
		b.WriteString(e.Name())
	case ExprString:
		fmt.Fprintf(b, "%q", e.Name())
	case ExprAttr:
		e.Sub(0).write(b)
		b.WriteString("." + e.Name())
	case ExprCall:
		e.Sub(0).write(b)
		list("(", ", ", ")", 1)
	case ExprIndex:
		e.Sub(0).write(b)
		b.WriteString("[")
		e.Sub(1).write(b)
		b.WriteString("]")
	case ExprTuple:
		list("(", ", ", ")", 0)
	case ExprList:
		list("[", ", ", "]", 0)
	case ExprSet:
		list("{", ", ", "}", 0)
	case ExprDict:
		b.WriteString("{")
		for i := 0; i+1 < e.Len(); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			e.Sub(i).write(b)
			b.WriteString(": ")
			e.Sub(i + 1).write(b)
		}
		b.WriteString("}")
	case ExprComp:
		b.WriteString("[")
		e.Sub(0).write(b)
		if e.Name() == "dict" {
			b.WriteString(": ")
			e.Sub(1).write(b)
		}
		b.WriteString(" for ...]")
	case ExprAlt:
		list("(", " | ", ")", 0)
	case ExprKeyword:
		b.WriteString(e.Name() + "=")
		e.Sub(0).write(b)
	case ExprSplat:
		b.WriteString(e.Name())
		e.Sub(0).write(b)
	case ExprLambda:
		b.WriteString("lambda")
	default:
		b.WriteString("?")
	}
}

// exprBuilder turns the nodes of a file's expressions into Exprs. Each
// expression gets a fresh budget of MaxExprNodes.
//
// A subexpression met twice is stored once: the call site of f(a, b)
// converts its receiver and arguments, and the assignment x = f(a, b)
// reuses them, as does every call around it (f(g(h(x))) would otherwise
// convert h's arguments three times). Reuse keeps both bounds: a stored
// subexpression is taken only where its depth and size still fit.
type exprBuilder struct {
	f       *fileInfo
	x       *exprs
	left    int                                            // nodes left in the expression under way
	deepest int                                            // the deepest level reached so far
	names   map[string]string                              // interned names: a file says "self" a thousand times
	seen    map[exprKey]storedExpr                         // converted subexpressions that may recur
	conv    func(*exprBuilder, *sitter.Node, int) exprNode // the language's hook
	shared  func(*sitter.Node) bool                        // node types worth storing for reuse
}

type exprKey struct {
	start, end uint32
	sym        sitter.Symbol
}

type storedExpr struct {
	node   exprNode
	size   int // nodes, itself included
	height int // levels, itself included
}

// newExprBuilder returns the builder of f's expressions.
func newExprBuilder(f *fileInfo) *exprBuilder {
	return &exprBuilder{
		f: f, x: &exprs{}, names: map[string]string{}, seen: map[exprKey]storedExpr{},
		conv: f.lang.expr, shared: f.lang.exprShared,
	}
}

// expr returns the structure of the expression at n, or the zero Expr
// when n is nil or the language has no expression hook.
func (f *fileInfo) expr(n *sitter.Node) Expr {
	x := f.builder()
	if n == nil || x == nil {
		return Expr{}
	}
	return x.expr(n)
}

// builder returns the builder of f's expressions, made on first use,
// or nil when the language has no expression hook.
func (f *fileInfo) builder() *exprBuilder {
	if f.lang.expr == nil {
		return nil
	}
	if f.exprs == nil {
		f.exprs = newExprBuilder(f)
	}
	return f.exprs
}

// expr converts the expression at n as a whole, with a fresh budget.
func (x *exprBuilder) expr(n *sitter.Node) Expr {
	x.left, x.deepest = MaxExprNodes, 0
	return x.root(x.sub(n, 0))
}

// tuple converts the expression at n as a whole, with a fresh budget, as
// the one element of an ExprTuple.
func (x *exprBuilder) tuple(n *sitter.Node) Expr {
	x.left, x.deepest = MaxExprNodes, 0
	return x.root(x.with(ExprTuple, "", x.sub(n, 1)))
}

// sub converts the subexpression at n, at depth levels below the top,
// within the bounds; a subexpression converted before is reused where it
// fits.
func (x *exprBuilder) sub(n *sitter.Node, depth int) exprNode {
	if n == nil || depth >= MaxExprDepth || x.left <= 0 {
		return exprNode{}
	}
	var key exprKey
	share := x.shared != nil && x.shared(n)
	if share {
		key = exprKey{n.StartByte(), n.EndByte(), n.Symbol()}
		if s, ok := x.seen[key]; ok && depth+s.height <= MaxExprDepth && s.size <= x.left {
			x.left -= s.size
			x.deepest = max(x.deepest, depth+s.height-1)
			return s.node
		}
	}
	left, deepest := x.left, x.deepest
	x.left--
	x.deepest = depth
	node := x.conv(x, n, depth)
	height := x.deepest - depth + 1
	x.deepest = max(deepest, x.deepest)
	if share {
		x.seen[key] = storedExpr{node: node, size: left - x.left, height: height}
	}
	return node
}

// name returns s interned.
func (x *exprBuilder) name(s []byte) string {
	if n, ok := x.names[string(s)]; ok {
		return n
	}
	n := validUTF8(string(s))
	x.names[n] = n
	return n
}

// leaf returns a node without operands.
func (x *exprBuilder) leaf(kind ExprKind, name string) exprNode {
	return exprNode{kind: kind, name: name}
}

// with returns a node whose operands are subs, stored consecutively.
func (x *exprBuilder) with(kind ExprKind, name string, subs ...exprNode) exprNode {
	first := int32(len(x.x.nodes))
	x.x.nodes = append(x.x.nodes, subs...)
	return exprNode{kind: kind, name: name, first: first, n: uint16(len(subs))}
}

// operands returns the operands of a node converted before.
func (x *exprBuilder) operands(n exprNode) []exprNode {
	return x.x.nodes[n.first : n.first+int32(n.n)]
}

// children converts the named children of n, comments left out, as far
// as the budget goes.
func (x *exprBuilder) children(n *sitter.Node, depth int) []exprNode {
	cnt := int(n.NamedChildCount())
	out := make([]exprNode, 0, min(cnt, 8))
	for i := 0; i < cnt && x.left > 0; i++ {
		if c := n.NamedChild(i); c != nil && c.Type() != "comment" {
			out = append(out, x.sub(c, depth+1))
		}
	}
	return out
}

// root stores the top node of an expression and returns its handle.
func (x *exprBuilder) root(n exprNode) Expr {
	x.x.nodes = append(x.x.nodes, n)
	return Expr{x.x, int32(len(x.x.nodes) - 1)}
}
