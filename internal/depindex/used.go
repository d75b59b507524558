package depindex

import (
	"path"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// UsedSymbol is a dependency's API symbol that a file's code uses.
type UsedSymbol struct {
	Dep string // name@version
	Symbol
}

// Used returns the API symbols of apis that f's calls name through its
// imports, at most max, in the order of their first call. A call through
// an imported module or package (`errgroup.WithContext`, `requests.get`)
// or of a name imported from it (`from tinyhttp import get; get()`) is
// matched by its qualified name, else by its last name inside that
// dependency; a method called on a value (`g.Go`) is matched only when
// one method of that name exists in the packages f imports from
// dependencies.
func Used(f *extract.File, apis []*API, max int) []UsedSymbol {
	local := map[string]importRef{} // local name → what it refers to
	var pkgs []importRef            // every import that is a dependency's
	for _, im := range f.Imports {
		a := owner(apis, im.Path)
		if a == nil {
			continue
		}
		ref := importRef{api: a, path: im.Path}
		pkgs = append(pkgs, ref)
		if len(im.Names) == 0 {
			name := im.Alias
			switch {
			case name != "":
			case a.Ecosystem == deps.Python: // `import a.b` binds a
				name = firstElem(im.Path)
				ref.path = name
			case a.Ecosystem == deps.Go:
				name = goPackageName(im.Path)
			default:
				name = lastElem(im.Path)
			}
			local[name] = ref
			continue
		}
		for _, n := range im.Names {
			if n.Name == "*" {
				continue
			}
			alias := n.Alias
			if alias == "" {
				alias = n.Name
			}
			local[alias] = importRef{api: a, path: im.Path, name: n.Name}
		}
	}
	if len(pkgs) == 0 {
		return nil
	}
	var out []UsedSymbol
	seen := map[string]bool{}
	add := func(a *API, s *Symbol) {
		if s == nil || len(out) >= max {
			return
		}
		key := a.Name + "@" + a.Version + " " + s.Qualified
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, UsedSymbol{Dep: a.Name + "@" + a.Version, Symbol: *s})
	}
	for _, c := range f.Calls {
		if len(out) >= max {
			break
		}
		switch ref, ok := local[firstElem(c.Receiver)]; {
		case ok && c.Receiver != "" && ref.name == "": // pkg.F() or mod.sub.F()
			target := ref.path
			if rest, sub := strings.CutPrefix(c.Receiver, firstElem(c.Receiver)+"."); sub && ref.api.Ecosystem == deps.Python {
				target += "." + rest
			}
			add(ref.api, ref.api.find(target, c.Name))
		case c.Receiver == "": // an imported name called: F()
			if ref, ok := local[c.Name]; ok && ref.name != "" {
				add(ref.api, ref.api.find(ref.path, ref.name))
			}
		default: // a method on a value: unique among the imported packages
			var hit *Symbol
			var from *API
			n := 0
			for _, p := range pkgs {
				for i := range p.api.Symbols {
					s := &p.api.Symbols[i]
					if s.Kind == string(extract.KindMethod) && lastElem(strings.ReplaceAll(s.Qualified, ".", "/")) == c.Name && inPackage(p, s) {
						if hit == nil || hit.Qualified != s.Qualified {
							n++
						}
						hit, from = s, p.api
					}
				}
			}
			if n == 1 {
				add(from, hit)
			}
		}
	}
	return out
}

type importRef struct {
	api  *API
	path string // the import path as written
	name string // the name imported from it; "" for the whole module
}

// owner returns the API whose dependency an import path belongs to.
func owner(apis []*API, imp string) *API {
	var best *API
	for _, a := range apis {
		if a.owns(imp) && (best == nil || len(a.Name) > len(best.Name)) {
			best = a
		}
	}
	return best
}

// owns reports whether the import path imp is a's: a Go package of the
// module, an npm package or its subpath, a Python top-level package
// or its submodule, or a Rust crate.
func (a *API) owns(imp string) bool {
	switch a.Ecosystem {
	case deps.Go, deps.NPM:
		return imp == a.Name || strings.HasPrefix(imp, a.Name+"/")
	case deps.Cargo:
		crate := strings.ReplaceAll(a.Name, "-", "_")
		return imp == crate || strings.HasPrefix(imp, crate+"::")
	case deps.Python:
		top := firstElem(imp)
		return slices.ContainsFunc(a.roots(), func(r string) bool { return r == top })
	}
	return false
}

// roots are the top-level Python packages and modules a's symbols live in.
func (a *API) roots() []string {
	var out []string
	for _, s := range a.Symbols {
		r, _, _ := strings.Cut(s.Path, "/")
		r = strings.TrimSuffix(r, ".py")
		if len(out) == 0 || out[len(out)-1] != r {
			out = append(out, r)
		}
	}
	return out
}

// find returns the symbol the import imp's name refers to: the one whose
// qualified name is imp's, dotted, followed by name; else the first
// whose last name is name and whose package is imp's; else the first of
// that last name anywhere in a. nil if none.
func (a *API) find(imp, name string) *Symbol {
	dotted := strings.NewReplacer("/", ".", "::", ".").Replace(imp)
	var inPkg, anywhere *Symbol
	for i := range a.Symbols {
		s := &a.Symbols[i]
		if s.Qualified == imp+"."+name || s.Qualified == dotted+"."+name {
			return s
		}
		if !strings.HasSuffix(s.Qualified, "."+name) {
			continue
		}
		if inPkg == nil && (a.Ecosystem != deps.Go || path.Dir(s.Path) == strings.TrimPrefix(strings.TrimPrefix(imp, a.Name), "/") ||
			(imp == a.Name && path.Dir(s.Path) == ".")) {
			inPkg = s
		}
		if anywhere == nil {
			anywhere = s
		}
	}
	if inPkg != nil {
		return inPkg
	}
	return anywhere
}

// inPackage reports whether s is in the package ref imports (Go), or in
// ref's dependency at all (other ecosystems).
func inPackage(ref importRef, s *Symbol) bool {
	if ref.api.Ecosystem != deps.Go {
		return true
	}
	dir := strings.TrimPrefix(strings.TrimPrefix(ref.path, ref.api.Name), "/")
	if dir == "" {
		dir = "."
	}
	return path.Dir(s.Path) == dir
}

func firstElem(s string) string {
	if i := strings.IndexAny(s, "./:"); i >= 0 {
		return s[:i]
	}
	return s
}

func lastElem(p string) string {
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndexAny(p, "/."); i >= 0 {
		return p[i+1:]
	}
	return p
}

// goPackageName guesses the name a Go import path's package declares:
// its last element, without a major-version element ("/v2") or suffix
// (".v3") and a "go-" prefix.
func goPackageName(imp string) string {
	elems := strings.Split(imp, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	return strings.TrimPrefix(name, "go-")
}
