package extract

// Scala (2 and 3).
//
// Module: the declared package, chained clauses joined ("package a.b" then
// "package c" is "a.b.c"); a file without one (scripts, the empty
// package) falls back to its path (pathModule). Qualified names are
// <package>.<Type>.<member>: "com.acme.shop.Item.apply". A package object
// is an object named after the package it adds to.
//
// Kinds: class (classes and case classes), object (objects, case objects,
// package objects and givens — a given is a singleton instance; an
// anonymous given gets the name Scala gives it, "given_Ordering_String"),
// trait, enum, type (type definitions, opaque types), method (defs in a
// type; auxiliary constructors "def this(...)" are named after their
// class), function (top-level defs and defs nested in a def). The methods
// of an extension block take the receiver type as parent: `extension (s:
// String) def shout` is method "<package>.String.shout", parent "String".
// Anonymous classes (new T { ... }) are not symbols; calls in them belong to
// the enclosing named symbol. vals and vars are not symbols.
//
// Exported: Scala's default is public, so a declaration is exported unless
// it or an enclosing type is private (including private[scope] and
// private[this]); protected members count as exported, as in Java. Local
// definitions never are.
//
// Imports: `import a.b.C` is path "a.b", names [C]; `import a.b.{C, D => E,
// F => _}` is path "a.b", names [C, D as E, F as _]; `import a.b._` and
// `import a.b.*` have names [*], `import a.b.given` names [given]; Scala 3
// `import a.b as c` is path "a", names [b as c]. `import a.B, c.D` gives
// two imports.
//
// Calls: f(x), x.f(y), f[T](x), f { ... }; `new a.b.Foo(x)` is name "Foo",
// receiver "a.b"; infix calls with an alphanumeric operator (`xs map f`,
// `a shouldBe b`) are calls of that name with the left side as receiver;
// the superclass constructor in "extends Base(x)" is a call by the class;
// "this(...)" in an auxiliary constructor is name "this". Calls without
// an argument list (`xs.size`) look like field accesses and are not seen.
//
// Docs: the Scaladoc or comment block just above, across annotation lines.
// Signatures drop leading annotations and the "=" or ":" before a body.
// Declarations end on their last token (see scalaTrim); an "end X" marker
// is outside the grammar's node and so not counted.
//
// Grammar gap: an anonymous given with a template body ("given Ord[T] with
// { ... }") is a syntax error that takes the following definition with it.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/scala"
)

func init() {
	register(&Language{
		Name:          "scala",
		Extensions:    []string{".scala", ".sc"},
		Interpreters:  []string{"scala", "scala-cli", "amm"},
		grammar:       scala.GetLanguage,
		lineComments:  []string{"//"},
		blockComments: [][2]string{{"/*", "*/"}},
		attributes:    []string{"@"},
		module:        scalaModule,
		imports:       scalaImports,
		refine:        scalaRefine,
		signature:     func(_ *decl, sig string) string { return stripAnnotations(sig) },
		exported:      scalaExported,
		bases:         scalaBases,
		places:        scalaPlaces,
		blankErrors:   true,
	})
}

// scalaModule joins the file's leading package clauses: the query captures
// the first; the following ones are read from the source after it.
func scalaModule(f *fileInfo, declared string) string {
	if declared == "" {
		return pathModule(f.path)
	}
	parts := scalaPackageClauses(f.src)
	if len(parts) == 0 {
		return declaredModule(f, declared)
	}
	return strings.Join(parts, ".")
}

// scalaPackageClauses reads the package clauses at the start of src,
// skipping a shebang line, comments and whitespace; it stops at the first
// other token, at "package object", and after a clause with a body.
func scalaPackageClauses(src []byte) []string {
	s := string(src[:min(len(src), 4096)])
	if strings.HasPrefix(s, "#!") {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i:]
		}
	}
	var parts []string
	for {
		s = skipSpaceAndComments(s)
		rest, ok := strings.CutPrefix(s, "package")
		if !ok || rest == "" || !isSpaceByte(rest[0]) {
			return parts
		}
		rest = skipSpaceAndComments(rest)
		if strings.HasPrefix(rest, "object") && (len(rest) == 6 || !isIdentByte(rest[6])) {
			return parts
		}
		// A qualified identifier: segments and dots, maybe with spaces.
		var name strings.Builder
		for {
			rest = strings.TrimLeft(rest, " \t")
			i := 0
			if strings.HasPrefix(rest, "`") {
				if j := strings.IndexByte(rest[1:], '`'); j >= 0 {
					i = j + 2
				}
			} else {
				for i < len(rest) && isIdentByte(rest[i]) {
					i++
				}
			}
			if i == 0 {
				break
			}
			name.WriteString(rest[:i])
			rest = strings.TrimLeft(rest[i:], " \t")
			if !strings.HasPrefix(rest, ".") {
				break
			}
			name.WriteByte('.')
			rest = rest[1:]
		}
		if name.Len() == 0 {
			return parts
		}
		parts = append(parts, name.String())
		s = strings.TrimLeft(rest, " \t")
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, ":") {
			return parts
		}
	}
}

// skipSpaceAndComments skips whitespace, semicolons, // comments and
// (nested) /* */ comments.
func skipSpaceAndComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n;")
		switch {
		case strings.HasPrefix(s, "//"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i:]
		case strings.HasPrefix(s, "/*"):
			depth, i := 0, 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(s[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
			s = s[i:]
		default:
			return s
		}
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// scalaImports decodes one import declaration, which may import several
// comma-separated expressions.
func scalaImports(n *sitter.Node, f *fileInfo) []Import {
	var out []Import
	line := int(n.StartPoint().Row) + 1
	var path []string
	var names []ImportName
	wildcard, selected := false, false
	flush := func() {
		if len(path) == 0 {
			return
		}
		im := dottedImport(strings.Join(path, "."), wildcard, line)
		if selected || len(names) > 0 {
			// Selectors, or Scala 3 "import a.b as c" (path a, names [b as c]).
			im.Path, im.Names = strings.Join(path, "."), names
		}
		out = append(out, im)
		path, names, wildcard, selected = nil, nil, false, false
	}
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		ch := n.Child(i)
		if !ch.IsNamed() {
			if ch.Type() == "," {
				flush()
			}
			continue
		}
		switch ch.Type() {
		case "namespace_wildcard":
			if f.text(ch) == "given" {
				names = append(names, ImportName{Name: "given"})
			} else {
				wildcard = true
			}
		case "namespace_selectors":
			selected = true
			for j, m := 0, int(ch.NamedChildCount()); j < m; j++ {
				names = append(names, scalaSelector(ch.NamedChild(j), f))
			}
		case "as_renamed_identifier", "arrow_renamed_identifier":
			// Scala 3 "import a.b as c": path a, name b renamed c.
			names = append(names, scalaSelector(ch, f))
		case "comment", "block_comment":
		default:
			path = append(path, f.text(ch))
		}
	}
	flush()
	return out
}

// scalaSelector decodes one name of an import selector: "C", "D => E",
// "D as E", "_" or "*".
func scalaSelector(n *sitter.Node, f *fileInfo) ImportName {
	switch n.Type() {
	case "arrow_renamed_identifier", "as_renamed_identifier":
		return ImportName{
			Name:  f.text(n.ChildByFieldName("name")),
			Alias: f.text(n.ChildByFieldName("alias")),
		}
	case "namespace_wildcard", "wildcard":
		if t := f.text(n); t == "given" {
			return ImportName{Name: "given"}
		}
		return ImportName{Name: "*"}
	}
	return ImportName{Name: f.text(n)}
}

// scalaRefine drops anonymous classes and their contents, names givens
// and auxiliary constructors, reduces an extension's receiver type to a
// name, and ends declarations at their last token (scalaTrim).
func scalaRefine(d *decl, f *fileInfo) bool {
	if d.parent != nil && d.parent.dropped {
		return false
	}
	switch d.node.Type() {
	case "instance_expression":
		return false
	case "extension_definition":
		d.name = receiverType(d.name)
		return true
	case "given_definition":
		if n := d.node.ChildByFieldName("name"); n != nil {
			d.name, d.nameNode = f.text(n), n
		} else if t := d.node.ChildByFieldName("return_type"); t != nil {
			d.name = givenName(f.text(t))
		}
	case "function_definition":
		if d.name == "this" && d.parent != nil {
			d.name = d.parent.name
		}
	}
	scalaTrim(d)
	return true
}

// scalaTrim ends d at its last token. The grammar's layout tokens pull
// what follows an indented body — blank lines, comments, up to the next
// definition — into the body, so `def f =\n  x\n\n  /** doc */\n  def g`
// would end on the line of g.
// Lowering d.end moves the end line, the signature's end and the range
// of calls attributed to d.
func scalaTrim(d *decl) {
	last := d.node
	for {
		var next *sitter.Node
		for i := int(last.ChildCount()) - 1; i >= 0; i-- {
			if ch := last.Child(i); !ch.IsExtra() && ch.EndByte() > ch.StartByte() {
				next = ch
				break
			}
		}
		if next == nil {
			break
		}
		last = next
	}
	if last.EndByte() >= d.node.EndByte() {
		return
	}
	if d.body == nil {
		d.body = d.node.ChildByFieldName("body")
	}
	d.end = last.EndByte()
}

// givenName is the name Scala 3 synthesizes for an anonymous given of type
// t: "Ordering[String]" → "given_Ordering_String".
func givenName(t string) string {
	var b strings.Builder
	b.WriteString("given")
	sep := true
	for i := 0; i < len(t); i++ {
		if c := t[i]; isIdentByte(c) && c != '$' {
			if sep {
				b.WriteByte('_')
				sep = false
			}
			b.WriteByte(c)
		} else {
			sep = true
		}
	}
	return b.String()
}

// scalaExported: not private, nor inside a private type; local definitions
// are not exported.
func scalaExported(d *decl, f *fileInfo) bool {
	for x := d; x != nil; x = x.parent {
		if p := x.parent; p != nil && (p.kind == KindFunction || p.kind == KindMethod) {
			return false
		}
		n := x.node
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			m := n.NamedChild(i)
			if m.Type() != "modifiers" {
				continue
			}
			for j, k := 0, int(m.NamedChildCount()); j < k; j++ {
				if a := m.NamedChild(j); a.Type() == "access_modifier" && strings.HasPrefix(f.text(a), "private") {
					return false
				}
			}
		}
	}
	return true
}

// scalaBases lists the types of the extends clause as written, without
// constructor arguments.
func scalaBases(d *decl, f *fileInfo) []string {
	ext := d.node.ChildByFieldName("extend")
	if ext == nil {
		return nil
	}
	var out []string
	for i, cnt := 0, int(ext.ChildCount()); i < cnt; i++ {
		if ext.FieldNameForChild(i) == "type" && ext.Child(i).IsNamed() {
			out = append(out, collapseSpace(f.text(ext.Child(i)), maxSignature))
		}
	}
	return out
}
