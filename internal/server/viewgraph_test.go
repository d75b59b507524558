package server

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/lookup"
	"github.com/fileinfo/fileinfo/internal/view"
)

// viewAnswers is what the web view shows of a workspace: its files'
// symbols, call graphs around a few symbols, and name searches.
type viewAnswers struct {
	files  map[string]view.File
	graphs []view.Graph
}

var viewQueries = []view.GraphQuery{
	{File: "pkg/a.go", Line: 3, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes},
	{File: "pkg/b.go", Line: 3, Depth: 1, Dir: "callers", MaxNodes: view.DefaultMaxNodes},
	{Symbol: "example.com/x/pkg.Use", Depth: 3, Dir: "callees", MaxNodes: view.DefaultMaxNodes},
	{File: "py/tasks.py", Line: 13, Depth: 2, Dir: "both", MaxNodes: 3},
	{File: "web/app.js", Line: 2, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes},
	{File: "lib/util.c", Line: 1, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes},
}

func viewOver(t *testing.T, src viewSource, paths []string) viewAnswers {
	t.Helper()
	ctx := context.Background()
	out := viewAnswers{files: map[string]view.File{}}
	for _, p := range paths {
		f, err := src.File(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		out.files[p] = f
	}
	for _, q := range viewQueries {
		g, err := src.Graph(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		out.graphs = append(out.graphs, g)
	}
	return out
}

// TestViewLeavesGraphPending: on a start from the saved state, the web
// view's files, call graphs and name search answer from the saved
// indexes without restoring the graph, and show what the restored graph
// shows.
func TestViewLeavesGraphPending(t *testing.T) {
	s2, ws, p := restartPending(t, enrichTree())
	src := viewSource{s2.srv}
	paths := []string{"lib/util.c", "pkg/a.go", "pkg/b.go", "py/tasks.py", "web/app.js"}
	saved := viewOver(t, src, paths)
	hits, err := src.Search(context.Background(), "help go", 20)
	if err != nil {
		t.Fatal(err)
	}
	if p.restored() != nil {
		t.Fatal("the view restored the graph")
	}
	edges := 0
	for _, g := range saved.graphs {
		edges += len(g.Edges)
	}
	if edges == 0 || len(hits) == 0 {
		t.Fatalf("%d edges, %d hits: nothing to compare", edges, len(hits))
	}

	ws.mu.RLock()
	g := ws.callGraph()
	ws.mu.RUnlock()
	restored := viewOver(t, src, paths)
	if !reflect.DeepEqual(saved, restored) {
		t.Errorf("over the saved indexes:\n%+v\nover the restored graph:\n%+v", saved, restored)
	}
	ws.mu.RLock()
	want := namesHolding(lookup.New(g, func(string) *extract.File { return nil }), []string{"help", "go"}, 20)
	ws.mu.RUnlock()
	var got []view.Hit
	for _, h := range hits {
		if h.Kind == view.HitCode && h.Symbol != nil {
			got = append(got, h)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("name search over the saved index:\n%+v\nover the graph:\n%+v", got, want)
	}
}

// countingGraph counts the nodes read through it.
type countingGraph struct {
	lookup.Graph
	reads int
}

func (c *countingGraph) Node(id callgraph.SymbolID) callgraph.Node {
	c.reads++
	return c.Graph.Node(id)
}

// TestNamesHoldingLimit checks the name search answers as ranking every
// hit would, at any limit, and reads no node of a rank the ranks above
// fill the limit without.
func TestNamesHoldingLimit(t *testing.T) {
	var syms []extract.Symbol
	for i, name := range []string{"io", "IO_read", "io_write", "ioctl", "radio", "audio", "ratio", "ion", "studio", "Io"} {
		syms = append(syms, extract.Symbol{Name: name, Qualified: fmt.Sprintf("m.c%d.%s", i%3, name), Kind: "function", StartLine: i + 1, EndLine: i + 1})
	}
	g := &countingGraph{Graph: callgraph.Build([]extract.File{{Path: "m.c", Language: "c", Module: "m", Symbols: syms}})}
	ix := lookup.New(g, func(string) *extract.File { return nil })
	// every ranks all the hits, as the search did before the cut.
	every := func(words []string) []callgraph.Node {
		type cand struct {
			n    callgraph.Node
			id   callgraph.SymbolID
			rank int
		}
		var cs []cand
		for i := range g.Len() {
			n := g.Graph.Node(callgraph.SymbolID(i))
			rank := nameRank(strings.ToLower(n.Name), words)
			if rank > 0 && n.Kind != callgraph.KindModule {
				cs = append(cs, cand{n, callgraph.SymbolID(i), rank})
			}
		}
		slices.SortFunc(cs, func(a, b cand) int {
			return cmp.Or(cmp.Compare(b.rank, a.rank), cmp.Compare(len(a.n.Qualified), len(b.n.Qualified)),
				strings.Compare(a.n.Qualified, b.n.Qualified), cmp.Compare(a.id, b.id))
		})
		var out []callgraph.Node
		for _, c := range cs {
			out = append(out, c.n)
		}
		return out
	}
	for _, words := range [][]string{{"io"}, {"o"}, {"dio", "rat"}, {"zz"}} {
		all := every(words)
		for limit := range len(all) + 2 {
			got := namesHolding(ix, words, limit)
			if len(got) != min(limit, len(all)) {
				t.Fatalf("%q limit %d: %d hits, want %d", words, limit, len(got), min(limit, len(all)))
			}
			for i, h := range got {
				if h.Title != all[i].Qualified || h.Line != all[i].Line {
					t.Errorf("%q limit %d: hit %d is %s:%d, want %s:%d", words, limit, i, h.Title, h.Line, all[i].Qualified, all[i].Line)
				}
			}
		}
	}
	// "io" is 2 names equal to it (io, Io), 4 starting with it and 4
	// more holding it: a limit of 5 reads the 6 nodes of the first two
	// ranks, not the 10.
	g.reads = 0
	namesHolding(ix, []string{"io"}, 5)
	if g.reads != 6 {
		t.Errorf("a search for 5 hits of \"io\" read %d nodes, want 6 (ranks exact and prefix)", g.reads)
	}
}

// TestNameRank pins the name search's ranks, which namesHolding and
// TestNamesHoldingLimit's ranking of every hit share.
func TestNameRank(t *testing.T) {
	for _, tc := range []struct {
		name  string
		words []string
		want  int
	}{
		{"io", []string{"io"}, 3},
		{"io_write", []string{"io"}, 2},
		{"radio", []string{"io"}, 1},
		{"kmalloc", []string{"io"}, 0},
		{"radio", []string{"io", "radio"}, 3},
		{"ioctl", []string{"ctl", "io"}, 2},
	} {
		if got := nameRank(tc.name, tc.words); got != tc.want {
			t.Errorf("nameRank(%q, %q) = %d, want %d", tc.name, tc.words, got, tc.want)
		}
	}
}
