package enrich

import (
	"slices"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// CallerKeys returns the calls into f from other files that an artifact
// of f shows (Called by, Connections), one "caller (file) -> symbol" per
// calling symbol and called symbol, sorted and distinct. An artifact made
// when CallerKeys was different is stale (see artifacts.CallersDigest).
// Lines are left out, so an edit that only moves a caller does not make
// f's artifact stale; calls from f itself are covered by f's source. g
// may be nil: no keys. A key whose calls were all resolved by name only
// ends in " (by name only)", as the artifact shows it.
func CallerKeys(f *extract.File, g Graph) []string {
	if g = graphOf(g); g == nil {
		return nil
	}
	var keys []string
	for _, id := range g.InFile(f.Path) {
		n := g.Node(id)
		if n.Kind == callgraph.KindModule || n.File != f.Path {
			continue
		}
		local := localName(f, n.Qualified)
		guess := map[string]bool{} // key → every call resolved by name only
		for _, e := range g.Callers(id) {
			if e.File != f.Path {
				k := g.Node(e.Caller).Qualified + " (" + e.File + ") -> " + local
				g, seen := guess[k]
				guess[k] = (g || !seen) && e.Resolution == callgraph.Name
			}
		}
		for k, g := range guess {
			if g {
				k += byNameOnly
			}
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
