package callgraph

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dominikbraun/graph"
	"github.com/fileinfo/fileinfo/extract"
)

// Measured on the shared 2-core dev box, Go 1.26 (go test -run '^$' -bench
// 'CalleeFirst|Dominikbraun|TopologicalSort|Neighbourhood|WriteDOT'
// -benchmem ./callgraph):
//
//	                           CalleeFirst     dominikbraun/graph v0.23.0
//	x/tools (10k n, 15k e)     0.79 ms 0.6 MB  14 ms 8 MB build + 14 ms 8.6 MB SCC
//	synthetic (20k n, 40k e)   2.6 ms  1.1 MB  82 ms 28 MB build + 57 ms 27 MB SCC
//	random DAG, n = 1k/2k/4k   69/127/285 µs   TopologicalSort 43/192/632 ms, 25/101/407 MB
//	Neighbourhood, depth 2 from the most-called node: 62 µs (synthetic), 68 µs (x/tools)
//	WriteDOT of every x/tools node with a call (5.4k n, 9.5k e): 0.14-0.36 s, 40 MB
//
// A rerun at load average 9 (other jobs on the box) roughly doubled every
// number; the ratios held (x/tools: 1.5 ms against 17 + 36 ms).
//
// dominikbraun's AddEdge is O(1) in v0.23.0 — the whole-graph copies are
// in AdjacencyMap and PredecessorMap, once per algorithm call — but every
// vertex and edge is a map entry with its own attribute map, and
// TopologicalSort rescans the predecessor map and requeues every source
// for each vertex it emits: quadratic in time and memory (about 16 s at
// 20k nodes by that curve). So the whole-repo order is ours, 35-50 times
// faster than building a dominikbraun graph and running its SCC, and
// dominikbraun draws small subgraphs.

// benchGraphs returns the graphs to measure: a synthetic one and, when
// the module cache has it, the call graph of golang.org/x/tools.
func benchGraphs(b *testing.B) map[string]*Graph {
	b.Helper()
	gs := map[string]*Graph{"synthetic-20k": synthetic(20000, randomEdges(rand.New(rand.NewPCG(1, 2)), 20000, 40000))}
	if g, err := toolsGraph(); err != nil {
		b.Logf("no x/tools graph: %v", err)
	} else {
		gs["x-tools"] = g
	}
	return gs
}

// toolsGraph builds golang.org/x/tools@v0.39.0 from the module cache once.
var toolsGraph = sync.OnceValues(func() (*Graph, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(home, "go", "pkg", "mod", "golang.org", "x", "tools@v0.39.0")
	if gp := os.Getenv("GOPATH"); gp != "" {
		dir = filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod", "golang.org", "x", "tools@v0.39.0")
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	ex, err := extract.New(dir, extract.Options{})
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	files, _, err := ex.All(context.Background())
	if err != nil {
		return nil, err
	}
	return Build(files), nil
})

// bare copies g into a dominikbraun graph without attributes: the least
// it costs to get there.
func bare(g *Graph) graph.Graph[int, int] {
	d := graph.New(graph.IntHash, graph.Directed())
	for id := range g.Len() {
		_ = d.AddVertex(id + 1) // key 0 trips its SCC; see expectCalleeFirst
	}
	for _, e := range g.Edges() {
		_ = d.AddEdge(int(e.Caller)+1, int(e.Callee)+1) // repeats: ErrEdgeAlreadyExists
	}
	return d
}

func BenchmarkCalleeFirst(b *testing.B) {
	for name, g := range benchGraphs(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.CalleeFirst()
			}
		})
	}
}

func BenchmarkDominikbraun(b *testing.B) {
	for name, g := range benchGraphs(b) {
		b.Run(name+"/build", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bare(g)
			}
		})
		b.Run(name+"/scc", func(b *testing.B) {
			d := bare(g)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := graph.StronglyConnectedComponents(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTopologicalSort orders random DAGs both ways; doubling n
// shows which one is quadratic.
func BenchmarkTopologicalSort(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		r := rand.New(rand.NewPCG(3, 4))
		es := make([]Edge, 2*n)
		for i := range es {
			a := 1 + r.IntN(n-1)
			es[i] = Edge{Caller: SymbolID(a), Callee: SymbolID(r.IntN(a))}
		}
		g := synthetic(n, es)
		b.Run(fmt.Sprintf("ours/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.CalleeFirst()
			}
		})
		b.Run(fmt.Sprintf("dominikbraun/n=%d", n), func(b *testing.B) {
			d := bare(g)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := graph.TopologicalSort(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNeighbourhood(b *testing.B) {
	for name, g := range benchGraphs(b) {
		// The node with the most callers: the worst seed for a query.
		var seed SymbolID
		for id := range g.Len() {
			if len(g.in.of(SymbolID(id))) > len(g.in.of(seed)) {
				seed = SymbolID(id)
			}
		}
		for _, depth := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/depth=%d", name, depth), func(b *testing.B) {
				b.ReportAllocs()
				var s *Subgraph
				for b.Loop() {
					s = g.Neighbourhood([]SymbolID{seed}, depth, Both)
				}
				b.ReportMetric(float64(len(s.Nodes)), "nodes")
			})
		}
	}
}

// BenchmarkWriteDOT draws every node with a call: draw.DOT's cost on a
// whole repository.
func BenchmarkWriteDOT(b *testing.B) {
	for name, g := range benchGraphs(b) {
		var ids []SymbolID
		for _, e := range g.Edges() {
			ids = append(ids, e.Caller, e.Callee)
		}
		s := g.Subgraph(ids)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := s.WriteDOT(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
