package extract

// Ruby conventions.
//
// Module: the file's path without extension, '/' → '.' (lib/shop/cart.rb →
// lib.shop.cart). Ruby has no file-level namespace; the path is what
// require names, so it is the file's identity and the caller of top-level
// code. Qualified names then follow the lexical nesting of modules and
// classes: lib.shop.cart.Shop.Cart.add. A compact name `class A::B::C` is
// split: name C, parent "A.B", qualified <module>.A.B.C (nested in
// `module X` it is <module>.X.A.B.C).
//
// Kinds: class, module (kind module), method for every def directly in a
// class or module (including `def self.x` and defs in `class << self`, whose
// parent is the class: singleton and instance methods share the qualified
// namespace), function for top-level defs and defs nested in a def.
// `Point = Struct.new(...)`, `Class.new(Base)` and `Data.define(...)`
// assigned to a constant are classes (bases Struct, Base, Data), and
// `Module.new` a module; defs in their blocks are their methods.
//
// Exported: classes, modules and top-level defs always; a method unless it
// is private or protected: after a bare `private`/`protected` in the same
// body (until `public`), wrapped (`private def x`), or named later
// (`private :x`, `private_class_method :x` for singleton methods; bare
// `private` does not apply to `def self.x`).
//
// Imports: require, require_relative, load and autoload with a string
// literal (autoload :Name, "path" gives names [Name]); require with
// File.expand_path("../x", __FILE__), File.expand_path("x", __dir__) or
// File.join(__dir__, "x"). require_relative and the File forms are
// resolved against the file's directory; require and load use the load
// path and are not resolved. Interpolated paths are skipped.
//
// Calls: every method call with a name — with or without parentheses or
// receiver (`puts x`, `foo.bar`, `obj&.m`, `Foo::bar`), including require
// and DSL calls (`attr_reader`, `include`); `super` is a call named
// "super". `X.new` is the call `new` with receiver X, as written. A bare
// identifier (`helper`) is not a call: without scope analysis it cannot be
// told from a local variable. Calls in blocks and lambdas belong to the
// enclosing def. A block or lambda outside every def (Sinatra's `get
// '/x' do … end`, a class body's `before_save do … end` or `scope :a,
// -> { … }`) is a Place.

import (
	"bytes"
	"path"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/ruby"
)

func init() {
	register(&Language{
		Name:          "ruby",
		Extensions:    []string{".rb", ".rake", ".gemspec"},
		Filenames:     []string{"Rakefile", "Gemfile"},
		Interpreters:  []string{"ruby"},
		grammar:       ruby.GetLanguage,
		lineComments:  []string{"#"},
		blockComments: [][2]string{{"=begin", "=end"}},
		imports:       rubyImports,
		refine:        rubyRefine,
		signature:     rubySignature,
		doc:           rubyDoc,
		docOnly:       true,
		exported:      rubyExported,
		bases:         rubyBases,
		places:        rubyPlaces,
	})
}

// rubyRefine splits compact class names, keeps only constant assignments
// that build a class, and makes defs in modules methods.
func rubyRefine(d *decl, f *fileInfo) bool {
	n := d.node
	switch n.Type() {
	case "class", "module":
		if d.nameNode.Type() == "scope_resolution" {
			parts := strings.Split(d.name, "::")
			d.name = parts[len(parts)-1]
			scope := parts[:len(parts)-1]
			for len(scope) > 0 && scope[0] == "" { // ::Top
				scope = scope[1:]
			}
			d.parentName = strings.Join(scope, ".")
		}
		if d.body = n.ChildByFieldName("body"); d.body == nil {
			d.body = rubyKeywordChild(n, "end")
		}
	case "assignment":
		call := n.ChildByFieldName("right")
		recv, meth := f.text(call.ChildByFieldName("receiver")), f.text(call.ChildByFieldName("method"))
		switch recv + "." + meth {
		case "Struct.new", "Class.new", "Data.define":
			d.kind = KindClass
		case "Module.new":
			d.kind = KindModule
		default:
			return false
		}
		d.body = call.ChildByFieldName("block")
	case "method", "singleton_method":
		if d.body == nil {
			d.body = n.ChildByFieldName("body")
			if d.body == nil {
				d.body = rubyKeywordChild(n, "end")
			}
		}
		lex := rubyLexParent(d)
		if n.Type() == "singleton_method" {
			obj := n.ChildByFieldName("object")
			switch {
			case obj != nil && obj.Type() != "self" && (lex == nil || f.text(obj) != lex.name):
				// def Foo.bar: the parent is Foo (inside class Foo, itself).
				d.parentName = receiverType(f.text(obj))
			case lex == nil:
				d.kind = KindFunction // def self.x at top level: self is main
			}
		} else if lex != nil && (lex.kind == KindModule || lex.kind.isTypeLike()) {
			d.kind = KindMethod
		}
	}
	return true
}

// rubyLexParent is the nearest enclosing declaration that was kept.
func rubyLexParent(d *decl) *decl {
	p := d.parent
	for p != nil && p.dropped {
		p = p.parent
	}
	return p
}

// rubyKeywordChild returns the last anonymous child of n with type kw,
// such as the `end` of a body-less def, so the signature stops before it.
func rubyKeywordChild(n *sitter.Node, kw string) *sitter.Node {
	for i := int(n.ChildCount()) - 1; i >= 0; i-- {
		if c := n.Child(i); c != nil && !c.IsNamed() && c.Type() == kw {
			return c
		}
	}
	return nil
}

// rubySignature drops the `;` that ends a one-line def or class head.
func rubySignature(_ *decl, sig string) string {
	return strings.TrimRight(sig, "; ")
}

// rubyDoc is the comment block above the declaration without the magic
// comments that may share it (`# frozen_string_literal: true`, a shebang).
func rubyDoc(d *decl, f *fileInfo) string {
	doc := commentAbove(d, f)
	if doc == "" || !strings.Contains(doc, ":") && !strings.HasPrefix(doc, "/") {
		return doc
	}
	lines := strings.Split(doc, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if rubyMagicComment(l) {
			continue
		}
		kept = append(kept, l)
	}
	return trimBlankLines(kept)
}

// rubyMagicComment reports whether a cleaned comment line is a magic
// comment or the remains of a shebang line.
func rubyMagicComment(l string) bool {
	l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "-*-"))
	for _, p := range []string{"frozen_string_literal:", "encoding:", "coding:", "warn_indent:", "shareable_constant_value:", "typed:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return strings.HasPrefix(l, "/") && strings.Contains(l, "ruby")
}

// rubyExported applies Ruby's method visibility; everything else is
// visible.
func rubyExported(d *decl, f *fileInfo) bool {
	if d.kind != KindMethod {
		return true
	}
	n := d.node
	stmt := n
	// private def x / protected def x: only looked for in the tree when
	// something precedes the def on its line (Parent is not cheap).
	lineStart := bytes.LastIndexByte(f.src[:n.StartByte()], '\n') + 1
	if len(bytes.TrimSpace(f.src[lineStart:n.StartByte()])) > 0 {
		if p := n.Parent(); p != nil && p.Type() == "argument_list" {
			if c := p.Parent(); c != nil && c.Type() == "call" && c.ChildByFieldName("receiver") == nil {
				switch f.text(c.ChildByFieldName("method")) {
				case "private", "protected", "private_class_method":
					return false
				case "public", "public_class_method":
					return true
				}
				stmt = c
			}
		}
	}
	owner := rubyLexParent(d)
	if owner == nil {
		return true
	}
	at, after := stmt.StartByte(), stmt.EndByte()
	body := rubyBodyOf(owner, at)
	if body == nil {
		if body = stmt.Parent(); body == nil {
			return true
		}
	}
	vis := rubyVisibilityOf(owner, body, f)
	singleton := n.Type() == "singleton_method"
	public := true
	if !singleton {
		// The last bare private/protected/public above the def; bare
		// `private` does not apply to def self.x.
		i := sort.Search(len(vis.sections), func(i int) bool { return vis.sections[i].at >= at })
		if i > 0 {
			public = vis.sections[i-1].kw == "public"
		}
	}
	// private :name (private_class_method :name for def self.x) below it.
	hide, show := "private", "public"
	if singleton {
		hide, show = "private_class_method", "public_class_method"
	}
	for _, m := range vis.named[d.name] {
		if m.at < after {
			continue
		}
		switch {
		case m.kw == hide || m.kw == "protected" && !singleton:
			public = false
		case m.kw == show:
			public = true
		}
	}
	return public
}

// rubyBodyOf returns the body of the declaration owner if the statement
// at byte at is directly in it, or nil (the def is in `class << self` or
// in a block).
func rubyBodyOf(owner *decl, at uint32) *sitter.Node {
	var body *sitter.Node
	switch owner.node.Type() {
	case "class", "module":
		body = owner.node.ChildByFieldName("body")
	case "assignment":
		if b := owner.node.ChildByFieldName("right").ChildByFieldName("block"); b != nil {
			body = b.ChildByFieldName("body")
		}
	}
	if body == nil {
		return nil
	}
	cur := sitter.NewTreeCursor(body)
	defer cur.Close()
	if cur.GoToFirstChildForByte(at) < 0 || cur.CurrentNode().StartByte() != at {
		return nil
	}
	return body
}

// rubyBodyVisibility is what a class body says about visibility: its bare
// section keywords in order, and the names given to `private :x` and kin.
type rubyBodyVisibility struct {
	owner    *decl
	start    uint32
	sections []rubyVisibilityMark
	named    map[string][]rubyVisibilityMark
}

type rubyVisibilityMark struct {
	at uint32 // start of the statement
	kw string // private, protected, public, private_class_method, ...
}

// rubyVisibilityCache memoises rubyBodyVisibility: reading the body again
// for each of its methods would be quadratic (measured: a third of the
// time on rdoc's 400 KB markdown.rb). It is keyed by the enclosing
// declaration, an object of one file's extraction that the entry keeps
// alive, so a hit never comes from another file. A few entries suffice:
// a worker reads the methods of a body one after the other, and a missed
// entry is only read again.
var rubyVisibilityCache struct {
	sync.Mutex
	entries [16]*rubyBodyVisibility
	next    int
}

// rubyVisibilityOf reads the visibility statements of body, once.
func rubyVisibilityOf(owner *decl, body *sitter.Node, f *fileInfo) *rubyBodyVisibility {
	start := body.StartByte()
	c := &rubyVisibilityCache
	c.Lock()
	for _, e := range c.entries {
		if e != nil && e.owner == owner && e.start == start {
			c.Unlock()
			return e
		}
	}
	c.Unlock()

	v := &rubyBodyVisibility{owner: owner, start: start, named: map[string][]rubyVisibilityMark{}}
	cur := sitter.NewTreeCursor(body)
	defer cur.Close()
	for ok := cur.GoToFirstChild(); ok; ok = cur.GoToNextSibling() {
		n := cur.CurrentNode()
		switch n.Type() {
		case "identifier":
			switch kw := f.text(n); kw {
			case "private", "protected", "public":
				v.sections = append(v.sections, rubyVisibilityMark{n.StartByte(), kw})
			}
		case "call":
			if n.ChildByFieldName("receiver") != nil {
				continue
			}
			kw := f.text(n.ChildByFieldName("method"))
			switch kw {
			case "private", "protected", "public", "private_class_method", "public_class_method":
			default:
				continue
			}
			args := n.ChildByFieldName("arguments")
			if args == nil {
				continue
			}
			for i, cnt := 0, int(args.NamedChildCount()); i < cnt; i++ {
				if name := rubySymbolName(args.NamedChild(i), f); name != "" {
					v.named[name] = append(v.named[name], rubyVisibilityMark{n.StartByte(), kw})
				}
			}
		}
	}

	c.Lock()
	c.entries[c.next] = v
	c.next = (c.next + 1) % len(c.entries)
	c.Unlock()
	return v
}

// rubySymbolName is the name in :name, "name" or :"name", or "".
func rubySymbolName(a *sitter.Node, f *fileInfo) string {
	switch a.Type() {
	case "simple_symbol":
		return strings.TrimPrefix(f.text(a), ":")
	case "string", "delimited_symbol":
		return rubyStringValue(a, f)
	}
	return ""
}

// rubyBases is the superclass and the modules mixed in with include,
// extend and prepend directly in the class body.
func rubyBases(d *decl, f *fileInfo) []string {
	var out []string
	n := d.node
	var body *sitter.Node
	switch n.Type() {
	case "class":
		if sc := n.ChildByFieldName("superclass"); sc != nil && sc.NamedChildCount() > 0 {
			out = append(out, f.text(sc.NamedChild(0)))
		}
		body = n.ChildByFieldName("body")
	case "assignment":
		call := n.ChildByFieldName("right")
		recv := f.text(call.ChildByFieldName("receiver"))
		if recv == "Class" {
			if args := call.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 {
				out = append(out, f.text(args.NamedChild(0)))
			}
		} else {
			out = append(out, recv)
		}
		if b := call.ChildByFieldName("block"); b != nil {
			body = b.ChildByFieldName("body")
		}
	}
	if body == nil {
		return out
	}
	for i, cnt := 0, int(body.NamedChildCount()); i < cnt; i++ {
		c := body.NamedChild(i)
		if c.Type() != "call" || c.ChildByFieldName("receiver") != nil {
			continue
		}
		switch f.text(c.ChildByFieldName("method")) {
		case "include", "extend", "prepend":
		default:
			continue
		}
		args := c.ChildByFieldName("arguments")
		if args == nil {
			continue
		}
		for j, m := 0, int(args.NamedChildCount()); j < m; j++ {
			if a := args.NamedChild(j); a.Type() == "constant" || a.Type() == "scope_resolution" {
				out = append(out, f.text(a))
			}
		}
	}
	return out
}

// rubyImports decodes require, require_relative, load and autoload.
func rubyImports(n *sitter.Node, f *fileInfo) []Import {
	method := f.text(n.ChildByFieldName("method"))
	args := n.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return nil
	}
	im := Import{Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	arg := args.NamedChild(0)
	relative := method == "require_relative"
	switch {
	case method == "autoload":
		if args.NamedChildCount() < 2 {
			return nil
		}
		im.Names = append(im.Names, ImportName{Name: strings.TrimPrefix(f.text(arg), ":")})
		im.Path = rubyStringValue(args.NamedChild(1), f)
	case arg.Type() == "string":
		im.Path = rubyStringValue(arg, f)
	case arg.Type() == "call":
		// File.expand_path("../x", __FILE__), File.expand_path("x", __dir__),
		// File.join(__dir__, "x")
		written, rel, ok := rubyFilePath(arg, f)
		if !ok {
			return nil
		}
		im.Path, im.Resolved = written, rubyResolve(f.path, rel)
	}
	if im.Path == "" {
		return nil
	}
	if relative {
		im.Resolved = rubyResolve(f.path, im.Path)
	}
	return []Import{im}
}

// rubyFilePath reads File.expand_path(rel, __FILE__ | __dir__) or
// File.join(__dir__ | File.dirname(__FILE__), parts...): the path as
// written and the path relative to the file's directory.
func rubyFilePath(call *sitter.Node, f *fileInfo) (written, rel string, ok bool) {
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() < 2 {
		return "", "", false
	}
	isDir := func(n *sitter.Node) bool {
		t := f.text(n)
		return t == "__dir__" || t == "File.dirname(__FILE__)" || t == "File.dirname __FILE__"
	}
	switch f.text(call.ChildByFieldName("method")) {
	case "expand_path":
		first, base := args.NamedChild(0), args.NamedChild(1)
		if args.NamedChildCount() != 2 || first.Type() != "string" {
			return "", "", false
		}
		p := rubyStringValue(first, f)
		switch {
		case isDir(base):
			return p, p, p != ""
		case f.text(base) == "__FILE__":
			// Relative to the file itself: "../x" is "x" beside it.
			rel, ok := strings.CutPrefix(p, "../")
			return p, rel, ok && rel != ""
		}
	case "join":
		if !isDir(args.NamedChild(0)) {
			return "", "", false
		}
		var parts []string
		for i, cnt := 1, int(args.NamedChildCount()); i < cnt; i++ {
			a := args.NamedChild(i)
			if a.Type() != "string" {
				return "", "", false
			}
			parts = append(parts, rubyStringValue(a, f))
		}
		p := path.Join(parts...)
		return p, p, p != "" && p != "."
	}
	return "", "", false
}

// rubyStringValue is the content of a string literal without
// interpolation, or "".
func rubyStringValue(n *sitter.Node, f *fileInfo) string {
	var b strings.Builder
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "string_content":
			b.WriteString(f.text(c))
		case "escape_sequence":
			b.WriteString(strings.TrimPrefix(f.text(c), "\\"))
		default:
			return ""
		}
	}
	return b.String()
}

// rubyResolve turns a path relative to the file's directory into the
// module name of the file it loads, or "" when it leaves the root.
func rubyResolve(file, rel string) string {
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, "#{") {
		return ""
	}
	p := path.Join(path.Dir(file), rel)
	if p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	if !strings.HasSuffix(p, ".rb") {
		p += ".rb"
	}
	return pathModule(p)
}
