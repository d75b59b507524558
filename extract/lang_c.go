package extract

// C conventions.
//
// Qualified names: the module is the file's path without its extension,
// '/' replaced by '.' (the default, pathModule), so a header and its source
// file in the same directory share a module: src/list.h and src/list.c are
// both "src.list". C has no other scopes, so a top-level symbol is
// "<module>.<name>"; a struct nested in a struct is "<module>.<outer>.<inner>".
//
// Symbols:
//   - function definitions: kind function. A definition whose declarator a
//     macro hides (`DEFINE_HANDLER(on_click) { ... }`) is named by the
//     innermost identifier of its declarator ("on_click"); one whose whole
//     head a macro writes (`SYSCALL_DEFINE1(close, unsigned int, fd) {`)
//     by the macro's first argument ("close").
//   - prototypes (`int f(void);`, `extern int f();`): kind function,
//     marked Declaration, in header files only (.h, and the C++ header
//     extensions), where they are the API and carry its documentation. In
//     source files they are forward declarations of a definition and are
//     not symbols. A prototype that a trailing attribute macro breaks for
//     the grammar (`int f(void) __THROW;`) is still found. K&R-style
//     definitions (`int f(a) int a; { ... }`) are definitions.
//   - function-like macros (`#define MAX(a, b) ...`): kind function, since
//     they are called like functions; object-like macros are not symbols.
//   - struct and union definitions (with a body): kind struct; enum
//     definitions: kind enum; typedefs: kind type, except that a typedef of
//     an anonymous struct/union/enum body names that type and takes its kind
//     (`typedef struct { ... } point;` is struct point). A typedef giving a
//     struct its own tag name again (`typedef struct node { ... } node;`) is
//     the struct alone. Typedefs inside function bodies are not symbols.
//
// Exported: a function or prototype is exported unless it is `static`; a
// type or macro is exported when it is declared in a header. Declarations
// local to a function body are never exported.
//
// Doc: the comments directly above the declaration (any comment style, no
// blank line between), found as syntax-tree siblings so that a trailing
// comment of the previous line is never taken for documentation.
//
// Imports: each #include; Path is the included name without <> or quotes.
// A quoted include is Resolved to the module of the header when the file
// exists next to the including file or, failing that, under the root.
//
// Calls: f(x) and the member calls s.f(x) and p->f(x) (Receiver "s", "p");
// calls through function-pointer expressions ((*fp)(x)) have no name and
// are not reported. Calls of function-like macros are calls.

import (
	"path"
	"path/filepath"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
)

func init() {
	register(&Language{
		Name:       "c",
		Extensions: []string{".c", ".h"},
		grammar:    c.GetLanguage,
		// Doc comments are found by cDoc from the syntax tree; no comment
		// syntax here keeps the generic line scan out of the way.
		imports:     cImports,
		refine:      cRefine,
		signature:   cSignature,
		doc:         cDoc,
		exported:    cExported,
		repair:      cRepair,
		repairQuery: cRepairQuery,
		walk:        cWalk,
		plain:       cDefinesOnly,
	})
}

// cHeaderExts are the extensions of C and C++ header files.
var cHeaderExts = map[string]bool{
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true, ".ipp": true,
	".inl": true, ".tcc": true,
}

// isCHeader reports whether p is a C or C++ header file.
func isCHeader(p string) bool {
	return cHeaderExts[strings.ToLower(path.Ext(p))]
}

// cRefine names C declarations (see the conventions above).
func cRefine(d *decl, f *fileInfo) bool {
	switch d.node.Type() {
	case "function_definition", "declaration":
		if d.node.Type() == "declaration" && !isCHeader(f.path) {
			return false
		}
		name, fn := cDeclaratorName(d.nameNode)
		if name == nil || !fn && d.node.Type() == "declaration" || misparsed(d.node, name, f) {
			return false
		}
		d.nameNode, d.name = name, f.text(name)
		d.declaration = d.node.Type() == "declaration"
	case "function_declarator":
		if !refineBrokenPrototype(d, f) {
			return false
		}
		d.declaration = true
	case "type_definition":
		return refineTypedef(d, f)
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		unwrapTypedef(d)
	case "preproc_function_def":
		d.body = d.node.ChildByFieldName("value")
	case "expression_statement":
		return refineMacroHead(d, f)
	}
	return true
}

// refineMacroHead completes a function whose head a macro writes
// (SYSCALL_DEFINE1(close, unsigned int, fd) { ... }): the statement is the
// head, the block after it the body. It is named by the macro's first
// argument when that is a name, else by the macro. Inside a function body
// the same shape is a statement macro and a block, not a definition.
func refineMacroHead(d *decl, f *fileInfo) bool {
	if d.body == nil || inFunctionBody(d.node) {
		return false
	}
	call := d.node.NamedChild(0)
	if call == nil || call.Type() != "call_expression" {
		return false
	}
	if args := call.ChildByFieldName("arguments"); args != nil {
		if a := args.NamedChild(0); a != nil && a.Type() == "identifier" {
			d.nameNode = a
		}
	}
	d.name = f.text(d.nameNode)
	d.end = d.body.EndByte()
	return !cKeywords[d.name]
}

// cDeclaratorName follows a declarator down to the declared name: through
// pointers, arrays, references, parentheses, attributes and function
// declarators. fn reports whether the name is declared as a function: its
// nearest declarator, parentheses aside, is a function declarator, so
// `int (*fp)(int)` is not a function and `void (*signal(int))(int)` is.
// The name is an identifier, field_identifier, type_identifier or, in C++,
// an operator, destructor, template or qualified name.
func cDeclaratorName(n *sitter.Node) (name *sitter.Node, fn bool) {
	for depth := 0; n != nil && depth < 64; depth++ {
		switch n.Type() {
		case "function_declarator":
			fn = true
			n = n.ChildByFieldName("declarator")
		case "pointer_declarator", "array_declarator", "reference_declarator":
			fn = false
			n = declaratorChild(n)
		case "parenthesized_declarator", "attributed_declarator":
			n = declaratorChild(n)
		case "operator_cast":
			// `operator bool() const`: the function declarator is inside.
			return n, true
		case "identifier", "field_identifier", "type_identifier", "operator_name",
			"destructor_name", "qualified_identifier", "template_function":
			return n, fn
		default:
			return nil, false
		}
	}
	return nil, false
}

// refineBrokenPrototype completes a prototype that a trailing attribute
// macro broke: `extern int remove(const char *) __THROW;` parses as an
// ERROR holding the specifiers and the function declarator, which is the
// declaration node. Prototypes are symbols in headers only. The
// declaration starts at the specifiers just before the declarator.
func refineBrokenPrototype(d *decl, f *fileInfo) bool {
	if !isCHeader(f.path) {
		return false
	}
	name, fn := cDeclaratorName(d.node)
	if name == nil || !fn || name.Type() != "identifier" || cKeywords[f.text(name)] {
		return false
	}
	start, _, ok := brokenPrototypeSpecifiers(d.node, f)
	if !ok {
		return false
	}
	d.nameNode, d.name, d.start = name, f.text(name), start
	// Recovery may nest the declarator in a bigger one that swallows the
	// next declaration; the innermost one ends where the prototype does.
	for {
		in := d.node.ChildByFieldName("declarator")
		if in == nil || in.Type() != "function_declarator" {
			break
		}
		d.node, d.end = in, in.EndByte()
	}
	return true
}

// outerDeclarator climbs from a function declarator to the outermost
// function declarator around it: the child of the ERROR node.
func outerDeclarator(n *sitter.Node) *sitter.Node {
	for p := n.Parent(); p != nil && p.Type() == "function_declarator"; p = p.Parent() {
		n = p
	}
	return n
}

// brokenPrototypeSpecifiers reads the specifiers before the function
// declarator fd inside its ERROR node: where they start, whether one is
// static; ok is false when there are none or one is a keyword in an
// identifier's place.
func brokenPrototypeSpecifiers(fd *sitter.Node, f *fileInfo) (start uint32, static, ok bool) {
	p := fd.Parent()
	if p == nil {
		return 0, false, false
	}
	start = fd.StartByte()
	for i, cnt := 0, int(p.ChildCount()); i < cnt; i++ {
		ch := p.Child(i)
		if ch.StartByte() >= fd.StartByte() {
			break
		}
		switch ch.Type() {
		case "storage_class_specifier", "type_qualifier", "primitive_type", "sized_type_specifier",
			"struct_specifier", "union_specifier", "enum_specifier", "macro_type_specifier",
			"attribute_specifier", "ms_declspec_modifier":
			if !ok {
				start, ok = ch.StartByte(), true
			}
			if ch.Type() == "storage_class_specifier" && f.text(ch) == "static" {
				static = true
			}
		case "type_identifier":
			if cKeywords[f.text(ch)] {
				return 0, false, false
			}
			if !ok {
				start, ok = ch.StartByte(), true
			}
		case "comment":
		default:
			// Something else: the specifiers start after it.
			start, static, ok = fd.StartByte(), false, false
		}
	}
	return start, static, ok
}

// cKeywords are the C and C++ keywords and primitive types that error
// recovery can leave in an identifier's place, around an unparsable macro.
var cKeywords = map[string]bool{
	"auto": true, "bool": true, "break": true, "case": true, "char": true,
	"const": true, "continue": true, "default": true, "do": true, "double": true,
	"else": true, "enum": true, "extern": true, "float": true, "for": true,
	"goto": true, "if": true, "inline": true, "int": true, "long": true,
	"register": true, "restrict": true, "return": true, "short": true,
	"signed": true, "sizeof": true, "static": true, "struct": true,
	"switch": true, "typedef": true, "union": true, "unsigned": true,
	"void": true, "volatile": true, "while": true, "_Bool": true,
	"class": true, "namespace": true, "template": true, "typename": true,
	"using": true, "virtual": true, "public": true, "private": true,
	"protected": true, "new": true, "delete": true, "this": true,
}

// misparsed reports a function declaration that error recovery built from
// keywords: `typedef int (*cb)(...)` read as a function "int" of type
// "typedef" after an unparsable macro line.
func misparsed(n, name *sitter.Node, f *fileInfo) bool {
	if cKeywords[f.text(name)] {
		return true
	}
	t := n.ChildByFieldName("type")
	return t != nil && t.Type() == "type_identifier" && cKeywords[f.text(t)]
}

// declaratorChild is the declarator inside a declarator node: its
// "declarator" field or, for nodes without one, its first named child.
func declaratorChild(n *sitter.Node) *sitter.Node {
	if ch := n.ChildByFieldName("declarator"); ch != nil {
		return ch
	}
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		ch := n.NamedChild(i)
		switch ch.Type() {
		case "ERROR":
			// `R& f() MACRO`: error recovery may wrap the real declarator
			// and leave the macro in its place.
			if in := ch.NamedChild(0); in != nil && strings.HasSuffix(in.Type(), "declarator") {
				return in
			}
			continue
		case "type_qualifier", "attribute_declaration", "attribute_specifier", "ms_pointer_modifier", "ms_based_modifier", "comment":
			continue
		}
		return ch
	}
	return nil
}

// refineTypedef names a typedef by its declarator and gives a typedef of
// an anonymous struct, union or enum body the kind of that type. A typedef
// repeating the tag of the struct it defines is dropped: the struct is the
// symbol.
func refineTypedef(d *decl, f *fileInfo) bool {
	if inFunction(d) {
		return false // a local typedef is an implementation detail
	}
	name, _ := cDeclaratorName(d.nameNode)
	if name == nil || name.Type() != "type_identifier" {
		return false
	}
	t := d.node.ChildByFieldName("type")
	if t != nil && t.HasError() {
		// `typedef BOOL (WINAPI *Fn)(A, B);`: the calling-convention macro
		// made the parser take the declarator for the type's arguments;
		// what is left in the declarator's place is not the name. (An
		// error inside a struct body, `typedef struct { PyObject_HEAD
		// int x; } Obj;`, leaves the name alone.)
		if b := t.ChildByFieldName("body"); b == nil || !b.HasError() {
			return false
		}
	}
	d.nameNode, d.name = name, f.text(name)
	if t == nil {
		return true
	}
	body := t.ChildByFieldName("body")
	if body == nil {
		return true
	}
	tag := t.ChildByFieldName("name")
	if tag == nil {
		switch t.Type() {
		case "struct_specifier", "union_specifier", "class_specifier":
			d.kind = KindStruct
		case "enum_specifier":
			d.kind = KindEnum
		}
		d.body = body
		return true
	}
	if f.text(tag) == d.name {
		return false
	}
	d.body = body
	return true
}

// unwrapTypedef makes a struct defined inside a typedef a sibling of the
// typedef rather than its child: `typedef struct point {...} point_t;` is
// struct point and type point_t, both at the level of the typedef.
func unwrapTypedef(d *decl) {
	p := d.parent
	if p == nil || p.node.Type() != "type_definition" {
		return
	}
	if t := p.node.ChildByFieldName("type"); t != nil && t.StartByte() == d.node.StartByte() && t.EndByte() == d.node.EndByte() {
		d.parent = p.parent
	}
}

// cSignature drops the terminating ';' of prototypes and typedefs, writes
// a typedef's body as {…} and ends a macro's signature at its parameters.
func cSignature(d *decl, sig string) string {
	switch d.node.Type() {
	case "preproc_function_def":
		return strings.TrimRight(sig, " \\")
	case "type_definition":
		if d.body != nil {
			return strings.TrimSpace(sig) + " {…} " + d.name
		}
	}
	return strings.TrimSpace(strings.TrimSuffix(sig, ";"))
}

// cExported: not static for functions and prototypes; declared in a
// header for types and macros; never for declarations inside a function.
func cExported(d *decl, f *fileInfo) bool {
	if inFunction(d) {
		return false
	}
	switch d.node.Type() {
	case "function_definition", "declaration":
		return !hasStorageClass(d.node, "static", f)
	case "function_declarator":
		_, static, _ := brokenPrototypeSpecifiers(outerDeclarator(d.node), f)
		return !static
	case "expression_statement":
		return true // a macro's head: SYSCALL_DEFINE and kin define global functions
	}
	return isCHeader(f.path)
}

// inFunction reports whether d is declared inside a function body: inside
// a function symbol (dropped declarations, which may be misparses, do not
// count).
func inFunction(d *decl) bool {
	for p := d.parent; p != nil; p = p.parent {
		if !p.container && !p.dropped && (p.kind == KindFunction || p.kind == KindMethod) {
			return true
		}
	}
	return false
}

// hasStorageClass reports whether declaration n has the storage class
// specifier word (static, extern, inline).
func hasStorageClass(n *sitter.Node, word string, f *fileInfo) bool {
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		ch := n.NamedChild(i)
		if ch.Type() == "storage_class_specifier" && f.text(ch) == word {
			return true
		}
	}
	return false
}

// cDocWrappers are the nodes a C declaration may sit in whose comment
// above is the declaration's doc: the typedef or variable declaration
// around a struct, a single-declaration extern "C", a template.
var cDocWrappers = map[string]bool{
	"type_definition": true, "declaration": true, "field_declaration": true,
	"linkage_specification": true, "template_declaration": true,
}

// cDoc is the comment block directly above the declaration or above the
// declaration it is part of.
func cDoc(d *decl, f *fileInfo) string {
	top := d.node
	if top.Type() == "function_declarator" {
		// A broken prototype: its ERROR node is the declaration when the
		// specifiers open it.
		if p := outerDeclarator(top).Parent(); p != nil && p.StartByte() == d.start {
			top = p
		}
	}
	for p := top.Parent(); p != nil && cDocWrappers[p.Type()]; p = p.Parent() {
		if p.Type() == "declaration" || p.Type() == "field_declaration" {
			// Only when the struct is the declaration's type, not a value.
			if t := p.ChildByFieldName("type"); t == nil || t.StartByte() != top.StartByte() {
				break
			}
		}
		top = p
	}
	return docAbove(top, f, cComment)
}

// cComment reads tree-sitter-c and -cpp comment nodes: every comment
// counts as documentation.
var cComment = docSyntax{
	isComment: func(n *sitter.Node) bool { return n.Type() == "comment" },
	accept:    func(string) bool { return true },
	clean:     &Language{lineComments: []string{"//"}, blockComments: [][2]string{{"/*", "*/"}}},
}

// docSyntax says which sibling nodes of a declaration are its doc
// comments; it is shared by the C family, Rust and Swift, whose doc hooks
// read comments from the syntax tree instead of scanning lines.
type docSyntax struct {
	isComment func(n *sitter.Node) bool
	// accept reports whether a comment's text is documentation (Rust:
	// "///" and "/**" only).
	accept func(text string) bool
	// skip reports whether a node may stand between the doc comment and
	// the declaration (Rust attributes). May be nil.
	skip func(n *sitter.Node) bool
	// clean holds the comment syntax that cleanComment strips.
	clean *Language
}

// docAbove collects the comment siblings directly above top: each ends on
// the line above the next (or on the declaration's own line, before it),
// begins its line, and is accepted; nodes skip allows (attributes, other
// comments) are passed over. A blank line or any other node ends the block.
func docAbove(top *sitter.Node, f *fileInfo, s docSyntax) string {
	var parts []string
	line := int(top.StartPoint().Row)
	for n := top.PrevNamedSibling(); n != nil; n = n.PrevNamedSibling() {
		if lastRow(n)+1 < line {
			break
		}
		if s.isComment(n) && beginsLine(f.src, n.StartByte()) && s.accept(f.text(n)) {
			parts = append(parts, f.text(n))
		} else if s.skip == nil || !s.skip(n) {
			break
		}
		line = int(n.StartPoint().Row)
	}
	if len(parts) == 0 {
		return ""
	}
	var lines []string
	for i := len(parts) - 1; i >= 0; i-- {
		for _, l := range strings.Split(strings.TrimRight(parts[i], "\r\n"), "\n") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return cleanComment(lines, s.clean)
}

// lastRow is the 0-based row of n's last character: a node ending with a
// newline (Rust line comments) ends on the row before its end point.
func lastRow(n *sitter.Node) int {
	e := n.EndPoint()
	if e.Column == 0 && e.Row > n.StartPoint().Row {
		return int(e.Row) - 1
	}
	return int(e.Row)
}

// beginsLine reports whether only blanks stand between the start of the
// line and byte at.
func beginsLine(src []byte, at uint32) bool {
	for i := int(at) - 1; i >= 0; i-- {
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// cImports decodes #include <x>, #include "x" and #include MACRO.
func cImports(n *sitter.Node, f *fileInfo) []Import {
	p := n.ChildByFieldName("path")
	if p == nil {
		return nil
	}
	im := Import{Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	switch p.Type() {
	case "system_lib_string":
		im.Path = strings.TrimSpace(strings.Trim(f.text(p), "<>"))
	case "string_literal":
		im.Path = strings.Trim(f.text(p), "\"")
		im.Resolved = resolveInclude(f, im.Path)
	default:
		im.Path = f.text(p)
	}
	if im.Path == "" {
		return nil
	}
	return []Import{im}
}

// resolveInclude returns the module of the file a quoted include names:
// the file next to the includer, else the file under the root; "" when
// neither exists.
func resolveInclude(f *fileInfo, inc string) string {
	if f.proj == nil || inc == "" || path.IsAbs(inc) || strings.Contains(inc, "\\") {
		return ""
	}
	for _, p := range []string{path.Join(path.Dir(f.path), inc), path.Clean(inc)} {
		if p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		st, err := f.proj.dir.Stat(filepath.FromSlash(p))
		if err == nil && st.Mode().IsRegular() {
			return pathModule(p)
		}
	}
	return ""
}
