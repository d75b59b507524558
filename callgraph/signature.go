package callgraph

// Signature returns the declaration of id as extracted, without its body
// ("def f(a, b)", "lambda x: x + 1"); "" for a module node.
func (g *Graph) Signature(id SymbolID) string {
	n := g.nodes[id]
	f := g.files[n.File]
	if f == nil || n.Kind == KindModule {
		return ""
	}
	for _, s := range f.Symbols {
		if s.Qualified == n.Qualified && s.StartLine == n.Line {
			return s.Signature
		}
	}
	return ""
}
