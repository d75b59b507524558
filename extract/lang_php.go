package extract

// PHP conventions.
//
// Module: the file's first declared namespace with '\' → '.'
// (namespace App\Models → App.Models); a file without one is named by its
// path without extension, '/' → '.'. The namespace is the module, not a
// symbol (as Go's package clause). A file with several namespaces names
// all its symbols after the first.
//
// Qualified names: <module>.<Class>.<method>: App.Models.User.save.
//
// Kinds: class, interface, trait, enum, function; methods of all four
// type kinds are methods (constructors included). Methods of anonymous
// classes (`new class {...}`) and closures (`function () use ($x) {}`,
// `fn($x) => ...`, also when assigned to a variable) are not symbols;
// their calls belong to the enclosing named symbol. A closure outside
// every function (a routes file's `Route::get('/x', function () {…})`,
// a config file's returned closure) is a Place.
//
// Exported: everything except private and protected methods (a method with
// no visibility modifier is public).
//
// Bases: the extended class or interfaces, the implemented interfaces and
// the traits used in the body, as written (`\JsonSerializable`).
//
// Imports: every `use` clause of a namespace_use_declaration: the path is
// the namespace as written (without a leading '\'; "\" for the global
// namespace), the imported class, function or constant is a name, aliased
// by `as`; clauses of one statement from the same namespace share an
// import. `use A\{B, C\D as E}` gives A {B} and A\C {D as E}. Resolved is
// the namespace in module form (A.C). include/require(_once) with a string
// literal are imports too: the path is the string, or the expression as
// written (`__DIR__ . '/x.php'`); it is resolved against the file's
// directory when it is a literal or starts with __DIR__ or
// dirname(__FILE__), to the path module of the target.
//
// Calls: f() and \ns\f() (name f, receiver ns), $o->m() and $o?->m()
// (receiver $o), A::m(), self::m(), static::m(), parent::m() (receiver A,
// self, static, parent), and `new X` / `new \ns\X` (name X: the class,
// which resolves to its constructor; `new static` and `new self` keep
// those words as the name). Calls of variables ($f(), $o->$m()) have no
// name and are skipped. Calls in HTML template blocks (`<?= f($x) ?>`)
// are module-level.

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/php"
)

func init() {
	register(&Language{
		Name:           "php",
		Extensions:     []string{".php", ".phtml"},
		Interpreters:   []string{"php"},
		grammar:        php.GetLanguage,
		lineComments:   []string{"//", "#"},
		blockComments:  [][2]string{{"/*", "*/"}},
		docAcrossBlank: isDocBlockAcrossBlank,
		module:         phpModule,
		imports:        phpImports,
		refine:         phpRefine,
		signature:      phpSignature,
		exported:       phpExported,
		bases:          phpBases,
		places:         phpPlaces,
	})
}

// phpModule is the declared namespace in dotted form, or the path module.
func phpModule(f *fileInfo, declared string) string {
	if declared == "" {
		return pathModule(f.path)
	}
	return strings.ReplaceAll(strings.TrimPrefix(declared, "\\"), "\\", ".")
}

// phpRefine drops methods of anonymous classes.
func phpRefine(d *decl, _ *fileInfo) bool {
	if d.node.Type() == "method_declaration" {
		if list := d.node.Parent(); list != nil {
			if p := list.Parent(); p != nil && p.Type() == "object_creation_expression" {
				return false
			}
		}
	}
	return true
}

// phpSignature drops leading attributes (#[...]) and the `;` of abstract
// and interface methods, and closes up multi-line parameter lists.
func phpSignature(_ *decl, sig string) string {
	for strings.HasPrefix(sig, "#[") {
		end := phpAttributeEnd(sig)
		if end < 0 {
			break
		}
		sig = strings.TrimSpace(sig[end:])
	}
	sig = strings.TrimRight(sig, "; ")
	// Parameters on their own lines: "f( int $a, int $b, )" → "f(int $a, int $b)".
	if strings.Contains(sig, "( ") || strings.Contains(sig, " )") {
		sig = strings.NewReplacer("( ", "(", ", )", ")", " )", ")").Replace(sig)
	}
	return sig
}

// phpAttributeEnd returns the index just past the `]` closing the
// attribute group at the start of s, or -1.
func phpAttributeEnd(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// phpExported hides private and protected methods.
func phpExported(d *decl, f *fileInfo) bool {
	if d.node.Type() != "method_declaration" {
		return true
	}
	for i, cnt := 0, int(d.node.NamedChildCount()); i < cnt; i++ {
		c := d.node.NamedChild(i)
		if c.Type() == "visibility_modifier" {
			v := strings.ToLower(f.text(c))
			return v != "private" && v != "protected"
		}
	}
	return true
}

// phpBases lists extends, implements and used traits as written.
func phpBases(d *decl, f *fileInfo) []string {
	var out []string
	n := d.node
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "base_clause", "class_interface_clause":
			for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
				out = append(out, f.text(c.NamedChild(j)))
			}
		case "declaration_list", "enum_declaration_list":
			for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
				u := c.NamedChild(j)
				if u.Type() != "use_declaration" {
					continue
				}
				for k, o := 0, int(u.NamedChildCount()); k < o; k++ {
					if t := u.NamedChild(k); t.Type() == "name" || t.Type() == "qualified_name" {
						out = append(out, f.text(t))
					}
				}
			}
		}
	}
	return out
}

// phpImports decodes use declarations and include/require expressions.
func phpImports(n *sitter.Node, f *fileInfo) []Import {
	if n.Type() == "namespace_use_declaration" {
		return phpUses(n, f)
	}
	if n.NamedChildCount() == 0 {
		return nil
	}
	arg := n.NamedChild(0)
	for arg.Type() == "parenthesized_expression" && arg.NamedChildCount() > 0 {
		arg = arg.NamedChild(0)
	}
	im := Import{Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	var rel string // the path relative to the file's directory, if known
	switch arg.Type() {
	case "string", "encapsed_string":
		s, ok := phpStringValue(arg, f)
		if !ok {
			return nil
		}
		im.Path, rel = s, s
	case "binary_expression":
		left, right := arg.ChildByFieldName("left"), arg.ChildByFieldName("right")
		if right == nil || (right.Type() != "string" && right.Type() != "encapsed_string") {
			return nil
		}
		im.Path = collapseSpace(f.text(arg), 200)
		if s, ok := phpStringValue(right, f); ok && phpIsDir(left, f) {
			rel = "./" + strings.TrimPrefix(s, "/")
		}
	default:
		return nil
	}
	if im.Path == "" {
		return nil
	}
	if rel != "" && !strings.HasPrefix(rel, "/") && !strings.Contains(rel, "://") {
		p := path.Join(path.Dir(f.path), rel)
		if p != ".." && !strings.HasPrefix(p, "../") {
			im.Resolved = pathModule(p)
		}
	}
	return []Import{im}
}

// phpIsDir reports whether n is __DIR__ or dirname(__FILE__).
func phpIsDir(n *sitter.Node, f *fileInfo) bool {
	if n == nil {
		return false
	}
	switch t := strings.ReplaceAll(f.text(n), " ", ""); t {
	case "__DIR__", "dirname(__FILE__)", `\dirname(__FILE__)`:
		return true
	}
	return false
}

// phpStringValue is the content of a string literal without
// interpolation.
func phpStringValue(n *sitter.Node, f *fileInfo) (string, bool) {
	var b strings.Builder
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "string_content":
			b.WriteString(f.text(c))
		case "escape_sequence":
			b.WriteString(strings.TrimPrefix(f.text(c), "\\"))
		default:
			return "", false
		}
	}
	return b.String(), true
}

// phpUses decodes `use A\B as C, D;`, `use function A\f;` and the grouped
// `use A\{B, C\D as E, function f};` into one import per namespace.
func phpUses(n *sitter.Node, f *fileInfo) []Import {
	var out []Import
	line := int(n.StartPoint().Row) + 1
	add := func(full, alias string) {
		full = strings.TrimPrefix(full, "\\")
		if full == "" {
			return
		}
		ns, name := "", full
		if i := strings.LastIndexByte(full, '\\'); i >= 0 {
			ns, name = full[:i], full[i+1:]
		}
		p, resolved := ns, strings.ReplaceAll(ns, "\\", ".")
		if ns == "" {
			p = "\\"
		}
		for i := range out {
			if out[i].Path == p {
				out[i].Names = append(out[i].Names, ImportName{Name: name, Alias: alias})
				return
			}
		}
		out = append(out, Import{Path: p, Names: []ImportName{{Name: name, Alias: alias}}, Line: line, Resolved: resolved})
	}
	alias := func(c *sitter.Node) string {
		for i, cnt := 0, int(c.NamedChildCount()); i < cnt; i++ {
			if a := c.NamedChild(i); a.Type() == "namespace_aliasing_clause" && a.NamedChildCount() > 0 {
				return f.text(a.NamedChild(0))
			}
		}
		return ""
	}
	prefix := ""
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "namespace_name":
			prefix = strings.TrimPrefix(f.text(c), "\\")
		case "namespace_use_clause":
			for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
				if q := c.NamedChild(j); q.Type() == "qualified_name" || q.Type() == "name" || q.Type() == "namespace_name" {
					add(f.text(q), alias(c))
					break
				}
			}
		case "namespace_use_group":
			for j, m := 0, int(c.NamedChildCount()); j < m; j++ {
				g := c.NamedChild(j)
				if g.Type() != "namespace_use_group_clause" {
					continue
				}
				for k, o := 0, int(g.NamedChildCount()); k < o; k++ {
					if q := g.NamedChild(k); q.Type() == "namespace_name" || q.Type() == "name" || q.Type() == "qualified_name" {
						add(prefix+"\\"+f.text(q), alias(g))
						break
					}
				}
			}
		}
	}
	return out
}
