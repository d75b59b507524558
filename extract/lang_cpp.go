package extract

// C++ conventions (everything not said here is as for C, see lang_c.go).
//
// Qualified names: the module is the file's path without its extension,
// '/' replaced by '.', shared by a header and its source file in the same
// directory. Namespaces and classes then nest: "<module>.<ns>.<Class>.<name>".
// An out-of-line definition is placed where its qualified name says:
// `void ns::Foo::bar() {}` at file level is bar with parent Foo and
// qualified name "<module>.ns.Foo.bar" — the same name as its declaration
// inside `namespace ns { class Foo { void bar(); }; }` in the header. The
// qualifier of an out-of-line definition may name a namespace or a class;
// it is taken for a class, so the definition is a method.
//
// Files: .cc .cpp .cxx .c++ and the headers .hpp .hh .hxx .h++ .ipp; a .h
// file is C++ when looksLikeCpp finds C++ in its head, else C.
//
// Symbols: namespaces (kind namespace; `namespace a::b` is b with parent
// a; anonymous namespaces are not symbols, their contents are), classes
// (class), structs and unions (struct), enums and enum classes (enum),
// typedefs, using-aliases (outside function bodies) and concepts (type),
// functions and methods, including constructors (method, named after the
// class), destructors
// ("~Foo"), operators ("operator==", "operator bool") and function-like
// macros. Templates are transparent: the template's declaration is the
// symbol, its signature starts with the template header. Member function
// declarations without a body, like prototypes, are symbols in headers
// only; pure virtual and defaulted members (`= 0`, `= default`) are symbols
// everywhere, deleted ones (`= delete`) nowhere, and friend declarations
// are not symbols (a friend defined in the class body is). Prototypes,
// bodiless member declarations and pure virtual members are marked
// Declaration.
//
// Exported: a symbol in an anonymous namespace, a `static` function at
// namespace scope and anything declared inside a function body are not
// exported; a class member is exported when its class is and its access
// is public (the default in a struct or union, not in a class); other
// functions and namespaces are exported; other types and macros are
// exported when declared in a header.
//
// Bases: the base classes as written, without access specifiers or
// `virtual` ("Base<T>", "ns::Other").
//
// Calls: as in C plus qualified calls `A::f()` (Receiver "A"; for a longer
// qualifier only its last part: `ns::A::f()` has Receiver "A"), template
// calls f<T>() and obj.get<T>() (not the casts static_cast<T>(x) and
// kin, which the grammar parses alike), `this->f()` (Receiver "this") and
// constructor calls `new Foo(x)` (Name "Foo"); calls in lambdas belong to
// the enclosing function.

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/cpp"
)

func init() {
	register(&Language{
		Name:       "cpp",
		Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".h"},
		grammar:    cpp.GetLanguage,
		imports:    cImports,
		refine:     cppRefine,
		signature:  cSignature,
		doc:        cDoc,
		exported:   cppExported,
		bases:      cppBases,
		detect:     looksLikeCpp,
		places:     cppPlaces,
	})
}

// cppRefine names C++ declarations: it digs names out of declarators,
// splits qualified names, drops what is not a symbol and starts templates
// at their template header.
func cppRefine(d *decl, f *fileInfo) bool {
	var scopes []string
	switch d.node.Type() {
	case "function_definition", "declaration", "field_declaration":
		protoOnly := d.node.Type() != "function_definition"
		if protoOnly && !isCHeader(f.path) {
			return false
		}
		if p := d.node.Parent(); p != nil && p.Type() == "friend_declaration" && protoOnly {
			return false
		}
		if hasChildOfType(d.node, "delete_method_clause") {
			return false
		}
		// Every function has a function declarator: the grammar reads a
		// member `int n = 0;` as a function definition with `= 0` for a
		// pure virtual clause.
		name, fn := cDeclaratorName(d.nameNode)
		if name == nil || !fn || misparsed(d.node, name, f) {
			return false
		}
		name, scopes = splitQualified(name, f)
		if !setCppName(d, name, f) {
			return false
		}
		if init := childOfType(d.node, "field_initializer_list"); init != nil {
			d.body = init // the signature ends before ": x_(x)"
		}
		// A prototype, a member declared in its class, a pure virtual
		// member: declared here, defined elsewhere if anywhere. (`=
		// default` defines it.)
		d.declaration = protoOnly || d.node.ChildByFieldName("body") == nil && hasChildOfType(d.node, "pure_virtual_clause")
	case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
		var name *sitter.Node
		name, scopes = splitQualified(d.nameNode, f)
		if name.Type() == "template_type" {
			name = name.ChildByFieldName("name")
		}
		if name == nil {
			return false
		}
		d.nameNode, d.name = name, f.text(name)
		unwrapTypedef(d)
	case "namespace_definition":
		if d.node.ChildByFieldName("name") == nil {
			return false // anonymous: kept in the tree for cppExported
		}
		if e := childOfType(d.node, "ERROR"); e != nil && e.StartByte() < d.nameNode.StartByte() {
			// `namespace __x __attribute__((...))`: the "name" is debris.
			return false
		}
		if d.nameNode.Type() == "nested_namespace_specifier" {
			var parts []*sitter.Node
			for i, cnt := 0, int(d.nameNode.NamedChildCount()); i < cnt; i++ {
				parts = append(parts, d.nameNode.NamedChild(i))
			}
			if len(parts) == 0 {
				return false
			}
			for _, p := range parts[:len(parts)-1] {
				scopes = append(scopes, f.text(p))
			}
			d.nameNode = parts[len(parts)-1]
			d.name = f.text(d.nameNode)
		}
	case "function_declarator":
		if !refineBrokenPrototype(d, f) {
			return false
		}
		d.declaration = true
	case "type_definition":
		if !refineTypedef(d, f) {
			return false
		}
	case "alias_declaration":
		if inFunction(d) {
			return false
		}
	case "preproc_function_def":
		d.body = d.node.ChildByFieldName("value")
	}
	// The template header is part of the declaration.
	for p := d.node.Parent(); p != nil && p.Type() == "template_declaration"; p = p.Parent() {
		d.start = p.StartByte()
	}
	if len(scopes) > 0 {
		setScopes(d, f, scopes)
	}
	return true
}

// setCppName sets d's name from a declarator's name node: operators and
// conversion operators get a canonical spelling, template arguments go.
func setCppName(d *decl, name *sitter.Node, f *fileInfo) bool {
	switch name.Type() {
	case "template_function":
		if name = name.ChildByFieldName("name"); name == nil {
			return false
		}
		d.name = f.text(name)
	case "operator_cast":
		d.name = "operator " + collapseSpace(f.text(name.ChildByFieldName("type")), 100)
	case "operator_name", "destructor_name":
		d.name = operatorName(collapseSpace(f.text(name), 100))
	case "identifier", "field_identifier", "type_identifier":
		d.name = f.text(name)
	default:
		return false
	}
	d.nameNode = name
	return d.name != ""
}

// operatorName writes operator names without inner blanks, except after
// a word: "operator ==" → "operator==", "operator new[]", "~ Foo" → "~Foo".
func operatorName(s string) string {
	if strings.HasPrefix(s, "~") {
		return "~" + strings.TrimSpace(s[1:])
	}
	rest, ok := strings.CutPrefix(s, "operator")
	if !ok {
		return s
	}
	rest = strings.TrimSpace(rest)
	if rest != "" && (rest[0] >= 'a' && rest[0] <= 'z' || rest[0] == '"') {
		// operator new, operator delete[], operator co_await, operator ""_km
		return "operator " + strings.ReplaceAll(rest, " ", "")
	}
	return "operator" + strings.ReplaceAll(rest, " ", "")
}

// splitQualified splits `ns::Foo<T>::bar` into the final name node (bar)
// and the scopes as names (ns, Foo). A global qualifier (`::f`) adds no
// scope.
func splitQualified(n *sitter.Node, f *fileInfo) (*sitter.Node, []string) {
	var scopes []string
	for n != nil && n.Type() == "qualified_identifier" {
		if s := n.ChildByFieldName("scope"); s != nil {
			if s.Type() == "template_type" {
				if nm := s.ChildByFieldName("name"); nm != nil {
					s = nm
				}
			}
			scopes = append(scopes, collapseSpace(f.text(s), 200))
		}
		n = n.ChildByFieldName("name")
	}
	if n == nil {
		return nil, nil
	}
	return n, scopes
}

// setScopes places d under the qualifier of its name: the last scope is
// its parent; any scopes before it are recorded in a stand-in lexical
// parent whose qualified name is the prefix. The stand-in covers no bytes,
// so calls never attribute to it.
func setScopes(d *decl, f *fileInfo, scopes []string) {
	d.parentName = scopes[len(scopes)-1]
	if len(scopes) == 1 {
		return
	}
	lex := d.parent
	for lex != nil && lex.dropped {
		lex = lex.parent
	}
	prefix := f.module
	if lex != nil && !lex.container {
		prefix = lex.qualified
	}
	for _, s := range scopes[:len(scopes)-1] {
		prefix = joinQualified(prefix, s)
	}
	d.parent = &decl{
		node:      d.node,
		kind:      KindNamespace,
		name:      scopes[len(scopes)-2],
		qualified: prefix,
		parent:    d.parent,
	}
}

func hasChildOfType(n *sitter.Node, typ string) bool { return childOfType(n, typ) != nil }

// childOfType returns n's first named child of type typ, or nil.
func childOfType(n *sitter.Node, typ string) *sitter.Node {
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		if ch := n.NamedChild(i); ch.Type() == typ {
			return ch
		}
	}
	return nil
}

// cppExported applies the rule in the conventions above.
func cppExported(d *decl, f *fileInfo) bool {
	if inFunction(d) {
		return false
	}
	for p := d.parent; p != nil; p = p.parent {
		if p.node.Type() == "namespace_definition" && p.node.ChildByFieldName("name") == nil {
			return false
		}
	}
	if class := classParent(d); class != nil {
		body := class.node.ChildByFieldName("body")
		if body == nil {
			return false
		}
		access := "public"
		if class.node.Type() == "class_specifier" {
			access = "private"
		}
		if a := memberAccess(f.src, body.StartByte()+1, d.start); a != "" {
			access = a
		}
		return access == "public" && cppExported(class, f)
	}
	switch d.node.Type() {
	case "function_definition", "declaration", "field_declaration":
		return !hasStorageClass(d.node, "static", f)
	case "function_declarator":
		_, static, _ := brokenPrototypeSpecifiers(outerDeclarator(d.node), f)
		return !static
	case "namespace_definition":
		return true
	}
	return isCHeader(f.path)
}

// classParent returns the class, struct or union d is lexically a member
// of, or nil.
func classParent(d *decl) *decl {
	p := d.parent
	for p != nil && p.dropped {
		p = p.parent
	}
	if p == nil || p.container {
		return nil
	}
	switch p.node.Type() {
	case "class_specifier", "struct_specifier", "union_specifier":
		if p.node.StartByte() <= d.node.StartByte() && d.node.EndByte() <= p.node.EndByte() {
			return p
		}
	}
	return nil
}

// memberAccess finds the access specifier in force at byte at of a class
// body starting at lo: the nearest "public:", "protected:" or "private:"
// before at outside nested braces. It returns "" if there is none. It reads
// bytes, not the tree: walking a long class body's siblings through
// tree-sitter costs a cgo call per member, per member.
func memberAccess(src []byte, lo, at uint32) string {
	depth := 0
	for i := int(at) - 1; i >= int(lo) && i < len(src); i-- {
		switch src[i] {
		case '}':
			depth++
		case '{':
			depth--
		case ':':
			if depth != 0 || i+1 < len(src) && src[i+1] == ':' || i > 0 && src[i-1] == ':' {
				continue
			}
			word := wordBefore(src, i, int(lo))
			if word == "slots" || word == "Q_SLOTS" {
				word = wordBefore(src, i-len(word)-1, int(lo))
			}
			switch word {
			case "public", "protected", "private":
				return word
			}
		}
	}
	return ""
}

// wordBefore returns the identifier ending just before byte i, skipping
// blanks, not reading before lo.
func wordBefore(src []byte, i, lo int) string {
	j := i - 1
	for j >= lo && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j--
	}
	end := j + 1
	for j >= lo && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
		j--
	}
	if j+1 >= end {
		return ""
	}
	return string(src[j+1 : end])
}

// cppBases lists the base classes of a class, struct or union.
func cppBases(d *decl, f *fileInfo) []string {
	clause := childOfType(d.node, "base_class_clause")
	if clause == nil {
		return nil
	}
	var out []string
	for i, cnt := 0, int(clause.NamedChildCount()); i < cnt; i++ {
		ch := clause.NamedChild(i)
		switch ch.Type() {
		case "access_specifier", "virtual", "comment":
			continue
		}
		out = append(out, collapseSpace(f.text(ch), 200))
	}
	return out
}

// looksLikeCpp reports whether a header (.h) is C++: outside comments and
// `#ifdef __cplusplus` blocks (where C headers keep their `extern "C" {`
// and C++ overloads), a line starts with class, namespace, template,
// using or an access specifier, or an include names a header without
// extension (<vector>), or the code contains "::" or `extern "C++"`.
func looksLikeCpp(src []byte) bool {
	inBlock := false
	// depth counts open #if blocks; skip is the depth of an `#ifdef
	// __cplusplus` block being passed over (0: none): C headers keep their
	// C++ wrappers and overloads there.
	depth, skip, negated := 0, 0, 0
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		code := stripCComments(line, &inBlock)
		code = bytes.TrimSpace(code)
		if len(code) == 0 {
			continue
		}
		if code[0] == '#' {
			directive := bytes.TrimSpace(code[1:])
			switch {
			case bytes.HasPrefix(directive, []byte("if")):
				depth++
				if skip == 0 && bytes.Contains(directive, []byte("__cplusplus")) {
					if bytes.HasPrefix(directive, []byte("ifndef")) || bytes.Contains(directive, []byte("!")) {
						negated = depth // the #else branch is C++
					} else {
						skip = depth
					}
				}
			case bytes.HasPrefix(directive, []byte("el")):
				switch {
				case skip == depth:
					skip = 0
				case skip == 0 && negated == depth:
					skip = depth
				}
			case bytes.HasPrefix(directive, []byte("endif")):
				if skip == depth {
					skip = 0
				}
				if negated == depth {
					negated = 0
				}
				depth--
			case skip == 0 && bytes.HasPrefix(directive, []byte("include")):
				rest := bytes.TrimSpace(directive[len("include"):])
				if bytes.HasPrefix(rest, []byte("<")) {
					if end := bytes.IndexByte(rest, '>'); end > 0 && !bytes.Contains(rest[:end], []byte(".")) {
						return true
					}
				}
			}
			continue
		}
		if skip > 0 {
			continue
		}
		for _, kw := range []string{"class ", "namespace ", "template<", "template <", "using ", "public:", "private:", "protected:"} {
			if bytes.HasPrefix(code, []byte(kw)) {
				return true
			}
		}
		if bytes.Contains(code, []byte("::")) || bytes.Contains(code, []byte(`extern "C++"`)) {
			return true
		}
	}
	return false
}

// stripCComments returns line without its comments and with string and
// character literals emptied ("ttk::x" → ""); inBlock carries an open /*
// comment from line to line.
func stripCComments(line []byte, inBlock *bool) []byte {
	var out []byte
	for len(line) > 0 {
		if *inBlock {
			end := bytes.Index(line, []byte("*/"))
			if end < 0 {
				return out
			}
			line, *inBlock = line[end+2:], false
			continue
		}
		i := bytes.IndexAny(line, "/\"'")
		if i < 0 {
			return append(out, line...)
		}
		switch c := line[i]; {
		case c == '"' || c == '\'':
			out = append(out, line[:i+1]...)
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, c)
			line = line[min(j+1, len(line)):]
		case i+1 < len(line) && line[i+1] == '/':
			return append(out, line[:i]...)
		case i+1 < len(line) && line[i+1] == '*':
			out = append(out, line[:i]...)
			out = append(out, ' ')
			line, *inBlock = line[i+2:], true
		default:
			out = append(out, line[:i+1]...)
			line = line[i+1:]
		}
	}
	return out
}
