package extract

// Lua conventions.
//
// Module: the require name of the file: its path without extension,
// '/' → '.', without a leading "lua/" (Neovim's runtime path) and with
// "x/init.lua" named "x" — so lib/util.lua is lib.util, the name
// `require "lib.util"` loads.
//
// Qualified names: <module>.<table path>.<name>. `function M.f()` and
// `M.f = function` have parent M and kind function; `function M:m()` has
// parent M and kind method; `function a.b.c:d()` has parent c and
// qualified <module>.a.b.c.d whatever function it is nested in. Functions
// in a table constructor bound to a name (`local M = { f = function() end
// }`) have that name as parent; those of the table the module returns
// (`return { f = function() end }`) are top-level. `local function f`,
// `local f = function` and global `function f` / `f = function` are
// functions; nested in a function their parent is that function.
// Anonymous functions (callbacks, fields of other tables) are not symbols:
// their calls belong to the enclosing named function. Outside every named
// function they are Places (`app:get("/x", function() … end)`, a
// module's `return function(…) … end`).
//
// Exported: everything but `local function f` and `local f = function`
// (globals and table fields are reachable from other modules).
//
// Imports: require "a.b" and require("a.b") with a literal name; the
// path is the module name as written, the alias the local it is bound to
// (`local json = require("cjson")`). Require names are not relative, so
// nothing is resolved.
//
// Calls: f(), f "s", f{...}, a.f(), a:m(). The grammar gives a.b.c() as a
// flat list, so the receiver is the segment just before the name (b), or
// the call before it (a:b():c() has receiver a:b()).

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/lua"
)

func init() {
	register(&Language{
		Name:         "lua",
		Extensions:   []string{".lua"},
		Interpreters: []string{"lua", "luajit"},
		grammar:      lua.GetLanguage,
		serial:       true, // its scanner keeps state in C globals
		lineComments: []string{"--"},
		blockComments: [][2]string{
			{"--[[", "]]"}, {"--[=[", "]=]"}, {"--[==[", "]==]"},
		},
		module:   luaModule,
		imports:  luaImports,
		refine:   luaRefine,
		exported: luaExported,
		places:   luaPlaces,
	})
}

// luaModule is the require name of the file.
func luaModule(f *fileInfo, _ string) string {
	p := strings.TrimPrefix(f.path, "lua/")
	if dir, ok := strings.CutSuffix(p, "/init.lua"); ok {
		return strings.ReplaceAll(dir, "/", ".") // x/init.lua is require "x"
	}
	if p == "init.lua" {
		p = f.path
	}
	return pathModule(p)
}

// luaRefine splits dotted names into the table path and the name, and
// undoes the grammar's habit of starting a top-level statement at the end
// of the previous line (with its doc comments as children).
func luaRefine(d *decl, f *fileInfo) bool {
	n := d.node
	// The declaration starts at its first token that is not documentation.
	start := n.StartByte()
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		c := n.Child(i)
		if t := c.Type(); t != "emmy_documentation" && t != "comment" {
			start = c.StartByte()
			break
		}
	}
	for start < d.end && luaSpace(f.src[start]) {
		start++
	}
	d.start = start

	var table []string // the table path: M in M.f, a.b.c in a.b.c:d
	switch n.Type() {
	case "function_statement":
		d.body = luaBody(n)
		if d.nameNode.Type() == "function_name" {
			for i, cnt := 0, int(d.nameNode.NamedChildCount()); i < cnt; i++ {
				c := d.nameNode.NamedChild(i)
				switch c.Type() {
				case "identifier":
					table = append(table, strings.TrimSpace(f.text(c)))
				case "table_colon":
					d.kind = KindMethod
				}
			}
			d.name, table = table[len(table)-1], table[:len(table)-1]
		}
	case "variable_declaration":
		if luaDeclaratorPath(n, f) == nil {
			return false // a, f = x, function(): not one name for one function
		}
		value := n.ChildByFieldName("value")
		if value != nil {
			d.body = luaBody(value)
		}
		decl := d.nameNode
		var last *sitter.Node
		for i, cnt := 0, int(decl.NamedChildCount()); i < cnt; i++ {
			c := decl.NamedChild(i)
			if c.Type() != "identifier" {
				return false // t[k] = function: no name
			}
			table = append(table, strings.TrimSpace(f.text(c)))
			last = c
		}
		if len(table) == 0 {
			return false
		}
		d.name, table = table[len(table)-1], table[:len(table)-1]
		// The name node of a top-level `f = function` holds the newline
		// before it; the value is on the name's line.
		switch {
		case len(table) > 0:
			d.nameNode = last
		case value != nil && f.text(decl) != d.name:
			d.nameNode = value
		}
	case "field":
		if v := n.ChildByFieldName("value"); v != nil {
			d.body = luaBody(v)
		}
		// field → fieldlist → tableconstructor → variable_declaration or
		// module_return_statement.
		if list := n.Parent(); list != nil {
			if tc := list.Parent(); tc != nil {
				owner := tc.Parent()
				if owner != nil && owner.Type() == "variable_declaration" {
					// Only module-level tables name their fields; a table
					// built inside a function is a value like any other.
					if p := owner.Parent(); p == nil || p.Type() != "program" {
						return false
					}
					if table = luaDeclaratorPath(owner, f); table == nil {
						return false
					}
				}
			}
		}
	}
	if len(table) > 0 {
		// A synthetic parent names the table without making its functions
		// methods (the engine would for a parentName) or depending on the
		// lexical nesting.
		d.parent = &decl{
			name:      table[len(table)-1],
			qualified: joinQualified(f.module, strings.Join(table, ".")),
			kind:      KindModule,
			parent:    d.parent,
		}
	}
	return true
}

// luaDeclaratorPath is the dotted name of the only variable a
// declaration assigns, or nil.
func luaDeclaratorPath(vd *sitter.Node, f *fileInfo) []string {
	var path []string
	declarators := 0
	for i, cnt := 0, int(vd.NamedChildCount()); i < cnt; i++ {
		c := vd.NamedChild(i)
		if c.Type() != "variable_declarator" {
			continue
		}
		if bytes.IndexByte(f.src[c.StartByte():c.EndByte()], '[') >= 0 {
			return nil // t[k] = function: the grammar flattens the key into the name
		}
		declarators++
		for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
			id := c.NamedChild(j)
			if id.Type() != "identifier" {
				return nil
			}
			path = append(path, strings.TrimSpace(f.text(id)))
		}
	}
	if declarators != 1 {
		return nil
	}
	return path
}

// luaBody is the node the signature stops at: the function body, or the
// closing `end` of an empty function.
func luaBody(fn *sitter.Node) *sitter.Node {
	var end *sitter.Node
	for i, cnt := 0, int(fn.NamedChildCount()); i < cnt; i++ {
		switch c := fn.NamedChild(i); c.Type() {
		case "function_body":
			return c
		case "function_end":
			end = c
		}
	}
	return end
}

func luaSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// luaExported: local functions are private to their chunk.
func luaExported(d *decl, _ *fileInfo) bool {
	switch d.node.Type() {
	case "function_statement", "variable_declaration":
		for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
			switch t := d.node.NamedChild(i).Type(); t {
			case "emmy_documentation", "comment":
			default:
				return t != "local"
			}
		}
	}
	return true
}

// luaImports decodes require "x" and require("x"), with the local the
// module is bound to.
func luaImports(n *sitter.Node, f *fileInfo) []Import {
	prefix := n.ChildByFieldName("prefix")
	if prefix == nil || strings.TrimSpace(f.text(prefix)) != "require" {
		return nil
	}
	args := n.ChildByFieldName("args")
	if args == nil {
		return nil
	}
	str := args
	if args.Type() == "function_arguments" {
		if args.NamedChildCount() != 1 {
			return nil
		}
		str = args.NamedChild(0)
	}
	if str.Type() != "string" && str.Type() != "string_argument" {
		return nil
	}
	name, ok := luaStringValue(f.text(str))
	if !ok || name == "" {
		return nil
	}
	im := Import{Path: name, Names: []ImportName{}, Line: luaLine(prefix, f)}
	// local x = require "m": x is the alias; with several names, the one
	// at the same position as this value. The grammar flattens
	// require("m").sub into siblings, so the call must be a whole value:
	// between "=" or "," and "," or the end.
	if p := n.Parent(); p != nil && p.Type() == "variable_declaration" {
		var names []*sitter.Node
		seg, afterEq, prevSep := 0, false, false
		for i, cnt := 0, int(p.ChildCount()); i < cnt; i++ {
			c := p.Child(i)
			switch {
			case c.Type() == "variable_declarator" && !afterEq:
				names = append(names, c)
			case c.Type() == "=":
				afterEq, prevSep = true, true
				continue
			case c.Type() == "," && afterEq:
				seg++
				prevSep = true
				continue
			case c.StartByte() == n.StartByte() && c.EndByte() == n.EndByte():
				next := p.Child(i + 1)
				whole := prevSep && (next == nil || next.Type() == ",")
				if whole && seg < len(names) && names[seg].NamedChildCount() == 1 {
					im.Alias = strings.TrimSpace(f.text(names[seg]))
				}
			}
			prevSep = false
		}
	}
	return []Import{im}
}

// luaLine is the 1-based line of the first non-space byte of n.
func luaLine(n *sitter.Node, f *fileInfo) int {
	line := int(n.StartPoint().Row) + 1
	for i := n.StartByte(); i < n.EndByte() && luaSpace(f.src[i]); i++ {
		if f.src[i] == '\n' {
			line++
		}
	}
	return line
}

// luaStringValue unquotes a short string literal ("x", 'x') or a long one
// ([[x]]); escapes other than \\ and quotes make it not a plain name.
func luaStringValue(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
		if strings.ContainsRune(s, '\\') {
			return "", false
		}
		return s, true
	}
	if strings.HasPrefix(s, "[[") && strings.HasSuffix(s, "]]") {
		return s[2 : len(s)-2], true
	}
	return "", false
}
