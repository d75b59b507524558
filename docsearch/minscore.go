package docsearch

// pick chooses the results of a search from ranked (in rank order): at
// most limit, of each scope when perScope, else in all. A result's
// relevance (hit.score) below minScore leaves it out, but never one
// ranked above a result that passes among the first pickWindow (or
// limit, when more) of its group:
// the rules that rank code after fusion (a function named by the query,
// an encloser before its callback) move a result up by what it is, not
// by its relevance, and the threshold left out the first result while
// showing the ones it was ranked over (`errors.Is` in Go's errors
// package: errorString.Error and errorString shown, Is left out). Such
// a result takes the relevance of the next one that passes, so that the
// scores shown fall with the rank. Past those, results below minScore
// are skipped, and later ones fill the group as before.
func pick(ranked []hit, scopeOf func(hit) string, limit int, perScope bool, minScore float64) []hit {
	var scopes []string // each hit's, looked up once
	if perScope {
		scopes = make([]string, len(ranked))
	}
	group := func(i int) string {
		if !perScope {
			return ""
		}
		if scopes[i] == "" {
			scopes[i] = scopeOf(ranked[i])
		}
		return scopes[i]
	}
	// Each group's window, in rank order.
	window := max(limit, pickWindow)
	var in []int // indexes in ranked of the windows' hits
	seen := map[string]int{}
	for i := range ranked {
		if !perScope && seen[""] >= window {
			break
		}
		g := group(i)
		if seen[g] >= window {
			continue
		}
		seen[g]++
		in = append(in, i)
	}
	// raise[i]: for a hit under minScore ranked over one that passes in
	// its group's window, the relevance of the next that passes.
	raise := map[int]float64{}
	next := map[string]float64{}
	for k := len(in) - 1; k >= 0; k-- {
		i := in[k]
		g := group(i)
		if ranked[i].score >= minScore {
			next[g] = ranked[i].score
		} else if next[g] > 0 {
			raise[i] = next[g]
		}
	}
	var out []hit
	kept := map[string]int{}
	for i, h := range ranked {
		if !perScope && kept[""] >= limit {
			break
		}
		g := group(i)
		if kept[g] >= limit {
			continue
		}
		if r, ok := raise[i]; ok {
			h.score = r
		}
		if h.score < minScore {
			continue
		}
		kept[g]++
		out = append(out, h)
	}
	return out
}

// pickWindow is the fewest results of a group among which a result
// ranked above a passing one is kept whatever its relevance (pick): a
// search for one result still gets the first.
const pickWindow = 10
