package extract

// C#.
//
// Module: the file-scoped namespace (`namespace Acme.Shop;`). A file with
// block namespaces has module "" and each block is a namespace symbol
// named as written ("Acme.Shop", nested blocks "Acme.Shop.Data"), so
// qualified names come out the same either way: "Acme.Shop.Store.Find". A
// file with neither (top-level statements, the global namespace) falls
// back to its path (pathModule).
//
// Kinds: namespace; class (classes, records); struct (structs, record
// structs); interface; enum; type (delegates); method (methods,
// constructors — named after the class —, destructors "~Foo", operators
// "operator +" and conversions "operator int"); function (local functions,
// whose parent is the enclosing method; top-level local functions of a
// Program.cs are functions of the module). Extension methods keep their
// lexical parent, the static class that declares them: that is where C#
// looks them up, and "this T" shows in the signature. The members of a C#
// 14 extension block ("extension(string s) { ... }", which the grammar
// misreads as a constructor) are methods of the static class too. Properties, indexers
// and events are not symbols; calls in their accessors belong to the type.
//
// Exported: visible from another assembly — public or protected (not
// "private protected"), or declared without an access modifier in an
// interface; and every enclosing type too. Types default to internal and
// members to private, so neither is exported without a modifier. Local
// functions never are; namespaces always are.
//
// Imports: `using A.B;` is path "A.B"; `using static A.B;` is path "A.B"
// with names [*]; `using X = A.B;` is path "A.B", alias "X"; "global
// using" is the same.
//
// Lambdas and anonymous methods are not symbols; outside every method
// (top-level statements' `app.MapGet("/x", () => …)`, a field's
// initialiser) they are Places.
//
// Calls: F(), F<T>(), x.F(), a?.F(), this.F(), base.F(); `new A.B.Foo()`
// is name "Foo", receiver "A.B"; a constructor initializer ": base(x)" or
// ": this(x)" is name "base" or "this".
//
// Bindings: declarations of fields, properties, locals, using-statement
// variables, parameters (primary constructor ones in the type's scope),
// foreach and catch variables whose type is not predefined or an array,
// with Type as written; `var x = new Foo()` has Value instead.
//
// Docs: /// XML doc comments, with tags turned into text; signatures drop
// leading attribute lists and a trailing ";".

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/csharp"
)

func init() {
	register(&Language{
		Name:          "csharp",
		Extensions:    []string{".cs"},
		grammar:       csharp.GetLanguage,
		lineComments:  []string{"//"},
		blockComments: [][2]string{{"/*", "*/"}},
		module:        csharpModule,
		imports:       csharpImports,
		refine:        csharpRefine,
		signature:     csharpSignature,
		doc:           csharpDoc,
		exported:      csharpExported,
		bases:         csharpBases,
		places:        csharpPlaces,
		blankErrors:   true,
	})
}

// csharpModule reads the @package capture: a file-scoped namespace name,
// or "namespace" when the file has a block namespace at the top level.
func csharpModule(f *fileInfo, declared string) string {
	if declared == "namespace" {
		return ""
	}
	return declaredModule(f, declared)
}

// csharpImports decodes one using directive.
func csharpImports(n *sitter.Node, f *fileInfo) []Import {
	im := Import{Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	static := false
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		ch := n.Child(i)
		switch {
		case !ch.IsNamed():
			if ch.Type() == "static" {
				static = true
			}
		case n.FieldNameForChild(i) == "name":
			im.Alias = f.text(ch)
		case ch.Type() != "comment":
			im.Path = strings.Join(strings.Fields(f.text(ch)), "")
		}
	}
	if im.Path == "" {
		return nil
	}
	if static {
		im.Names = append(im.Names, ImportName{Name: "*"})
	}
	return []Import{im}
}

// csharpRefine makes record structs structs and names destructors and
// operators.
func csharpRefine(d *decl, f *fileInfo) bool {
	switch d.node.Type() {
	case "record_declaration":
		if hasChildType(d.node, "struct") {
			d.kind = KindStruct
		}
	case "constructor_declaration":
		// The grammar predates C# 14 extension blocks and reads
		// "extension(string s) { ... }" as a constructor named
		// "extension" holding local functions. The block is dropped; its
		// members become members of the enclosing static class, as
		// classic extension methods are.
		if d.name == "extension" && (d.parent == nil || d.parent.name != "extension") {
			return false
		}
	case "destructor_declaration":
		d.name = "~" + d.name
	case "operator_declaration":
		d.name = "operator " + d.name
	case "conversion_operator_declaration":
		d.name = "operator " + collapseSpace(d.name, maxSignature)
	}
	return true
}

// hasChildType reports whether n has a direct child, named or not, of
// type t.
func hasChildType(n *sitter.Node, t string) bool {
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		if n.Child(i).Type() == t {
			return true
		}
	}
	return false
}

// csharpSignature drops leading attribute lists ("[Obsolete] [return: X]")
// and the ";" of a declaration without a body.
func csharpSignature(_ *decl, sig string) string {
	for strings.HasPrefix(sig, "[") {
		sig = strings.TrimLeft(sig[skipBalanced(sig, 0):], " ")
	}
	return strings.TrimRight(sig, "; ")
}

// csharpExported: see the file comment.
func csharpExported(d *decl, f *fileInfo) bool {
	for x := d; x != nil; x = x.parent {
		if x.kind == KindNamespace || x.dropped {
			continue
		}
		p := x.parent
		for p != nil && p.dropped {
			p = p.parent
		}
		if p != nil && (p.kind == KindFunction || p.kind == KindMethod) {
			return false
		}
		var public, protected, private, explicit bool
		for i, cnt := 0, int(x.node.NamedChildCount()); i < cnt; i++ {
			m := x.node.NamedChild(i)
			if m.Type() != "modifier" {
				continue
			}
			switch f.text(m) {
			case "public":
				public = true
			case "protected":
				protected = true
			case "private":
				private = true
			case "internal":
				explicit = true
			}
		}
		switch {
		case public, protected && !private:
		case private || protected || explicit:
			return false
		case p == nil || p.node.Type() != "interface_declaration":
			return false
		}
	}
	return true
}

// csharpBases lists the base class and interfaces of the base list as
// written, without primary constructor arguments.
func csharpBases(d *decl, f *fileInfo) []string {
	var out []string
	for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
		bl := d.node.NamedChild(i)
		if bl.Type() != "base_list" {
			continue
		}
		for j, m := 0, int(bl.NamedChildCount()); j < m; j++ {
			t := bl.NamedChild(j)
			switch t.Type() {
			case "argument_list", "comment":
				continue
			case "primary_constructor_base_type":
				if ty := t.ChildByFieldName("type"); ty != nil {
					t = ty
				}
			}
			out = append(out, collapseSpace(f.text(t), maxSignature))
		}
	}
	return out
}

// csharpDoc is the comment above the declaration with XML documentation
// tags turned into text.
func csharpDoc(d *decl, f *fileInfo) string {
	doc := commentAbove(d, f)
	if !strings.Contains(doc, "<") && !strings.Contains(doc, "&") {
		return doc
	}
	return xmlDocText(doc)
}

// xmlDocText turns C# XML documentation into text: <summary> and similar
// tags vanish, <see cref="X"/> and <paramref name="x"/> become X and x,
// <param name="x"> starts "x: ", <returns> "Returns: ", <exception
// cref="E"> "Throws E: ", <inheritdoc/> says so; entities are decoded;
// runs of blank lines collapse.
func xmlDocText(doc string) string {
	var b strings.Builder
	for len(doc) > 0 {
		i := strings.IndexByte(doc, '<')
		if i < 0 {
			b.WriteString(doc)
			break
		}
		b.WriteString(doc[:i])
		j := strings.IndexByte(doc[i:], '>')
		if j < 0 {
			b.WriteString(doc[i:])
			break
		}
		tag := doc[i+1 : i+j]
		doc = doc[i+j+1:]
		if strings.HasPrefix(tag, "/") {
			continue
		}
		name, attrs, _ := strings.Cut(strings.TrimSuffix(tag, "/"), " ")
		switch name {
		case "see", "seealso", "paramref", "typeparamref":
			v := xmlAttr(attrs, "cref")
			if v == "" {
				v = xmlAttr(attrs, "name")
			}
			if v == "" {
				v = xmlAttr(attrs, "langword")
			}
			if v == "" {
				v = xmlAttr(attrs, "href")
			}
			if len(v) > 2 && v[1] == ':' { // "T:System.String"
				v = v[2:]
			}
			b.WriteString(v)
		case "param", "typeparam":
			b.WriteString(xmlAttr(attrs, "name") + ": ")
		case "returns":
			b.WriteString("Returns: ")
		case "inheritdoc":
			if v := strings.TrimPrefix(xmlAttr(attrs, "cref"), "T:"); v != "" {
				b.WriteString("Inherits the documentation of " + v + ".")
			} else {
				b.WriteString("Inherits the documentation of the base member.")
			}
		case "exception":
			v := xmlAttr(attrs, "cref")
			if len(v) > 2 && v[1] == ':' {
				v = v[2:]
			}
			b.WriteString("Throws " + v + ": ")
		}
	}
	text := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&").Replace(b.String())
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" && (len(lines) == 0 || lines[len(lines)-1] == "") {
			continue
		}
		lines = append(lines, l)
	}
	return trimBlankLines(lines)
}

// xmlAttr returns the value of attribute name in attrs (`name="x" a='y'`).
func xmlAttr(attrs, name string) string {
	for attrs != "" {
		attrs = strings.TrimLeft(attrs, " ")
		k, rest, ok := strings.Cut(attrs, "=")
		if !ok || rest == "" {
			return ""
		}
		q := rest[0]
		if q != '"' && q != '\'' {
			return ""
		}
		end := strings.IndexByte(rest[1:], q)
		if end < 0 {
			return ""
		}
		if strings.TrimSpace(k) == name {
			return rest[1 : 1+end]
		}
		attrs = rest[end+2:]
	}
	return ""
}
