package main

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// pycgNames returns the PyCG name of each node that has one of its own:
// a Python lambda bound to a name (`f = lambda x: ...`, a node named
// main.f) is "main.<lambda1>" to PyCG, numbered in line order within its
// scope. Names are dotted from the root, as PyCG's are: when the root is
// a package (pkg/__init__.py names the module pkg), its name is dropped
// (pkg.main.f is main.f). Every other node's PyCG name is its qualified
// name.
func pycgNames(g *callgraph.Graph) map[string]string {
	out := map[string]string{}
	count := map[string]int{}
	prefix := ""
	for _, id := range g.InFile("__init__.py") {
		if n := g.Node(id); n.Kind == callgraph.KindModule && n.Language == "python" && n.Qualified != "__init__" {
			prefix = n.Qualified + "."
		}
	}
	for _, p := range g.Files() {
		for _, id := range g.InFile(p) { // in line order
			n := g.Node(id)
			if n.Language != "python" || n.Kind == callgraph.KindModule || !strings.HasPrefix(g.Signature(id), "lambda") {
				continue
			}
			scope := n.Qualified[:max(strings.LastIndexByte(n.Qualified, '.'), 0)]
			count[scope]++
			out[n.Qualified] = strings.TrimPrefix(fmt.Sprintf("%s.<lambda%d>", scope, count[scope]), prefix)
		}
	}
	if prefix != "" {
		for id := range g.Len() {
			q := g.Node(callgraph.SymbolID(id)).Qualified
			if _, ok := out[q]; !ok && strings.HasPrefix(q, prefix) {
				out[q] = strings.TrimPrefix(q, prefix)
			}
		}
	}
	return out
}

// pycgOutside names what an unresolved call calls outside the
// repository as PyCG does: an imported module's function or class, or a
// method of an outside class, by its dotted path (ext.Cls.fun); a
// builtin function as <builtin>.len; a method of a builtin type as
// <**PyStr**>.join (the PyCG micro-benchmark's names for str and dict,
// extended the same way to the other builtin types). A call with no
// such name — of unknown type, or dynamic — gives none.
func pycgOutside(g *callgraph.Graph, u callgraph.Unresolved) []string {
	if exts, ok := strings.CutPrefix(u.Reason, "external: "); ok {
		return strings.Split(exts, ", ") // what the callee may hold
	}
	names, ok := strings.CutPrefix(u.Reason, "builtin: ")
	if !ok || !isPython(g, u.Caller) {
		return nil
	}
	var out []string
	for _, b := range strings.Split(names, ", ") {
		typ, method, isMethod := strings.Cut(b, ".")
		switch {
		case !isMethod:
			out = append(out, "<builtin>."+b)
		case typ != "" && method != "":
			out = append(out, "<**Py"+strings.ToUpper(typ[:1])+typ[1:]+"**>."+method)
		}
	}
	return out
}

// isPython reports whether the node named q is Python's.
func isPython(g *callgraph.Graph, q string) bool {
	ids := g.Lookup(q)
	return len(ids) > 0 && g.Node(ids[0]).Language == "python"
}

// outsideCtors answers, once per class, which outside constructors an
// instantiation of it calls (Graph.OutsideConstructors): PyCG names
// ext.parent.__init__ where a class of the program has no __init__ of
// its own.
type outsideCtors struct {
	g    *callgraph.Graph
	memo map[callgraph.SymbolID][]string
}

func (o outsideCtors) of(id callgraph.SymbolID) []string {
	if o.g.Node(id).Kind != extract.KindClass {
		return nil
	}
	names, ok := o.memo[id]
	if !ok {
		names = o.g.OutsideConstructors(id)
		o.memo[id] = names
	}
	return names
}
