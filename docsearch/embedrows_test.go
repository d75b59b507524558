package docsearch

import (
	"context"
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// embedOnly hides an embedder's EmbedInto: the index embeds by Embed.
type embedOnly struct{ Embedder }

// TestEmbedRowsSameIndex checks that an index whose chunks are embedded
// into a buffer batch by batch (embed.Model's EmbedInto, embedRows),
// spilled or not, saves the same bytes as one embedded by Embed, and
// that EmbedInto allocates nothing for the vectors themselves.
func TestEmbedRowsSameIndex(t *testing.T) {
	m := embed.Default()
	if _, ok := Embedder(m).(rowEmbedder); !ok {
		t.Fatal("embed.Model is not a rowEmbedder")
	}
	batches := spillCode(3, 25, 20) // 1,500 symbols: many batches of embedBatch
	for _, spill := range []int64{0, 4096} {
		dirA, dirB := t.TempDir(), t.TempDir()
		for _, c := range []struct {
			dir string
			e   Embedder
		}{{dirA, m}, {dirB, embedOnly{m}}} {
			ix := openTest(t, mapFS(nil), Options{Dir: c.dir, Embedder: c.e, SpillBytes: spill, Workers: 2})
			if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
				t.Fatal(err)
			}
		}
		sameSaved(t, dirA, dirB)
	}
	texts := []string{"parse the config file", "HTTPServer listens", "walrus tapir ibis"}
	dst := make([]float32, len(texts)*m.Dim())
	if a := testing.AllocsPerRun(20, func() {
		if err := m.EmbedInto(context.Background(), texts, dst); err != nil {
			t.Fatal(err)
		}
	}); a > 0 && !raceOn {
		t.Errorf("EmbedInto: %.0f allocations; want none", a)
	}
	vs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(slices.Concat(vs...), dst) {
		t.Error("EmbedInto's vectors differ from Embed's")
	}
}

// BenchmarkPutCodeEmbedded puts 1,500 code symbols into an index with
// the built-in model, embedded into a buffer (rows) and by Embed
// (vectors): the bytes an op differ by the vectors, 1 KB a symbol.
func BenchmarkPutCodeEmbedded(b *testing.B) {
	batches := spillCode(3, 25, 20)
	put := func(b *testing.B, e Embedder) {
		ix, err := Open(context.Background(), mapFS(nil), Options{Embedder: e, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
			b.Fatal(err)
		}
	}
	put(b, embed.Default()) // the model's and the token counter's loading, once
	for _, bc := range []struct {
		name string
		e    Embedder
	}{{"rows", embed.Default()}, {"vectors", embedOnly{embed.Default()}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				put(b, bc.e)
			}
		})
	}
}
