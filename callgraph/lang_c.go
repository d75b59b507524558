package callgraph

import (
	"fmt"
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
	if fl != 0 {
		ix.c.setFlag(id, fl)
	}
}

// setFlag sets the flags of node id.
func (c *cIndex) setFlag(id SymbolID, fl cFlag) {
	for len(c.flags) <= int(id) {
		c.flags = append(c.flags, 0)
	}
	c.flags[id] = fl
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
