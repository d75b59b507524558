package callgraph

import "github.com/fileinfo/fileinfo/extract"

// What a change can affect: the names changed files define, who reads
// them, and through which visibility rules.

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
		for _, p := range g.byToken[name] {
			affected[p] = true
		}
	}
	for mod, set := range d.pkg {
		for name := range set {
			for _, p := range g.byToken[name] {
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
			for _, p := range g.byToken[name] {
				if f := g.files[p]; f != nil && (f.Language != "go" || closure[moduleName(f)] || iface) {
					affected[p] = true
				}
			}
		}
	}
	g.unknownLookups(d, affected)
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

// defNames adds to d what the files at paths define, as the graph has
// them now: the names of their symbols, package variables, struct fields
// and JavaScript exports, and for each class the members of its bases and
// of the classes that name it as a base, transitively. A file's filter,
// when not nil, keeps only the names whose definitions changed and the
// classes they belong to (see diffDefs). (Update adds the segments of a
// module that comes or goes.) A file that reads none of these names
// resolves the same whatever the files at paths hold.
//
// Go's names go to d.pkg or d.members by package instead, as the package
// hides them or only some files can reach them: unexported names, members
// included, are seen by the package's own files only; exported
// package-level ones also by files that import the package; exported
// fields and methods by files of packages that import it transitively,
// and through interfaces.
func (g *Graph) defNames(paths map[string]*defFilter, d *defs) {
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
	// addMembers defines the members of class cls, wherever in its
	// module they are declared (Go methods, partial classes).
	addMembers := func(cls SymbolID) {
		q := g.nodes[cls].Qualified
		mod := moduleName(g.files[g.nodes[cls].File])
		for _, f := range g.moduleFiles(mod) {
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
	}
	classes := map[string]bool{}
	done := map[SymbolID]bool{}
	expand := func(id SymbolID) {
		if done[id] {
			return
		}
		done[id] = true
		classes[g.nodes[id].Name] = true
		r.enter(g.files[g.nodes[id].File])
		for _, b := range r.linearize(id) {
			addMembers(b)
		}
	}
	for p, flt := range paths {
		f := g.files[p]
		if f == nil {
			continue
		}
		keep := func(name, parent string) bool {
			return flt == nil || flt.names[name] || flt.classes[parent]
		}
		owners := map[string]bool{} // classes whose members f declares or changed
		if flt != nil {
			owners = flt.classes
		}
		for _, id := range g.byFile[p] {
			n := g.nodes[id]
			if n.Kind == KindModule {
				continue
			}
			if keep(n.Name, n.Parent) {
				define(f, n.Name, moduleOf(n.Qualified) == f.Module)
				if flt == nil && n.Parent != "" {
					owners[n.Parent] = true
				}
			}
			if r.isClass(id) && (flt == nil || flt.classes[n.Name]) {
				expand(id)
			}
		}
		// Classes of f's module whose members f changed, declared
		// elsewhere in it (a Go method in another file than its type).
		for name := range owners {
			for _, id := range g.ix.byName[name] {
				if r.isClass(id) && moduleName(g.files[g.nodes[id].File]) == moduleName(f) {
					expand(id)
				}
			}
		}
		for _, e := range f.Exports {
			for _, t := range identifiers(e.Name + " " + e.Local) {
				if keep(t, "") {
					names[t] = true // JavaScript: what importers can name
				}
			}
		}
		if f.Language == "rust" {
			rustReexports(f, keep, names)
		}
		for _, b := range f.Bindings {
			// Other files read package variables and fields, and the
			// locals of a function they declare too (duplicates share
			// their scope's bindings).
			switch {
			case !keep(b.Target, lastSegment(b.Scope)):
			case b.Scope == f.Module || r.isScopeClass(b.Scope):
				define(f, b.Target, b.Scope == f.Module)
			case g.declaredElsewhere(b.Scope, p):
				define(f, b.Target, true)
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

// reexports adds to d the names JavaScript modules re-export from the
// files at paths, directly or through other re-exports: their importers
// read those names, not the names the files define.
func (g *Graph) reexports(paths map[string]*defFilter, d *defs) {
	changed := map[string]bool{}
	for p := range paths {
		if f := g.files[p]; f != nil && jsLike(f.Language) {
			changed[moduleName(f)] = true
		}
	}
	for grew := len(changed) > 0; grew; {
		grew = false
		for _, f := range g.files {
			if !jsLike(f.Language) || changed[moduleName(f)] {
				continue
			}
			for _, e := range f.Exports {
				if e.Resolved == "" || !changed[e.Resolved] {
					continue
				}
				for _, t := range identifiers(e.Name) {
					d.names[t] = true
				}
				changed[moduleName(f)], grew = true, true
			}
		}
	}
}

// declaredElsewhere reports whether a file other than path declares
// the qualified name q.
func (g *Graph) declaredElsewhere(q, path string) bool {
	for _, id := range g.byQualified[q] {
		if g.nodes[id].File != path {
			return true
		}
	}
	return false
}

// moduleFiles returns the files of module mod.
func (g *Graph) moduleFiles(mod string) []*extract.File {
	var out []*extract.File
	for _, f := range g.files {
		if moduleName(f) == mod {
			out = append(out, f)
		}
	}
	return out
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

// unknownLookups adds to affected the files whose unique-name lookups
// are not known (a result restored, not resolved here: see complete)
// and that read a name of d: any of them may have looked it up. Names
// outside Go are read by their readers whatever the fallback (affected
// follows d.names to every reader); Go's are filtered by visibility,
// which the fallback ignores.
func (g *Graph) unknownLookups(d *defs, affected map[string]bool) {
	add := func(name string) {
		for _, p := range g.byToken[name] {
			if res := g.results[p]; res != nil && res.unique == nil && g.files[p] != nil {
				affected[p] = true
			}
		}
	}
	for _, m := range []map[string]map[string]bool{d.pkg, d.members} {
		for _, set := range m {
			for name := range set {
				add(name)
			}
		}
	}
}
