package callgraph

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// C and C++ names.
//
// A C program is many translation units linked together; a name called
// without a receiver means what the preprocessor and the linker make of
// it, which a repository-wide index approximates by these rules, in
// order (cName):
//
//  1. A definition in the caller's own file (static or not): local.
//  2. A definition in a file the caller's file includes, directly or not
//     (a header's static inline function or macro), and the definitions
//     of the functions a header it includes declares: import. A
//     definition with external linkage counts when it is the only one in
//     the repository, or when its own file includes that header too
//     (tools/lib/list_sort.c includes tools/include/linux/list_sort.h,
//     not include/linux/list_sort.h: the kernel's callers do not reach
//     it). Where several definitions could be linked (a stub beside the
//     real one under #ifdef), the call has an edge to each, up to
//     maxAlternatives; more (one per architecture: <asm/...> is each
//     architecture's) leave the call ambiguous. When the caller's own
//     includes show nothing and other files include it (a header, or a
//     .c file a bigger translation unit includes, as Linux's
//     kernel/sched/build_utility.c includes psi.c), the includes of its
//     first includers count too.
//  3. The only definition with external linkage of that name in the
//     repository, with no declaration in sight: name, a guess by name.
//  4. No definition: the declarations the caller sees (a function
//     defined in assembly or outside the repository), else the only one.
//
// Declarations (prototypes, marked so by extract) are never definitions:
// a name declared in a header and defined in a .c file is one function.
// Definitions that share a qualified name (one function under #ifdef, in
// one file) are one callee: the call has an edge to the first.
// A static function in another file, and the static functions of headers
// the caller does not include, are out of sight. A call of a function-like
// macro visible by rules 1 and 2 is labelled macro: the preprocessor
// expands it.
//
// Includes are resolved to files of the graph: a quoted include next to
// the includer first; else the files whose path ends with the included
// path, those whose include directory is nearest the includer (the
// longest common directory prefix), then the shallowest include
// directories, every tie kept (<asm/io.h> is each architecture's). The
// closure of the caller's includes is computed once per file, when a call
// needs it.

// Macro labels an edge to a C or C++ function-like macro the caller's file
// defines or includes.
const Macro Resolution = "macro"

// cFlag describes a C-family function node.
type cFlag uint8

const (
	cStatic cFlag = 1 << iota // internal linkage: seen only where its file is included
	cMacro                    // a function-like macro
)

// cIndex holds what resolving C and C++ names needs beyond the graph's
// lookups: flags by node, the include graph (built on first use) and the
// declaring headers each contested definition reaches.
type cIndex struct {
	flags []cFlag // by SymbolID; shorter when the last nodes have none
	inc   *cIncludes
	reach map[SymbolID][]int32 // definition → the headers declaring its name that its file includes
}

func (ix *index) addC(id SymbolID, s *extract.Symbol) {
	var fl cFlag
	if !s.Exported {
		fl |= cStatic
	}
	if strings.HasPrefix(s.Signature, "#") {
		fl |= cMacro
	}
	if ix.c == nil {
		ix.c = &cIndex{}
	}
	if fl == 0 {
		return
	}
	for len(ix.c.flags) <= int(id) {
		ix.c.flags = append(ix.c.flags, 0)
	}
	ix.c.flags[id] = fl
}

func (c *cIndex) flag(id SymbolID) cFlag {
	if c == nil || int(id) >= len(c.flags) {
		return 0
	}
	return c.flags[id]
}

// cCall is the call hook of C: a call without a receiver is cName's.
func cCall(r *resolver, caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string, bool) {
	if c.Receiver != "" || c.Name == "()" {
		return nil, "", "", false
	}
	// C files call the same names again and again (kfree, mutex_lock),
	// and in C the answer depends on the file only.
	if r.cMemoFile != r.f.Path {
		r.cMemoFile, r.cMemo = r.f.Path, map[string]cAnswer{}
	}
	a, ok := r.cMemo[c.Name]
	if !ok {
		a.ids, a.how, a.reason = r.cName(c.Name)
		r.cMemo[c.Name] = a
	}
	return a.ids, a.how, a.reason, true
}

// cAnswer is what cName answered.
type cAnswer struct {
	ids    []SymbolID
	how    Resolution
	reason string
}

// cName resolves a C or C++ function name called without a receiver by
// the rules above.
func (r *resolver) cName(name string) ([]SymbolID, Resolution, string) {
	if r.res != nil {
		r.res.unique[name] = true // depends on every definition of name
	}
	var own, defs, decls []SymbolID
	for _, id := range r.ix.byName[name] {
		n := &r.g.nodes[id]
		if n.Kind != extract.KindFunction || family(n.Language) != "c" {
			continue
		}
		switch {
		case n.Declaration:
			decls = append(decls, id)
		case n.File == r.f.Path:
			own = append(own, id)
		default:
			defs = append(defs, id)
		}
	}
	if len(own) > 0 {
		own = r.onePerQualified(own)
		return own, r.macroLabel(own, Local), ""
	}
	if ids := r.sameClass(name); len(ids) > 0 {
		return ids, Local, ""
	}
	if len(defs) == 0 && len(decls) == 0 {
		return nil, "", r.unknownName(name)
	}
	ids, seen := r.cVisible(name, defs, decls, r.includes)
	if len(ids) == 0 && len(seen) == 0 && r.cIncludes().includedBy(r.f.Path) {
		// A file included into others (a header, or a .c file a bigger
		// translation unit includes, as Linux's kernel/sched/ does) may
		// rely on what its includers include.
		ids, seen = r.cVisible(name, defs, decls, r.includesAround)
	}
	ids = r.onePerQualified(ids)
	if len(ids) > maxAlternatives {
		return nil, "", fmt.Sprintf("ambiguous: %d definitions named %s in sight (one per configuration or architecture?)", len(ids), name)
	}
	if len(ids) > 0 {
		return ids, r.macroLabel(ids, Import), ""
	}
	var external []SymbolID
	hidden := 0
	for _, id := range defs {
		if r.ix.c.flag(id)&cStatic == 0 {
			external = append(external, id)
		} else {
			hidden++
		}
	}
	if len(external) > 0 {
		if allQualified(r.g, external, r.g.nodes[external[0]].Qualified) {
			return external[:1], Name, ""
		}
		return nil, "", fmt.Sprintf("ambiguous: %d definitions named %s", len(external), name)
	}
	if len(decls) > 0 {
		var visible []SymbolID
		for _, id := range decls {
			if slices.Contains(seen, r.cIncludes().nodeFile[id]) {
				visible = append(visible, id)
			}
		}
		if len(visible) > 0 {
			return r.onePerQualified(visible), Import, ""
		}
		if allQualified(r.g, decls, r.g.nodes[decls[0]].Qualified) {
			return decls[:1], Name, ""
		}
		return nil, "", fmt.Sprintf("ambiguous: %d declarations named %s and no definition", len(decls), name)
	}
	if hidden > 0 {
		return nil, "", fmt.Sprintf("only static definitions of %s, in files the caller does not include", name)
	}
	return nil, "", r.unknownName(name)
}

// maxAlternatives is the most definitions of a name a call gets an edge
// to: a stub beside the real function, a few configurations. More are one
// per architecture (an <asm/...> header is each architecture's), and the
// call is left ambiguous.
const maxAlternatives = 4

// cVisible returns rule 2's definitions of name (see above) with visible
// saying which files the caller sees, and the headers declaring name that
// it sees (as include-graph IDs).
func (r *resolver) cVisible(name string, defs, decls []SymbolID, visible func(SymbolID) bool) (ids []SymbolID, seen []int32) {
	inc := r.cIncludes()
	for _, id := range decls {
		if h := inc.nodeFile[id]; visible(id) && !slices.Contains(seen, h) {
			seen = append(seen, h)
		}
	}
	var external []SymbolID
	for _, id := range defs {
		switch {
		case visible(id):
			ids = append(ids, id)
		case r.ix.c.flag(id)&cStatic == 0:
			external = append(external, id)
		}
	}
	if len(seen) > 0 {
		for _, id := range external {
			if len(external) == 1 || r.reachesAny(id, name, seen) {
				ids = append(ids, id)
			}
		}
	}
	sortIDs(ids)
	return ids, seen
}

// sameClass returns, for a call from a C++ method defined outside its
// class (`void Foo::baz() { bar(); }`, where the class's body is in a
// header), the members name of a class of that name: their definitions,
// or their declarations when none is defined.
func (r *resolver) sameClass(name string) []SymbolID {
	caller := r.g.nodes[r.caller]
	if caller.Parent == "" || caller.Kind != extract.KindMethod {
		return nil
	}
	cls := moduleOf(r.withinModule(caller)) // ns.Foo: the class, in its namespaces
	var defs, decls []SymbolID
	for _, id := range r.ix.byName[name] {
		n := r.g.nodes[id]
		if n.Kind != extract.KindMethod || n.Parent != caller.Parent || family(n.Language) != "c" || moduleOf(r.withinModule(n)) != cls {
			continue
		}
		if n.Declaration {
			decls = append(decls, id)
		} else {
			defs = append(defs, id)
		}
	}
	if len(defs) > 0 {
		return defs
	}
	return decls
}

// onePerQualified keeps the first of ids of each qualified name: the
// definitions of one function or macro under #ifdef, in one file or in a
// header and its source, are one callee.
func (r *resolver) onePerQualified(ids []SymbolID) []SymbolID {
	if len(ids) < 2 {
		return ids
	}
	out := ids[:0:0]
	for _, id := range ids {
		if !slices.ContainsFunc(out, func(o SymbolID) bool { return r.g.nodes[o].Qualified == r.g.nodes[id].Qualified }) {
			out = append(out, id)
		}
	}
	return out
}

// allQualified reports whether every node of ids has the qualified name q.
func allQualified(g *Graph, ids []SymbolID, q string) bool {
	for _, id := range ids {
		if g.nodes[id].Qualified != q {
			return false
		}
	}
	return true
}

// macroLabel is how for targets that are all macros, else how.
func (r *resolver) macroLabel(ids []SymbolID, how Resolution) Resolution {
	for _, id := range ids {
		if r.ix.c.flag(id)&cMacro == 0 {
			return how
		}
	}
	return Macro
}

// cDefinitions replaces the declarations among ids, found by the generic
// rules (a C++ method declared in its class), with their definitions
// where the graph has them: the nodes of the same name, parent and kind
// whose qualified name, without its file's module, is the declaration's.
func (r *resolver) cDefinitions(ids []SymbolID) []SymbolID {
	if !slices.ContainsFunc(ids, func(id SymbolID) bool { return r.g.nodes[id].Declaration }) {
		return ids
	}
	var out []SymbolID
	for _, id := range ids {
		d := r.g.nodes[id]
		if !d.Declaration {
			out = append(out, id)
			continue
		}
		if r.res != nil {
			r.res.unique[d.Name] = true
		}
		local := r.withinModule(d)
		var defs []SymbolID
		for _, o := range r.ix.byName[d.Name] {
			n := r.g.nodes[o]
			if !n.Declaration && n.Kind == d.Kind && n.Parent == d.Parent && family(n.Language) == "c" && r.withinModule(n) == local {
				defs = append(defs, o)
			}
		}
		if len(defs) == 0 {
			defs = []SymbolID{id}
		}
		for _, o := range defs {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// withinModule is n's qualified name without its file's module.
func (r *resolver) withinModule(n Node) string {
	if f := r.g.files[n.File]; f != nil {
		if rest, ok := strings.CutPrefix(n.Qualified, moduleName(f)+"."); ok {
			return rest
		}
	}
	return n.Qualified
}

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
