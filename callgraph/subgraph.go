package callgraph

import "sort"

// Direction says which edges a neighbourhood follows from its seeds.
type Direction uint8

const (
	// Forward follows calls: a seed's callees, their callees, ...
	Forward Direction = 1 << iota
	// Backward follows calls in reverse: a seed's callers, theirs, ...
	Backward
	// Both is the union of the Forward and the Backward cones. It is not
	// undirected distance: that would pull in, at depth 2, every other
	// caller of a popular callee.
	Both = Forward | Backward
)

// String returns "callees", "callers" or "both".
func (d Direction) String() string {
	switch d {
	case Forward:
		return "callees"
	case Backward:
		return "callers"
	case Both:
		return "both"
	}
	return "none"
}

// Subgraph is a set of a Graph's nodes with every edge between them. It is
// small plain data: the traversal that made it ran on the Graph's dense
// edge lists, and it is cheap to render or to hand to an algorithm.
type Subgraph struct {
	Graph *Graph     // the graph it was cut from
	Nodes []SymbolID // ascending, unique
	Depth []int      // parallel to Nodes: calls from the nearest seed, 0 for a seed
	Edges []Edge     // every edge of Graph with both ends in Nodes, in Graph.Edges order
}

// Neighbourhood returns the subgraph of the nodes within depth calls of a
// seed, following edges in dir, with every edge among them (so an edge
// between two callers of a seed is there too). Depth 0 is the seeds alone;
// a negative depth counts as 0. Seeds out of range are ignored. It runs
// in time proportional to the edges it visits, not to the graph.
func (g *Graph) Neighbourhood(seeds []SymbolID, depth int, dir Direction) *Subgraph {
	dist := make(map[SymbolID]int, len(seeds))
	var frontier []SymbolID
	for _, id := range seeds {
		if int(id) < len(g.nodes) {
			if _, ok := dist[id]; !ok {
				dist[id] = 0
				frontier = append(frontier, id)
			}
		}
	}
	for _, d := range []Direction{Forward, Backward} {
		if dir&d != 0 {
			g.cone(dist, frontier, depth, d)
		}
	}
	return g.cut(dist)
}

// cone walks breadth-first from seeds along d to depth levels and
// lowers dist to each node's distance in this cone. The cone keeps its own
// visited set: a node the other cone reached nearer still leads on.
func (g *Graph) cone(dist map[SymbolID]int, seeds []SymbolID, depth int, d Direction) {
	lists, end := g.out, func(e Edge) SymbolID { return e.Callee }
	if d == Backward {
		lists, end = g.in, func(e Edge) SymbolID { return e.Caller }
	}
	seen := make(map[SymbolID]bool, len(seeds))
	for _, id := range seeds {
		seen[id] = true
	}
	level := seeds
	for k := 1; k <= depth && len(level) > 0; k++ {
		var next []SymbolID
		for _, id := range level {
			for _, ei := range lists.of(id) {
				w := end(g.edges[ei])
				if seen[w] {
					continue
				}
				seen[w] = true
				next = append(next, w)
				if old, ok := dist[w]; !ok || k < old {
					dist[w] = k
				}
			}
		}
		level = next
	}
}

// Subgraph returns the nodes ids (duplicates and IDs out of range
// dropped) with every edge between them; Depth is all 0.
func (g *Graph) Subgraph(ids []SymbolID) *Subgraph {
	dist := make(map[SymbolID]int, len(ids))
	for _, id := range ids {
		if int(id) < len(g.nodes) {
			dist[id] = 0
		}
	}
	return g.cut(dist)
}

// cut builds the subgraph of the nodes in dist.
func (g *Graph) cut(dist map[SymbolID]int) *Subgraph {
	s := &Subgraph{Graph: g, Nodes: make([]SymbolID, 0, len(dist)), Depth: make([]int, len(dist)), Edges: []Edge{}}
	for id := range dist {
		s.Nodes = append(s.Nodes, id)
	}
	sortIDs(s.Nodes)
	for i, id := range s.Nodes {
		s.Depth[i] = dist[id]
		for _, ei := range g.out.of(id) {
			if _, ok := dist[g.edges[ei].Callee]; ok {
				s.Edges = append(s.Edges, g.edges[ei])
			}
		}
	}
	return s
}

// Has reports whether id is a node of s, in O(log n).
func (s *Subgraph) Has(id SymbolID) bool {
	_, ok := s.index(id)
	return ok
}

// index returns id's position in s.Nodes.
func (s *Subgraph) index(id SymbolID) (int, bool) {
	i := sort.Search(len(s.Nodes), func(i int) bool { return s.Nodes[i] >= id })
	return i, i < len(s.Nodes) && s.Nodes[i] == id
}
