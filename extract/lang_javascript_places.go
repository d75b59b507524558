package extract

// Function, class and object expressions that no declaration binds:
// named by where they are (see lang_javascript.go).

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// jsRefineExpression names a function or class expression by where it
// is, or drops it when the declaration around it binds it: `const f =
// () => …`, `k: function () {}`, `a.b = function`, `export default
// class {}` are declarations of their own. A named function expression
// keeps its name.
func jsRefineExpression(d *decl, f *fileInfo) bool {
	if p := d.parent; p != nil && !p.dropped && p.body != nil && d.body != nil && p.body.Equal(d.body) {
		return false
	}
	n := d.node
	if jsInvoked(n, f) || jsUMDFactory(n) {
		return false
	}
	if n.Type() == "object" {
		// An object one key down in another is the outer one's to keep
		// (const deep = {a: {b() {}}} is no symbol, and neither is a),
		// and a Babel class's method descriptor is its class's.
		if !hasFunctionMember(n, 2) || n.Parent() != nil && n.Parent().Type() == "pair" || babelDescriptor(n, f) {
			return false
		}
	}
	if name := n.ChildByFieldName("name"); name != nil {
		d.name = f.text(name)
		return d.name != ""
	}
	d.name = jsPlaceName(n, f)
	return true
}

// jsInvoked reports whether the function expression n is called where
// it is written: (function () {…})(), (() => {…})(), (function () {}).call(this).
func jsInvoked(n *sitter.Node, f *fileInfo) bool {
	p := n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		n, p = p, p.Parent()
	}
	if p != nil && p.Type() == "member_expression" {
		if prop := p.ChildByFieldName("property"); prop != nil && (f.text(prop) == "call" || f.text(prop) == "apply") {
			n, p = p, p.Parent()
		}
	}
	if p == nil || p.Type() != "call_expression" {
		return false
	}
	fn := p.ChildByFieldName("function")
	return fn != nil && fn.Equal(n)
}

// jsUMDFactory reports whether the function expression n is passed to
// an immediately invoked function: the factory of a UMD wrapper,
// `(function (root, factory) {…})(this, function (exports) {…})`, whose
// declarations are the module's.
func jsUMDFactory(n *sitter.Node) bool {
	p := n.Parent()
	if p == nil || p.Type() != "arguments" || p.Parent() == nil || p.Parent().Type() != "call_expression" {
		return false
	}
	fn := p.Parent().ChildByFieldName("function")
	for fn != nil && fn.Type() == "parenthesized_expression" && fn.NamedChildCount() > 0 {
		fn = fn.NamedChild(0)
	}
	return fn != nil && (fn.Type() == "function_expression" || fn.Type() == "arrow_function")
}

// jsPlaceName names an anonymous function or class by where it is:
//
//	app.get('/users', (req, res) => …)   <callback of app.get('/users')>
//	new Promise((resolve) => …)          <callback of new Promise>
//	fetch(u).then((r) => …)              <callback of .then>
//	return () => …, () => () => …        <returned>
//	socket.onopen = function () {}       <socket.onopen>
//	{onClick: () => …} (no symbol)       <onClick>
//	export default () => …               default
//	register({setup() {}})               <argument of register>
//	<List onPick={() => pick()}>         <onPick>
//
// and "<function>" (or "<class>", "<object>") anywhere else; a class or
// object passed to a call is its "<argument of …>". Parentheses, `as`,
// `!`, and the alternatives of `a || b` and `c ? a : b` are looked
// through.
func jsPlaceName(n *sitter.Node, f *fileInfo) string {
	anon, arg := "<function>", "<callback of "
	switch n.Type() {
	case "class":
		anon, arg = "<class>", "<argument of "
	case "object":
		anon, arg = "<object>", "<argument of "
	}
	p := n.Parent()
	for p != nil {
		switch p.Type() {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression",
			"ternary_expression", "binary_expression", "await_expression":
			n, p = p, p.Parent()
			continue
		}
		break
	}
	if p == nil {
		return anon
	}
	switch p.Type() {
	case "arguments":
		if name, ok := babelField(p, n, f); ok {
			return name
		}
		if call := p.Parent(); call != nil {
			return arg + jsCallLabel(call, n, f) + ">"
		}
	case "call_expression":
		if fn := p.ChildByFieldName("function"); fn != nil && fn.Equal(n) {
			return "<iife>"
		}
	case "return_statement", "arrow_function":
		return "<returned>"
	case "assignment_expression", "augmented_assignment_expression":
		// const proto = module.exports = {…}: the variable's name, as
		// for a function bound so; prettier writes the assignment in
		// parentheses, var utils = (module.exports = {…}).
		top := p
		for up := top.Parent(); up != nil && (up.Type() == "assignment_expression" || up.Type() == "parenthesized_expression"); up = top.Parent() {
			top = up
		}
		if d := top.Parent(); d != nil && d.Type() == "variable_declarator" {
			if k := d.ChildByFieldName("name"); k != nil && k.Type() == "identifier" {
				return f.text(k)
			}
		}
		if l := p.ChildByFieldName("left"); l != nil {
			return "<" + collapseSpace(f.text(l), 80) + ">"
		}
	case "variable_declarator", "public_field_definition", "field_definition":
		for _, field := range []string{"name", "property"} {
			if k := p.ChildByFieldName(field); k != nil {
				return "<" + collapseSpace(f.text(k), 80) + ">"
			}
		}
	case "pair":
		if k := p.ChildByFieldName("key"); k != nil {
			return "<" + unquoteJS(collapseSpace(f.text(k), 80)) + ">"
		}
	case "export_statement":
		return "default"
	case "jsx_expression":
		// <List onPick={() => pick()}>: the attribute's name.
		if a := p.Parent(); a != nil && a.Type() == "jsx_attribute" && a.NamedChildCount() > 0 {
			return "<" + f.text(a.NamedChild(0)) + ">"
		}
	}
	return anon
}

// jsCallLabel names the call an anonymous function is passed to: its
// callee when a name or a path of names (`new` before a constructor),
// else the method's name after a dot; then the call's first argument when
// it is a short string literal other than the function itself.
func jsCallLabel(call, fn *sitter.Node, f *fileInfo) string {
	callee := call.ChildByFieldName("function")
	prefix := ""
	if call.Type() == "new_expression" {
		callee, prefix = call.ChildByFieldName("constructor"), "new "
	}
	label := "(…)"
	switch {
	case callee == nil:
	case jsNamePath(callee) && callee.EndByte()-callee.StartByte() <= 60:
		label = prefix + strings.Join(strings.Fields(f.text(callee)), "")
	case callee.Type() == "member_expression":
		if prop := callee.ChildByFieldName("property"); prop != nil {
			label = "." + f.text(prop)
		}
	}
	if args := call.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 {
		first := args.NamedChild(0)
		if !first.Equal(fn) && (first.Type() == "string" || first.Type() == "template_string" && first.NamedChildCount() <= 1) &&
			first.EndByte()-first.StartByte() <= 40 && !strings.ContainsAny(f.text(first), "\n${") {
			label += "(" + f.text(first) + ")"
		}
	}
	return label
}

// jsNamePath reports whether n is a name, this, or a chain of property
// accesses on one: a, this.b, a.b.c.
func jsNamePath(n *sitter.Node) bool {
	for n != nil && n.Type() == "member_expression" {
		if p := n.ChildByFieldName("property"); p == nil || p.Type() != "property_identifier" {
			return false
		}
		n = n.ChildByFieldName("object")
	}
	return n != nil && (n.Type() == "identifier" || n.Type() == "this" || n.Type() == "super")
}
