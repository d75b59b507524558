package main

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
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
