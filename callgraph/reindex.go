package callgraph

import (
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// An update's renumbering. reindex numbers every node anew: on
// golang.org/x/tools it was 43 % of the CPU of an Update that changes a
// file's API (BenchmarkUpdateXTools, "api"), hashing every qualified
// name, simple name and path again. Yet a file's nodes are a run of IDs
// (its module's node when it is the module's first file in path order,
// then its symbols), so after a change every file that keeps its nodes
// keeps its run, moved by what the changed files before it gained or
// lost. reindexShift moves the runs and rebuilds only the changed files'
// (and those of files that start or stop holding their module's node),
// giving the IDs and lookups reindex would.

// shiftable reports whether reindexShift can renumber g after the files
// at touched are replaced by changed or removed: g has its index, and no
// file involved, before or after, is Python (the index's python flag
// follows every file; a Python change re-resolves every Python file).
func (g *Graph) shiftable(touched map[string]bool, changed []extract.File) bool {
	if g.ix == nil {
		return false
	}
	for p := range touched {
		if f := g.files[p]; f != nil && f.Language == "python" {
			return false
		}
	}
	for i := range changed {
		if changed[i].Language == "python" {
			return false
		}
	}
	return true
}

// reindexShift is reindex for a graph whose files at touched were set
// (setFile) since g was last indexed, when shiftable said so before.
// It returns the new ID of each old node whose file was not touched (a
// module node: of the module's node, if the module is left), -1 for the
// others, and the old IDs of the touched files (their byFile lists).
func (g *Graph) reindexShift(touched map[string]bool) (oldToNew []int32, oldIDs map[string][]SymbolID) {
	old, oldNodes := g.ix, g.nodes
	if g.viewed.Swap(false) {
		// A View shares the lookup lists this renumbers in place; it
		// keeps them, the graph goes on with copies. (The node table
		// and the edges are made anew below, so it keeps those too.)
		g.byFile = cloneLists(g.byFile)
		g.byQualified = cloneLists(g.byQualified)
	}
	oldToNew = make([]int32, len(oldNodes))
	for i := range oldToNew {
		oldToNew[i] = -1
	}
	oldIDs = make(map[string][]SymbolID, len(touched))
	for p := range touched {
		if ids, ok := g.byFile[p]; ok {
			oldIDs[p] = ids
			delete(g.byFile, p)
		}
	}
	paths := g.Files()
	n := 0
	for _, p := range paths {
		n += 1 + len(g.files[p].Symbols)
	}
	g.nodes = make([]Node, 0, n)
	ix := &index{g: g, byName: old.byName, module: make(map[string]SymbolID, len(old.module)),
		bases: make(map[SymbolID][]string, len(old.bases)), params: make(map[SymbolID][]string, len(old.params)),
		test: make(map[SymbolID]bool, len(old.test)), python: old.python}
	if old.c != nil {
		// The include graph and what it reached are made again on first
		// use, as after reindex; the flags move with their nodes.
		ix.c = &cIndex{}
	}
	g.ix = ix
	var addedMods []SymbolID // module nodes no old node becomes
	var added []addedSym     // symbols no old node becomes, in ID order
	for _, p := range paths {
		f := g.files[p]
		mod := moduleName(f)
		modID, shared := ix.module[mod]
		ids := g.byFile[p] // nil for a touched file
		if len(ids) > 0 && (oldNodes[ids[0]].File == p) != shared {
			// The file holds its module's node as before: its run moves.
			base := SymbolID(len(g.nodes))
			own := ids
			if shared {
				own = ids[1:]
				ids[0] = modID
			} else {
				ix.module[mod] = base
			}
			if len(own) > 0 && int(own[len(own)-1]-own[0]) == len(own)-1 {
				g.nodes = append(g.nodes, oldNodes[own[0]:own[0]+SymbolID(len(own))]...)
			} else {
				for _, id := range own {
					g.nodes = append(g.nodes, oldNodes[id])
				}
			}
			for i, id := range own {
				oldToNew[id] = int32(base) + int32(i)
				own[i] = base + SymbolID(i)
				if fl := old.c.flag(id); fl != 0 {
					ix.c.setFlag(own[i], fl)
				}
			}
			continue
		}
		// A touched file, or one that starts or stops holding its
		// module's node: its nodes are made again, an untouched file's
		// symbols standing for their old selves.
		now := make([]SymbolID, 0, 1+len(f.Symbols))
		if shared {
			now = append(now, modID)
		} else {
			id := SymbolID(len(g.nodes))
			g.nodes = append(g.nodes, Node{Qualified: mod, Name: lastSegment(mod), Kind: KindModule, File: f.Path, Line: 1, EndLine: 1, Language: f.Language})
			ix.module[mod] = id
			now = append(now, id)
			addedMods = append(addedMods, id)
		}
		c := family(f.Language) == "c"
		for i := range f.Symbols {
			s := &f.Symbols[i]
			id := SymbolID(len(g.nodes))
			g.nodes = append(g.nodes, symbolNode(f, s))
			now = append(now, id)
			if c && s.Kind == extract.KindFunction {
				ix.addC(id, s)
			}
			if len(ids) > 0 {
				oldToNew[ids[1+i]] = int32(id)
			} else {
				added = append(added, addedSym{id, f, s})
			}
		}
		g.byFile[p] = now
	}
	// The lookups hold the old nodes that keep a run under their new IDs
	// (the order of IDs is kept: lists stay sorted), then the new nodes.
	dropped := renumberLists(g.byQualified, oldToNew)
	renumberLists(ix.byName, oldToNew)
	for id, b := range old.bases {
		if n := oldToNew[id]; n >= 0 {
			ix.bases[SymbolID(n)] = b
		}
	}
	for id, p := range old.params {
		if n := oldToNew[id]; n >= 0 {
			ix.params[SymbolID(n)] = p
		}
	}
	for id := range old.test {
		if n := oldToNew[id]; n >= 0 {
			ix.test[SymbolID(n)] = true
		}
	}
	for _, id := range addedMods {
		q := g.nodes[id].Qualified
		g.byQualified[q] = insertID(g.byQualified[q], id)
	}
	for _, a := range added {
		g.byQualified[a.s.Qualified] = insertID(g.byQualified[a.s.Qualified], a.id)
		ix.byName[a.s.Name] = insertID(ix.byName[a.s.Name], a.id)
		if a.s.Test || a.f.Test {
			ix.test[a.id] = true
		}
		if len(a.s.Bases) > 0 {
			ix.bases[a.id] = a.s.Bases
		}
	}
	// An old module node whose file's run was made again (or is gone)
	// stands, for the edges kept, for its module's node now.
	for mod, id := range old.module {
		if oldToNew[id] < 0 {
			if now, ok := ix.module[mod]; ok {
				oldToNew[id] = int32(now)
			}
		}
	}
	g.keepPrefixes(dropped, addedMods, added)
	return oldToNew, oldIDs
}

// keepPrefixes keeps the prefixes of the qualified names (see
// qualifiedPrefixes) current after reindexShift, which dropped the
// names in dropped (some maybe back) and added the nodes in mods and
// syms. A prefix of a name that is gone may be gone too: unless it is a
// prefix of a name added, which is cheap to tell, the set is made again
// on its next use, as after reindex. Making it again was half the CPU of
// resolving the file an API edit of x/tools' go/packages/packages.go
// re-resolves (BenchmarkUpdateXTools).
func (g *Graph) keepPrefixes(dropped []string, mods []SymbolID, syms []addedSym) {
	if g.prefixes == nil {
		return
	}
	names := make([]string, 0, len(mods)+len(syms))
	for _, id := range mods {
		names = append(names, g.nodes[id].Qualified)
	}
	for _, a := range syms {
		names = append(names, a.s.Qualified)
	}
	added := map[string]bool{}
	for _, q := range names {
		for i := strings.LastIndexByte(q, '.'); i > 0 && !added[q[:i]]; i = strings.LastIndexByte(q[:i], '.') {
			added[q[:i]] = true
		}
	}
	for _, q := range dropped {
		if len(g.byQualified[q]) > 0 {
			continue // dropped, then added again
		}
		for i := strings.LastIndexByte(q, '.'); i > 0; i = strings.LastIndexByte(q[:i], '.') {
			if !added[q[:i]] {
				g.prefixes = nil
				return
			}
		}
	}
	for p := range added {
		g.prefixes[p] = true
	}
}

// addedSym is a symbol node reindexShift made that no old node becomes.
type addedSym struct {
	id SymbolID
	f  *extract.File
	s  *extract.Symbol
}

// renumberLists maps every ID in m's lists by oldToNew, in place,
// dropping those that map to -1 and the lists left empty, whose keys it
// returns. oldToNew keeps the order of the IDs it keeps, so sorted lists
// stay sorted.
func renumberLists(m map[string][]SymbolID, oldToNew []int32) (dropped []string) {
	for k, ids := range m {
		j := 0
		for _, id := range ids {
			if n := oldToNew[id]; n >= 0 {
				ids[j] = SymbolID(n)
				j++
			}
		}
		switch {
		case j == 0:
			delete(m, k)
			dropped = append(dropped, k)
		case j < len(ids):
			m[k] = ids[:j]
		}
	}
	return dropped
}

// cloneLists returns a copy of m whose lists are copies too.
func cloneLists(m map[string][]SymbolID) map[string][]SymbolID {
	c := make(map[string][]SymbolID, len(m))
	for k, ids := range m {
		c[k] = slices.Clone(ids)
	}
	return c
}

// insertID adds id to the sorted list ids, in order.
func insertID(ids []SymbolID, id SymbolID) []SymbolID {
	i, _ := slices.BinarySearch(ids, id)
	return slices.Insert(ids, i, id)
}

// markBroken marks affected the files still in the graph that have an
// edge whose end is gone (-1 in oldToNew): they are re-resolved.
func (g *Graph) markBroken(oldToNew []int32, affected map[string]bool) {
	for _, e := range g.edges {
		if oldToNew[e.Caller] < 0 || oldToNew[e.Callee] < 0 {
			if g.files[e.File] != nil {
				affected[e.File] = true
			}
		}
	}
}

// assembleRenumbered makes the edge list of an update: the edges of
// g.edges whose files are still in the graph and not affected, mapped
// by oldToNew, and the new results of the files at paths (sorted, the
// files re-resolved: no other result holds edges), which it moves
// there; then the adjacency. The list equals assemble's, a fresh
// Build's. oldToNew keeps the order of the nodes of the files not
// touched, so the edges kept stay sorted but where a touched file's
// nodes were matched out of order: the new edges are merged in, and
// only a list found out of order is sorted. On x/tools sorting the whole
// list was 40 % of the CPU of making the edge list in an API edit.
func (g *Graph) assembleRenumbered(oldToNew []int32, affected map[string]bool, paths []string) {
	fresh := g.freshEdges(paths)
	edges := make([]Edge, 0, len(g.edges)+len(fresh))
	sorted := true
	file, drop := "", true
	for i, e := range g.edges {
		// The edges of a caller are of one file: one lookup a run.
		if i == 0 || e.File != file {
			file = e.File
			drop = affected[file] || g.files[file] == nil
		}
		if drop {
			continue
		}
		e.Caller, e.Callee = SymbolID(oldToNew[e.Caller]), SymbolID(oldToNew[e.Callee])
		if sorted {
			if n := len(edges); n > 0 && edgeLess(e, edges[n-1]) {
				sorted = false
				edges = append(edges, fresh...)
				fresh = nil
			}
			for len(fresh) > 0 && edgeLess(fresh[0], e) {
				edges = append(edges, fresh[0])
				fresh = fresh[1:]
			}
		}
		edges = append(edges, e)
	}
	edges = append(edges, fresh...)
	if !sorted {
		sort.SliceStable(edges, func(i, j int) bool { return edgeLess(edges[i], edges[j]) })
	}
	g.edges = edges
	g.adjacency()
}
