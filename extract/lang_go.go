package extract

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

func init() {
	register(&Language{
		Name:          "go",
		Extensions:    []string{".go"},
		grammar:       golang.GetLanguage,
		lineComments:  []string{"//"},
		blockComments: [][2]string{{"/*", "*/"}},
		module:        goModuleName,
		imports:       goImports,
		signature:     goSignature,
		exported:      func(d *decl, _ *fileInfo) bool { return isUpperName(d.name) },
		bases:         goEmbedded,
		bindings:      goBindings,
		places:        goPlaces,
	})
}

// goModuleName is the package's import path: the go.mod module path plus
// the directory. External test packages (package x_test) get "_test".
func goModuleName(f *fileInfo, declared string) string {
	ip := f.proj.goImportPath(path.Dir(f.path))
	if strings.HasSuffix(declared, "_test") && strings.HasSuffix(f.path, "_test.go") {
		ip += "_test"
	}
	return ip
}

// goImports decodes an import declaration, single or grouped. An import
// that the standard library resolves to its vendor directory has the
// vendored package's import path as Resolved.
func goImports(n *sitter.Node, f *fileInfo) []Import {
	var out []Import
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
			ch := n.NamedChild(i)
			switch ch.Type() {
			case "import_spec":
				p := ch.ChildByFieldName("path")
				if p == nil {
					continue
				}
				ip, err := strconv.Unquote(f.text(p))
				if err != nil {
					ip = strings.Trim(f.text(p), "\"`")
				}
				im := Import{
					Path:  ip,
					Alias: f.text(ch.ChildByFieldName("name")),
					Names: []ImportName{},
					Line:  int(ch.StartPoint().Row) + 1,
				}
				if f.proj != nil {
					if v := f.proj.goVendored(path.Dir(f.path), ip); v != ip {
						im.Resolved = v // std's vendored golang.org/x/...
					}
				}
				out = append(out, im)
			case "import_spec_list":
				visit(ch)
			}
		}
	}
	visit(n)
	return out
}

// goSignature gives type specs their keyword and cuts struct and
// interface bodies: "type Server struct".
func goSignature(d *decl, sig string) string {
	switch d.node.Type() {
	case "type_spec", "type_alias":
		if i := strings.IndexByte(sig, '{'); i >= 0 {
			sig = strings.TrimSpace(sig[:i])
		}
		return "type " + sig
	}
	return sig
}

// goEmbedded lists embedded fields of a struct and embedded interfaces.
func goEmbedded(d *decl, f *fileInfo) []string {
	t := d.node.ChildByFieldName("type")
	if t == nil {
		return nil
	}
	var out []string
	switch t.Type() {
	case "struct_type":
		for i, cnt := 0, int(t.NamedChildCount()); i < cnt; i++ {
			list := t.NamedChild(i)
			if list.Type() != "field_declaration_list" {
				continue
			}
			for j, m := 0, int(list.NamedChildCount()); j < m; j++ {
				fd := list.NamedChild(j)
				if fd.Type() == "field_declaration" && fd.ChildByFieldName("name") == nil {
					if ty := fd.ChildByFieldName("type"); ty != nil {
						out = append(out, strings.TrimLeft(f.text(ty), "*"))
					}
				}
			}
		}
	case "interface_type":
		for i, cnt := 0, int(t.NamedChildCount()); i < cnt; i++ {
			if el := t.NamedChild(i); el.Type() == "type_elem" {
				out = append(out, f.text(el))
			}
		}
	}
	return out
}

// isUpperName reports whether name starts with an upper-case letter.
func isUpperName(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}
