package extract

// Imports of JavaScript and TypeScript: ES modules, CommonJS require and
// dynamic import(); see lang_javascript.go.

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// isRequire reports whether e is require("…") or require("…").name.
func isRequire(e *sitter.Node, f *fileInfo) bool {
	if e.Type() == "member_expression" {
		e = e.ChildByFieldName("object")
	}
	return e != nil && e.Type() == "call_expression" && f.text(e.ChildByFieldName("function")) == "require"
}

// jsImports decodes import and export-from statements, require("…") and
// import("…") calls.
func jsImports(n *sitter.Node, f *fileInfo) []Import {
	im := Import{Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	switch n.Type() {
	case "import_statement":
		src := n.ChildByFieldName("source")
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "import_clause":
				jsImportClause(c, f, &im)
			case "import_require_clause": // import x = require("m")
				src = c.ChildByFieldName("source")
				for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
					if id := c.NamedChild(j); id.Type() == "identifier" {
						im.Alias = f.text(id)
					}
				}
			}
		}
		if src == nil {
			return nil // import A = N.B is not a module import
		}
		im.Path = unquoteJS(f.text(src))
	case "export_statement":
		im.Path = unquoteJS(f.text(n.ChildByFieldName("source")))
		star := true
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "export_clause":
				star = false
				for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
					if s := c.NamedChild(j); s.Type() == "export_specifier" {
						im.Names = append(im.Names, ImportName{
							Name:  unquoteJS(f.text(s.ChildByFieldName("name"))),
							Alias: unquoteJS(f.text(s.ChildByFieldName("alias"))),
						})
					}
				}
			case "namespace_export": // export * as ns from "m"
				star = false
				for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
					im.Alias = unquoteJS(f.text(c.NamedChild(j)))
				}
			}
		}
		if star {
			im.Names = append(im.Names, ImportName{Name: "*"})
		}
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil || fn.Type() != "import" && f.text(fn) != "require" {
			return nil
		}
		args := n.ChildByFieldName("arguments")
		if args == nil || args.NamedChildCount() == 0 {
			return nil
		}
		arg := args.NamedChild(0)
		if arg.Type() != "string" {
			return nil
		}
		im.Path = unquoteJS(f.text(arg))
		jsRequireBinding(n, f, &im)
	default:
		return nil
	}
	if im.Path == "" {
		return nil
	}
	im.Resolved = jsResolve(f.path, im.Path)
	return []Import{im}
}

// jsImportClause reads `def, * as ns` and `{a, b as c}`.
func jsImportClause(c *sitter.Node, f *fileInfo, im *Import) {
	for i, cnt := 0, int(c.NamedChildCount()); i < cnt; i++ {
		ch := c.NamedChild(i)
		switch ch.Type() {
		case "identifier": // default import
			im.Names = append(im.Names, ImportName{Name: "default", Alias: f.text(ch)})
		case "namespace_import":
			for j, m := 0, int(ch.NamedChildCount()); j < m; j++ {
				if id := ch.NamedChild(j); id.Type() == "identifier" {
					im.Alias = f.text(id)
				}
			}
		case "named_imports":
			for j, m := 0, int(ch.NamedChildCount()); j < m; j++ {
				if s := ch.NamedChild(j); s.Type() == "import_specifier" {
					im.Names = append(im.Names, ImportName{
						Name:  unquoteJS(f.text(s.ChildByFieldName("name"))),
						Alias: f.text(s.ChildByFieldName("alias")),
					})
				}
			}
		}
	}
}

// jsRequireBinding reads what the result of require("m") or
// await import("m") is bound to: `const x =` (alias), `const {a, b: c} =`
// (names), `const s = require("m").sub` (name sub as s).
func jsRequireBinding(call *sitter.Node, f *fileInfo, im *Import) {
	n, member := call, ""
	for {
		p := n.Parent()
		if p == nil {
			return
		}
		switch p.Type() {
		case "await_expression", "parenthesized_expression":
			n = p
			continue
		case "member_expression":
			if obj := p.ChildByFieldName("object"); member != "" || obj == nil || !obj.Equal(n) {
				return
			}
			member, n = f.text(p.ChildByFieldName("property")), p
			continue
		case "variable_declarator":
			if v := p.ChildByFieldName("value"); v == nil || !v.Equal(n) {
				return
			}
			name := p.ChildByFieldName("name")
			switch {
			case name == nil:
			case name.Type() == "identifier" && member != "":
				alias := f.text(name)
				if alias == member {
					alias = ""
				}
				im.Names = append(im.Names, ImportName{Name: member, Alias: alias})
			case name.Type() == "identifier":
				im.Alias = f.text(name)
			case name.Type() == "object_pattern" && member == "":
				jsObjectPatternNames(name, f, im)
			}
		}
		return
	}
}

// jsObjectPatternNames reads `{a, b: c, d = 1}` as imported names.
func jsObjectPatternNames(pat *sitter.Node, f *fileInfo, im *Import) {
	for i, cnt := 0, int(pat.NamedChildCount()); i < cnt; i++ {
		p := pat.NamedChild(i)
		switch p.Type() {
		case "shorthand_property_identifier_pattern":
			im.Names = append(im.Names, ImportName{Name: f.text(p)})
		case "object_assignment_pattern": // {a = 1}
			if l := p.ChildByFieldName("left"); l != nil {
				im.Names = append(im.Names, ImportName{Name: f.text(l)})
			}
		case "pair_pattern":
			key, val := p.ChildByFieldName("key"), p.ChildByFieldName("value")
			if val != nil && val.Type() == "assignment_pattern" {
				val = val.ChildByFieldName("left")
			}
			if key == nil || val == nil || val.Type() != "identifier" {
				continue
			}
			im.Names = append(im.Names, ImportName{Name: unquoteJS(f.text(key)), Alias: f.text(val)})
		}
	}
}

// jsCodeExtensions are dropped from a resolved relative import.
var jsCodeExtensions = []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}

// jsResolve turns a relative import of the file at from into a module
// name: "./b" in src/a.ts → src.b; "../lib/" → lib.index. It returns ""
// for package imports and for paths that leave the root.
func jsResolve(from, imp string) string {
	if imp != "." && imp != ".." && !strings.HasPrefix(imp, "./") && !strings.HasPrefix(imp, "../") {
		return ""
	}
	dir := imp == "." || imp == ".." || strings.HasSuffix(imp, "/")
	p := path.Join(path.Dir(from), imp)
	if p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	if dir {
		p = path.Join(p, "index")
	} else {
		for _, e := range jsCodeExtensions {
			if strings.HasSuffix(p, e) {
				p = strings.TrimSuffix(p, e)
				break
			}
		}
	}
	if p == "." || p == "" {
		return ""
	}
	return strings.ReplaceAll(p, "/", ".")
}
