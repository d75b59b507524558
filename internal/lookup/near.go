package lookup

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// maxNear is the most near names a query gets.
const maxNear = 10

// NotFound is the error of a query that matches nothing, not even a
// near name.
type NotFound struct {
	Query, Kind string
}

func (e *NotFound) Error() string {
	k := ""
	if e.Kind != "" {
		k = " of kind " + e.Kind
	}
	return fmt.Sprintf("no symbol%s matches %q, nor any near name; try a shorter part of the name, or search for it", k, e.Query)
}

// near returns the symbols whose names are near the query's last part:
// within an edit distance of a third of its length, or sharing most of
// its words (register_blueprint, registerBlueprint and RegisterBlueprints
// share "register" and "blueprint"). Closest first, at most maxNear, of
// those keep accepts (nil: all).
func (ix *Index) near(q string, keep func(callgraph.SymbolID) bool) []Match {
	last := strings.ToLower(q[strings.LastIndexAny(q, "./:")+1:])
	if last == "" {
		return nil
	}
	words := Words(last)
	maxDist := max(1, len([]rune(last))/3)
	type cand struct {
		name  string
		score float64
	}
	var cands []cand
	ix.names.EachName(func(name string) bool {
		if name == "" {
			return true
		}
		score := 0.0
		if d := distance(last, name, maxDist); d <= maxDist {
			score = 1 - float64(d)/float64(maxDist+1)
		}
		if len(words) > 0 {
			shared := 0
			nw := Words(name)
			for _, w := range words {
				for _, v := range nw {
					if w == v {
						shared++
						break
					}
				}
			}
			if o := float64(shared) / float64(max(len(words), len(nw))); o >= 0.5 && o > score {
				score = o
			}
		}
		if score > 0 {
			cands = append(cands, cand{name, score})
		}
		return true
	})
	// Best first, as the loop below assumes (names came in map order).
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].name < cands[j].name
	})
	// Each symbol of a near name scores as its name, and better when its
	// qualified name holds the query's qualifier (the "Command" of
	// "Command.Fnd").
	qual := ""
	if cut := strings.LastIndexAny(q, "./:"); cut > 0 {
		qual = strings.ToLower(q[:cut])
		qual = qual[strings.LastIndexAny(qual, "./:")+1:]
	}
	// Names come best first; the symbols of the next name can only rank
	// among the first maxNear if its score, plus the qualifier's bonus,
	// reaches theirs: stop before a name that cannot.
	bonus := 0.0
	if qual != "" {
		bonus = 0.5
	}
	var all []ranked
	for k, c := range cands {
		if k > 0 && len(all) >= maxNear && c.score+bonus < cands[k-1].score {
			reach := 0
			for _, r := range all {
				if r.score > c.score+bonus {
					reach++
				}
			}
			if reach >= maxNear {
				break
			}
		}
		for _, id := range ix.names.Named(c.name) {
			if keep != nil && !keep(id) {
				continue
			}
			r := ix.key(id)
			r.score = c.score
			if qual != "" && strings.Contains(strings.ToLower(r.qualified), qual) {
				r.score += 0.5
			}
			all = append(all, r)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].less(all[j]) })
	var out []Match
	for _, r := range all[:min(len(all), maxNear)] {
		out = append(out, Match{ID: r.id, How: Fuzzy})
	}
	return out
}

// Words splits an identifier into lower-case words at underscores,
// dashes, dots, digits runs and case changes: "parseHTTPRequest_v2" is
// parse, http, request, v2.
func Words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush(i)
			continue
		case start < 0:
			start = i
		case unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// distance is the Levenshtein distance of a and b, or more than limit
// once it must exceed limit.
func distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Ambiguous is the error of a symbol that names several definitions
// where one is needed.
type Ambiguous struct {
	Query      string
	Candidates []Symbol // the first maxCandidates of them
	Total      int      // how many definitions it names; 0 for len(Candidates)
}

func (e *Ambiguous) Error() string {
	var b strings.Builder
	total := max(e.Total, len(e.Candidates))
	fmt.Fprintf(&b, "ambiguous symbol %q names %d definitions; give one's qualified name or path:Name; candidates", e.Query, total)
	if total > len(e.Candidates) {
		fmt.Fprintf(&b, " (the first %d)", len(e.Candidates))
	}
	b.WriteString(":")
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "\n  %s (%s) %s:%d", c.Qualified, c.Kind, c.Path, c.Line)
	}
	return b.String()
}

// Unknown is the error of a symbol that names no definition, with the
// near names it may have meant.
type Unknown struct {
	Query string
	Near  []Symbol
}

func (e *Unknown) Error() string {
	if len(e.Near) == 0 {
		return fmt.Sprintf("no symbol %q, nor any near name; give a qualified name, a name, or path:Name", e.Query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no symbol %q; near names:", e.Query)
	for _, c := range e.Near {
		fmt.Fprintf(&b, "\n  %s (%s) %s:%d", c.Qualified, c.Kind, c.Path, c.Line)
	}
	return b.String()
}

// maxCandidates is the most candidates an Ambiguous error lists.
const maxCandidates = 20

// Resolve returns the one definition spec names, for callers and
// callees: several IDs only for overloads sharing one qualified name. An
// exact match wins over partial ones; several partial or inherited
// matches are *Ambiguous, none is *Unknown with the near names. A
// declaration (a C prototype) is no candidate beside a definition.
func (ix *Index) Resolve(spec string) ([]callgraph.SymbolID, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty symbol: give a qualified name, a name, or path:Name")
	}
	ms := ix.matches(spec)
	if len(ms) == 0 {
		e := &Unknown{Query: spec}
		for _, m := range ix.near(spec, nil) {
			e.Near = append(e.Near, ix.Symbol(m))
		}
		return nil, e
	}
	best := ms[0].How
	var ids []callgraph.SymbolID
	for _, m := range ms {
		if m.How == best {
			ids = append(ids, m.ID)
		}
	}
	// A C prototype names the function its definition defines: with a
	// definition among the matches, the declarations of other names are
	// not candidates. One of a definition's own name (a TypeScript
	// overload's signature, a declaration file's function) is the same
	// symbol, and keeps the callers that reach it.
	defined := map[string]bool{}
	for _, id := range ids {
		if n := ix.g.Node(id); !n.Declaration {
			defined[n.Qualified] = true
		}
	}
	if len(defined) > 0 {
		ids = slices.DeleteFunc(ids, func(id callgraph.SymbolID) bool {
			n := ix.g.Node(id)
			return n.Declaration && !defined[n.Qualified]
		})
	}
	// A file named for the function it holds (rxjs's mergeMap.ts) is a
	// module of that name too: path:Name means the function.
	if slices.ContainsFunc(ids, func(id callgraph.SymbolID) bool { return ix.g.Node(id).Kind != callgraph.KindModule }) {
		ids = slices.DeleteFunc(ids, func(id callgraph.SymbolID) bool { return ix.g.Node(id).Kind == callgraph.KindModule })
	}
	qs := map[string]bool{}
	for _, id := range ids {
		qs[ix.g.Node(id).Qualified] = true
	}
	if len(qs) == 1 {
		// The first names the definition: a source's, not the
		// declaration file's beside it (graphql's parser.d.ts sorts
		// before parser.js) nor an overload's signature before it. The
		// others keep their callers.
		declared := func(id callgraph.SymbolID) bool {
			n := ix.g.Node(id)
			return n.Declaration || extract.DeclarationFile(n.File)
		}
		slices.SortStableFunc(ids, func(a, b callgraph.SymbolID) int {
			switch da, db := declared(a), declared(b); {
			case da == db:
				return 0
			case db:
				return -1
			}
			return 1
		})
		return ids, nil
	}
	e := &Ambiguous{Query: spec, Total: len(ids)}
	for _, id := range ids[:min(len(ids), maxCandidates)] {
		e.Candidates = append(e.Candidates, ix.Symbol(Match{ID: id, How: best}))
	}
	return nil, e
}
