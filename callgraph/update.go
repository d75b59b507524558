package callgraph

import (
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Update replaces the files in changed (adding new ones), drops the files
// at the paths in removed, and re-resolves the calls a change can affect.
// A changed file whose surface (see surface) stays the same, the common
// save that edits a body, is re-resolved alone and its edges spliced in
// place. Otherwise the files re-resolved are the changed ones and every
// file that reads a name whose definition changed (see diffDefs and
// defNames), or that had an edge into such a definition. IDs are
// reassigned in path order (reindexShift moves the runs of the files
// that keep their nodes), so after any sequence of updates the graph
// equals a fresh Build of the same files. Python's flow tracking is
// global: a change to a Python file re-resolves every Python file.
func (g *Graph) Update(changed []extract.File, removed []string) {
	if g.toSave {
		panic("callgraph: Update of a graph built by BuildToSave, which keeps no resolution state")
	}
	if g.Restored() {
		g.complete()
	}
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
	g.indexTokens()
	// A file whose surface stays the same changes no other file's
	// resolution: only it is re-resolved. Other changed files are
	// followed to their readers through the names whose definitions
	// changed; new and removed files through all they define.
	same := map[string]bool{}
	defining := map[string]*defFilter{}
	for p := range touched {
		defining[p] = nil
	}
	for i := range changed {
		f := &changed[i]
		old := g.files[f.Path]
		if old == nil {
			continue
		}
		sharedOld, sharedNew := g.shares(old, nil, nil), g.shares(f, touched, changed)
		if surface(old, sharedOld) == surface(f, sharedNew) {
			same[f.Path] = true
			delete(defining, f.Path)
		} else {
			defining[f.Path] = diffDefs(old, f, sharedOld, sharedNew)
		}
	}
	if len(removed) == 0 && len(same) == len(changed) {
		g.renumbered = false
		g.updateInPlace(changed)
		return
	}
	g.renumbered = true
	includesAll, includesNear := g.includesChanged(changed, defining)
	d := &defs{names: map[string]bool{}, pkg: map[string]map[string]bool{}, members: map[string]map[string]bool{}}
	names := d.names
	g.defNames(defining, d)
	mods := g.modulesOf(touched)
	var oldModules map[string]SymbolID
	if g.ix != nil {
		oldModules = g.ix.module
	}
	shift := g.shiftable(touched, changed)
	oldNodes := g.nodes
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
	// The other files keep their results, renumbered.
	var oldToNew []int32
	oldIDs := g.byFile // by file: every file's, or only the touched ones'
	if shift {
		oldToNew, oldIDs = g.reindexShift(touched)
	} else {
		g.reindex()
		oldToNew = make([]int32, len(oldNodes))
		for i := range oldToNew {
			oldToNew[i] = -1
		}
	}
	g.defNames(defining, d)
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

	g.reexports(defining, d)
	affected := g.affected(touched, d)
	if includesAll {
		// What a C file includes, directly or not, ranks its names.
		for p, res := range g.results {
			if res.includes && g.files[p] != nil {
				affected[p] = true
			}
		}
	}
	for _, p := range includesNear {
		if g.files[p] != nil {
			affected[p] = true
		}
	}
	if flowTouched {
		for p, f := range g.files {
			if languageTraits[f.Language].flow {
				affected[p] = true
			}
		}
	}

	for p, ids := range oldIDs {
		now := g.byFile[p]
		if len(now) == 0 {
			continue
		}
		if touched[p] && !same[p] {
			g.matchNodes(oldNodes, ids, now, oldToNew, defining[p])
			continue
		}
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
	for p := range g.results {
		if g.files[p] == nil {
			delete(g.results, p)
		}
	}
	g.markBroken(oldToNew, affected)
	paths := make([]string, 0, len(affected))
	for p := range affected {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	g.resolve(paths)
	g.lastResolved = len(paths)
	g.assembleRenumbered(oldToNew, affected, paths)
}

// Renumbered reports whether the last Update that changed anything made
// the graph's tables anew (nodes, lookups, edges: IDs reassigned), which
// leaves the old ones to the collector, rather than updating in place.
func (g *Graph) Renumbered() bool { return g.renumbered }

// updateInPlace applies changes that keep every changed file's surface:
// IDs and lookups stay, the files' nodes take their new lines, and only
// the changed files are re-resolved (with Python's global flow, every
// Python file), their edges spliced into the rest.
func (g *Graph) updateInPlace(changed []extract.File) {
	var paths []string
	redo := map[string]bool{}
	flow := false
	g.ownNodes()
	for i := range changed {
		f := changed[i]
		g.setFile(f.Path, &f)
		ids := g.byFile[f.Path][1:] // the module's node comes first
		for j, s := range f.Symbols {
			n := &g.nodes[ids[j]]
			n.Line, n.EndLine = s.StartLine, s.EndLine
		}
		redo[f.Path] = true
		flow = flow || languageTraits[f.Language].flow
	}
	for p, f := range g.files {
		if redo[p] || flow && languageTraits[f.Language].flow {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	g.resolve(paths)
	g.lastResolved = len(paths)
	g.splice(paths)
}

// matchNodes maps the old nodes of a changed file (ids) to its new ones
// (now) by qualified name and kind, the k-th of a name to the k-th: the
// edges of unchanged files keep pointing at the same declarations. Nodes
// of the names whose definitions changed (flt; nil: all) are not mapped,
// so that every file with an edge into one is re-resolved, however it
// reached it (a chain of re-exports names it differently).
func (g *Graph) matchNodes(oldNodes []Node, ids, now []SymbolID, oldToNew []int32, flt *defFilter) {
	if flt == nil {
		return
	}
	type key struct {
		q    string
		kind extract.Kind
	}
	byKey := map[key][]SymbolID{}
	for _, id := range now {
		n := g.nodes[id]
		byKey[key{n.Qualified, n.Kind}] = append(byKey[key{n.Qualified, n.Kind}], id)
	}
	for _, id := range ids {
		n := oldNodes[id]
		if n.Kind == KindModule {
			if m, ok := g.ix.module[n.Qualified]; ok {
				oldToNew[id] = int32(m)
			}
			continue
		}
		k := key{n.Qualified, n.Kind}
		if list := byKey[k]; len(list) > 0 && !flt.names[n.Name] && !flt.classes[n.Parent] {
			oldToNew[id] = int32(list[0])
			byKey[k] = list[1:]
		}
	}
}

// PrepareUpdates builds now what the first Update would build first
// (the resolution state of a restored graph, see complete; the token
// index: on golang.org/x/tools 100 ms), for a graph that will
// be updated, such as a server's. Readers never touch the token index,
// so for a built graph it may run while they read, but not beside an
// Update or another PrepareUpdates; a restored graph's completion
// renumbers its nodes, so it runs before the graph is read. A graph
// built by BuildToSave has nothing to prepare.
func (g *Graph) PrepareUpdates() {
	if g.toSave {
		return
	}
	if g.Restored() {
		g.complete()
	}
	g.indexTokens()
}

// indexTokens builds the token index (files by the identifiers they
// read) on the first Update: only Update reads it, and a graph built for
// one answer never needs it (on Linux 6.1 it held 208 MB).
func (g *Graph) indexTokens() { g.indexTokensGiven(nil) }

// indexTokensGiven indexes every file's tokens once, taking those of the
// files given names from it (see PrepareUpdatesWithoutCalls) and reading
// the others' from the file.
func (g *Graph) indexTokensGiven(given map[string][]string) {
	if g.hasTokens {
		return
	}
	g.tokens, g.byToken = map[string][]string{}, map[string][]string{}
	for p, f := range g.files {
		if toks, ok := given[p]; ok {
			g.listTokens(p, toks)
		} else {
			g.addTokens(p, f)
		}
	}
	g.hasTokens = true
}

// addTokens indexes the identifiers f reads. A token's files are a list,
// not a set: on Linux 6.1 the index held 2 million files by token, 215
// MB as maps of sets and a sixth of that as lists (docs/bigrepos.md). A
// file's tokens are distinct (fileTokens), so it is listed once.
func (g *Graph) addTokens(path string, f *extract.File) { g.listTokens(path, fileTokens(f)) }

// listTokens indexes toks, distinct, as the identifiers the file at path
// reads.
func (g *Graph) listTokens(path string, toks []string) {
	g.tokens[path] = toks
	for _, t := range toks {
		g.byToken[t] = append(g.byToken[t], path)
	}
}

// dropTokens removes path from the lists of the tokens it reads.
func (g *Graph) dropTokens(path string) {
	for _, t := range g.tokens[path] {
		list := g.byToken[t]
		if i := slices.Index(list, path); i >= 0 {
			list[i] = list[len(list)-1]
			list = list[:len(list)-1]
		}
		if len(list) == 0 {
			delete(g.byToken, t)
		} else {
			g.byToken[t] = list
		}
	}
	delete(g.tokens, path)
}

// setFile puts f at path (nil removes it) and keeps the Go bindings and
// the token index, once built, current.
func (g *Graph) setFile(path string, f *extract.File) {
	delete(g.failed, path)
	delete(g.callsOut, path) // a file set comes with its calls
	if old := g.files[path]; old != nil {
		removeBindings(g.bindings, old)
		g.dropTokens(path)
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
	if g.hasTokens {
		g.addTokens(path, f)
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
		for _, a := range c.Args() {
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
