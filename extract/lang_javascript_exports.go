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
		if DeclarationFile(f.path) || d.kind == KindModule || d.node.Type() == "ambient_declaration" {
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
		if !jsInExport(d.node) && !jsAmbient(lex.node) && !DeclarationFile(f.path) {
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
// all, the local names it exports (the exported rule) and the export list
// (File.Exports).
type jsFileExports struct {
	module bool
	names  map[string]bool
	list   []Export
}

// jsExportList is the exports hook: the file's export list in source
// order.
func jsExportList(f *fileInfo) []Export {
	return jsFileExportsOf(f).list
}

// jsFileExportsOf returns the exports of f, scanning its top-level
// statements once per file.
func jsFileExportsOf(f *fileInfo) *jsFileExports {
	st := jsFileStateOf(f)
	if st.exports == nil {
		st.exports = scanJSExports(f.root, f)
	}
	return st.exports
}

// jsFileState is the per-file state of the JavaScript hooks (fileInfo.state).
type jsFileState struct {
	exports *jsFileExports
	exits   map[uint32][]*sitter.Node // by block start: its if statements that leave it (jsExits)
	tested  map[string]bool           // names a test may narrow (jsTestedNames)
}

func jsFileStateOf(f *fileInfo) *jsFileState {
	if st, ok := f.state.(*jsFileState); ok {
		return st
	}
	st := &jsFileState{}
	f.state = st
	return st
}

// scanJSExports reads the top-level statements of a program.
func scanJSExports(root *sitter.Node, f *fileInfo) *jsFileExports {
	ex := &jsFileExports{names: map[string]bool{}}
	for i, cnt := 0, int(root.NamedChildCount()); i < cnt; i++ {
		st := root.NamedChild(i)
		line := int(st.StartPoint().Row) + 1
		switch st.Type() {
		case "import_statement":
			ex.module = true
		case "export_statement":
			ex.module = true
			if src := st.ChildByFieldName("source"); src != nil {
				ex.addReexport(st, unquoteJS(f.text(src)), line, f)
				continue
			}
			isDefault := hasChildType(st, "default")
			if decl := st.ChildByFieldName("declaration"); decl != nil {
				ex.addDeclared(decl, isDefault, line, f)
			}
			if v := st.ChildByFieldName("value"); v != nil {
				ex.names["default"] = true
				if v.Type() == "identifier" {
					ex.names[f.text(v)] = true
				}
				ex.add("default", jsExportedValue(v, "default", false, f), line)
			}
			for j, m := 0, int(st.NamedChildCount()); j < m; j++ {
				switch c := st.NamedChild(j); c.Type() {
				case "export_clause":
					for k, l := 0, int(c.NamedChildCount()); k < l; k++ {
						if s := c.NamedChild(k); s.Type() == "export_specifier" {
							name := unquoteJS(f.text(s.ChildByFieldName("name")))
							ex.names[name] = true
							ex.add(specifierAlias(s, name, f), name, line)
						}
					}
				case "identifier": // export = x; export as namespace X
					ex.names[f.text(c)] = true
					if hasChildType(st, "=") {
						ex.add("default", f.text(c), line)
					}
				}
			}
		case "expression_statement":
			ex.addCommonJS(st.NamedChild(0), line, f)
		case "lexical_declaration", "variable_declaration":
			for j, m := 0, int(st.NamedChildCount()); j < m; j++ {
				d := st.NamedChild(j)
				// var utils = (module.exports = {…}), as prettier writes it
				v, name := unparen(d.ChildByFieldName("value")), d.ChildByFieldName("name")
				switch {
				case v == nil:
				case isRequire(v, f):
					ex.module = true
				case v.Type() == "assignment_expression" && name != nil && name.Type() == "identifier":
					ex.addCommonJSAlias(f.text(name), v, line, f)
				}
			}
		}
	}
	return ex
}

// add appends an export of local under name, once: overloads export one
// name.
func (ex *jsFileExports) add(name, local string, line int) {
	ex.addExport(Export{Name: name, Local: local, Line: line})
}

// addFrom appends a re-export of name from the module at path.
func (ex *jsFileExports) addFrom(name, local, path string, line int, f *fileInfo) {
	ex.addExport(Export{Name: name, Local: local, From: path, Resolved: jsResolve(f.path, path), Line: line})
}

func (ex *jsFileExports) addExport(e Export) {
	for _, o := range ex.list {
		if o.Name == e.Name && o.Local == e.Local && o.From == e.From {
			return
		}
	}
	ex.list = append(ex.list, e)
}

// addReexport reads `export {a as b} from`, `export * from` and
// `export * as ns from`.
func (ex *jsFileExports) addReexport(st *sitter.Node, from string, line int, f *fileInfo) {
	for j, m := 0, int(st.NamedChildCount()); j < m; j++ {
		switch c := st.NamedChild(j); c.Type() {
		case "export_clause":
			for k, l := 0, int(c.NamedChildCount()); k < l; k++ {
				if s := c.NamedChild(k); s.Type() == "export_specifier" {
					name := unquoteJS(f.text(s.ChildByFieldName("name")))
					ex.addFrom(specifierAlias(s, name, f), name, from, line, f)
				}
			}
			return
		case "namespace_export":
			for k, l := 0, int(c.NamedChildCount()); k < l; k++ {
				ex.addFrom(unquoteJS(f.text(c.NamedChild(k))), "*", from, line, f)
			}
			return
		}
	}
	ex.addFrom("*", "*", from, line, f)
}

// specifierAlias is the exported name of `name as alias`, or name.
func specifierAlias(s *sitter.Node, name string, f *fileInfo) string {
	if a := s.ChildByFieldName("alias"); a != nil {
		return unquoteJS(f.text(a))
	}
	return name
}

// jsExportedValue is the Local of an exported expression: a name or
// dotted path as written; for a function, class or object, the name the
// extraction gives its symbol — anon, or with named the function's or
// class's own name (`module.exports = class K {}` is the class K); ""
// for any other expression.
func jsExportedValue(v *sitter.Node, anon string, named bool, f *fileInfo) string {
	switch v.Type() {
	case "identifier":
		return f.text(v)
	case "member_expression":
		if isDottedPath(v) {
			return strings.Join(strings.Fields(f.text(v)), "")
		}
	case "function_expression", "arrow_function", "generator_function", "class":
		if name := v.ChildByFieldName("name"); name != nil && named {
			return f.text(name)
		}
		return anon
	case "object", "satisfies_expression":
		return anon
	}
	return ""
}

// addDeclared adds the names declared by an exported declaration: under
// their own names, or as the default export of `export default function f`.
func (ex *jsFileExports) addDeclared(decl *sitter.Node, isDefault bool, line int, f *fileInfo) {
	switch decl.Type() {
	case "lexical_declaration", "variable_declaration":
		for j, m := 0, int(decl.NamedChildCount()); j < m; j++ {
			if name := decl.NamedChild(j).ChildByFieldName("name"); name != nil && name.Type() == "identifier" {
				ex.names[f.text(name)] = true
				ex.add(f.text(name), f.text(name), line)
			}
		}
	case "ambient_declaration":
		for j, m := 0, int(decl.NamedChildCount()); j < m; j++ {
			ex.addDeclared(decl.NamedChild(j), false, line, f)
		}
	case "import_alias": // export import Q = N.M
		if decl.NamedChildCount() == 2 {
			ex.add(f.text(decl.NamedChild(0)), strings.Join(strings.Fields(f.text(decl.NamedChild(1))), ""), line)
		}
	default:
		if name := decl.ChildByFieldName("name"); name != nil {
			s := f.text(name)
			if i := strings.IndexByte(s, '.'); i >= 0 {
				s = strings.TrimSpace(s[:i])
			}
			ex.names[s] = true
			if isDefault {
				ex.add("default", s, line)
			} else {
				ex.add(s, s, line)
			}
		}
	}
}

// addCommonJS reads `module.exports = …`, `exports.x = …`,
// `exports = module.exports = …` and a bare `require(…)` statement.
func (ex *jsFileExports) addCommonJS(e *sitter.Node, line int, f *fileInfo) {
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
	if left == nil || right == nil {
		return
	}
	lt := f.text(left)
	if isCommonJSExports(lt) && right.Type() == "assignment_expression" {
		ex.addCommonJS(right, line, f) // exports = module.exports = x
		return
	}
	if left.Type() != "member_expression" {
		return
	}
	switch {
	case lt == "module.exports":
		ex.module = true
		if from, member, ok := requireOf(right, f); ok {
			if member == "" {
				ex.addFrom("*", "*", from, line, f)
				member = "default"
			}
			ex.addFrom("default", member, from, line, f)
			return
		}
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
			ex.addExportObject(right, "default", line, f)
			return
		}
		ex.add("default", jsExportedValue(right, "default", true, f), line)
	case isCommonJSExports(f.text(left.ChildByFieldName("object"))):
		ex.module = true
		name := f.text(left.ChildByFieldName("property"))
		ex.names[name] = true
		if right.Type() == "identifier" {
			ex.names[f.text(right)] = true
		}
		if from, member, ok := requireOf(right, f); ok {
			if member == "" {
				member = "*"
			}
			ex.addFrom(name, member, from, line, f)
			return
		}
		ex.add(name, jsExportedValue(right, name, false, f), line)
	}
}

// addCommonJSAlias reads `var proto = module.exports = …` and
// `var x = exports.x = …` (in parentheses too): the variable name is
// exported (and the function assigned is named after it); the
// properties of an object so exported are exports, as those of
// `module.exports = {…}` are (`clone: require('./clone')` too).
func (ex *jsFileExports) addCommonJSAlias(name string, e *sitter.Node, line int, f *fileInfo) {
	for e != nil && e.Type() == "assignment_expression" {
		left := e.ChildByFieldName("left")
		switch lt := f.text(left); {
		case lt == "module.exports":
			ex.module, ex.names[name] = true, true
			ex.add("default", name, line)
			v := unparen(e.ChildByFieldName("right"))
			for v != nil && v.Type() == "assignment_expression" {
				v = unparen(v.ChildByFieldName("right"))
			}
			if v != nil && v.Type() == "object" {
				ex.addExportObject(v, name, line, f)
			}
		case left != nil && left.Type() == "member_expression" && isCommonJSExports(f.text(left.ChildByFieldName("object"))):
			ex.module, ex.names[name] = true, true
			ex.add(f.text(left.ChildByFieldName("property")), name, line)
		}
		e = unparen(e.ChildByFieldName("right"))
	}
}

// addExportObject reads `module.exports = {a, b: c, d() {}, e: require("m")}`:
// each property is an export; functions written in the object are members
// of the object symbol obj ("default", or the variable of
// `var utils = module.exports = {…}`).
func (ex *jsFileExports) addExportObject(o *sitter.Node, obj string, line int, f *fileInfo) {
	for i, cnt := 0, int(o.NamedChildCount()); i < cnt; i++ {
		switch p := o.NamedChild(i); p.Type() {
		case "shorthand_property_identifier":
			ex.names[f.text(p)] = true
			ex.add(f.text(p), f.text(p), line)
		case "method_definition":
			name := unquoteJS(f.text(p.ChildByFieldName("name")))
			ex.add(name, obj+"."+name, line)
		case "pair":
			key, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
			if key == nil || v == nil {
				continue
			}
			name := unquoteJS(f.text(key))
			if v.Type() == "identifier" {
				ex.names[f.text(v)] = true
			}
			if from, member, ok := requireOf(v, f); ok {
				if member == "" {
					member = "*"
				}
				ex.addFrom(name, member, from, line, f)
				continue
			}
			local := ""
			switch {
			case v.Type() == "identifier" || v.Type() == "member_expression":
				local = jsExportedValue(v, "", false, f)
			case v.Type() == "object" || isFunctionNode(v):
				local = obj + "." + name // a member of the object symbol
			}
			ex.add(name, local, line)
		}
	}
}

// isFunctionNode reports whether n is a function or arrow function.
func isFunctionNode(n *sitter.Node) bool {
	switch n.Type() {
	case "function_expression", "arrow_function", "generator_function":
		return true
	}
	return false
}

// requireOf reads require("m") or require("m").name: the path and the
// member ("" for the whole module).
func requireOf(e *sitter.Node, f *fileInfo) (from, member string, ok bool) {
	if !isRequire(e, f) {
		return "", "", false
	}
	if e.Type() == "member_expression" {
		member = f.text(e.ChildByFieldName("property"))
		e = e.ChildByFieldName("object")
	}
	args := e.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() != 1 || args.NamedChild(0).Type() != "string" {
		return "", "", false
	}
	return unquoteJS(f.text(args.NamedChild(0))), member, true
}
