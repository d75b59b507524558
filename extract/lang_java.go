package extract

// Java.
//
// Module: the declared package ("com.acme.shop"); a file without a package
// declaration falls back to its path (pathModule). Qualified names are
// <package>.<Outer>.<Inner>.<method>: "com.acme.shop.Store.Builder.build".
// Constructors are methods named after their class ("...Store.Store").
//
// Kinds: class (classes and records), interface (interfaces and annotation
// types, whose elements are methods), enum, method (methods, constructors,
// compact record constructors). Static nested and inner classes are both
// classes whose parent is the enclosing type; the signature tells them
// apart. A class declared inside a method body is a class whose parent is
// that method. Declarations inside anonymous class
// bodies (new T() { ... }) and enum constant bodies (RED { ... }) are not
// symbols: their calls belong to the enclosing named symbol.
//
// Exported: the declaration is public or protected — or a member of an
// interface or annotation type without "private", which is implicitly
// public — and so is every enclosing type. Declarations inside a method
// body are never exported.
//
// Imports: `import a.b.C;` is path "a.b", names [C]; `import static
// a.b.C.m;` is path "a.b.C", names [m]; wildcards `import a.b.*;` and
// `import static a.b.C.*;` have names [*].
//
// Calls: f(), x.f(), super.f(), Foo.<T>f(); `new a.b.Foo<T>()` is name
// "Foo", receiver "a.b"; `this(...)` and `super(...)` in a constructor are
// names "this" and "super"; method references count as calls: `this::f`
// (receiver "this", name "f") and `Foo::new` (name "Foo").
//
// Bindings: declarations of fields, locals, parameters (record components
// too), for-each and resource variables, single-type catch parameters and
// pattern variables (`o instanceof Foo f`) whose type is a class type,
// with Type as written; `var x = new Foo()` has Value instead.
//
// Docs: the comment block just above the declaration (Javadoc cleaned of
// its stars), across any annotation lines. Signatures drop leading
// annotations and a trailing ";".

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

func init() {
	register(&Language{
		Name:           "java",
		Extensions:     []string{".java"},
		grammar:        java.GetLanguage,
		lineComments:   []string{"//"},
		blockComments:  [][2]string{{"/*", "*/"}},
		attributes:     []string{"@"},
		docAcrossBlank: isDocBlockAcrossBlank,
		module:         declaredModule,
		imports:        javaImports,
		refine:         javaRefine,
		signature:      javaSignature,
		exported:       javaExported,
		bases:          javaBases,
		places:         javaPlaces,
		blankErrors:    true,
	})
}

// declaredModule is the module of the JVM and .NET languages: the declared
// package or namespace with any whitespace removed, or the path-based
// module for a file that declares none.
func declaredModule(f *fileInfo, declared string) string {
	if declared == "" {
		return pathModule(f.path)
	}
	return strings.Join(strings.Fields(declared), "")
}

// javaImports decodes one import declaration.
func javaImports(n *sitter.Node, f *fileInfo) []Import {
	var name string
	wildcard := false
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		ch := n.NamedChild(i)
		switch ch.Type() {
		case "identifier", "scoped_identifier":
			name = strings.Join(strings.Fields(f.text(ch)), "")
		case "asterisk":
			wildcard = true
		}
	}
	if name == "" {
		return nil
	}
	return []Import{dottedImport(name, wildcard, int(n.StartPoint().Row)+1)}
}

// dottedImport is the import of a dotted name in the JVM style: the last
// segment is the imported name, the rest the path ("a.b.C" → "a.b" {C});
// a wildcard import of "a.b" is "a.b" {*}.
func dottedImport(name string, wildcard bool, line int) Import {
	im := Import{Path: name, Names: []ImportName{}, Line: line}
	switch i := strings.LastIndexByte(name, '.'); {
	case wildcard:
		im.Names = append(im.Names, ImportName{Name: "*"})
	case i >= 0:
		im.Path = name[:i]
		im.Names = append(im.Names, ImportName{Name: name[i+1:]})
	}
	return im
}

// javaRefine drops anonymous class bodies and enum constant bodies (the
// query captures them for this) and everything declared in them: they
// have no name a caller could use, and their calls belong to the
// enclosing named symbol.
func javaRefine(d *decl, _ *fileInfo) bool {
	if d.parent != nil && d.parent.dropped {
		return false
	}
	t := d.node.Type()
	return t != "object_creation_expression" && t != "enum_constant"
}

// javaSignature drops leading annotations and the ";" of a declaration
// without a body.
func javaSignature(_ *decl, sig string) string {
	return strings.TrimRight(stripAnnotations(sig), "; ")
}

// javaExported: public or protected, or implicitly public in an interface
// or annotation type, and every enclosing type too; nothing inside a
// method body is exported.
func javaExported(d *decl, f *fileInfo) bool {
	for x := d; x != nil; x = x.parent {
		p := x.parent
		if p != nil && (p.kind == KindFunction || p.kind == KindMethod) {
			return false
		}
		switch modifierVisibility(x.node, "modifiers") {
		case "public", "protected":
		case "private":
			return false
		default:
			if p == nil || (p.node.Type() != "interface_declaration" && p.node.Type() != "annotation_type_declaration") {
				return false
			}
		}
	}
	return true
}

// modifierVisibility returns "public", "protected", "private" or "" for
// the first access modifier among the children of n's child of type mods.
// The modifier keywords are anonymous nodes named after the keyword.
func modifierVisibility(n *sitter.Node, mods string) string {
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		m := n.NamedChild(i)
		if m.Type() != mods {
			continue
		}
		for j, k := 0, int(m.ChildCount()); j < k; j++ {
			switch t := m.Child(j).Type(); t {
			case "public", "protected", "private":
				return t
			}
		}
		return ""
	}
	return ""
}

// javaBases lists the superclass and the implemented or extended
// interfaces, as written.
func javaBases(d *decl, f *fileInfo) []string {
	var out []string
	for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
		ch := d.node.NamedChild(i)
		switch ch.Type() {
		case "superclass", "super_interfaces", "extends_interfaces":
			for j, m := 0, int(ch.NamedChildCount()); j < m; j++ {
				t := ch.NamedChild(j)
				if t.Type() == "type_list" {
					for k, l := 0, int(t.NamedChildCount()); k < l; k++ {
						out = append(out, collapseSpace(f.text(t.NamedChild(k)), maxSignature))
					}
					continue
				}
				out = append(out, collapseSpace(f.text(t), maxSignature))
			}
		}
	}
	return out
}

// stripAnnotations removes the annotations that start a signature:
// "@Override", "@a.b.C(x = 1)", Kotlin's "@file:Jvm(...)" and "@[A B]",
// Scala's "@ann[T](a)(b)". "@interface" is a keyword and is kept.
func stripAnnotations(sig string) string {
	for strings.HasPrefix(sig, "@") && !strings.HasPrefix(sig, "@interface") {
		i := 1
		for i < len(sig) && isAnnotationNameByte(sig[i]) {
			i++
		}
		for i < len(sig) && (sig[i] == '(' || sig[i] == '[') {
			i = skipBalanced(sig, i)
		}
		if i == 1 {
			break // a lone "@": not an annotation we understand
		}
		sig = strings.TrimLeft(sig[i:], " ")
	}
	return sig
}

func isAnnotationNameByte(c byte) bool {
	return c == '_' || c == '.' || c == ':' || c == '$' || c >= '0' && c <= '9' ||
		c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// skipBalanced returns the index after the bracket group that opens at
// s[i], skipping string and character literals; len(s) if it never closes.
func skipBalanced(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"', '\'':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		}
	}
	return len(s)
}
