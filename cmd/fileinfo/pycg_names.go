package main

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
)

// pycgNames returns the PyCG name of each node that has one of its own:
// a Python lambda bound to a name (`f = lambda x: ...`, a node named
// main.f) is "main.<lambda1>" to PyCG, numbered in line order within its
// scope. Every other node's PyCG name is its qualified name.
func pycgNames(g *callgraph.Graph) map[string]string {
	out := map[string]string{}
	count := map[string]int{}
	for _, p := range g.Files() {
		for _, id := range g.InFile(p) { // in line order
			n := g.Node(id)
			if n.Language != "python" || n.Kind == callgraph.KindModule || !strings.HasPrefix(g.Signature(id), "lambda") {
				continue
			}
			scope := n.Qualified[:max(strings.LastIndexByte(n.Qualified, '.'), 0)]
			count[scope]++
			out[n.Qualified] = fmt.Sprintf("%s.<lambda%d>", scope, count[scope])
		}
	}
	return out
}
