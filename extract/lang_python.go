package extract

// Python conventions:
//   - module: the dotted path from the file's import root without ".py"
//     (src/pkg/mod.py is pkg.mod in a src layout; see python_roots.go); a
//     package's __init__.py names the package itself (pkg/__init__.py →
//     "pkg").
//   - qualified: module.Class.method, module.func.inner for nested defs.
//   - kinds: class; function (method when directly in a class body).
//   - exported: the name does not start with "_" (dunder names like
//     __init__ count as exported) and the symbol is not nested in a
//     function.
//   - doc: the docstring, cleaned like inspect.cleandoc; else "#" comments
//     directly above the def or its decorators.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

func init() {
	register(&Language{
		Name:         "python",
		Extensions:   []string{".py", ".pyi", ".pyw"},
		Interpreters: []string{"python", "pypy"},
		grammar:      python.GetLanguage,
		lineComments: []string{"#"},
		wrappers:     map[string]bool{"decorated_definition": true},
		module:       pythonModule,
		imports:      pythonImports,
		doc:          pythonDocstring,
		exported:     pythonExported,
		bases:        pythonBases,
		expr:         pythonExpr,
		exprShared:   pythonShared,
		params:       pythonParams,

		scopedImports: true,
		places:        pythonPlaces,
	})
}

// pythonModule is the dotted module path of f from its import root
// (python_roots.go).
func pythonModule(f *fileInfo, _ string) string {
	p := f.path
	prefix := ""
	if f.proj != nil {
		if root := f.proj.pythonRoot(p); root != "." {
			p = strings.TrimPrefix(p, root+"/")
		} else {
			prefix = f.proj.pythonRootPackage()
		}
	}
	for _, ext := range []string{".py", ".pyi", ".pyw"} {
		p = strings.TrimSuffix(p, ext)
	}
	if p == "__init__" {
		return prefix
	}
	p = strings.TrimSuffix(p, "/__init__")
	return joinQualified(prefix, strings.ReplaceAll(p, "/", "."))
}

// pythonPackage is the package that relative imports in f start from.
func pythonPackage(f *fileInfo) string {
	if strings.HasSuffix(f.path, "__init__.py") || strings.HasSuffix(f.path, "__init__.pyi") {
		return f.module
	}
	if i := strings.LastIndexByte(f.module, '.'); i >= 0 {
		return f.module[:i]
	}
	return ""
}

// resolveRelative resolves "..pkg.mod" against the file's package; ok is
// false when the dots climb above the root.
func resolveRelative(f *fileInfo, rel string) (string, bool) {
	dots := len(rel) - len(strings.TrimLeft(rel, "."))
	pkg := pythonPackage(f)
	for range dots - 1 {
		i := strings.LastIndexByte(pkg, '.')
		if i < 0 {
			return "", false // beyond the top-level package
		}
		pkg = pkg[:i]
	}
	return joinQualified(pkg, rel[dots:]), true
}

func pythonImports(n *sitter.Node, f *fileInfo) []Import {
	line := int(n.StartPoint().Row) + 1
	var out []Import
	switch n.Type() {
	case "import_statement":
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			path, alias := pythonImportName(n.NamedChild(i), f)
			if path != "" {
				out = append(out, Import{Path: path, Alias: alias, Names: []ImportName{}, Line: line})
			}
		}
	case "import_from_statement", "future_import_statement":
		im := Import{Path: "__future__", Names: []ImportName{}, Line: line}
		if mod := n.ChildByFieldName("module_name"); mod != nil {
			im.Path = collapseSpace(f.text(mod), 200)
		}
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			ch := n.NamedChild(i)
			if n.FieldNameForChild(childIndex(n, ch)) == "module_name" {
				continue
			}
			switch ch.Type() {
			case "wildcard_import":
				im.Names = append(im.Names, ImportName{Name: "*"})
			case "dotted_name", "aliased_import":
				name, alias := pythonImportName(ch, f)
				im.Names = append(im.Names, ImportName{Name: name, Alias: alias})
			}
		}
		if strings.HasPrefix(im.Path, ".") {
			if r, ok := resolveRelative(f, im.Path); ok {
				im.Resolved = r
			}
		}
		out = append(out, im)
	}
	return out
}

// childIndex returns the index of ch among n's children (named or not).
func childIndex(n, ch *sitter.Node) int {
	for i, cnt := 0, int(n.ChildCount()); i < cnt; i++ {
		if c := n.Child(i); c != nil && c.StartByte() == ch.StartByte() && c.EndByte() == ch.EndByte() && c.Type() == ch.Type() {
			return i
		}
	}
	return -1
}

// pythonImportName reads "a.b" or "a.b as c".
func pythonImportName(n *sitter.Node, f *fileInfo) (name, alias string) {
	switch n.Type() {
	case "dotted_name":
		return f.text(n), ""
	case "aliased_import":
		return f.text(n.ChildByFieldName("name")), f.text(n.ChildByFieldName("alias"))
	}
	return "", ""
}

// pythonDocstring returns the cleaned docstring of a def or class.
func pythonDocstring(d *decl, f *fileInfo) string {
	var body *sitter.Node
	for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
		if ch := d.node.NamedChild(i); ch.Type() == "block" {
			body = ch
			break
		}
	}
	if body == nil || body.NamedChildCount() == 0 {
		return ""
	}
	first := body.NamedChild(0)
	if first.Type() != "expression_statement" || first.NamedChildCount() != 1 {
		return ""
	}
	s := first.NamedChild(0)
	if s.Type() != "string" {
		return ""
	}
	return cleanDocstring(stripPythonQuotes(f.text(s)))
}

// stripPythonQuotes removes a string literal's prefix and quotes.
func stripPythonQuotes(s string) string {
	s = strings.TrimLeft(s, "rRuUbBfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) && strings.HasSuffix(s, q) && len(s) >= 2*len(q) {
			return s[len(q) : len(s)-len(q)]
		}
	}
	return s
}

// cleanDocstring dedents like Python's inspect.cleandoc: tabs expanded,
// the first line stripped, the others dedented by their common indent,
// blank lines at both ends removed.
func cleanDocstring(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if indent > 0 && len(lines[i]) >= indent {
			lines[i] = lines[i][indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " \r")
	}
	return trimBlankLines(lines)
}

func pythonExported(d *decl, _ *fileInfo) bool {
	if p := d.parent; p != nil && (p.kind == KindFunction || p.kind == KindMethod) {
		return false
	}
	return !strings.HasPrefix(d.name, "_") || strings.HasPrefix(d.name, "__") && strings.HasSuffix(d.name, "__")
}

// pythonBases lists the positional superclasses of a class.
func pythonBases(d *decl, f *fileInfo) []string {
	args := d.node.ChildByFieldName("superclasses")
	if args == nil {
		return nil
	}
	var out []string
	for i, cnt := 0, int(args.NamedChildCount()); i < cnt; i++ {
		if a := args.NamedChild(i); a.Type() != "keyword_argument" && a.Type() != "comment" {
			out = append(out, collapseSpace(f.text(a), 200))
		}
	}
	return out
}

// pythonParams lists the parameter names of a def: `def f(a, b=1, *c,
// d: int, **e)` has a, b, c, d and e; the markers * and / are not
// parameters.
func pythonParams(d *decl, f *fileInfo) []string {
	ps := d.node.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []string
	for i, cnt := 0, int(ps.NamedChildCount()); i < cnt; i++ {
		p := ps.NamedChild(i)
		switch p.Type() {
		case "default_parameter", "typed_default_parameter":
			p = p.ChildByFieldName("name")
		case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
			p = firstNamed(p)
			if p != nil && (p.Type() == "list_splat_pattern" || p.Type() == "dictionary_splat_pattern") {
				p = firstNamed(p) // typed *args: T
			}
		}
		if p != nil && p.Type() == "identifier" {
			out = append(out, f.text(p))
		}
	}
	return out
}
