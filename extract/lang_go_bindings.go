package extract

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// goBindings decodes the Go declarations a call graph needs to know the
// type of a receiver (see Binding for the conventions). Types and values
// stay source text; the call graph resolves them. The query only captures
// parameters of functions, methods and function literals and fields of
// named struct types; the engine sets the end of block scopes.
func goBindings(n *sitter.Node, f *fileInfo) []Binding {
	line := int(n.StartPoint().Row) + 1
	switch n.Type() {
	case "short_var_declaration", "range_clause":
		value := f.text(n.ChildByFieldName("right"))
		if n.Type() == "range_clause" {
			value = "range " + value
		}
		return goAssign(f, namedChildren(n.ChildByFieldName("left")), n.ChildByFieldName("right"), value, "", line)
	case "var_spec", "const_spec":
		v := n.ChildByFieldName("value")
		return goAssign(f, fieldChildren(n, "name"), v, f.text(v), f.text(n.ChildByFieldName("type")), line)
	case "parameter_declaration", "variadic_parameter_declaration":
		typ := f.text(n.ChildByFieldName("type"))
		if n.Type() == "variadic_parameter_declaration" {
			typ = "[]" + typ
		}
		return goNames(f, n, typ, line)
	case "field_declaration":
		return goNames(f, n, f.text(n.ChildByFieldName("type")), line)
	case "type_switch_statement":
		alias := namedChildren(n.ChildByFieldName("alias"))
		if len(alias) != 1 {
			return nil
		}
		var out []Binding
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			c := n.NamedChild(i)
			if c.Type() != "type_case" && c.Type() != "default_case" {
				continue
			}
			b := Binding{Target: f.text(alias[0]), Line: int(c.StartPoint().Row) + 1, EndLine: lastLine(c)}
			if types := fieldChildren(c, "type"); len(types) == 1 {
				b.Type = f.text(types[0])
			} else { // default and several types: the variable has the switched type
				b.Value = collapseSpace(f.text(n.ChildByFieldName("value")), 200)
			}
			out = append(out, b)
		}
		return out
	case "function_declaration", "method_declaration", "method_elem":
		res := n.ChildByFieldName("result")
		if res == nil {
			return nil
		}
		if res.Type() != "parameter_list" {
			return []Binding{{Target: "<result>", Type: f.text(res), Line: line}}
		}
		var out []Binding
		for i, cnt := 0, int(res.NamedChildCount()); i < cnt; i++ {
			p := res.NamedChild(i)
			if p.Type() != "parameter_declaration" {
				continue
			}
			typ := f.text(p.ChildByFieldName("type"))
			for range max(len(fieldChildren(p, "name")), 1) {
				out = append(out, Binding{Target: "<result>", Type: typ, Index: len(out), Line: line})
			}
		}
		return out
	}
	return nil
}

// goAssign binds names to values: pairwise when the counts match, else
// every name to the one multi-valued expression, by index.
func goAssign(f *fileInfo, names []*sitter.Node, values *sitter.Node, whole, typ string, line int) []Binding {
	vs := namedChildren(values)
	out := make([]Binding, 0, len(names))
	for i, name := range names {
		b := Binding{Target: f.text(name), Type: typ, Line: line}
		switch {
		case typ != "":
		case len(vs) == len(names):
			b.Value = collapseSpace(f.text(vs[i]), 200)
		default:
			b.Value, b.Index = collapseSpace(whole, 200), i
		}
		if b.Target != "_" {
			out = append(out, b)
		}
	}
	return out
}

// goNames binds each name of a parameter or field declaration to typ.
func goNames(f *fileInfo, n *sitter.Node, typ string, line int) []Binding {
	var out []Binding
	for _, c := range fieldChildren(n, "name") {
		if name := f.text(c); name != "_" {
			out = append(out, Binding{Target: name, Type: typ, Line: line})
		}
	}
	return out
}

// fieldChildren returns the children of n in the given field, in order.
func fieldChildren(n *sitter.Node, field string) []*sitter.Node {
	var out []*sitter.Node
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		if n.FieldNameForChild(i) == field {
			out = append(out, n.Child(i))
		}
	}
	return out
}

// namedChildren returns the named children of an expression list, or the
// node itself when it is a single expression.
func namedChildren(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	if n.Type() != "expression_list" {
		return []*sitter.Node{n}
	}
	out := make([]*sitter.Node, 0, n.NamedChildCount())
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		out = append(out, n.NamedChild(i))
	}
	return out
}

// lastLine is the 1-based last line of n, not counting a line n only
// ends on (a case clause takes the newline before the next case).
func lastLine(n *sitter.Node) int {
	end := n.EndPoint()
	if end.Column == 0 && end.Row > n.StartPoint().Row {
		return int(end.Row)
	}
	return int(end.Row) + 1
}
