package callgraph

import (
	"cmp"
	"path"
	"slices"
	"sort"
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

// RefSite is an extract.Ref with what References needs of the file it
// is in: its path, whether it is Go, and those of its imports that may
// bring the name in (RefImport). A store saves a graph's sites
// (RefSitesOf) so that a graph restored over files without their Refs
// (Saved.Refs) answers References as the graph it was saved from.
type RefSite struct {
	Name     string
	Receiver string
	Caller   string
	File     string
	Line     int
	Go       bool // the file is Go
	Imports  []RefImport
}

// RefImport is an import of a RefSite's file that may bring its name
// in: for a bare name, an import of the name itself, not renamed; for
// `recv.name`, a whole-module import bound to recv.
type RefImport struct{ Path, Resolved string }

// RefSitesOf returns the reference sites of files sorted by name, then
// file path, then the order of the file's Refs: the order References
// reads them in.
func RefSitesOf(files []extract.File) []RefSite {
	order := make([]*extract.File, 0, len(files))
	n := 0
	for i := range files {
		if len(files[i].Refs) > 0 {
			order = append(order, &files[i])
			n += len(files[i].Refs)
		}
	}
	slices.SortFunc(order, func(a, b *extract.File) int { return strings.Compare(a.Path, b.Path) })
	out := make([]RefSite, 0, n)
	for _, f := range order {
		for i := range f.Refs {
			out = append(out, siteOf(f, &f.Refs[i]))
		}
	}
	slices.SortStableFunc(out, func(a, b RefSite) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// siteOf returns the RefSite of r, a reference of f.
func siteOf(f *extract.File, r *extract.Ref) RefSite {
	s := RefSite{Name: r.Name, Receiver: r.Receiver, Caller: r.Caller, File: f.Path, Line: r.Line, Go: f.Language == "go"}
	switch recv := r.Receiver; {
	case recv == "" && s.Go:
		// By directory.
	case recv == "":
		for _, im := range f.Imports {
			for _, nm := range im.Names {
				if nm.Name == r.Name && nm.Alias == "" {
					s.Imports = append(s.Imports, RefImport{im.Path, im.Resolved})
					break
				}
			}
		}
	default:
		for _, im := range f.Imports {
			local := im.Alias
			if local == "" {
				local = path.Base(strings.ReplaceAll(im.Path, ".", "/"))
			}
			if local == recv && len(im.Names) == 0 {
				s.Imports = append(s.Imports, RefImport{im.Path, im.Resolved})
			}
		}
	}
	return s
}

// refIndex lists the graph's reference sites by name (RefSitesOf of its
// files, or the saved ones of a restored graph: Saved.Refs), made on
// first use after a change (adjacency resets it). A name's sites are in
// the order of the graph's files, which is by path, so a file's are a
// run found by binary search; local keeps, by name and file, the uses
// that every symbol of that file by that name is taken to have, for
// files with many (see own).
type refIndex struct {
	once   sync.Once
	saved  []RefSite // when not nil, the sites, as RefSitesOf sorts them
	byName map[string][]RefSite

	mu    sync.Mutex
	local map[nameFile][]Reference
}

type nameFile struct{ name, file string }

// References returns the places that use id's name as a value, sorted by
// file and line; it never returns nil. A reference is taken by name, as
// resolution by unique name is: in id's own file (bare, or through self,
// this or cls), in id's directory for Go (the same package), or in a file
// that imports the name, or its module under the receiver's name. A
// local variable of the same name in such a file is taken too.
func (g *Graph) References(id SymbolID) []Reference {
	out, _ := g.references(id, 0)
	return out
}

// ReferencesCapped returns the first limit places References(id) would
// return, in its order, and how many it would return in all: what a list
// capped with "and N more" shows, without building and sorting the whole
// list. A name that a bundle passes around thousands of times refers to
// each of the hundreds of functions it has by that name. A limit of 0 or
// less keeps them all.
func (g *Graph) ReferencesCapped(id SymbolID, limit int) (refs []Reference, total int) {
	return g.references(id, limit)
}

func (g *Graph) references(id SymbolID, limit int) ([]Reference, int) {
	n := g.nodes[id]
	if n.Kind == KindModule || n.Name == "" || g.refs == nil {
		return []Reference{}, 0
	}
	ix := g.refs
	ix.once.Do(func() {
		sites := ix.saved
		if sites == nil {
			files := make([]extract.File, 0, len(g.files))
			for _, f := range g.files {
				if len(f.Refs) > 0 {
					files = append(files, *f)
				}
			}
			sites = RefSitesOf(files)
		}
		ix.byName = map[string][]RefSite{}
		for i := 0; i < len(sites); {
			j := i + 1
			for j < len(sites) && sites[j].Name == sites[i].Name {
				j++
			}
			ix.byName[sites[i].Name] = sites[i:j:j]
			i = j
		}
	})
	return ReferencesAmong(n, ix.byName[n.Name], limit, ix.own)
}

// ReferencesAmong returns, as ReferencesCapped does, the places among
// sites that use n's name as a value: sites are those of n's name, as
// RefSitesOf sorts them. ownOf, when not nil, gives the uses in n's
// file among its run of sites (see refIndex.own, which keeps them for a
// long run); nil looks through the run each time.
func ReferencesAmong(n Node, sites []RefSite, limit int, ownOf func(name, file string, run []RefSite) []Reference) ([]Reference, int) {
	out := []Reference{}
	if n.Kind == KindModule || n.Name == "" {
		return out, 0
	}
	if ownOf == nil {
		ownOf = func(_, _ string, run []RefSite) []Reference { return ownRefs(run) }
	}
	// The uses in n's own file are the same for every symbol of the
	// file with n's name: where there are many, they are found and
	// sorted once. Only those of other files are looked through, which a
	// bundle has none of.
	lo := sort.Search(len(sites), func(i int) bool { return sites[i].File >= n.File })
	hi := lo + sort.Search(len(sites)-lo, func(i int) bool { return sites[lo+i].File > n.File })
	own := ownOf(n.Name, n.File, sites[lo:hi])
	module := strings.TrimSuffix(n.Qualified, "."+n.Name)
	total := len(own)
	for _, run := range [][]RefSite{sites[:lo], sites[hi:]} {
		for i := range run {
			s := &run[i]
			if !refersTo(s, n, module) {
				continue
			}
			total++
			r := Reference{Caller: s.Caller, File: s.File, Line: s.Line}
			switch {
			case limit <= 0:
				out = append(out, r)
			case len(out) < limit || refOrder(r, out[limit-1]) < 0:
				// Keep the limit first, sorted: equal places are equal
				// values, so where among them r goes does not matter.
				i, _ := slices.BinarySearchFunc(out, r, refOrder)
				out = slices.Insert(out, i, r)
				out = out[:min(len(out), limit)]
			}
		}
	}
	switch {
	case len(own) == 0:
		if limit <= 0 {
			slices.SortFunc(out, refOrder)
		}
		return out, total
	case len(out) == 0:
		if limit > 0 {
			own = own[:min(len(own), limit)]
		}
		return append(out, own...), total
	}
	slices.SortFunc(out, refOrder)
	// Merge the two sorted lists, up to limit.
	merged := make([]Reference, 0, len(out)+len(own))
	i, j := 0, 0
	for (i < len(out) || j < len(own)) && (limit <= 0 || len(merged) < limit) {
		if j == len(own) || i < len(out) && refOrder(out[i], own[j]) <= 0 {
			merged = append(merged, out[i])
			i++
		} else {
			merged = append(merged, own[j])
			j++
		}
	}
	return merged, total
}

// refOrder sorts references by file, line and caller.
func refOrder(a, b Reference) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Caller, b.Caller))
}

// ownDirect is the most sites of a name in a file that own looks
// through each time rather than once: a real file has a handful.
const ownDirect = 64

// own returns the uses of name among run, its sites in file, that
// refersTo takes for a symbol of that file: bare, or through self, this
// or cls; sorted. A long run is looked through once per name and file;
// the result must not be modified.
func (ix *refIndex) own(name, file string, run []RefSite) []Reference {
	if len(run) <= ownDirect {
		return ownRefs(run)
	}
	k := nameFile{name, file}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if rs, ok := ix.local[k]; ok {
		return rs
	}
	rs := ownRefs(run)
	if ix.local == nil {
		ix.local = map[nameFile][]Reference{}
	}
	ix.local[k] = rs
	return rs
}

func ownRefs(run []RefSite) []Reference {
	var rs []Reference
	for i := range run {
		s := &run[i]
		if recv := s.Receiver; recv == "" || recv == "self" || recv == "this" || recv == "cls" {
			rs = append(rs, Reference{Caller: s.Caller, File: s.File, Line: s.Line})
		}
	}
	slices.SortFunc(rs, refOrder)
	return rs
}

// refersTo reports whether s may use n, whose qualified name is module
// plus its name.
func refersTo(s *RefSite, n Node, module string) bool {
	switch recv := s.Receiver; {
	case s.File == n.File: // as own finds them
		return recv == "" || recv == "self" || recv == "this" || recv == "cls"
	case recv == "" && s.Go:
		return path.Dir(s.File) == path.Dir(n.File) && n.Language == "go"
	case recv == "":
		for _, im := range s.Imports {
			if importsModule(im, module, n.File) {
				return true
			}
		}
	default:
		for _, im := range s.Imports {
			if importsModule(im, module, n.File) || s.Go && path.Base(path.Dir(n.File)) == path.Base(im.Path) {
				return true
			}
		}
	}
	return false
}

// importsModule reports whether im names module, or a module it ends
// with ("./logging" for "flask.logging"); JavaScript paths are compared
// by their last part. An import of a JavaScript module format's file
// (require("../addDays.js")) is none of the same module in another
// format beside it (addDays.mjs), as a call is not (jsSameFormat): file
// is the file of the symbol module holds.
func importsModule(im RefImport, module, file string) bool {
	if ie, fe := path.Ext(im.Path), path.Ext(file); ie != fe && jsFormatExt(ie) && jsFormatExt(fe) {
		return false
	}
	for _, p := range []string{im.Resolved, im.Path} {
		p = strings.TrimLeft(strings.TrimSuffix(strings.TrimSuffix(p, ".js"), ".ts"), "./")
		p = strings.ReplaceAll(p, "/", ".")
		if p != "" && (module == p || strings.HasSuffix(module, "."+p)) {
			return true
		}
	}
	return false
}
