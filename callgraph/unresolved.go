package callgraph

import "strings"

// UnresolvedIn returns the call sites without a target made in file, in
// line order; nil when file has none or is not in the graph. Cheaper than
// filtering Unresolved when one file is wanted.
func (g *Graph) UnresolvedIn(file string) []Unresolved {
	if r := g.results[file]; r != nil {
		return r.unresolved
	}
	return nil
}

// IsAmbiguous reports whether u is left unresolved because several
// symbols have its name and nothing tells them apart: a call a name-only
// guess would have to pick a target for.
func (u Unresolved) IsAmbiguous() bool { return strings.HasPrefix(u.Reason, "ambiguous:") }
