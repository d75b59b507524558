package callgraph

import (
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Update replaces the files in changed (adding new ones), drops the files
// at the paths in removed, and re-resolves the calls a change can affect:
// those of the changed files and of every file that reads one of the
// names the changed files define, before or after the change (see
// defNames). IDs are reassigned in path order, so after any sequence of
// updates the graph equals a fresh Build of the same files. Python's flow
// tracking is global: a change to a Python file re-resolves every Python
// file.
func (g *Graph) Update(changed []extract.File, removed []string) {
	touched := map[string]bool{}
	for _, f := range changed {
		touched[f.Path] = true
	}
	for _, p := range removed {
		if g.files[p] != nil {
			touched[p] = true
		}
	}
	if len(touched) == 0 {
		return
	}
	d := &defs{names: map[string]bool{}, pkg: map[string]map[string]bool{}, members: map[string]map[string]bool{}}
	names := d.names
	g.defNames(touched, d)
	mods := g.modulesOf(touched)
	var oldModules map[string]SymbolID
	if g.ix != nil {
		oldModules = g.ix.module
	}
	oldNodes, oldByFile := g.nodes, g.byFile
	flowTouched := false
	for p := range touched {
		if f := g.files[p]; f != nil && languageTraits[f.Language].flow {
			flowTouched = true
		}
	}
	for _, p := range removed {
		g.setFile(p, nil)
	}
	for i := range changed {
		f := changed[i]
		g.setFile(f.Path, &f)
		flowTouched = flowTouched || languageTraits[f.Language].flow
	}
	g.reindex()
	g.defNames(touched, d)
	// A module that comes or goes changes what its importers resolve.
	for mod := range g.modulesOf(touched) {
		mods[mod] = true
	}
	for mod := range mods {
		_, before := oldModules[mod]
		if _, after := g.ix.module[mod]; before != after {
			for _, t := range identifiers(mod) {
				names[t] = true
			}
		}
	}

	affected := g.affected(touched, d)
	if flowTouched {
		for p, f := range g.files {
			if languageTraits[f.Language].flow {
				affected[p] = true
			}
		}
	}

	// The other files keep their results, renumbered.
	oldToNew := make([]int32, len(oldNodes))
	for i := range oldToNew {
		oldToNew[i] = -1
	}
	for p, ids := range oldByFile {
		if touched[p] || affected[p] {
			continue
		}
		now := g.byFile[p]
		for i, id := range ids {
			if n := oldNodes[id]; n.Kind == KindModule {
				if m, ok := g.ix.module[n.Qualified]; ok {
					oldToNew[id] = int32(m)
				}
			} else if i < len(now) {
				oldToNew[id] = int32(now[i])
			}
		}
	}
	for p, res := range g.results {
		switch {
		case g.files[p] == nil:
			delete(g.results, p)
		case affected[p]:
		default:
			if !res.renumber(oldToNew) {
				affected[p] = true
			}
		}
	}
	paths := make([]string, 0, len(affected))
	for p := range affected {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	g.resolve(paths)
	g.assemble()
}

// affected returns the files to re-resolve after the files touched
// changed, given what they define before and after (d): the touched files
// still present, the files that read one of d's names where they can see
// it, and those whose unique-name fallback looked one up.
func (g *Graph) affected(touched map[string]bool, d *defs) map[string]bool {
	affected := map[string]bool{}
	for p := range touched {
		if g.files[p] != nil {
			affected[p] = true
		}
	}
	for name := range d.names {
		for p := range g.byToken[name] {
			affected[p] = true
		}
	}
	for mod, set := range d.pkg {
		for name := range set {
			for p := range g.byToken[name] {
				// Go's rules of visibility bind Go files only.
				if f := g.files[p]; f != nil && (f.Language != "go" || moduleName(f) == mod || isUpper(name) && g.importers[mod][p]) {
					affected[p] = true
				}
			}
		}
	}
	// Values of a package's types reach only packages that import it,
	// directly or not, except through an interface's method.
	for mod, set := range d.members {
		closure := g.importClosure(mod)
		for name := range set {
			iface := g.goInterfaceMethod(name)
			for p := range g.byToken[name] {
				if f := g.files[p]; f != nil && (f.Language != "go" || closure[moduleName(f)] || iface) {
					affected[p] = true
				}
			}
		}
	}
	// The unique-name fallback reads every definition of a name.
	for p, res := range g.results {
		if g.files[p] == nil {
			continue
		}
		for name := range res.unique {
			if d.has(name) {
				affected[p] = true
				break
			}
		}
	}
	return affected
}

// renumber maps the IDs of res's edges to the new numbering, or reports
// false when an end is gone.
func (res *fileResult) renumber(oldToNew []int32) bool {
	edges := make([]Edge, len(res.edges))
	for i, e := range res.edges {
		c, d := oldToNew[e.Caller], oldToNew[e.Callee]
		if c < 0 || d < 0 {
			return false
		}
		e.Caller, e.Callee = SymbolID(c), SymbolID(d)
		edges[i] = e
	}
	res.edges = edges
	return true
}

// setFile puts f at path (nil removes it) and keeps the Go bindings and
// the token index current.
func (g *Graph) setFile(path string, f *extract.File) {
	if old := g.files[path]; old != nil {
		removeBindings(g.bindings, old)
		for _, t := range g.tokens[path] {
			delete(g.byToken[t], path)
			if len(g.byToken[t]) == 0 {
				delete(g.byToken, t)
			}
		}
		delete(g.tokens, path)
		delete(g.files, path)
		for _, im := range old.Imports {
			delete(g.importers[im.Path], path)
		}
	}
	if f == nil {
		return
	}
	g.files[path] = f
	if f.Language == "go" {
		for _, im := range f.Imports {
			set := g.importers[im.Path]
			if set == nil {
				set = map[string]bool{}
				g.importers[im.Path] = set
			}
			set[path] = true
		}
	}
	sortBindings(g.bindings, addBindings(g.bindings, f))
	toks := fileTokens(f)
	g.tokens[path] = toks
	for _, t := range toks {
		set := g.byToken[t]
		if set == nil {
			set = map[string]bool{}
			g.byToken[t] = set
		}
		set[path] = true
	}
}

// fileTokens returns the identifiers resolving f's calls can look up:
// called names and receivers, imports, written types and values, bases.
func fileTokens(f *extract.File) []string {
	set := map[string]bool{}
	add := func(s string) {
		for _, t := range identifiers(s) {
			set[t] = true
		}
	}
	for _, c := range f.Calls {
		add(c.Name)
		add(c.Receiver)
		for _, a := range c.Args {
			add(a)
		}
	}
	for _, im := range f.Imports {
		add(im.Path)
		add(im.Alias)
		add(im.Resolved)
		for _, n := range im.Names {
			add(n.Name)
			add(n.Alias)
		}
	}
	for _, b := range f.Bindings {
		add(b.Type)
		add(b.Value)
		add(b.Target)
	}
	for _, s := range f.Symbols {
		for _, b := range s.Bases {
			add(b)
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// identifiers splits source text at every character that cannot be part
// of a name.
func identifiers(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
	})
}

// defNames adds to names what the files at paths define, as the graph
// has them now: the names of their symbols, package variables, struct
// fields and JavaScript exports, and for each class the members of its
// bases and of the classes that name it as a base, transitively. (Update
// adds the segments of a module that comes or goes.) A file that reads none of these names resolves
// the same whatever the files at paths hold.
//
// Go's names go to d.pkg or d.members by package instead, as the package
// hides them or only some files can reach them: unexported names, members
// included, are seen by the package's own files only; exported
// package-level ones also by files that import the package; exported
// fields and methods by files of packages that import it transitively,
// and through interfaces.
func (g *Graph) defNames(paths map[string]bool, d *defs) {
	if g.ix == nil {
		return
	}
	names := d.names
	r := newResolver(g, g.ix)
	// define records a name the symbol or binding of file f defines.
	define := func(f *extract.File, name string, pkgLevel bool) {
		switch {
		case f.Language != "go":
			names[name] = true
		case pkgLevel || !isUpper(name):
			addTo(d.pkg, f.Module, name)
		default:
			addTo(d.members, f.Module, name)
		}
	}
	addMembers := func(cls SymbolID) {
		q := g.nodes[cls].Qualified
		f := g.files[g.nodes[cls].File]
		for _, id := range g.byFile[f.Path] {
			if moduleOf(g.nodes[id].Qualified) == q {
				define(f, g.nodes[id].Name, false)
			}
		}
		for _, b := range f.Bindings {
			if b.Scope == q {
				define(f, b.Target, false)
			}
		}
	}
	classes := map[string]bool{}
	for p := range paths {
		f := g.files[p]
		if f == nil {
			continue
		}
		for _, id := range g.byFile[p] {
			n := g.nodes[id]
			if n.Kind == KindModule {
				continue
			}
			define(f, n.Name, moduleOf(n.Qualified) == f.Module)
			if r.isClass(id) {
				classes[n.Name] = true
				r.enter(f)
				for _, b := range r.linearize(id) {
					addMembers(b)
				}
			}
		}
		for _, e := range f.Exports {
			for _, t := range identifiers(e.Name + " " + e.Local) {
				names[t] = true // JavaScript: what importers can name
			}
		}
		for _, b := range f.Bindings {
			// Other files read package variables and fields, not locals.
			if b.Scope == f.Module || r.isScopeClass(b.Scope) {
				define(f, b.Target, b.Scope == f.Module)
			}
		}
	}
	// Subclasses and embedders, by the bases they write.
	expanded := map[SymbolID]bool{}
	for grew := len(classes) > 0; grew; {
		grew = false
		for id, bases := range g.ix.bases {
			if expanded[id] {
				continue
			}
			for _, b := range bases {
				if classes[lastSegment(cleanTypeName(b))] {
					expanded[id] = true
					classes[g.nodes[id].Name] = true
					define(g.files[g.nodes[id].File], g.nodes[id].Name, true)
					addMembers(id)
					grew = true
					break
				}
			}
		}
	}
}

// isScopeClass reports whether the qualified name q is a class.
func (r *resolver) isScopeClass(q string) bool {
	ids := r.g.byQualified[q]
	return len(ids) > 0 && r.isClass(ids[0])
}

// isUpper reports whether a Go name is exported.
func isUpper(name string) bool {
	return name != "" && name[0] >= 'A' && name[0] <= 'Z' || name != "" && name[0] >= 0x80
}

// modulesOf returns the modules the graph has for the files at paths.
func (g *Graph) modulesOf(paths map[string]bool) map[string]bool {
	mods := map[string]bool{}
	for p := range paths {
		if f := g.files[p]; f != nil {
			mods[moduleName(f)] = true
		}
	}
	return mods
}

// defs are the names files define, by who can read them; see defNames.
type defs struct {
	names   map[string]bool            // read by any file that names them
	pkg     map[string]map[string]bool // Go, by package: package-level and unexported names
	members map[string]map[string]bool // Go, by package: exported fields and methods
}

// has reports whether any of the sets holds name.
func (d *defs) has(name string) bool {
	if d.names[name] {
		return true
	}
	for _, set := range d.pkg {
		if set[name] {
			return true
		}
	}
	for _, set := range d.members {
		if set[name] {
			return true
		}
	}
	return false
}

func addTo(m map[string]map[string]bool, key, name string) {
	set := m[key]
	if set == nil {
		set = map[string]bool{}
		m[key] = set
	}
	set[name] = true
}

// importClosure returns Go package mod and the packages that import it,
// directly or not.
func (g *Graph) importClosure(mod string) map[string]bool {
	seen := map[string]bool{mod: true}
	queue := []string{mod}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		for p := range g.importers[pkg] {
			if f := g.files[p]; f != nil && !seen[moduleName(f)] {
				seen[moduleName(f)] = true
				queue = append(queue, moduleName(f))
			}
		}
	}
	return seen
}

// goInterfaceMethod reports whether a Go interface declares a method name.
func (g *Graph) goInterfaceMethod(name string) bool {
	for _, id := range g.ix.byName[name] {
		n := g.nodes[id]
		if n.Language != "go" || n.Kind != extract.KindMethod {
			continue
		}
		for _, p := range g.byQualified[moduleOf(n.Qualified)] {
			if g.nodes[p].Kind == extract.KindInterface {
				return true
			}
		}
	}
	return false
}
