package extract

// JavaScript, TypeScript and TSX share this file: the three grammars differ
// only in what TypeScript adds, so the hooks are the same and the queries
// (queries/javascript.scm, queries/typescript.scm = queries/tsx.scm) differ
// only in the TypeScript patterns.
//
// Module: the path from the root without its extension, '/' → '.'
// (src/app/main.ts → src.app.main); declaration files lose ".d" too
// (types/index.d.ts → types.index). Qualified names are
// <module>.<Parent>.<name>: src.app.main.Server.listen.
//
// Symbols:
//   - function: function declarations (generators too); TypeScript overload
//     and ambient signatures — every overload is its own symbol, beside the
//     implementation, all with the same qualified name and each with its own
//     signature and doc; variables initialised with a function or arrow
//     function (`const f = () => {}`) or with React's memo/forwardRef around
//     one (`const Row = memo((props) => …)`); a name assigned a function
//     (`f = function () {}`); `exports.f = function`,
//     `module.exports.f = …` and `module.exports = function` (named after
//     the function, or "default"). A function nested in a function has that
//     function as parent.
//   - method: class methods (constructor, getters, setters, static, #private),
//     class fields holding a function (`handle = () => {}`), interface and
//     object-type method signatures, abstract methods, functions of an object
//     symbol, `Foo.prototype.m = function` and the functions of
//     `Foo.prototype = {…}` (parent Foo), and `a.b.m = function` at the top
//     level (parent "a.b"; inside a function only for a Capitalised
//     receiver, as in compiled ES5 classes, so that `socket.onopen =
//     function` stays a closure).
//   - class: class declarations, abstract classes, `const C = class {}`,
//     `static Inner = class {}` (parent the outer class), `exports.C = class`,
//     `module.exports = class C {}` (C, or "default"), `a.C = class` at the
//     top level.
//   - interface, type (type aliases), enum. Call and construct signatures
//     of an interface have no name and are no symbols; neither are
//     properties holding a function type (`onClick?: () => void`).
//   - namespace: `namespace N {}`, `module N {}` (`namespace A.B {}` is B with
//     parent "A"), `declare global {}` (named "global").
//   - module: ambient `declare module "name" {}`, named by the string.
//   - object: an object literal bound by `const x = {…}` or `x = {…}`
//     (also through `as`, `satisfies` and `Object.freeze`) at module or
//     namespace level or in a function (a local object, child of the
//     function: run.handlers), by `exports.x =`, `module.exports =`
//     ("default") or `a.x =`, or by a property `key: {…}` of an object
//     symbol, when it holds a function (method `m() {}` or `k: () => …`)
//     directly or one object literal down; its functions are its
//     methods. `export default {…}` is always an object. An object
//     literal in a block of module-level code is no symbol, and
//     `module.exports = {a, b}` is an export list.
//   - Anonymous default exports (`export default function () {}`, `export
//     default class {}`, `export default {…}`) are named "default".
//
// Function and class expressions no declaration binds (callbacks,
// returned functions, named function expressions, classes passed to a
// call) and object literals holding a function that are passed to a call
// or returned are symbols of their own, named by where they are
// (jsPlaceName): "<callback of app.get('/users')>", "<returned>"; their
// calls are theirs. An immediately invoked function is no symbol: it is
// the scope of the code around it (UMD and module wrappers), and so is
// a function passed to one (a UMD factory); their declarations keep the
// names they would have without them. Decorators are not part of a declaration: the
// signature starts after them and calls in them belong to the enclosing
// scope; the doc comment is looked for above them. Names are as written:
// "#priv", "[Symbol.iterator]", string keys without quotes.
//
// Exported: a top-level declaration is exported when its name is exported
// by the file — `export` on the declaration, `export default`, a local
// `export { name }` clause, `export = name`, `module.exports = name`,
// `module.exports = { name }`, `exports.name =`. A file with no module
// syntax at all (no import, export, require or module.exports) is a script
// whose top-level declarations are global, hence exported; so is every
// top-level declaration of a .d.ts file, `declare global` and
// `declare module "m"`. A member is exported when its class, interface or
// object is, unless it is `private` or #private (protected members are
// visible to subclasses elsewhere, so they count). Namespace members need
// `export` (implicit in ambient namespaces) and an exported namespace.
// Nested functions are never exported.
//
// Imports: ES imports (default → name "default" with the local alias,
// namespace → alias, named, side-effect, `import type`), re-exports
// (`export {a as b} from`, `export * from` → name "*", `export * as ns from`
// → alias), TypeScript `import x = require("m")`, CommonJS `require("m")`
// anywhere (`const x = require()` → alias, `const {a, b: c} = require()` →
// names, `const s = require("m").sub` → name sub as s) and dynamic
// `import("m")`. Relative paths resolve to the module of the target file:
// a JavaScript or TypeScript extension is dropped (./a.js → a), other
// extensions stay (./a.css → a.css), and "." or "dir/" means dir/index.
// "./dir" without the slash cannot be told from a file and resolves to dir.
//
// Exports (File.Exports): `export` declarations under their names,
// `export {a as b}`, `export default f` and `export default function f`
// (name "default", local f; an anonymous one has local "default", the
// name of its symbol), TypeScript `export = f` and `export import Q = N.M`,
// re-exports with their source (`export {a as b} from` → b, local a;
// `export * from` → "*", local "*"; `export * as ns from` → ns, local "*"),
// and CommonJS: `module.exports = f` or `= class K {}` (default),
// `module.exports = {a, b: c, d() {}}` (one export per property; functions
// written in the object are members of its symbol "default", so local
// "default.d"), `exports.x = …`, `exports = module.exports = …`, and
// require in any of these (`module.exports = require("./impl")` is
// `export *` plus the default of ./impl). An expression without a name
// has local "".
//
// Calls: f(), f<T>(), a.b.f() (receiver "a.b"), a?.f(), this.#p(),
// super(…) (name "super"), super.m(), new Foo() and new ns.Foo() (name
// "Foo"), tagged templates, and calls of an element (routes[0](), name
// "()" with the subscript as receiver). Every call carries its
// arguments, as text and as Exprs (lang_javascript_expr.go). JSX
// elements are not calls: <Foo/> is createElement(Foo), and lower-case
// tags would be noise.
//
// Bindings (for the call graph's tracking of values): a name bound by
// const/let/var or `=` to an instance (new C()), a name or path, an
// object literal, an array, a call or a choice among these; `this.x =`
// such a value (target "this.x") and a class field holding one (target
// x, scope the class); what a function returns ("<return>"); in
// TypeScript also variables, parameters and fields declared with a named
// type (Type set). A function or class bound to a name is a declaration,
// not a binding. Functions have their parameter names (Symbol.Params; ""
// for a destructuring pattern).

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

func init() {
	jsLang := jsLanguage("javascript", javascript.GetLanguage,
		[]string{".js", ".mjs", ".cjs", ".jsx"}, []string{"node", "nodejs"})
	jsLang.reparse = jsWithoutOptionalMarks
	register(jsLang)
	tsLang := jsLanguage("typescript", typescript.GetLanguage,
		[]string{".ts", ".mts", ".cts"}, []string{"ts-node", "tsx", "deno", "bun"})
	tsLang.reparse = tsLineBreakBeforeLess
	register(tsLang)
	tsxLang := jsLanguage("tsx", tsx.GetLanguage, []string{".tsx"}, nil)
	tsxLang.queryFile = "typescript" // TSX's node types are TypeScript's plus JSX
	tsxLang.reparse = tsLineBreakBeforeLess
	register(tsxLang)
}

// jsLanguage is the table entry of one of the three languages.
func jsLanguage(name string, grammar func() *sitter.Language, exts, interpreters []string) *Language {
	return &Language{
		Name:           name,
		Extensions:     exts,
		Interpreters:   interpreters,
		grammar:        grammar,
		lineComments:   []string{"//"},
		blockComments:  [][2]string{{"/*", "*/"}},
		docAcrossBlank: isDocBlockAcrossBlank,
		wrappers: map[string]bool{
			"export_statement": true, "lexical_declaration": true, "variable_declaration": true,
			"ambient_declaration": true, "expression_statement": true,
		},
		module:     jsModule,
		imports:    jsImports,
		exports:    jsExportList,
		refine:     jsRefine,
		signature:  jsSignature,
		doc:        jsDoc,
		exported:   jsExported,
		bases:      jsBases,
		expr:       jsExpr,
		exprShared: jsShared,
		params:     jsParams,
		guard:      jsGuard,
		// The imports are written alike in the three grammars.
		queryShared: "javascript_shared",
	}
}

// jsModule is the path without its extension; "x.d.ts" is module x.
func jsModule(f *fileInfo, _ string) string {
	m := pathModule(f.path)
	if DeclarationFile(f.path) {
		m = strings.TrimSuffix(m, ".d")
	}
	return m
}

// DeclarationFile reports whether the slash path p is a TypeScript
// declaration file: .d.ts, .d.mts or .d.cts.
func DeclarationFile(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// jsRefine drops members of anonymous classes and objects, names
// namespaces, assignments and string keys, moves the start of a
// decorated declaration past its decorators, and makes an object
// literal no caller.
func jsRefine(d *decl, f *fileInfo) bool {
	// A call in an object literal's value (`{ref: annotation("ref")}`)
	// runs in the code around the object, as the checker sees it; the
	// object's functions are scopes of their own.
	defer func() { d.valuesOutside = d.kind == KindObject }()
	n := d.node
	if c := n.Child(0); c != nil && c.Type() == "decorator" {
		for i, cnt := 1, int(n.ChildCount()); i < cnt; i++ {
			if c := n.Child(i); c.Type() != "decorator" && c.Type() != "comment" {
				d.start = c.StartByte()
				break
			}
		}
	}
	// An overload's signature (a function's, or a method's in its class)
	// or an ambient function names a function defined elsewhere, if
	// anywhere. An interface's or an abstract method is left a member of
	// its type: a call through the type reaches it.
	switch n.Type() {
	case "function_signature":
		d.declaration = true
	case "method_signature":
		d.declaration = n.Parent() != nil && n.Parent().Type() == "class_body"
	}
	switch n.Type() {
	case "arrow_function", "function_expression", "generator_function", "class", "object":
		if d.nameNode.Equal(n) {
			return jsRefineExpression(d, f)
		}
	case "method_definition", "method_signature", "abstract_method_signature",
		"public_field_definition", "field_definition", "pair":
		if class, method, ok := babelMember(n, f); ok {
			d.name, d.parentName = method, class // lang_javascript_babel.go
			return true
		}
		if !jsOwned(d) || d.kind == KindObject && !hasFunctionMember(d.body, 2) {
			return false
		}
		switch d.nameNode.Type() {
		case "string":
			d.name = unquoteJS(d.name)
		case "computed_property_name":
			d.name = collapseSpace(d.name, 100)
		}
	case "variable_declarator":
		if v := n.ChildByFieldName("value"); v != nil && v.Type() == "call_expression" {
			if d.kind != KindObject {
				return isReactWrapper(v, f)
			}
			if f.text(v.ChildByFieldName("function")) != "Object.freeze" {
				return false // a call's result is not the object passed to it
			}
		}
		if d.kind == KindObject {
			return jsObjectBound(d)
		}
	case "internal_module", "module":
		switch d.nameNode.Type() {
		case "string":
			d.kind, d.name = KindModule, unquoteJS(d.name)
		case "nested_identifier":
			if i := strings.LastIndexByte(d.name, '.'); i >= 0 {
				d.parentName = strings.Join(strings.Fields(d.name[:i]), "")
				d.name = strings.TrimSpace(d.name[i+1:])
			}
		}
	case "ambient_declaration": // declare global { … }
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			if c := n.NamedChild(i); c.Type() == "statement_block" {
				d.body = c
			}
		}
	case "type_alias_declaration":
		if v := n.ChildByFieldName("value"); v != nil && v.Type() == "object_type" {
			d.body = v
		}
	case "assignment_expression":
		return jsRefineAssignment(d, f)
	}
	return true
}

// jsObjectBound reports whether the object literal d, bound to a name,
// is a symbol: when it holds a function, directly or one object down, at
// module or namespace level or in a function (whose local object then
// has its functions as members: handlers.get is run.handlers.get), but
// not in a block of module-level code or a class body.
func jsObjectBound(d *decl) bool {
	lex := d.parent
	for lex != nil && lex.dropped {
		lex = lex.parent
	}
	switch {
	case lex == nil && !jsTopLevel(d.node):
		return false
	case lex != nil && lex.kind != KindNamespace && lex.kind != KindModule &&
		lex.kind != KindFunction && lex.kind != KindMethod:
		return false
	}
	return hasFunctionMember(d.body, 2)
}

// jsRefineAssignment decides which assignments of a function, class or
// object are declarations: module.exports = … (named after the function or
// class, or "default"), exports.X = … and module.exports.X = … (X),
// Foo.prototype = {…} (its functions are methods of Foo),
// Foo.prototype.m = function (method m of Foo), and a.b.m = … at the top
// level (m with parent "a.b"), or inside a function for a Capitalised
// a.b.Foo.m = function as in compiled ES5 classes — socket.onopen =
// function stays a closure.
func jsRefineAssignment(d *decl, f *fileInfo) bool {
	n := d.node
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left == nil || right == nil {
		return false
	}
	if left.Type() == "identifier" { // f = function () {}, obj = {…}
		return d.kind != KindObject || jsObjectBound(d)
	}
	obj := left.ChildByFieldName("object")
	switch {
	case obj == nil:
		return false
	case f.text(left) == "module.exports":
		d.name = "default"
		if name := right.ChildByFieldName("name"); name != nil {
			d.name = f.text(name)
		}
		// module.exports = {a, b} is an export list, not an object.
		return d.kind != KindObject || hasFunctionMember(right, 2)
	case d.kind == KindObject && f.text(left.ChildByFieldName("property")) == "prototype":
		// Foo.prototype = {m: function () {}}: the functions are methods
		// of Foo, the object is no symbol.
		d.name, d.kind, d.container = receiverType(f.text(obj)), KindClass, true
		return d.name != ""
	case isCommonJSExports(f.text(obj)):
		return d.kind != KindObject || hasFunctionMember(right, 2)
	case d.kind == KindFunction && obj.Type() == "member_expression" && f.text(obj.ChildByFieldName("property")) == "prototype":
		d.parentName = receiverType(f.text(obj.ChildByFieldName("object")))
		return d.parentName != ""
	case !isDottedPath(obj):
		return false
	case jsTopLevel(n):
		d.parentName = f.text(obj)
		return d.kind != KindObject || hasFunctionMember(right, 2)
	case d.kind == KindFunction && isUpperName(receiverType(f.text(obj))):
		d.parentName = f.text(obj)
		return true
	}
	return false
}

// isDottedPath reports whether n is a name or a chain of property
// accesses on a name: a, a.b, a.b.c.
func isDottedPath(n *sitter.Node) bool {
	for n != nil && n.Type() == "member_expression" {
		if p := n.ChildByFieldName("property"); p == nil || p.Type() != "property_identifier" {
			return false
		}
		n = n.ChildByFieldName("object")
	}
	return n != nil && n.Type() == "identifier"
}

// hasFunctionMember reports whether object literal o has a method or a
// property holding a function, looking depth levels of nested object
// literals deep.
func hasFunctionMember(o *sitter.Node, depth int) bool {
	if o == nil || o.Type() != "object" {
		return false
	}
	for i, cnt := 0, int(o.NamedChildCount()); i < cnt; i++ {
		switch c := o.NamedChild(i); c.Type() {
		case "method_definition":
			return true
		case "pair":
			v := c.ChildByFieldName("value")
			if v == nil {
				continue
			}
			switch v.Type() {
			case "arrow_function", "function_expression", "generator_function":
				return true
			case "object":
				if depth > 1 && hasFunctionMember(v, depth-1) {
					return true
				}
			}
		}
	}
	return false
}

// isReactWrapper reports whether call is memo(…) or forwardRef(…), or
// React.memo(…), possibly around another such call.
func isReactWrapper(call *sitter.Node, f *fileInfo) bool {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return false
	}
	if fn.Type() == "member_expression" {
		fn = fn.ChildByFieldName("property")
	}
	switch f.text(fn) {
	case "memo", "forwardRef":
	default:
		return false
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return false
	}
	if inner := args.NamedChild(0); inner.Type() == "call_expression" {
		return isReactWrapper(inner, f)
	}
	return true
}

// jsOwned reports whether the class, interface or object literal holding
// member d is itself a symbol: d's enclosing declaration. Members of
// anonymous classes and objects are dropped.
func jsOwned(d *decl) bool {
	lex := d.parent
	for lex != nil && lex.dropped {
		lex = lex.parent
	}
	if lex == nil {
		return false
	}
	owner := d.node.Parent() // class_body, interface_body, object_type, object
	if owner != nil && owner.Type() != "object" {
		owner = owner.Parent() // the class, interface or type alias
	}
	// The declaration node is the class or object itself, or the
	// variable_declarator or pair binding it, maybe through `as` or
	// `satisfies`.
	for owner != nil {
		if owner.Equal(lex.node) {
			return true
		}
		switch owner.Type() {
		case "object", "class", "satisfies_expression", "as_expression", "parenthesized_expression",
			"arguments", "call_expression": // Object.freeze({…})
			owner = owner.Parent()
		default:
			return false
		}
	}
	return false
}

// isCommonJSExports reports whether s names the CommonJS exports object.
func isCommonJSExports(s string) bool {
	return s == "exports" || s == "module.exports"
}

// unquoteJS strips the quotes of a string literal; escapes stay as written.
func unquoteJS(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// jsSignature drops the ';' of bodiless declarations and adds what the
// declaration node does not cover: the const/let/var of a variable, the
// "export default" of an anonymous default export.
func jsSignature(d *decl, sig string) string {
	sig = strings.TrimSpace(strings.TrimSuffix(sig, ";"))
	switch d.node.Type() {
	case "variable_declarator":
		if p := d.node.Parent(); p != nil && p.ChildCount() > 0 {
			switch kw := p.Child(0).Type(); kw {
			case "const", "let", "var":
				sig = kw + " " + sig
			}
		}
	case "function_expression", "arrow_function", "generator_function", "class", "object", "satisfies_expression":
		if d.name == "default" {
			sig = strings.TrimSpace("export default " + sig)
		}
	}
	return sig
}

// jsDoc finds the comment above a decorated declaration: above the
// decorators inside the node, whose start jsRefine moved past them, or
// above the decorators before it (TypeScript class methods). Undecorated
// declarations are left to the generic lookup.
func jsDoc(d *decl, f *fileInfo) string {
	start := d.node.StartByte()
	switch d.node.Type() {
	case "method_definition", "method_signature", "abstract_method_signature":
		for p := d.node.PrevSibling(); p != nil; p = p.PrevSibling() {
			if p.Type() == "decorator" {
				start = p.StartByte()
			} else if p.Type() != "comment" {
				break
			}
		}
	}
	if start == d.start {
		return ""
	}
	return commentAbove(&decl{node: d.node, start: start}, f)
}

// jsBases lists the extended class and implemented interfaces of a class,
// or the extended interfaces of an interface, as written.
func jsBases(d *decl, f *fileInfo) []string {
	n := d.node
	switch n.Type() {
	case "variable_declarator", "field_definition", "public_field_definition":
		n = n.ChildByFieldName("value") // const C = class extends B, static C = class extends B
	case "assignment_expression":
		n = n.ChildByFieldName("right") // module.exports = class extends B
	case "interface_declaration":
		var out []string
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			if c := n.NamedChild(i); c.Type() == "extends_type_clause" {
				out = appendNamedTexts(out, c, f)
			}
		}
		return out
	}
	if n == nil {
		return nil
	}
	var out []string
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		h := n.NamedChild(i)
		if h.Type() != "class_heritage" {
			continue
		}
		for j, m := 0, int(h.NamedChildCount()); j < m; j++ {
			c := h.NamedChild(j)
			switch c.Type() {
			case "extends_clause":
				// "extends Base<T>, …": values with their type arguments.
				for k, l := 0, int(c.NamedChildCount()); k < l; k++ {
					v := c.NamedChild(k)
					if v.Type() == "type_arguments" {
						if len(out) > 0 {
							out[len(out)-1] += collapseSpace(f.text(v), 200)
						}
						continue
					}
					out = append(out, collapseSpace(f.text(v), 200))
				}
			case "implements_clause":
				out = appendNamedTexts(out, c, f)
			case "comment":
			default: // JavaScript: class_heritage holds the expression
				out = append(out, collapseSpace(f.text(c), 200))
			}
		}
	}
	return out
}

// appendNamedTexts appends the text of n's named children but comments.
func appendNamedTexts(out []string, n *sitter.Node, f *fileInfo) []string {
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		if c := n.NamedChild(i); c.Type() != "comment" {
			out = append(out, collapseSpace(f.text(c), 200))
		}
	}
	return out
}
