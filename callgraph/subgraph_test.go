package callgraph

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// hoodArchive has a cycle (a ↔ c), a fan-in (c), a fan-out (b) and a
// node without calls (lonely).
const hoodArchive = `
-- app.py --
def main():
    a()
    b()

def a():
    c()

def b():
    c()
    d()

def c():
    a()

def d():
    pass

def lonely():
    pass

main()
`

// expectHood checks the neighbourhood of seeds (qualified names joined by
// ",") to depth in dir: its nodes as "qualified:depth" and its edges as
// "caller>callee", both in ID order.
func expectHood(t *testing.T, g *Graph, seeds string, depth int, dir Direction, nodes, edges string) {
	t.Helper()
	var ids []SymbolID
	for _, q := range strings.Split(seeds, ",") {
		if len(g.Lookup(q)) == 0 {
			t.Fatalf("no node %s", q)
		}
		ids = append(ids, g.Lookup(q)...)
	}
	s := g.Neighbourhood(ids, depth, dir)
	if !slices.IsSorted(s.Nodes) || len(s.Depth) != len(s.Nodes) {
		t.Fatalf("nodes %v not sorted or depth %v not parallel", s.Nodes, s.Depth)
	}
	var gotN, gotE []string
	for i, id := range s.Nodes {
		gotN = append(gotN, fmt.Sprintf("%s:%d", g.Node(id).Qualified, s.Depth[i]))
	}
	for _, e := range s.Edges {
		gotE = append(gotE, g.Node(e.Caller).Qualified+">"+g.Node(e.Callee).Qualified)
	}
	if got := strings.Join(gotN, " "); got != nodes {
		t.Errorf("%s depth %d %s nodes:\n got  %s\n want %s", seeds, depth, dir, got, nodes)
	}
	if got := strings.Join(gotE, " "); got != edges {
		t.Errorf("%s depth %d %s edges:\n got  %s\n want %s", seeds, depth, dir, got, edges)
	}
}

func TestNeighbourhood(t *testing.T) {
	g := buildArchive(t, hoodArchive)
	for _, tc := range []struct {
		seeds        string
		depth        int
		dir          Direction
		nodes, edges string
	}{
		{"app.a", 0, Both, "app.a:0", ""},
		{"app.a", -1, Both, "app.a:0", ""},
		{"app.lonely", 3, Both, "app.lonely:0", ""},
		// The cycle a → c → a stops the walk; the back edge is kept.
		{"app.a", 1, Forward, "app.a:0 app.c:1", "app.a>app.c app.c>app.a"},
		{"app.a", 5, Forward, "app.a:0 app.c:1", "app.a>app.c app.c>app.a"},
		{"app.c", 1, Backward, "app.a:1 app.b:1 app.c:0", "app.a>app.c app.b>app.c app.c>app.a"},
		{"app.c", 2, Backward, "app.main:2 app.a:1 app.b:1 app.c:0", "app.main>app.a app.main>app.b app.a>app.c app.b>app.c app.c>app.a"},
		{"app.b", 1, Both, "app.main:1 app.b:0 app.c:1 app.d:1", "app.main>app.b app.b>app.c app.b>app.d"},
		// Both is the union of two cones, not undirected distance: a,
		// another caller of b's callee c, is in only through the Forward
		// cone b → c → a.
		{"app.b", 2, Both, "app:2 app.main:1 app.a:2 app.b:0 app.c:1 app.d:1",
			"app>app.main app.main>app.a app.main>app.b app.a>app.c app.b>app.c app.b>app.d app.c>app.a"},
		// c is in the Forward cone at depth 1; the Backward cone must
		// still walk on through it to b.
		{"app.a", 2, Both, "app:2 app.main:1 app.a:0 app.b:2 app.c:1",
			"app>app.main app.main>app.a app.main>app.b app.a>app.c app.b>app.c app.c>app.a"},
		{"app.d,app", 1, Backward, "app:0 app.b:1 app.d:0", "app.b>app.d"},
	} {
		t.Run(fmt.Sprintf("%s/%d/%s", tc.seeds, tc.depth, tc.dir), func(t *testing.T) {
			expectHood(t, g, tc.seeds, tc.depth, tc.dir, tc.nodes, tc.edges)
		})
	}
}

func TestSubgraphInduced(t *testing.T) {
	g := buildArchive(t, hoodArchive)
	a, c, d := g.Lookup("app.a")[0], g.Lookup("app.c")[0], g.Lookup("app.d")[0]
	s := g.Subgraph([]SymbolID{c, a, d, a, SymbolID(g.Len())})
	if !slices.Equal(s.Nodes, []SymbolID{a, c, d}) || !slices.Equal(s.Depth, []int{0, 0, 0}) {
		t.Errorf("nodes %v depth %v", s.Nodes, s.Depth)
	}
	if len(s.Edges) != 2 || !s.Has(c) || s.Has(g.Lookup("app.b")[0]) {
		t.Errorf("edges %+v", s.Edges)
	}
	if s := g.Subgraph(nil); len(s.Nodes) != 0 || s.Edges == nil {
		t.Errorf("empty subgraph: %+v", s)
	}
}
