package docsearch

import (
	"context"
	"fmt"
	"math"
)

// Embedder turns texts into vectors of Dim() float32s, L2-normalised.
// Searches call Embed concurrently.
type Embedder interface {
	Name() string // identifies the model and version, recorded in the index; a different name means re-embed
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// embedBatch is how many chunk texts are passed to one Embed call while
// indexing: big enough to amortise a remote round trip, small enough that
// cancelling is prompt.
const embedBatch = 64

// embedAll embeds texts in batches and checks every vector's length.
func embedAll(ctx context.Context, e Embedder, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for i := 0; i < len(texts); i += embedBatch {
		batch := texts[i:min(i+embedBatch, len(texts))]
		vs, err := e.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed with %s: %w", e.Name(), err)
		}
		if len(vs) != len(batch) {
			return nil, fmt.Errorf("embed with %s: %d vectors for %d texts", e.Name(), len(vs), len(batch))
		}
		for _, v := range vs {
			if d := e.Dim(); d > 0 && len(v) != d {
				return nil, fmt.Errorf("embed with %s: vector of %d, want %d", e.Name(), len(v), d)
			}
			normalize(v)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// normalize scales v to unit length in place; a zero vector stays zero.
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 || math.Abs(s-1) < 1e-6 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}
