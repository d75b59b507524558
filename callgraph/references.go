package callgraph

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
)

// Reference is a place that uses a function's name as a value instead of
// calling it (an extract.Ref): `Args: NoArgs`, `key=by_name`,
// `app.use(handler)`. The graph has no edge for it; the function may
// still run.
type Reference struct {
	// Caller is the qualified name of the symbol the reference is in, or
	// the file's module.
	Caller string `json:"caller"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

// refIndex lists every extract.Ref of the graph's files by name, built
// on first use after a change (adjacency resets it).
type refIndex struct {
	once   sync.Once
	byName map[string][]refSite
}

type refSite struct {
	file *extract.File
	ref  *extract.Ref
}

// References returns the places that use id's name as a value, sorted by
// file and line; it never returns nil. A reference is taken by name, as
// resolution by unique name is: in id's own file (bare, or through self,
// this or cls), in id's directory for Go (the same package), or in a file
// that imports the name, or its module under the receiver's name. A
// local variable of the same name in such a file is taken too.
func (g *Graph) References(id SymbolID) []Reference {
	out := []Reference{}
	n := g.nodes[id]
	if n.Kind == KindModule || n.Name == "" || g.refs == nil {
		return out
	}
	ix := g.refs
	ix.once.Do(func() {
		ix.byName = map[string][]refSite{}
		for _, p := range g.Files() {
			f := g.files[p]
			for i := range f.Refs {
				r := &f.Refs[i]
				ix.byName[r.Name] = append(ix.byName[r.Name], refSite{f, r})
			}
		}
	})
	module := strings.TrimSuffix(n.Qualified, "."+n.Name)
	for _, s := range ix.byName[n.Name] {
		if refersTo(s, n, module) {
			out = append(out, Reference{Caller: s.ref.Caller, File: s.file.Path, Line: s.ref.Line})
		}
	}
	slices.SortFunc(out, func(a, b Reference) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Caller, b.Caller))
	})
	return out
}

// refersTo reports whether s may use n, whose qualified name is module
// plus its name.
func refersTo(s refSite, n Node, module string) bool {
	f, r := s.file, s.ref
	switch recv := r.Receiver; {
	case f.Path == n.File:
		return recv == "" || recv == "self" || recv == "this" || recv == "cls"
	case recv == "" && f.Language == "go":
		return path.Dir(f.Path) == path.Dir(n.File) && n.Language == "go"
	case recv == "":
		for _, im := range f.Imports {
			for _, nm := range im.Names {
				if nm.Name == n.Name && nm.Alias == "" && importsModule(im, module) {
					return true
				}
			}
		}
	default:
		for _, im := range f.Imports {
			local := im.Alias
			if local == "" {
				local = path.Base(strings.ReplaceAll(im.Path, ".", "/"))
			}
			if local == recv && len(im.Names) == 0 && (importsModule(im, module) || f.Language == "go" && path.Base(path.Dir(n.File)) == path.Base(im.Path)) {
				return true
			}
		}
	}
	return false
}

// importsModule reports whether im names module, or a module it ends
// with ("./logging" for "flask.logging"); JavaScript paths are compared
// by their last part.
func importsModule(im extract.Import, module string) bool {
	for _, p := range []string{im.Resolved, im.Path} {
		p = strings.TrimLeft(strings.TrimSuffix(strings.TrimSuffix(p, ".js"), ".ts"), "./")
		p = strings.ReplaceAll(p, "/", ".")
		if p != "" && (module == p || strings.HasSuffix(module, "."+p)) {
			return true
		}
	}
	return false
}
