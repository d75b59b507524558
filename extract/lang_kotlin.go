package extract

// Kotlin.
//
// Module: the declared package ("com.acme.shop"); a file without a package
// header (scripts, the default package) falls back to its path
// (pathModule). Qualified names are <package>.<Type>.<member>:
// "com.acme.shop.Item.Factory.create".
//
// Kinds: class (classes, data/value/sealed/annotation classes), interface
// (including sealed interfaces), enum (enum classes), object (object
// declarations and companion objects; an unnamed companion is
// "Companion", as Kotlin names it), type (type aliases), method (member
// functions, and secondary constructors, named after their class),
// function (top-level and local functions). An extension function's
// parent is its receiver type, without type arguments or "?": `fun
// String.shout()` is method "com.acme.shop.String.shout" with parent
// "String". Object expressions (object : T { ... }) and enum entry bodies
// are not symbols; calls in them belong to the enclosing named symbol.
// Properties (and their accessors) are not symbols either.
//
// Exported: Kotlin's default visibility is public, so a declaration is
// exported unless it or an enclosing type is private or internal (visible
// only inside its compilation module); local declarations never are.
//
// Imports: `import a.b.C` is path "a.b", names [C]; `import a.b.C as D`
// names [C as D]; `import a.b.*` names [*].
//
// Calls: f(), x.f(), x?.f(), super.f(); constructor calls look like any
// call ("Item(...)" is name "Item"); "this(...)"/"super(...)" after a
// secondary constructor are names "this"/"super"; the superclass
// constructor call in a class header (": Base(x)") is a call by the class;
// callable references count as calls: "::f", "Foo::bar", "this::f".
//
// Bindings: properties (class members, top-level ones in the package's
// scope, locals), primary constructor parameters (in the class's scope),
// function parameters, typed for-loop variables and catch parameters,
// with Type as written ("Foo?"); a property without a type whose
// initializer is a call has Value instead (`val x = Foo()`).
//
// Docs: the KDoc or comment block just above, across annotation lines.
// Signatures drop leading annotations; secondary constructors end before
// their block.
//
// Grammar gaps: "fun interface" is a syntax error (the interface is lost,
// its functions become top-level); a companion object whose closing brace
// shares a line with its class's ("companion object { ... } }") breaks the
// class; "class A : I by d { ... }" reads the body as a lambda passed to d,
// which shows as a call of d by the class (its members are still methods);
// the range operator "..<" and function types with a receiver
// ("B.() -> Unit") are syntax errors.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/kotlin"
)

func init() {
	register(&Language{
		Name:           "kotlin",
		Extensions:     []string{".kt", ".kts"},
		Interpreters:   []string{"kotlin", "kotlinc"},
		grammar:        kotlin.GetLanguage,
		lineComments:   []string{"//"},
		blockComments:  [][2]string{{"/*", "*/"}},
		attributes:     []string{"@"},
		docAcrossBlank: isDocBlockAcrossBlank,
		module:         declaredModule,
		imports:        kotlinImports,
		refine:         kotlinRefine,
		signature:      kotlinSignature,
		exported:       kotlinExported,
		bases:          kotlinBases,
		places:         kotlinPlaces,
		blankErrors:    true,
		reparse:        kotlinFunInterfaces,
	})
}

// kotlinImports decodes one import header.
func kotlinImports(n *sitter.Node, f *fileInfo) []Import {
	var name, alias string
	wildcard := false
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		ch := n.NamedChild(i)
		switch ch.Type() {
		case "identifier":
			name = strings.Join(strings.Fields(f.text(ch)), "")
		case "wildcard_import":
			wildcard = true
		case "import_alias":
			if a := ch.NamedChild(0); a != nil {
				alias = f.text(a)
			}
		}
	}
	if name == "" {
		return nil
	}
	im := dottedImport(name, wildcard, int(n.StartPoint().Row)+1)
	if alias != "" && len(im.Names) == 1 {
		im.Names[0].Alias = alias
	}
	return []Import{im}
}

// kotlinRefine drops object expressions and enum entry bodies with their
// contents, makes enum classes enums, names companion objects and
// secondary constructors, and gives extension functions their receiver
// type as parent.
func kotlinRefine(d *decl, f *fileInfo) bool {
	if d.parent != nil && d.parent.dropped {
		return false
	}
	switch d.node.Type() {
	case "object_literal", "enum_entry":
		return false
	case "class_declaration":
		if d.body != nil && d.body.Type() == "enum_class_body" {
			d.kind = KindEnum
		}
	case "companion_object":
		d.name = "Companion"
		for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
			if ch := d.node.NamedChild(i); ch.Type() == "type_identifier" {
				d.name, d.nameNode = f.text(ch), ch
				break
			}
		}
	case "secondary_constructor":
		if d.parent != nil {
			d.name = d.parent.name
		}
	case "function_declaration":
		// The receiver type is the type just before the name.
		var prev *sitter.Node
		for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
			ch := d.node.NamedChild(i)
			if ch.StartByte() >= d.nameNode.StartByte() {
				break
			}
			prev = ch
		}
		if prev != nil && (prev.Type() == "user_type" || prev.Type() == "nullable_type") {
			d.parentName = receiverType(strings.TrimRight(f.text(prev), "?"))
		}
	}
	return true
}

// kotlinSignature drops leading annotations and cuts a secondary
// constructor before its block, which the grammar does not wrap in a node,
// and a class whose body the grammar did not see as one.
func kotlinSignature(d *decl, sig string) string {
	sig = stripAnnotations(sig)
	switch d.node.Type() {
	case "secondary_constructor":
		sig = strings.TrimRight(cutAtBrace(sig), " ")
	case "class_declaration", "object_declaration":
		if d.body == nil {
			// "class A : I by impl { ... }": the grammar takes the body
			// for a trailing lambda.
			sig = strings.TrimRight(cutAtBrace(sig), " ")
		}
	}
	return sig
}

// cutAtBrace returns s up to its first "{" outside parentheses and
// brackets.
func cutAtBrace(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '{':
			if depth == 0 {
				return s[:i]
			}
		case '"', '\'':
			i = skipBalancedQuote(s, i)
		}
	}
	return s
}

// skipBalancedQuote returns the index of the quote closing the literal
// that opens at s[i].
func skipBalancedQuote(s string, i int) int {
	q := s[i]
	for i++; i < len(s) && s[i] != q; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i
}

// kotlinExported: public (the default) or protected, and so is every
// enclosing type; local declarations are not exported.
func kotlinExported(d *decl, f *fileInfo) bool {
	for x := d; x != nil; x = x.parent {
		if p := x.parent; p != nil && (p.kind == KindFunction || p.kind == KindMethod) {
			return false
		}
		switch kotlinVisibility(x.node, f) {
		case "private", "internal":
			return false
		}
	}
	return true
}

// kotlinVisibility returns the visibility modifier of a declaration, or "".
func kotlinVisibility(n *sitter.Node, f *fileInfo) string {
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		m := n.NamedChild(i)
		if m.Type() != "modifiers" {
			continue
		}
		for j, k := 0, int(m.NamedChildCount()); j < k; j++ {
			if v := m.NamedChild(j); v.Type() == "visibility_modifier" {
				return f.text(v)
			}
		}
		return ""
	}
	return ""
}

// kotlinBases lists the supertypes of a class or object as written,
// without constructor arguments or "by" delegates.
func kotlinBases(d *decl, f *fileInfo) []string {
	var out []string
	for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
		ds := d.node.NamedChild(i)
		if ds.Type() != "delegation_specifier" {
			continue
		}
		t := ds.NamedChild(0)
		if t == nil {
			continue
		}
		if t.Type() == "constructor_invocation" || t.Type() == "explicit_delegation" {
			if u := t.NamedChild(0); u != nil {
				t = u
			}
		}
		out = append(out, collapseSpace(f.text(t), maxSignature))
	}
	return out
}
