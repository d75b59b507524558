package callgraph

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// extractMinified extracts a minified bundle of size bytes as
// dist/bundle.js.
func extractMinified(t testing.TB, size int) extract.File {
	t.Helper()
	ex, err := extract.New(t.TempDir(), extract.Options{Workers: 1, KeepMinified: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.Source(context.Background(), "dist/bundle.js", fixture.MinifiedJS(size))
	if err != nil {
		t.Fatal(err)
	}
	return *f
}

// TestBuildMinifiedLinear checks that resolving a minified bundle's calls
// grows with its size: hundreds of its functions share a name, and
// looking them all through at each call of the name was quadratic.
func TestBuildMinifiedLinear(t *testing.T) {
	small, large := extractMinified(t, 32<<10), extractMinified(t, 256<<10)
	cost := func(f extract.File) uint64 {
		return fixture.Allocated(func() { Build([]extract.File{f}) })
	}
	s, l := cost(small), cost(large)
	t.Logf("%d calls: %d bytes allocated; %d calls: %d", len(small.Calls), s, len(large.Calls), l)
	if ratio, calls := float64(l)/float64(s), float64(len(large.Calls))/float64(len(small.Calls)); ratio > 2*calls {
		t.Errorf("building the graph allocated %.1f times as much for %.1f times the calls", ratio, calls)
	}
}

// TestReferencesCapped checks that ReferencesCapped gives the head of
// References and its length, for every node of a graph with references
// across files and of a bundle whose names repeat.
func TestReferencesCapped(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "refs", "refs.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	graphs := map[string]*Graph{
		"refs.txtar": buildArchive(t, string(data)),
		"bundle":     Build([]extract.File{extractMinified(t, 16<<10)}),
	}
	for name, g := range graphs {
		checked := 0
		for id := range SymbolID(g.Len()) {
			all := g.References(id)
			for _, limit := range []int{0, 1, 2, 3, 10} {
				head, total := g.ReferencesCapped(id, limit)
				want := all
				if limit > 0 {
					want = all[:min(limit, len(all))]
				}
				if !slices.Equal(head, want) || total != len(all) {
					t.Fatalf("%s: ReferencesCapped(%s, %d) = %v, %d; want %v, %d", name, g.Node(id).Qualified, limit, head, total, want, len(all))
				}
			}
			if len(all) > 3 {
				checked++
			}
		}
		if checked == 0 && name == "bundle" {
			t.Errorf("%s: no node has more than 3 references; the test checks no cap", name)
		}
	}
}

// TestReferencesCappedMinifiedLinear checks that the capped references
// of every symbol of a bundle cost work in proportion to its size: its
// hundreds of functions named alike are each used by name thousands of
// times in the file, and each symbol's list was built and sorted whole.
func TestReferencesCappedMinifiedLinear(t *testing.T) {
	cost := func(size int) (uint64, int) {
		g := Build([]extract.File{extractMinified(t, size)})
		return fixture.Allocated(func() {
			for id := range SymbolID(g.Len()) {
				g.ReferencesCapped(id, 10)
			}
		}), g.Len()
	}
	s, ns := cost(32 << 10)
	l, nl := cost(256 << 10)
	t.Logf("%d nodes: %d bytes allocated; %d nodes: %d", ns, s, nl, l)
	if ratio, nodes := float64(l)/float64(s), float64(nl)/float64(ns); ratio > 2*nodes {
		t.Errorf("references allocated %.1f times as much for %.1f times the nodes", ratio, nodes)
	}
}

// BenchmarkBuildMinified builds the graph of a one-line minified bundle
// of 250 KB and of 2 MB.
func BenchmarkBuildMinified(b *testing.B) {
	for _, bs := range []struct {
		name string
		size int
	}{{"250KB", 250 << 10}, {"2MB", 2_000_000}} {
		b.Run(bs.name, func(b *testing.B) {
			f := extractMinified(b, bs.size)
			b.SetBytes(int64(bs.size))
			b.ReportAllocs()
			for b.Loop() {
				g := Build([]extract.File{f})
				for id := range SymbolID(g.Len()) {
					g.ReferencesCapped(id, 10)
				}
			}
		})
	}
}
