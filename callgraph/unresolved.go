package callgraph

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// UnresolvedIn returns the call sites without a target made in file, in
// line order; nil when file has none or is not in the graph. Cheaper than
// filtering Unresolved when one file is wanted.
func (g *Graph) UnresolvedIn(file string) []Unresolved {
	r := g.results[file]
	switch {
	case r == nil:
		return nil
	case r.unresolved != nil:
		return r.unresolved
	case len(r.calls) == 0:
		return nil
	}
	return g.unresolvedOf(g.files[file], r)
}

// unresolvedOf makes the Unresolved records of r's calls, calls of f.
func (g *Graph) unresolvedOf(f *extract.File, r *fileResult) []Unresolved {
	out := make([]Unresolved, len(r.calls))
	for i, u := range r.calls {
		c := &f.Calls[u.call]
		out[i] = Unresolved{Caller: c.Caller, Name: c.Name, Receiver: c.Receiver, File: f.Path, Line: c.Line, Reason: g.reasons[u.reason]}
	}
	return out
}

// IsAmbiguous reports whether u is left unresolved because several
// symbols have its name and nothing tells them apart: a call a name-only
// guess would have to pick a target for.
func (u Unresolved) IsAmbiguous() bool { return strings.HasPrefix(u.Reason, "ambiguous:") }
