package extract

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// JavaScript and TypeScript expressions, as far as a call graph follows
// values (see Expr). The mapping:
//
//	identifier, this, super        ExprName
//	a.b, a?.b, a.#p                ExprAttr "b" [a]
//	a[i]                           ExprIndex [a, i]
//	f(x), f<T>(x), f`t`            ExprCall [f, x…]
//	new C(x)                       ExprCall "new" [C, x…]
//	(x), await x, x!, x as T,
//	x satisfies T, <T>x            x
//	a || b, a ?? b, a && b,
//	c ? a : b                      ExprAlt [a, b]
//	a = b                          b
//	[a, …b]                        ExprList [a, ExprSplat "*" [b]]
//	{k: v, m() {}, s, …o}          ExprDict ["k", v, "m", lambda, "s", s, ExprSplat "*" [o], ?]
//	() => …, function () {}        ExprLambda
//	"s", 's', `s` (no ${})         ExprString
//	1, -1                          ExprNumber
//
// Object keys are strings whether written as names, strings or numbers;
// a computed key (`[k]: v`) is ExprOther.

// jsShared are the node types a JavaScript file's expressions share: the
// receivers and argument lists of call sites, which assignments and the
// calls around them contain again.
func jsShared(n *sitter.Node) bool {
	switch n.Type() {
	case "call_expression", "new_expression", "arguments", "member_expression":
		return true
	}
	return false
}

// jsExpr converts a JavaScript or TypeScript expression or argument list
// (a tuple of its arguments). The builder has checked the bounds and
// charged n.
func jsExpr(x *exprBuilder, n *sitter.Node, depth int) exprNode {
	f := x.f
	sub := func(c *sitter.Node) exprNode { return x.sub(c, depth+1) }
	field := func(name string) *sitter.Node { return n.ChildByFieldName(name) }
	text := func(c *sitter.Node) string { return x.name(f.src[c.StartByte():c.EndByte()]) }
	switch n.Type() {
	case "identifier", "this", "super", "shorthand_property_identifier":
		return x.leaf(ExprName, text(n))
	case "member_expression":
		prop := field("property")
		if prop == nil || prop.EndByte() == prop.StartByte() {
			return exprNode{}
		}
		return x.with(ExprAttr, text(prop), sub(field("object")))
	case "subscript_expression":
		return x.with(ExprIndex, "", sub(field("object")), sub(field("index")))
	case "call_expression", "new_expression":
		callee := field("function")
		name := ""
		if n.Type() == "new_expression" {
			callee, name = field("constructor"), "new"
		}
		subs := []exprNode{sub(callee)}
		if args := field("arguments"); args != nil && args.Type() == "arguments" {
			subs = append(subs, x.operands(sub(args))...)
		}
		return x.with(ExprCall, name, subs...)
	case "arguments":
		return x.with(ExprTuple, "", x.children(n, depth)...)
	case "array":
		return x.with(ExprList, "", x.children(n, depth)...)
	case "spread_element":
		return x.with(ExprSplat, "*", sub(firstNamed(n)))
	case "object":
		return jsObjectExpr(x, n, depth)
	case "parenthesized_expression", "await_expression", "non_null_expression",
		"as_expression", "satisfies_expression", "type_assertion":
		// The value inside; a type, where there is one, comes after it
		// (x as T) or before it (<T>x).
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			if c := n.NamedChild(i); c.Type() != "comment" && c.Type() != "type_arguments" {
				return sub(c)
			}
		}
	case "assignment_expression":
		return sub(field("right"))
	case "binary_expression":
		switch op := field("operator"); {
		case op == nil:
		case op.Type() == "||" || op.Type() == "??" || op.Type() == "&&":
			return x.with(ExprAlt, "", sub(field("left")), sub(field("right")))
		}
	case "ternary_expression":
		return x.with(ExprAlt, "", sub(field("consequence")), sub(field("alternative")))
	case "arrow_function", "function_expression", "function", "generator_function":
		return x.leaf(ExprLambda, "")
	case "string":
		if s, ok := jsStringValue(n, x); ok {
			return x.leaf(ExprString, s)
		}
	case "template_string":
		if n.NamedChildCount() == 0 || n.NamedChildCount() == 1 && n.NamedChild(0).Type() == "string_fragment" {
			if s, ok := jsStringValue(n, x); ok {
				return x.leaf(ExprString, s)
			}
		}
	case "number":
		return x.leaf(ExprNumber, text(n))
	case "unary_expression":
		if op, arg := field("operator"), field("argument"); op != nil && arg != nil && op.Type() == "-" && arg.Type() == "number" {
			return x.leaf(ExprNumber, "-"+text(arg))
		}
	}
	return exprNode{}
}

// jsObjectExpr converts an object literal to an ExprDict.
func jsObjectExpr(x *exprBuilder, n *sitter.Node, depth int) exprNode {
	var subs []exprNode
	key := func(k *sitter.Node) exprNode {
		switch k.Type() {
		case "property_identifier", "private_property_identifier", "number":
			return x.leaf(ExprString, x.name(x.f.src[k.StartByte():k.EndByte()]))
		case "string":
			if s, ok := jsStringValue(k, x); ok {
				return x.leaf(ExprString, s)
			}
		}
		return exprNode{}
	}
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt && x.left > 0; i++ {
		switch c := n.NamedChild(i); c.Type() {
		case "pair":
			if k := c.ChildByFieldName("key"); k != nil {
				subs = append(subs, key(k), x.sub(c.ChildByFieldName("value"), depth+1))
			}
		case "method_definition":
			if k := c.ChildByFieldName("name"); k != nil {
				subs = append(subs, key(k), x.leaf(ExprLambda, ""))
			}
		case "shorthand_property_identifier":
			name := x.name(x.f.src[c.StartByte():c.EndByte()])
			subs = append(subs, x.leaf(ExprString, name), x.leaf(ExprName, name))
		case "spread_element":
			subs = append(subs, x.sub(c, depth+1), exprNode{})
		}
	}
	return x.with(ExprDict, "", subs...)
}

// jsStringValue returns the text between a string literal's quotes when
// it has no escapes and is at most maxLiteral bytes.
func jsStringValue(n *sitter.Node, x *exprBuilder) (string, bool) {
	start, end := n.StartByte()+1, n.EndByte()-1
	if end < start || end-start > maxLiteral {
		return "", false
	}
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		if n.NamedChild(i).Type() == "escape_sequence" {
			return "", false
		}
	}
	return x.name(x.f.src[start:end]), true
}

// jsParams lists a function's parameters in order, for flow tracking:
// names as written, "" for a destructuring pattern (which keeps the
// positions of those after it), the name after "..." for a rest
// parameter; TypeScript's `this` parameter is left out.
func jsParams(d *decl, f *fileInfo) []string {
	n := d.node
	for range 3 {
		if n == nil {
			return nil
		}
		if n.ChildByFieldName("parameters") != nil || n.ChildByFieldName("parameter") != nil {
			break
		}
		switch { // const f = () => …, a.f = function, k: () => …, f = …
		case n.ChildByFieldName("value") != nil:
			n = n.ChildByFieldName("value")
		case n.ChildByFieldName("right") != nil:
			n = n.ChildByFieldName("right")
		default:
			return nil
		}
	}
	if p := n.ChildByFieldName("parameter"); p != nil { // x => …
		return []string{f.text(p)}
	}
	ps := n.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []string
	for i, cnt := 0, int(ps.NamedChildCount()); i < cnt; i++ {
		p := ps.NamedChild(i)
		switch p.Type() {
		case "comment", "decorator":
			continue
		case "required_parameter", "optional_parameter": // TypeScript
			p = p.ChildByFieldName("pattern")
		}
		if p != nil && p.Type() == "this" {
			continue
		}
		switch {
		case p == nil:
			out = append(out, "")
		case p.Type() == "assignment_pattern":
			p = p.ChildByFieldName("left")
		case p.Type() == "rest_pattern":
			p = firstNamed(p)
		}
		if p != nil && p.Type() == "identifier" {
			out = append(out, f.text(p))
		} else if p != nil {
			out = append(out, "")
		}
	}
	return out
}
