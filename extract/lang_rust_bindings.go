package extract

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// rustBindings decodes the Rust declarations a call graph needs to know
// the type of a receiver (see Binding): a function's parameters (`s:
// &Searcher`, scope the function, target the parameter's name, type as
// written; `self` is left out: the impl says its type) and the trait
// bounds of the type parameters it sees (its own and its impl block's or
// trait's: `S: Sink` or `where S: Sink` is target S, type "impl Sink", on
// the function's line), a let statement
// with a plain name (`let x: T = v`, `let mut x = T::new()`: type as
// written or "", value the initializer's text), a struct's named fields
// (scope the struct), an enum's variant fields (scope the enum, target
// "Variant.0" for a tuple variant's first field, "Variant.name" for a
// named one) and the plain names of a tuple struct pattern (`Word(ref m)`
// in a match arm or an if let: target m, value "pattern Word", Index its
// position). Other patterns bind nothing. The engine ends a binding's
// visibility with its block or match arm.
func rustBindings(n *sitter.Node, f *fileInfo) []Binding {
	switch n.Type() {
	case "function_item", "function_signature_item":
		params := n.ChildByFieldName("parameters")
		if params == nil {
			return nil
		}
		line := int(n.StartPoint().Row) + 1
		var out []Binding
		if impl := rustEnclosingImpl(n); impl != nil {
			out = rustBounds(impl, f, line, out)
		}
		out = rustBounds(n, f, line, out)
		for i, cnt := 0, int(params.NamedChildCount()); i < cnt; i++ {
			p := params.NamedChild(i)
			if p.Type() != "parameter" {
				continue
			}
			name := rustPatternName(p.ChildByFieldName("pattern"))
			typ := p.ChildByFieldName("type")
			if name == nil || typ == nil {
				continue
			}
			out = append(out, Binding{
				Target: f.text(name),
				Type:   collapseSpace(f.text(typ), 200),
				Line:   int(p.StartPoint().Row) + 1,
			})
		}
		return out
	case "let_declaration":
		name := rustPatternName(n.ChildByFieldName("pattern"))
		if name == nil {
			return nil
		}
		b := Binding{Target: f.text(name), Line: int(n.StartPoint().Row) + 1}
		if t := n.ChildByFieldName("type"); t != nil {
			b.Type = collapseSpace(f.text(t), 200)
		}
		if v := n.ChildByFieldName("value"); v != nil {
			b.Value = collapseSpace(f.text(v), 200)
		}
		if b.Type == "" && b.Value == "" {
			return nil
		}
		return []Binding{b}
	case "enum_item":
		body := n.ChildByFieldName("body")
		if body == nil {
			return nil
		}
		var out []Binding
		for i, cnt := 0, int(body.NamedChildCount()); i < cnt; i++ {
			v := body.NamedChild(i)
			name, fields := v.ChildByFieldName("name"), v.ChildByFieldName("body")
			if v.Type() != "enum_variant" || name == nil || fields == nil {
				continue
			}
			k := 0
			for j, fc := 0, int(fields.NamedChildCount()); j < fc; j++ {
				fd := fields.NamedChild(j)
				var target string
				var typ *sitter.Node
				switch {
				case fields.Type() == "ordered_field_declaration_list" && fields.FieldNameForChild(rustChildIndex(fields, fd)) == "type":
					target, typ = fmt.Sprintf("%s.%d", f.text(name), k), fd
					k++
				case fd.Type() == "field_declaration" && fd.ChildByFieldName("name") != nil:
					target, typ = f.text(name)+"."+f.text(fd.ChildByFieldName("name")), fd.ChildByFieldName("type")
				}
				if target == "" || typ == nil {
					continue
				}
				out = append(out, Binding{
					Target: target,
					Type:   collapseSpace(f.text(typ), 200),
					Line:   int(fd.StartPoint().Row) + 1,
				})
			}
		}
		return out
	case "tuple_struct_pattern":
		typ := n.ChildByFieldName("type")
		if typ == nil {
			return nil
		}
		var out []Binding
		k := 0
		for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
			c := n.Child(i)
			switch c.Type() {
			case "(", ")", ",", "line_comment", "block_comment":
				continue
			case "remaining_field_pattern", "..":
				return out // positions after `..` count from the end
			}
			if c.Equal(typ) {
				continue
			}
			if name := rustPatternName(c); name != nil {
				out = append(out, Binding{
					Target: f.text(name),
					Value:  "pattern " + collapseSpace(f.text(typ), 200),
					Index:  k,
					Line:   int(c.StartPoint().Row) + 1,
				})
			}
			k++
		}
		return out
	case "struct_item":
		body := n.ChildByFieldName("body")
		if body == nil || body.Type() != "field_declaration_list" {
			return nil
		}
		var out []Binding
		for i, cnt := 0, int(body.NamedChildCount()); i < cnt; i++ {
			fd := body.NamedChild(i)
			if fd.Type() != "field_declaration" {
				continue
			}
			name, typ := fd.ChildByFieldName("name"), fd.ChildByFieldName("type")
			if name == nil || typ == nil {
				continue
			}
			out = append(out, Binding{
				Target: f.text(name),
				Type:   collapseSpace(f.text(typ), 200),
				Line:   int(fd.StartPoint().Row) + 1,
			})
		}
		return out
	}
	return nil
}

// rustEnclosingImpl returns the impl block (or trait) whose body holds
// the function n, or nil.
func rustEnclosingImpl(n *sitter.Node) *sitter.Node {
	p := n.Parent()
	if p == nil || p.Type() != "declaration_list" {
		return nil
	}
	if pp := p.Parent(); pp != nil && (pp.Type() == "impl_item" || pp.Type() == "trait_item") {
		return pp
	}
	return nil
}

// rustBounds appends the trait bounds of the type parameters of item n
// (a function, an impl block, a trait), from its <...> list and its where
// clause: `S: Sink + Send` is target S, type "impl Sink + Send", at line.
func rustBounds(n *sitter.Node, f *fileInfo, line int, out []Binding) []Binding {
	add := func(left, bounds *sitter.Node) {
		if left == nil || bounds == nil || left.Type() != "type_identifier" {
			return
		}
		out = append(out, Binding{
			Target: f.text(left),
			Type:   "impl " + strings.TrimSpace(strings.TrimPrefix(collapseSpace(f.text(bounds), 200), ":")),
			Line:   line,
		})
	}
	if tp := n.ChildByFieldName("type_parameters"); tp != nil {
		for i, cnt := 0, int(tp.NamedChildCount()); i < cnt; i++ {
			if c := tp.NamedChild(i); c.Type() == "constrained_type_parameter" {
				add(c.ChildByFieldName("left"), c.ChildByFieldName("bounds"))
			}
		}
	}
	if w := childOfType(n, "where_clause"); w != nil {
		for i, cnt := 0, int(w.NamedChildCount()); i < cnt; i++ {
			if c := w.NamedChild(i); c.Type() == "where_predicate" {
				add(c.ChildByFieldName("left"), c.ChildByFieldName("bounds"))
			}
		}
	}
	return out
}

// rustChildIndex returns the index of child c among n's children.
func rustChildIndex(n, c *sitter.Node) int {
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		if n.Child(i).Equal(c) {
			return i
		}
	}
	return -1
}

// rustPatternName returns the identifier a pattern binds when it is a
// plain name (`x`, `mut x`, `ref x`), or nil.
func rustPatternName(p *sitter.Node) *sitter.Node {
	if p == nil {
		return nil
	}
	switch p.Type() {
	case "identifier":
		return p
	case "mut_pattern", "ref_pattern":
		for i, cnt := 0, int(p.NamedChildCount()); i < cnt; i++ {
			if c := p.NamedChild(i); c.Type() == "identifier" {
				return c
			}
		}
	}
	return nil
}
