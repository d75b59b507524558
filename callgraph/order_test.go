package callgraph

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dominikbraun/graph"
	"github.com/fileinfo/fileinfo/extract"
)

// synthetic returns a graph of n functions f0..f(n-1) in one file with the
// given edges, indexed as Build indexes them.
func synthetic(n int, edges []Edge) *Graph {
	g := &Graph{nodes: make([]Node, n), byQualified: map[string][]SymbolID{}, results: map[string]*fileResult{}}
	for i := range n {
		q := fmt.Sprintf("f%d", i)
		g.nodes[i] = Node{Qualified: q, Name: q, Kind: extract.KindFunction, File: "s.go", Line: i + 1, EndLine: i + 1}
		g.byQualified[q] = []SymbolID{SymbolID(i)}
	}
	g.edges = slices.Clone(edges)
	slices.SortStableFunc(g.edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Callee, b.Callee))
	})
	g.adjacency()
	return g
}

// randomEdges returns m random calls among n nodes, self-calls and
// repeated calls included; a quarter go to a higher ID, so there are
// long chains and some cycles.
func randomEdges(r *rand.Rand, n, m int) []Edge {
	es := make([]Edge, m)
	for i := range es {
		a := r.IntN(n)
		b := r.IntN(a + 1)
		if r.IntN(4) == 0 {
			b = r.IntN(n)
		}
		es[i] = Edge{Caller: SymbolID(a), Callee: SymbolID(b), File: "s.go", Line: a + 1, Resolution: Local}
	}
	return es
}

// expectCalleeFirst checks comps against the contract of CalleeFirst for
// the nodes and edges of s: every node once, IDs ascending within a
// component, each edge's callee in the same or an earlier component, and
// the same components as dominikbraun/graph finds.
func expectCalleeFirst(t *testing.T, s *Subgraph, comps [][]SymbolID) {
	t.Helper()
	at := map[SymbolID]int{}
	for k, c := range comps {
		if len(c) == 0 || !slices.IsSorted(c) {
			t.Fatalf("component %d = %v: empty or unsorted", k, c)
		}
		for _, id := range c {
			if _, dup := at[id]; dup {
				t.Fatalf("%d in two components", id)
			}
			at[id] = k
		}
	}
	if len(at) != len(s.Nodes) {
		t.Fatalf("%d nodes in components, want %d", len(at), len(s.Nodes))
	}
	for _, e := range s.Edges {
		if at[e.Callee] > at[e.Caller] {
			t.Fatalf("edge %d→%d: callee in component %d after caller's %d", e.Caller, e.Callee, at[e.Callee], at[e.Caller])
		}
	}
	// dominikbraun/graph v0.23.0 loses the component of the vertex whose
	// key is the zero value (findSCC pops "until hash == root" starting
	// from a zero hash), so the oracle keys vertices by ID+1.
	d := graph.New(graph.IntHash, graph.Directed())
	for _, id := range s.Nodes {
		if err := d.AddVertex(int(id) + 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range s.Edges {
		if err := d.AddEdge(int(e.Caller)+1, int(e.Callee)+1); err != nil && err != graph.ErrEdgeAlreadyExists {
			t.Fatal(err)
		}
	}
	keys, err := graph.StronglyConnectedComponents(d)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]SymbolID
	for _, c := range keys {
		var ids []SymbolID
		for _, k := range c {
			ids = append(ids, SymbolID(k-1))
		}
		want = append(want, ids)
	}
	canon := func(cs [][]SymbolID) [][]SymbolID {
		cs = slices.Clone(cs)
		for i := range cs {
			cs[i] = slices.Sorted(slices.Values(cs[i]))
		}
		slices.SortFunc(cs, func(a, b []SymbolID) int { return cmp.Compare(a[0], b[0]) })
		return cs
	}
	if got, want := canon(comps), canon(want); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("components differ from dominikbraun/graph's:\n got  %v\n want %v", got, want)
	}
}

func TestCalleeFirstRandom(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 1))
		n := 1 + r.IntN(60)
		g := synthetic(n, randomEdges(r, n, r.IntN(3*n+1)))
		all := make([]SymbolID, n)
		for i := range all {
			all[i] = SymbolID(i)
		}
		comps := g.CalleeFirst()
		expectCalleeFirst(t, g.Subgraph(all), comps)
		if again := g.CalleeFirst(); !slices.EqualFunc(comps, again, slices.Equal) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
		// A random part of the graph, ordered by its own edges only.
		var part []SymbolID
		for _, id := range all {
			if r.IntN(2) == 0 {
				part = append(part, id)
			}
		}
		s := g.Subgraph(part)
		expectCalleeFirst(t, s, s.CalleeFirst())
		// A Subgraph made by hand need not keep its edges in caller order.
		mixed := *s
		mixed.Edges = slices.Clone(s.Edges)
		r.Shuffle(len(mixed.Edges), func(i, j int) { mixed.Edges[i], mixed.Edges[j] = mixed.Edges[j], mixed.Edges[i] })
		expectCalleeFirst(t, &mixed, mixed.CalleeFirst())
	}
}

func TestCalleeFirstArchive(t *testing.T) {
	g := buildArchive(t, hoodArchive)
	var got []string
	for _, c := range g.CalleeFirst() {
		var qs []string
		for _, id := range c {
			qs = append(qs, g.Node(id).Qualified)
		}
		got = append(got, fmt.Sprint(qs))
	}
	// Tarjan from the module: main, then a ↔ c as one, then b's own d.
	want := "[app.a app.c] [app.d] [app.b] [app.main] [app] [app.lonely]"
	if fmt.Sprint(got) != "["+want+"]" {
		t.Errorf("CalleeFirst = %v\nwant [%s]", got, want)
	}
}

// TestCalleeFirstDeep runs a call chain 100000 deep: a recursive walk
// would need a frame per call.
func TestCalleeFirstDeep(t *testing.T) {
	const n = 100_000
	es := make([]Edge, n-1)
	for i := range es {
		es[i] = Edge{Caller: SymbolID(i), Callee: SymbolID(i + 1)}
	}
	comps := synthetic(n, es).CalleeFirst()
	if len(comps) != n || comps[0][0] != n-1 || comps[n-1][0] != 0 {
		t.Errorf("%d components, first %v, last %v", len(comps), comps[0], comps[len(comps)-1])
	}
}
