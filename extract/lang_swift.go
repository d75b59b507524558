package extract

// Swift conventions.
//
// Qualified names: Swift has one namespace per module (target), not per
// file, so the module is the target: the directory after "Sources" or
// "Tests" (SwiftPM: Sources/NetKit/Conn.swift is "NetKit"), else the first
// directory of the path (an Xcode project's target folder: App/View.swift
// is "App"), else, for a file at the root, its name without extension.
// Types nest: "<module>.<Type>.<Nested>.<method>". Members of an extension
// are qualified by the extended type, whichever file they are in:
// `extension Circle { func grow() }` is "<module>.Circle.grow", and
// `extension Outer.Inner` members are "<module>.Outer.Inner.<name>";
// extensions of sugared types name the type: `extension [T]` is Array.
//
// Symbols: classes and actors (class), structs (struct), enums (enum),
// protocols (interface), typealiases (type), functions and methods
// (function/method; operators are named by their operator, "=="), and in
// types `init` (method "init"), `deinit` (method "deinit") and subscripts
// (method "subscript"); protocol requirements are methods of the protocol.
// Extensions are not symbols; properties and enum cases are not symbols.
//
// Exported: not private or fileprivate, and not inside a private or
// fileprivate type or extension, nor inside a function body. (internal,
// the default, counts as exported: it is visible to the other files of
// the module.)
//
// Doc: `///` lines and `/** */` blocks directly above the declaration
// (attributes are part of the declaration; plain comments in between are
// passed over).
//
// Bases: the superclass and protocols after ':' as written.
//
// Imports: `import Foundation` is path "Foundation"; `import Darwin.C` is
// path "Darwin.C"; a kind import `import struct Pkg.Thing` is path "Pkg"
// with name Thing; attributes (@testable, @_exported) are ignored.
//
// Calls: f(x), f { closure } (trailing closures; `defer { }`, which the
// grammar reads as a call, is not one), Type(x) (constructor calls are
// calls of the type), Type<T>(x), a.f(x), a?.f(x), self.f(x),
// super.init(x) (Receiver "a", "self", "super"), implicit member calls
// .f(x) (no receiver); subscripts a[i], which the grammar reads as calls,
// are not calls; the
// grammar binds prefix operators tighter than calls, so `!a.f()` reads as
// (!a).f(): the operator is dropped from a one-part receiver ("a") but
// stays in a longer one (`!a.b.f()` has Receiver "!a.b"). Calls in
// closures, including trailing closures, belong to the enclosing function.

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/swift"
)

func init() {
	register(&Language{
		Name:       "swift",
		Extensions: []string{".swift"},
		grammar:    swift.GetLanguage,
		// Doc comments are read from the syntax tree by swiftDoc.
		module:      swiftModule,
		imports:     swiftImports,
		refine:      swiftRefine,
		signature:   func(_ *decl, sig string) string { return strings.TrimSpace(strings.TrimSuffix(sig, ";")) },
		doc:         swiftDoc,
		exported:    swiftExported,
		bases:       swiftBases,
		places:      swiftPlaces,
		blankErrors: true,
	})
}

// swiftModule names the target the file belongs to (see above).
func swiftModule(f *fileInfo, _ string) string {
	parts := strings.Split(f.path, "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "Sources" || parts[i] == "Tests" {
			return parts[i+1]
		}
	}
	if len(parts) > 1 {
		return parts[0]
	}
	return strings.TrimSuffix(parts[0], path.Ext(parts[0]))
}

// swiftRefine names extensions by the extended type and gives subscripts
// their body.
func swiftRefine(d *decl, f *fileInfo) bool {
	switch d.node.Type() {
	case "class_declaration":
		if !d.container {
			return true
		}
		// extension Outer.Inner<T>: the type identifiers are the path.
		var parts []*sitter.Node
		for i, cnt := 0, int(d.nameNode.NamedChildCount()); i < cnt; i++ {
			if ch := d.nameNode.NamedChild(i); ch.Type() == "type_identifier" {
				parts = append(parts, ch)
			}
		}
		if len(parts) == 0 {
			// extension [T], [K: V], T?: the sugared standard types.
			d.name = map[string]string{"array_type": "Array", "dictionary_type": "Dictionary", "optional_type": "Optional"}[d.nameNode.Type()]
			if d.name == "" {
				d.name = collapseSpace(f.text(d.nameNode), 200)
			}
			return true
		}
		d.nameNode = parts[len(parts)-1]
		d.name = f.text(d.nameNode)
		if len(parts) > 1 {
			var scopes []string
			for _, p := range parts[:len(parts)-1] {
				scopes = append(scopes, f.text(p))
			}
			setScopes(d, f, scopes)
		}
	case "subscript_declaration":
		d.body = childOfType(d.node, "computed_property")
	}
	return true
}

// swiftExported applies the rule above.
func swiftExported(d *decl, f *fileInfo) bool {
	if inFunction(d) {
		return false
	}
	for p := d; p != nil; p = p.parent {
		if swiftPrivate(p.node, f) {
			return false
		}
	}
	return true
}

// swiftPrivate reports whether declaration n is private or fileprivate.
func swiftPrivate(n *sitter.Node, f *fileInfo) bool {
	mods := childOfType(n, "modifiers")
	if mods == nil {
		return false
	}
	for i, cnt := 0, int(mods.NamedChildCount()); i < cnt; i++ {
		if m := mods.NamedChild(i); m.Type() == "visibility_modifier" {
			switch f.text(m) {
			case "private", "fileprivate":
				return true
			}
		}
	}
	return false
}

// swiftBases lists the types after ':'.
func swiftBases(d *decl, f *fileInfo) []string {
	var out []string
	for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
		ch := d.node.NamedChild(i)
		if ch.Type() != "inheritance_specifier" {
			continue
		}
		t := ch.ChildByFieldName("inherits_from")
		if t == nil {
			t = ch
		}
		out = append(out, collapseSpace(f.text(t), 200))
	}
	return out
}

// swiftDoc reads the doc comments above the declaration.
func swiftDoc(d *decl, f *fileInfo) string {
	return docAbove(d.node, f, swiftComment)
}

var swiftComment = docSyntax{
	isComment: func(n *sitter.Node) bool {
		return n.Type() == "comment" || n.Type() == "multiline_comment"
	},
	accept: isSlashDocComment,
	skip: func(n *sitter.Node) bool {
		return n.Type() == "comment" || n.Type() == "multiline_comment"
	},
	clean: &Language{lineComments: []string{"//"}, blockComments: [][2]string{{"/*", "*/"}}},
}

// swiftImportKinds are the keywords of a kind import (`import struct M.T`).
var swiftImportKinds = map[string]bool{
	"typealias": true, "struct": true, "class": true, "enum": true,
	"protocol": true, "let": true, "var": true, "func": true,
}

// swiftImports decodes an import declaration.
func swiftImports(n *sitter.Node, f *fileInfo) []Import {
	var id *sitter.Node
	kind := false
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		ch := n.Child(i)
		switch {
		case ch.Type() == "identifier":
			id = ch
		case !ch.IsNamed() && swiftImportKinds[ch.Type()]:
			kind = true
		}
	}
	if id == nil {
		return nil
	}
	im := Import{Path: strings.ReplaceAll(f.text(id), " ", ""), Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	if kind {
		if i := strings.LastIndexByte(im.Path, '.'); i > 0 {
			im.Names = append(im.Names, ImportName{Name: im.Path[i+1:]})
			im.Path = im.Path[:i]
		}
	}
	return []Import{im}
}
