package extract

// Rust conventions.
//
// Qualified names: the module is the Rust module path the file defines,
// with "crate" for the crate root and '.' for "::": under the last "src"
// directory of the path, src/lib.rs and src/main.rs are "crate",
// src/net.rs and src/net/mod.rs are "crate.net", src/net/tcp.rs is
// "crate.net.tcp" (src/bin/tool.rs, a crate root of its own, is
// "crate.bin.tool"). Where the directory holding src has a Cargo.toml
// with a package, the crate's name stands for "crate": its [lib] name, or
// its package name with '-' as '_' (crates/searcher/src/sink.rs of
// package grep-searcher is "grep_searcher.sink"), so the crates of a
// workspace stay apart and a path through a crate's name (`use
// grep_searcher::Searcher`) names the crate's modules. Files outside a
// src directory (tests/, examples/, benches/, build.rs) use the path
// module: tests/api.rs is "tests.api". Inline `mod` blocks, types and
// impl blocks nest: "crate.net.Conn.read".
//
// Symbols: functions (function); methods, the functions of an impl block
// or a trait (method), whose parent is the impl's type without path or
// generics (the methods of `impl<T> fmt::Display for Wrapper<T>` have
// parent Wrapper); structs and unions (struct); enums (enum); traits
// (trait); type aliases and associated types (type); inline `mod name {
// ... }` blocks (module; `mod name;` only declares a file); `macro_rules!`
// macros (function: they are called like functions); function signatures
// in traits and extern blocks (method/function, Declaration: they have no
// body). Impl blocks themselves are not symbols.
//
// Exported: an item with a visibility other than pub(self) — pub,
// pub(crate), pub(super), pub(in path) make it visible outside its module.
// Trait items have the trait's visibility, items of a trait impl are
// exported, a macro_rules! is exported with #[macro_export], and items in a
// function body never are.
//
// Doc: rustdoc comments only — `///` lines and `/** */` blocks above the
// item, attributes and plain comments in between allowed; `//!` inner docs
// belong to the enclosing module and are not symbol docs.
//
// Bases: a trait's supertraits (`trait A: B + fmt::Debug` → B,
// fmt::Debug); the traits a struct, enum or union derives
// (`#[derive(Debug, Clone)]` → Debug, Clone). Impl blocks elsewhere in the
// file are not consulted.
//
// Imports: one Import per path a `use` names, the path written with "::":
// `use a::b::C;` is path "a::b" with name C, `use a::{b, c as d}` is path
// "a" with names b and c as d, `use a::{self, b}` is path "a" with no
// names (the module itself; `self as m` is alias m) and path "a" with
// name b, `use a::*` is name "*", nested groups
// give one Import per group, a single-segment `use foo;` or `extern crate
// foo as bar;` is path "foo" (alias "bar") with no names. Paths starting
// with crate, self or super are Resolved to the module they name.
//
// Calls: f(x), x.f(), Type::f() and path::f() (Receiver "Type", "path"),
// turbofish calls f::<T>() and x.collect::<T>(); macro invocations f!(x)
// are calls named "f"; inside macro arguments, which tree-sitter leaves as
// token trees, a call is recognised as an identifier followed by (...),
// with the single token before a "." or "::" as Receiver
// (`format!("{}", self.name())` calls name with Receiver "self"; in
// `a.b.c()` the Receiver is "b"), in the outer two levels of brackets.
// Calls in closures belong to the enclosing item.
//
// Bindings: parameters, plain-named lets and struct fields with their
// types as written (rustBindings), for the call graph's receiver types.

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/rust"
)

func init() {
	register(&Language{
		Name:       "rust",
		Extensions: []string{".rs"},
		grammar:    rust.GetLanguage,
		// Doc comments are read from the syntax tree by rustDoc.
		module:    rustModule,
		imports:   rustImports,
		refine:    rustRefine,
		signature: rustSignature,
		doc:       rustDoc,
		exported:  rustExported,
		testOnly:  rustTestOnly,
		bases:     rustBases,
		bindings:  rustBindings,
		places:    rustPlaces,
	})
}

// rustModule maps the file path to its module path (see above).
func rustModule(f *fileInfo, _ string) string {
	p := strings.TrimSuffix(f.path, path.Ext(f.path))
	parts := strings.Split(p, "/")
	src := rustSrcIndex(f.path)
	if src < 0 {
		if len(parts) > 1 && parts[len(parts)-1] == "mod" {
			parts = parts[:len(parts)-1]
		}
		return strings.Join(parts, ".")
	}
	root := "crate"
	if f.proj != nil {
		dir := strings.Join(parts[:src], "/")
		if dir == "" {
			dir = "."
		}
		if name := f.proj.rustCrate(dir); name != "" {
			root = name
		}
	}
	rest := parts[src+1:]
	if len(rest) == 1 && (rest[0] == "lib" || rest[0] == "main") {
		return root
	}
	if rest[len(rest)-1] == "mod" {
		rest = rest[:len(rest)-1]
	}
	return root + "." + strings.Join(rest, ".")
}

// rustSrcIndex returns the index among the slash path's elements of the
// last "src" directory, or -1.
func rustSrcIndex(p string) int {
	parts := strings.Split(p, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == "src" {
			return i
		}
	}
	return -1
}

// rustRefine names impl blocks by their type, and marks a function
// without a body (a trait's required method, an extern block's function)
// a declaration.
func rustRefine(d *decl, f *fileInfo) bool {
	d.declaration = d.node.Type() == "function_signature_item"
	if d.node.Type() == "impl_item" {
		text := collapseSpace(f.text(d.nameNode), 200)
		if d.name = receiverType(text); d.name == "" {
			d.name = text
		}
	}
	return true
}

// rustSignature drops the ';' of bodiless items and the rules of a macro.
func rustSignature(d *decl, sig string) string {
	if d.node.Type() == "macro_definition" {
		return "macro_rules! " + d.name
	}
	return strings.TrimSpace(strings.TrimSuffix(sig, ";"))
}

// rustExported applies the visibility rule above.
func rustExported(d *decl, f *fileInfo) bool {
	if inFunction(d) {
		return false
	}
	if vis := childOfType(d.node, "visibility_modifier"); vis != nil {
		return strings.ReplaceAll(f.text(vis), " ", "") != "pub(self)"
	}
	if d.node.Type() == "macro_definition" {
		for _, a := range rustAttributes(d.node, f) {
			if a == "macro_export" || strings.HasPrefix(a, "macro_export(") {
				return true
			}
		}
		return false
	}
	p := d.parent
	for p != nil && p.dropped {
		p = p.parent
	}
	if p == nil {
		return false
	}
	switch p.node.Type() {
	case "trait_item":
		return rustExported(p, f)
	case "impl_item":
		return p.node.ChildByFieldName("trait") != nil
	}
	return false
}

// rustTestOnly reports whether an item is compiled only for tests: a
// #[cfg(test)] module (or any item under a cfg that requires test) or a
// #[test] function (#[tokio::test] and the like too).
func rustTestOnly(d *decl, f *fileInfo) bool {
	for _, a := range rustAttributes(d.node, f) {
		if a == "test" || strings.HasSuffix(a, "::test") {
			return true
		}
		if cond, ok := strings.CutPrefix(a, "cfg"); ok && rustCfgTest(strings.TrimSpace(cond)) {
			return true
		}
	}
	return false
}

// rustCfgTest reports whether a cfg predicate, "(test)" or
// "(all(test, feature = \"x\"))", holds only in test builds: test itself or
// all(...) with test among its terms.
func rustCfgTest(pred string) bool {
	pred = strings.TrimSpace(pred)
	if !strings.HasPrefix(pred, "(") || !strings.HasSuffix(pred, ")") {
		return false
	}
	pred = strings.TrimSpace(pred[1 : len(pred)-1])
	if pred == "test" {
		return true
	}
	if inner, ok := strings.CutPrefix(pred, "all"); ok {
		inner = strings.TrimSpace(inner)
		if strings.HasPrefix(inner, "(") && strings.HasSuffix(inner, ")") {
			for _, term := range strings.Split(inner[1:len(inner)-1], ",") {
				if strings.TrimSpace(term) == "test" {
					return true
				}
			}
		}
	}
	return false
}

// rustAttributes returns the texts inside the #[...] attributes above n.
func rustAttributes(n *sitter.Node, f *fileInfo) []string {
	var out []string
	for p := n.PrevNamedSibling(); p != nil; p = p.PrevNamedSibling() {
		switch p.Type() {
		case "attribute_item":
			if a := childOfType(p, "attribute"); a != nil {
				out = append(out, collapseSpace(f.text(a), 400))
			}
		case "line_comment", "block_comment":
		default:
			return out
		}
	}
	return out
}

// rustBases lists supertraits and derived traits.
func rustBases(d *decl, f *fileInfo) []string {
	var out []string
	switch d.node.Type() {
	case "trait_item":
		b := d.node.ChildByFieldName("bounds")
		if b == nil {
			return nil
		}
		for i, cnt := 0, int(b.NamedChildCount()); i < cnt; i++ {
			ch := b.NamedChild(i)
			if ch.Type() == "lifetime" || ch.Type() == "line_comment" || ch.Type() == "block_comment" {
				continue
			}
			out = append(out, collapseSpace(f.text(ch), 200))
		}
	case "struct_item", "enum_item", "union_item":
		attrs := rustAttributes(d.node, f)
		for i := len(attrs) - 1; i >= 0; i-- {
			args, ok := strings.CutPrefix(attrs[i], "derive")
			if !ok {
				continue
			}
			args = strings.TrimSpace(args)
			if !strings.HasPrefix(args, "(") || !strings.HasSuffix(args, ")") {
				continue
			}
			for _, t := range strings.Split(args[1:len(args)-1], ",") {
				if t = strings.TrimSpace(t); t != "" {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// rustDoc reads the rustdoc comments above the item.
func rustDoc(d *decl, f *fileInfo) string {
	return docAbove(d.node, f, rustComment)
}

// isSlashDocComment accepts "///" and "/** */" doc comments, not "////",
// "/***" or the empty "/**/" (Rust and Swift).
func isSlashDocComment(text string) bool {
	switch {
	case strings.HasPrefix(text, "///"):
		return !strings.HasPrefix(text, "////")
	case strings.HasPrefix(text, "/**"):
		return !strings.HasPrefix(text, "/***") && !strings.HasPrefix(text, "/**/")
	}
	return false
}

// rustComment accepts outer doc comments, passing over attributes and
// plain comments.
var rustComment = docSyntax{
	isComment: func(n *sitter.Node) bool {
		return n.Type() == "line_comment" || n.Type() == "block_comment"
	},
	accept: isSlashDocComment,
	skip: func(n *sitter.Node) bool {
		switch n.Type() {
		case "attribute_item", "line_comment", "block_comment":
			return true
		}
		return false
	},
	clean: &Language{lineComments: []string{"//"}, blockComments: [][2]string{{"/*", "*/"}}},
}

// rustImports decodes use declarations and extern crate.
func rustImports(n *sitter.Node, f *fileInfo) []Import {
	line := int(n.StartPoint().Row) + 1
	if n.Type() == "extern_crate_declaration" {
		name := n.ChildByFieldName("name")
		if name == nil {
			return nil
		}
		return []Import{{
			Path:  f.text(name),
			Alias: f.text(n.ChildByFieldName("alias")),
			Names: []ImportName{},
			Line:  line,
		}}
	}
	arg := n.ChildByFieldName("argument")
	if arg == nil {
		return nil
	}
	u := rustUse{f: f}
	u.walk(arg, "", true)
	if len(u.out) == 0 {
		return nil
	}
	mod, root := rustModuleAt(n, f), f.module
	if rustSrcIndex(f.path) >= 0 {
		root, _, _ = strings.Cut(f.module, ".")
	}
	for i := range u.out {
		u.out[i].Resolved = rustResolve(u.out[i].Path, mod, root)
	}
	return u.out
}

// rustUse flattens a use tree into imports, one per path.
type rustUse struct {
	f   *fileInfo
	out []Import
}

// add records name (with alias) imported from path; name "" imports path
// itself.
func (u *rustUse) add(p string, name, alias string, at *sitter.Node) {
	if name == "self" && p != "" {
		// `use a::b::{self, c}`: the module a::b itself.
		name = ""
		if alias != "" {
			u.out = append(u.out, Import{Path: p, Alias: alias, Names: []ImportName{}, Line: int(at.StartPoint().Row) + 1})
			return
		}
	}
	if p == "" && name != "" {
		p, name = name, ""
		if alias != "" {
			// `use foo as bar;`: the module itself, renamed.
			u.out = append(u.out, Import{Path: p, Alias: alias, Names: []ImportName{}, Line: int(at.StartPoint().Row) + 1})
			return
		}
	}
	for i := range u.out {
		if u.out[i].Path == p && name != "" && len(u.out[i].Names) > 0 {
			u.out[i].Names = append(u.out[i].Names, ImportName{Name: name, Alias: alias})
			return
		}
	}
	im := Import{Path: p, Names: []ImportName{}, Line: int(at.StartPoint().Row) + 1}
	if name != "" {
		im.Names = append(im.Names, ImportName{Name: name, Alias: alias})
	}
	u.out = append(u.out, im)
}

// walk visits a use tree node under prefix; top is true for the argument
// of the use declaration itself.
func (u *rustUse) walk(n *sitter.Node, prefix string, top bool) {
	switch n.Type() {
	case "identifier", "self", "super", "crate", "metavariable":
		u.add(prefix, u.f.text(n), "", n)
	case "scoped_identifier":
		p, name := u.split(n, prefix)
		u.add(p, name, "", n)
	case "use_as_clause":
		pn := n.ChildByFieldName("path")
		alias := u.f.text(n.ChildByFieldName("alias"))
		if pn == nil {
			return
		}
		if pn.Type() == "scoped_identifier" {
			p, name := u.split(pn, prefix)
			u.add(p, name, alias, n)
		} else {
			u.add(prefix, u.f.text(pn), alias, n)
		}
	case "use_wildcard":
		p := prefix
		if pn := n.NamedChild(0); pn != nil {
			p = joinPath(prefix, collapseSpace(u.f.text(pn), 400))
		}
		u.add(p, "*", "", n)
	case "scoped_use_list":
		p := prefix
		if pn := n.ChildByFieldName("path"); pn != nil {
			p = joinPath(prefix, collapseSpace(u.f.text(pn), 400))
		}
		if list := n.ChildByFieldName("list"); list != nil {
			u.walk(list, p, false)
		}
	case "use_list":
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			u.walk(n.NamedChild(i), prefix, false)
		}
	}
}

// split divides a scoped identifier into its path (after prefix) and
// last name: `a::b::C` → "a::b", "C".
func (u *rustUse) split(n *sitter.Node, prefix string) (string, string) {
	p := prefix
	if pn := n.ChildByFieldName("path"); pn != nil {
		p = joinPath(prefix, collapseSpace(u.f.text(pn), 400))
	} else if strings.HasPrefix(u.f.text(n), "::") {
		p = joinPath(prefix, "")
	}
	return p, u.f.text(n.ChildByFieldName("name"))
}

func joinPath(prefix, p string) string {
	if prefix == "" {
		return p
	}
	return prefix + "::" + p
}

// rustModuleAt is the module path of the code at n: the file's module
// plus the inline mod blocks around n.
func rustModuleAt(n *sitter.Node, f *fileInfo) string {
	var mods []string
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "mod_item" {
			mods = append(mods, f.text(p.ChildByFieldName("name")))
		}
	}
	m := f.module
	for i := len(mods) - 1; i >= 0; i-- {
		m = joinQualified(m, mods[i])
	}
	return m
}

// rustResolve turns a use path starting with crate, self or super into a
// module name, seen from module mod of the crate whose root module is
// root (a file outside src, tests/api.rs, is a crate root itself); ""
// for other paths.
func rustResolve(p, mod, root string) string {
	segs := strings.Split(p, "::")
	var base []string
	switch segs[0] {
	case "crate":
		base = strings.Split(root, ".")
		segs = segs[1:]
	case "self":
		base = strings.Split(mod, ".")
		segs = segs[1:]
	case "super":
		base = strings.Split(mod, ".")
		for len(segs) > 0 && segs[0] == "super" {
			if len(base) <= 1 {
				return ""
			}
			base = base[:len(base)-1]
			segs = segs[1:]
		}
	default:
		return ""
	}
	for _, s := range segs {
		if s == "" || s == "self" || s == "super" || s == "crate" {
			return ""
		}
	}
	return strings.Join(append(base, segs...), ".")
}
