package server

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/internal/lookup"
	"github.com/fileinfo/fileinfo/internal/view"
)

// The web view reads the call graph as file_info does (enrich.Graph):
// while the graph is pending, from the saved indexes (see savedView), so
// that opening a file or its call graph in the view does not restore the
// whole graph (on the Linux kernel 1.5 GB more resident, and seconds).
// Its name search reads the lookup index, the saved symbols index while
// it describes the graph.

func (v viewSource) Graph(ctx context.Context, q view.GraphQuery) (view.Graph, error) {
	ws, err := v.s.ready(ctx, nil)
	if err != nil {
		return view.Graph{}, err
	}
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	g := ws.enrichGraph()
	id, err := findSymbol(g, q)
	if err != nil {
		return view.Graph{}, err
	}
	side := map[callgraph.SymbolID]int{id: 0}
	if q.Dir != "callers" {
		cone(g, side, id, q.Depth, 1)
	}
	if q.Dir != "callees" {
		cone(g, side, id, q.Depth, -1)
	}
	ids := slices.Collect(maps.Keys(side))
	// The symbol first, then the nearest; by name within a distance.
	slices.SortFunc(ids, func(a, b callgraph.SymbolID) int {
		return cmp.Or(cmp.Compare(abs(side[a]), abs(side[b])), cmp.Compare(side[a], side[b]),
			strings.Compare(g.Node(a).Qualified, g.Node(b).Qualified), cmp.Compare(a, b))
	})
	out := view.Graph{Total: len(ids)}
	ids = ids[:min(len(ids), q.MaxNodes)]
	index := make(map[callgraph.SymbolID]int, len(ids))
	for i, n := range ids {
		index[n] = i
		out.Nodes = append(out.Nodes, view.GraphNode{Symbol: viewSymbol(g.Node(n)), Side: side[n]})
	}
	// The edges between the nodes shown: each node's calls in ID order,
	// each in the graph's order; one edge per pair.
	type pair struct{ from, to int }
	seen := map[pair]bool{}
	for _, n := range slices.Sorted(maps.Keys(index)) {
		for _, e := range g.Callees(n) {
			to, ok := index[e.Callee]
			if !ok {
				continue
			}
			if p := (pair{index[n], to}); !seen[p] {
				seen[p] = true
				out.Edges = append(out.Edges, view.GraphEdge{From: p.from, To: p.to, Resolution: string(e.Resolution), Line: e.Line})
			}
		}
	}
	return out, nil
}

// cone walks breadth-first from id to depth levels, along calls (sign 1)
// or calls in reverse (sign -1), and sets side to each node's signed
// distance when it is nearer than the distance side holds. The walk
// keeps its own visited set: a node the other cone reached nearer still
// leads on.
func cone(g enrich.Graph, side map[callgraph.SymbolID]int, id callgraph.SymbolID, depth, sign int) {
	seen := map[callgraph.SymbolID]bool{id: true}
	level := []callgraph.SymbolID{id}
	for k := 1; k <= depth && len(level) > 0; k++ {
		var next []callgraph.SymbolID
		visit := func(m callgraph.SymbolID) {
			if seen[m] {
				return
			}
			seen[m] = true
			next = append(next, m)
			if old, ok := side[m]; !ok || k < abs(old) {
				side[m] = k * sign
			}
		}
		for _, n := range level {
			if sign > 0 {
				for _, e := range g.Callees(n) {
					visit(e.Callee)
				}
			} else {
				for _, e := range g.Callers(n) {
					visit(e.Caller)
				}
			}
		}
		level = next
	}
}

// findSymbol picks the symbol q names: the one at q.File and q.Line (of
// q.Symbol's name, when given), else the first named q.Symbol.
func findSymbol(g enrich.Graph, q view.GraphQuery) (callgraph.SymbolID, error) {
	if q.File != "" {
		ids := g.InFile(q.File)
		for _, id := range ids {
			n := g.Node(id)
			if n.Line == q.Line && (q.Symbol == "" || n.Qualified == q.Symbol) {
				return id, nil
			}
		}
		if q.Symbol == "" {
			if id, ok := symbolAt(g, ids, q.Line); ok {
				return id, nil
			}
		}
	}
	if q.Symbol != "" {
		if ids := g.Lookup(q.Symbol); len(ids) > 0 {
			return ids[0], nil
		}
	}
	var known []string
	for _, id := range g.InFile(q.File) {
		if n := g.Node(id); n.Kind != callgraph.KindModule && len(known) < 10 {
			known = append(known, n.Qualified)
		}
	}
	if q.File == "" {
		return 0, fmt.Errorf("%w: no symbol is named %q; search for its name", view.ErrNotFound, q.Symbol)
	}
	if len(known) == 0 {
		return 0, fmt.Errorf("%w: no symbols in %s (not a source file of the workspace?)", view.ErrNotFound, q.File)
	}
	return 0, fmt.Errorf("%w: symbol %q at %s:%d; known in that file: %s", view.ErrNotFound, q.Symbol, q.File, q.Line, strings.Join(known, ", "))
}

// symbolAt returns the innermost of a file's nodes ids whose lines hold
// line, as callgraph.Graph.At does: the module's node for a line outside
// every symbol.
func symbolAt(g enrich.Graph, ids []callgraph.SymbolID, line int) (callgraph.SymbolID, bool) {
	best, found := callgraph.SymbolID(0), false
	var bn callgraph.Node
	for _, id := range ids {
		n := g.Node(id)
		if n.Kind == callgraph.KindModule || n.Line > line || n.EndLine < line {
			continue
		}
		if !found || n.Line >= bn.Line && n.EndLine <= bn.EndLine {
			best, bn, found = id, n, true
		}
	}
	if !found {
		for _, id := range ids {
			if g.Node(id).Kind == callgraph.KindModule {
				return id, true
			}
		}
	}
	return best, found
}

// codeHits returns up to limit symbols whose name holds a word of query
// (case aside): names equal to a word first, then names starting with
// one, then the rest; shorter qualified names first within each. It
// reads only the names that hold a word (lookup's EachNameHolding: the
// saved symbols index looks a word up by its trigrams), not every node.
func codeHits(ws *workspace, query string, limit int) []view.Hit {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return nil
	}
	var hits []view.Hit
	ws.withLookup(func(ix *lookup.Index, _ lookupAt) { hits = namesHolding(ix, words, limit) })
	return hits
}

// nameRank ranks a lower-case name for the lower-case words of a name
// search: 3 when it is one of them, 2 when it starts with one, 1 when it
// holds one, else 0.
func nameRank(name string, words []string) int {
	rank := 0
	for _, w := range words {
		switch {
		case name == w:
			rank = max(rank, 3)
		case strings.HasPrefix(name, w):
			rank = max(rank, 2)
		case strings.Contains(name, w):
			rank = max(rank, 1)
		}
	}
	return rank
}

// namesHolding ranks the names holding a word (nameRank). Hits are
// sorted by rank first, so a rank whose hits, with those of the ranks
// above, fill the limit leaves the ranks below out: their nodes are not
// read (on the Linux kernel 79,672 nodes' names hold "io", and 5,249
// are or start with it).
func namesHolding(ix *lookup.Index, words []string, limit int) []view.Hit {
	type cand struct {
		id   callgraph.SymbolID
		n    callgraph.Node
		rank int
	}
	type named struct {
		ids  []callgraph.SymbolID
		rank int
	}
	var names []named
	ix.EachNameHolding(words, func(name string, ids []callgraph.SymbolID) bool {
		if rank := nameRank(name, words); rank > 0 {
			names = append(names, named{ids, rank})
		}
		return true
	})
	var cands []cand
	for rank := 3; rank > 0 && len(cands) < limit; rank-- {
		for _, nm := range names {
			if nm.rank != rank {
				continue
			}
			for _, id := range nm.ids {
				if n := ix.Node(id); n.Kind != callgraph.KindModule {
					cands = append(cands, cand{id, n, rank})
				}
			}
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.rank, a.rank), cmp.Compare(len(a.n.Qualified), len(b.n.Qualified)),
			strings.Compare(a.n.Qualified, b.n.Qualified), cmp.Compare(a.id, b.id))
	})
	hits := make([]view.Hit, 0, min(len(cands), limit))
	for _, c := range cands[:min(len(cands), limit)] {
		sym := viewSymbol(c.n)
		hits = append(hits, view.Hit{Kind: view.HitCode, Path: sym.File, Line: sym.Line, Title: sym.Qualified, Summary: sym.Kind, Symbol: &sym})
	}
	return hits
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
