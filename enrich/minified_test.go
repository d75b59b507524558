package enrich

import (
	"context"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// minified extracts a minified bundle of size bytes and builds its graph.
func minified(t testing.TB, size int) (*extract.File, []byte, *callgraph.Graph) {
	t.Helper()
	ex, err := extract.New(t.TempDir(), extract.Options{Workers: 1, KeepMinified: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	src := fixture.MinifiedJS(size)
	f, err := ex.Source(context.Background(), "dist/bundle.js", src)
	if err != nil {
		t.Fatal(err)
	}
	return f, src, callgraph.Build([]extract.File{*f})
}

// linear fails t unless work on the large bundle is at most twice the
// growth of its symbols over the small one: quadratic work on eight times
// the symbols is sixty-four times the work.
func linear(t *testing.T, what string, small, large *extract.File, s, l uint64) {
	t.Helper()
	ratio, syms := float64(l)/float64(s), float64(len(large.Symbols))/float64(len(small.Symbols))
	t.Logf("%s: %d symbols, %d bytes allocated; %d symbols, %d", what, len(small.Symbols), s, len(large.Symbols), l)
	if ratio > 2*syms {
		t.Errorf("%s allocated %.1f times as much for %.1f times the symbols", what, ratio, syms)
	}
}

// TestRenderBasicMinifiedLinear renders the basic artifact of bundles of
// 32 KB and 256 KB: the ambiguous calls, the methods of each class and
// the uses of each name were looked through once per symbol.
func TestRenderBasicMinifiedLinear(t *testing.T) {
	sf, _, sg := minified(t, 32<<10)
	lf, _, lg := minified(t, 256<<10)
	s := fixture.Allocated(func() { RenderBasic(sf, sg) })
	l := fixture.Allocated(func() { RenderBasic(lf, lg) })
	linear(t, "RenderBasic", sf, lf, s, l)
}

// TestPromptMinifiedLinear builds the prompt of bundles of 32 KB and
// 256 KB, in one part and in the default budget, which one line full of
// symbols cannot fit. Every symbol of a one-line file holds the next by
// lines, so the tree parts are cut by is a chain as long as the file has
// symbols; splitting it copied each level's list of symbols.
func TestPromptMinifiedLinear(t *testing.T) {
	sf, ssrc, sg := minified(t, 32<<10)
	lf, lsrc, lg := minified(t, 256<<10)
	if _, err := NewBuilder().Prompt(sf, sg, ssrc, Options{}); err != nil {
		t.Logf("warm-up: %v", err) // loads the encoding
	}
	for _, budget := range []int{0, 1_000_000} {
		cost := func(f *extract.File, src []byte, g *callgraph.Graph) uint64 {
			return fixture.Allocated(func() {
				p, err := NewBuilder().Prompt(f, g, src, Options{MaxTokens: budget})
				switch {
				case budget == 0 && len(src) > 100<<10 && (err == nil || !strings.Contains(err.Error(), "line 1")):
					t.Errorf("a one-line bundle of %d bytes in %d tokens: %v, want an error about line 1", len(src), DefaultMaxTokens, err)
				case budget > 0 && err != nil:
					t.Error(err)
				case budget > 0 && p.Parts != 1:
					t.Errorf("%s in %d parts at %d tokens", f.Path, p.Parts, budget)
				}
			})
		}
		linear(t, "Prompt", sf, lf, cost(sf, ssrc, sg), cost(lf, lsrc, lg))
	}
}

// BenchmarkMinified renders the basic artifact and builds the prompt (in
// one part, from a new Builder: no line counted before) of a one-line
// minified bundle of 250 KB and of 2 MB. The budget is beyond any model's,
// so that both sizes make the whole prompt.
func BenchmarkMinified(b *testing.B) {
	for _, bs := range []struct {
		name string
		size int
	}{{"250KB", 250 << 10}, {"2MB", 2_000_000}} {
		f, src, g := minified(b, bs.size)
		b.Run("RenderBasic/"+bs.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				RenderBasic(f, g)
			}
		})
		b.Run("Prompt/"+bs.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewBuilder().Prompt(f, g, src, Options{MaxTokens: 1 << 30}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
