package callgraph

// C and C++ headers: which files include which, to rank definitions by
// the headers a caller includes (see lang_c.go).

import (
	"path"
	"slices"
	"strings"
)

// includes reports whether the file being resolved includes the file
// of node id, directly or not.
func (r *resolver) includes(id SymbolID) bool {
	inc := r.cIncludes()
	if r.res != nil {
		r.res.includes = true
	}
	return inc.nodeFile[id] >= 0 && inc.closureOf(r.f.Path)[inc.nodeFile[id]]
}

// includesAround reports whether the file of node id is the file being
// resolved, one it includes, or one included by a file that includes it
// (the first maxIncluders of them, by path): the translation units it is
// part of.
func (r *resolver) includesAround(id SymbolID) bool {
	inc := r.cIncludes()
	if r.res != nil {
		r.res.includes = true
	}
	return inc.nodeFile[id] >= 0 && inc.around(r.f.Path)[inc.nodeFile[id]]
}

// reachesAny reports whether the file of definition def (of name)
// includes one of the headers hs, directly or not.
func (r *resolver) reachesAny(def SymbolID, name string, hs []int32) bool {
	ci := r.ix.c
	got, ok := ci.reach[def]
	if !ok {
		inc := r.cIncludes()
		closure := inc.closureOf2(r.g.nodes[def].File)
		for _, id := range r.ix.byName[name] {
			n := r.g.nodes[id]
			if !n.Declaration || family(n.Language) != "c" {
				continue
			}
			if h := inc.nodeFile[id]; h >= 0 && closure[h] && !slices.Contains(got, h) {
				got = append(got, h)
			}
		}
		if ci.reach == nil {
			ci.reach = map[SymbolID][]int32{}
		}
		ci.reach[def] = got
	}
	for _, h := range hs {
		if slices.Contains(got, h) {
			return true
		}
	}
	return false
}

// cIncludes returns the include graph, built on first use.
func (r *resolver) cIncludes() *cIncludes {
	if r.ix.c == nil {
		r.ix.c = &cIndex{}
	}
	if r.ix.c.inc == nil {
		r.ix.c.inc = newCIncludes(r.g)
	}
	return r.ix.c.inc
}

// cIncludes is the include graph of the C and C++ files: dense IDs by
// path, and each file's includes resolved to IDs.
type cIncludes struct {
	id       map[string]int32
	paths    []string
	out, in  [][]int32 // includes, and included by
	nodeFile []int32   // by SymbolID: the ID of the node's file, -1 outside C and C++
	// Closures are kept for one file at a time each: the caller's
	// (closureOf), a definition's (closureOf2), and the files around the
	// caller (around).
	a, b, c closure
}

// maxIncluders bounds the includers whose includes around reads.
const maxIncluders = 8

// closure is the set of files one file includes, directly or not, as a
// bitmap over file IDs.
type closure struct {
	of    string
	set   []bool
	stack []int32
}

func newCIncludes(g *Graph) *cIncludes {
	inc := &cIncludes{id: map[string]int32{}}
	byBase := map[string][]int32{}
	for _, p := range g.Files() {
		if family(g.files[p].Language) != "c" {
			continue
		}
		id := int32(len(inc.paths))
		inc.id[p] = id
		inc.paths = append(inc.paths, p)
		base := path.Base(p)
		byBase[base] = append(byBase[base], id)
	}
	inc.out = make([][]int32, len(inc.paths))
	for i, p := range inc.paths {
		var out []int32
		for _, im := range g.files[p].Imports {
			for _, t := range inc.resolve(p, im.Path, byBase) {
				if t != int32(i) && !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
		inc.out[i] = slices.Clip(out)
	}
	inc.nodeFile = make([]int32, len(g.nodes))
	for i := range inc.nodeFile {
		inc.nodeFile[i] = -1
	}
	for i, p := range inc.paths {
		for _, id := range g.byFile[p] {
			inc.nodeFile[id] = int32(i)
		}
	}
	inc.in = make([][]int32, len(inc.paths))
	for i, out := range inc.out {
		for _, t := range out {
			inc.in[t] = append(inc.in[t], int32(i)) // in path order
		}
	}
	return inc
}

// includedBy reports whether another file includes p.
func (inc *cIncludes) includedBy(p string) bool {
	id, ok := inc.id[p]
	return ok && len(inc.in[id]) > 0
}

// around returns the files the first maxIncluders includers of p
// include, directly or not (p and its own includes among them), by ID.
func (inc *cIncludes) around(p string) []bool {
	c := &inc.c
	if c.set != nil && c.of == p {
		return c.set
	}
	if c.set == nil {
		c.set = make([]bool, len(inc.paths))
	} else {
		clear(c.set)
	}
	c.of = p
	id, ok := inc.id[p]
	if !ok {
		return c.set
	}
	inc.walk(c, id)
	for _, from := range inc.in[id][:min(len(inc.in[id]), maxIncluders)] {
		inc.walk(c, from)
	}
	return c.set
}

// resolve returns the files an #include of name in file from may mean
// (see the rules above); none for a system header or a macro.
func (inc *cIncludes) resolve(from, name string, byBase map[string][]int32) []int32 {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, "<>\"\\") {
		return nil
	}
	dir := path.Dir(from)
	if id, ok := inc.id[path.Join(dir, name)]; ok {
		return []int32{id}
	}
	clean := path.Clean(name)
	for strings.HasPrefix(clean, "../") {
		clean = clean[3:]
	}
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "/") {
		return nil
	}
	var best []int32
	bestShared, bestDepth := -1, 0
	for _, id := range byBase[path.Base(clean)] {
		p := inc.paths[id]
		if p != clean && !strings.HasSuffix(p, "/"+clean) {
			continue
		}
		root := strings.TrimSuffix(p[:len(p)-len(clean)], "/")
		shared, depth := sharedDirs(dir, root), segments(root)
		switch {
		case shared > bestShared || shared == bestShared && depth < bestDepth:
			best, bestShared, bestDepth = append(best[:0], id), shared, depth
		case shared == bestShared && depth == bestDepth:
			best = append(best, id)
		}
	}
	return best
}

// sharedDirs counts the leading directories two slash paths share.
func sharedDirs(a, b string) int {
	if a == "." || a == "" || b == "" {
		return 0
	}
	n := 0
	for {
		ha, ra, _ := strings.Cut(a, "/")
		hb, rb, _ := strings.Cut(b, "/")
		if ha != hb || ha == "" {
			return n
		}
		n++
		a, b = ra, rb
	}
}

// segments counts the directories of a slash path; 0 for "".
func segments(p string) int {
	if p == "" {
		return 0
	}
	return strings.Count(p, "/") + 1
}

// closureOf returns the files p includes, directly or not (p itself
// included), by ID.
func (inc *cIncludes) closureOf(p string) []bool { return inc.fill(&inc.a, p) }

// closureOf2 is closureOf in a second buffer, good until the next call.
func (inc *cIncludes) closureOf2(p string) []bool { return inc.fill(&inc.b, p) }

func (inc *cIncludes) fill(c *closure, p string) []bool {
	if c.set != nil && c.of == p {
		return c.set
	}
	if c.set == nil {
		c.set = make([]bool, len(inc.paths))
	} else {
		clear(c.set)
	}
	c.of = p
	if start, ok := inc.id[p]; ok {
		inc.walk(c, start)
	}
	return c.set
}

// walk adds start and the files it includes, directly or not, to c.
func (inc *cIncludes) walk(c *closure, start int32) {
	if c.set[start] {
		return
	}
	c.set[start] = true
	c.stack = append(c.stack[:0], start)
	for len(c.stack) > 0 {
		v := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		for _, w := range inc.out[v] {
			if !c.set[w] {
				c.set[w] = true
				c.stack = append(c.stack, w)
			}
		}
	}
}
