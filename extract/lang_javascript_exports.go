package extract

// The exported rule of JavaScript and TypeScript; see lang_javascript.go.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// jsExported applies the rule in the comment at the top of this file.
func jsExported(d *decl, f *fileInfo) bool {
	lex := d.parent
	for lex != nil && lex.dropped {
		lex = lex.parent
	}
	if lex == nil {
		top := jsTopLevel(d.node)
		if !top {
			return false // inside an anonymous function
		}
		if isDeclarationFile(f.path) || d.kind == KindModule || d.node.Type() == "ambient_declaration" {
			return true // declare module "m" {} and declare global {} are global
		}
		ex := jsFileExportsOf(f)
		if !ex.module {
			return true
		}
		name := d.name
		if d.parentName != "" { // Foo.prototype.m, namespace A.B
			name = d.parentName
			if i := strings.IndexByte(name, '.'); i >= 0 {
				name = name[:i]
			}
		}
		return ex.names[name]
	}
	switch lex.kind {
	case KindFunction, KindMethod:
		return false
	case KindNamespace, KindModule:
		if !jsInExport(d.node) && !jsAmbient(lex.node) && !isDeclarationFile(f.path) {
			return false
		}
	default:
		if jsPrivate(d.node) {
			return false
		}
	}
	return jsExported(lex, f)
}

// jsTopLevel reports whether declaration n is a statement of the program,
// possibly wrapped in export, declare or a variable declaration.
func jsTopLevel(n *sitter.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "program":
			return true
		case "export_statement", "lexical_declaration", "variable_declaration",
			"ambient_declaration", "expression_statement":
		default:
			return false
		}
	}
	return false
}

// jsInExport reports whether n is wrapped in an export statement.
func jsInExport(n *sitter.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "export_statement":
			return true
		case "lexical_declaration", "variable_declaration", "ambient_declaration", "expression_statement":
		default:
			return false
		}
	}
	return false
}

// jsAmbient reports whether n is inside a declare statement.
func jsAmbient(n *sitter.Node) bool {
	for p := n; p != nil; p = p.Parent() {
		if p.Type() == "ambient_declaration" {
			return true
		}
	}
	return false
}

// jsPrivate reports whether class member n is private: `private` or #name.
func jsPrivate(n *sitter.Node) bool {
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		c := n.Child(i)
		switch c.Type() {
		case "accessibility_modifier":
			if c.ChildCount() > 0 && c.Child(0).Type() == "private" {
				return true
			}
		case "private_property_identifier":
			return true
		}
	}
	return false
}

// jsFileExports is what a file exports: whether it uses module syntax at
// all, and the local names it exports.
type jsFileExports struct {
	module bool
	names  map[string]bool
}

// jsFileExportsOf returns the exports of f, scanning its top-level
// statements once per file.
func jsFileExportsOf(f *fileInfo) *jsFileExports {
	if ex, ok := f.state.(*jsFileExports); ok {
		return ex
	}
	ex := scanJSExports(f.root, f)
	f.state = ex
	return ex
}

// scanJSExports reads the top-level statements of a program.
func scanJSExports(root *sitter.Node, f *fileInfo) *jsFileExports {
	ex := &jsFileExports{names: map[string]bool{}}
	for i, cnt := 0, int(root.NamedChildCount()); i < cnt; i++ {
		st := root.NamedChild(i)
		switch st.Type() {
		case "import_statement":
			ex.module = true
		case "export_statement":
			ex.module = true
			if st.ChildByFieldName("source") != nil {
				continue // a re-export
			}
			if decl := st.ChildByFieldName("declaration"); decl != nil {
				ex.addDeclared(decl, f)
			}
			if v := st.ChildByFieldName("value"); v != nil {
				ex.names["default"] = true
				if v.Type() == "identifier" {
					ex.names[f.text(v)] = true
				}
			}
			for j, m := 0, int(st.NamedChildCount()); j < m; j++ {
				switch c := st.NamedChild(j); c.Type() {
				case "export_clause":
					for k, l := 0, int(c.NamedChildCount()); k < l; k++ {
						if s := c.NamedChild(k); s.Type() == "export_specifier" {
							ex.names[f.text(s.ChildByFieldName("name"))] = true
						}
					}
				case "identifier": // export = x; export as namespace X
					ex.names[f.text(c)] = true
				}
			}
		case "expression_statement":
			ex.addCommonJS(st.NamedChild(0), f)
		case "lexical_declaration", "variable_declaration":
			if !ex.module {
				for j, m := 0, int(st.NamedChildCount()); j < m; j++ {
					if v := st.NamedChild(j).ChildByFieldName("value"); v != nil && isRequire(v, f) {
						ex.module = true
						break
					}
				}
			}
		}
	}
	return ex
}

// addDeclared adds the names declared by an exported declaration.
func (ex *jsFileExports) addDeclared(decl *sitter.Node, f *fileInfo) {
	switch decl.Type() {
	case "lexical_declaration", "variable_declaration":
		for j, m := 0, int(decl.NamedChildCount()); j < m; j++ {
			if name := decl.NamedChild(j).ChildByFieldName("name"); name != nil && name.Type() == "identifier" {
				ex.names[f.text(name)] = true
			}
		}
	case "ambient_declaration":
		for j, m := 0, int(decl.NamedChildCount()); j < m; j++ {
			ex.addDeclared(decl.NamedChild(j), f)
		}
	default:
		if name := decl.ChildByFieldName("name"); name != nil {
			s := f.text(name)
			if i := strings.IndexByte(s, '.'); i >= 0 {
				s = strings.TrimSpace(s[:i])
			}
			ex.names[s] = true
		}
	}
}

// addCommonJS reads `module.exports = …`, `exports.x = …` and a bare
// `require(…)` statement.
func (ex *jsFileExports) addCommonJS(e *sitter.Node, f *fileInfo) {
	if e == nil {
		return
	}
	if isRequire(e, f) {
		ex.module = true
		return
	}
	if e.Type() != "assignment_expression" {
		return
	}
	left, right := e.ChildByFieldName("left"), e.ChildByFieldName("right")
	if left == nil || right == nil || left.Type() != "member_expression" {
		return
	}
	lt := f.text(left)
	switch {
	case lt == "module.exports":
		ex.module = true
		switch right.Type() {
		case "identifier":
			ex.names[f.text(right)] = true
		case "class", "function_expression", "arrow_function", "generator_function":
			ex.names["default"] = true
			if name := right.ChildByFieldName("name"); name != nil {
				ex.names[f.text(name)] = true
			}
		case "object":
			ex.names["default"] = true
			for i, cnt := 0, int(right.NamedChildCount()); i < cnt; i++ {
				switch p := right.NamedChild(i); p.Type() {
				case "shorthand_property_identifier":
					ex.names[f.text(p)] = true
				case "pair":
					if v := p.ChildByFieldName("value"); v != nil && v.Type() == "identifier" {
						ex.names[f.text(v)] = true
					}
				}
			}
		}
	case isCommonJSExports(f.text(left.ChildByFieldName("object"))):
		ex.module = true
		ex.names[f.text(left.ChildByFieldName("property"))] = true
		if right.Type() == "identifier" {
			ex.names[f.text(right)] = true
		}
	}
}
