package extract

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// maxLiteral is the longest string literal kept as ExprString; a longer
// one (a docstring, a template) is no key anyone looks up.
const maxLiteral = 256

// pythonShared are the node types a Python file's expressions share:
// the receivers and argument lists of call sites, which the assignments
// and calls around them contain again.
func pythonShared(n *sitter.Node) bool {
	switch n.Type() {
	case "call", "argument_list", "attribute":
		return true
	}
	return false
}

// pythonExpr converts a Python expression, assignment target or argument
// list (a tuple of its arguments).
// The builder has checked the bounds and charged n.
func pythonExpr(x *exprBuilder, n *sitter.Node, depth int) exprNode {
	f := x.f
	sub := func(c *sitter.Node) exprNode { return x.sub(c, depth+1) }
	field := func(name string) *sitter.Node { return n.ChildByFieldName(name) }
	text := func(c *sitter.Node) string { return x.name(f.src[c.StartByte():c.EndByte()]) }
	kids := func(kind ExprKind) exprNode { return x.with(kind, "", x.children(n, depth)...) }
	switch n.Type() {
	case "identifier":
		return x.leaf(ExprName, text(n))
	case "attribute":
		attr := field("attribute")
		if attr == nil || attr.EndByte() == attr.StartByte() {
			return exprNode{}
		}
		return x.with(ExprAttr, text(attr), sub(field("object")))
	case "call":
		subs := []exprNode{sub(field("function"))}
		switch args := field("arguments"); {
		case args == nil:
		case args.Type() == "argument_list":
			// The list as the call site stored it, its arguments
			// copied after the callee.
			subs = append(subs, x.operands(sub(args))...)
		default: // f(x for x in xs)
			subs = append(subs, sub(args))
		}
		return x.with(ExprCall, "", subs...)
	case "argument_list", "tuple", "expression_list", "pattern_list", "tuple_pattern":
		return kids(ExprTuple)
	case "list", "list_pattern":
		return kids(ExprList)
	case "set":
		return kids(ExprSet)
	case "subscript":
		return x.with(ExprIndex, "", sub(field("value")), sub(field("subscript")))
	case "slice":
		// a[1:3] is a[slice(1, 3, None)], as Python calls it: the
		// call of the name slice with start, stop and step, None
		// where left out.
		parts := []exprNode{x.leaf(ExprName, "slice")}
		var cur *sitter.Node
		for i, cnt := 0, int(n.ChildCount()); i < cnt && len(parts) < 4; i++ {
			switch c := n.Child(i); {
			case c.Type() == ":":
				parts = append(parts, slicePart(x, cur, sub))
				cur = nil
			case c.IsNamed() && c.Type() != "comment":
				cur = c
			}
		}
		for len(parts) < 4 {
			parts = append(parts, slicePart(x, cur, sub))
			cur = nil
		}
		return x.with(ExprCall, "", parts...)
	case "parenthesized_expression", "await":
		if c := firstNamed(n); c != nil {
			return sub(c)
		}
	case "named_expression":
		return sub(field("value"))
	case "assignment":
		// a = b = f: the value of the inner assignment.
		return sub(field("right"))
	case "dictionary":
		var subs []exprNode
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt && x.left > 0; i++ {
			switch c := n.NamedChild(i); c.Type() {
			case "pair":
				subs = append(subs, sub(c.ChildByFieldName("key")), sub(c.ChildByFieldName("value")))
			case "dictionary_splat":
				subs = append(subs, sub(c), exprNode{})
			}
		}
		return x.with(ExprDict, "", subs...)
	case "list_comprehension":
		return x.with(ExprComp, "list", sub(field("body")))
	case "set_comprehension":
		return x.with(ExprComp, "set", sub(field("body")))
	case "generator_expression":
		return x.with(ExprComp, "generator", sub(field("body")))
	case "dictionary_comprehension":
		if body := field("body"); body != nil && body.Type() == "pair" {
			return x.with(ExprComp, "dict", sub(body.ChildByFieldName("key")), sub(body.ChildByFieldName("value")))
		}
	case "conditional_expression":
		// a if c else b: the named children are a, c and b.
		if n.NamedChildCount() >= 3 {
			return x.with(ExprAlt, "", sub(n.NamedChild(0)), sub(n.NamedChild(2)))
		}
	case "boolean_operator":
		return x.with(ExprAlt, "", sub(field("left")), sub(field("right")))
	case "keyword_argument":
		if name := field("name"); name != nil {
			return x.with(ExprKeyword, text(name), sub(field("value")))
		}
	case "list_splat", "list_splat_pattern", "parenthesized_list_splat":
		return x.with(ExprSplat, "*", sub(firstNamed(n)))
	case "dictionary_splat", "dictionary_splat_pattern":
		return x.with(ExprSplat, "**", sub(firstNamed(n)))
	case "string":
		if s, ok := pythonStringValue(n, x); ok {
			return x.leaf(ExprString, s)
		}
	case "integer":
		return x.leaf(ExprNumber, text(n))
	case "unary_operator":
		// -1 is a literal key too.
		if op, arg := field("operator"), field("argument"); op != nil && arg != nil && f.text(op) == "-" && arg.Type() == "integer" {
			return x.leaf(ExprNumber, "-"+text(arg))
		}
	case "lambda":
		return x.leaf(ExprLambda, "")
	}
	return exprNode{}
}

// pythonStringValue returns the text between a string literal's quotes,
// when it has no interpolation and is at most maxLiteral bytes.
func pythonStringValue(n *sitter.Node, x *exprBuilder) (string, bool) {
	cnt := int(n.ChildCount())
	if cnt < 2 {
		return "", false
	}
	for i := 0; i < cnt; i++ {
		if n.Child(i).Type() == "interpolation" {
			return "", false
		}
	}
	start, end := n.Child(0).EndByte(), n.Child(cnt-1).StartByte()
	if end < start || end-start > maxLiteral {
		return "", false
	}
	return x.name(x.f.src[start:end]), true
}

// firstNamed returns n's first named child that is not a comment, or nil.
func firstNamed(n *sitter.Node) *sitter.Node {
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		if c := n.NamedChild(i); c != nil && c.Type() != "comment" {
			return c
		}
	}
	return nil
}

// slicePart is one part of a slice: the expression, or the name None
// where it was left out.
func slicePart(x *exprBuilder, c *sitter.Node, sub func(*sitter.Node) exprNode) exprNode {
	if c == nil {
		return x.leaf(ExprName, "None")
	}
	return sub(c)
}
