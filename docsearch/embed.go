package docsearch

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sync/errgroup"
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

// embedAll embeds texts in batches, up to workers batches at a time (a
// local embedder is CPU-bound; a remote one gains from concurrent
// requests), and checks every vector's length. The vectors keep the
// texts' order.
func embedAll(ctx context.Context, e Embedder, texts []string, workers int) ([][]float32, error) {
	out := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for i := 0; i < len(texts); i += embedBatch {
		batch := texts[i:min(i+embedBatch, len(texts))]
		g.Go(func() error {
			vs, err := e.Embed(gctx, batch)
			if err != nil {
				return fmt.Errorf("embed with %s: %w", e.Name(), err)
			}
			if len(vs) != len(batch) {
				return fmt.Errorf("embed with %s: %d vectors for %d texts", e.Name(), len(vs), len(batch))
			}
			for j, v := range vs {
				if d := e.Dim(); d > 0 && len(v) != d {
					return fmt.Errorf("embed with %s: vector of %d, want %d", e.Name(), len(v), d)
				}
				normalize(v)
				out[i+j] = v
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
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

// embed computes the vectors of new chunks outside the lock and stores
// them under it; a chunk compacted away meanwhile cannot happen, since
// commits are serialized by ix.update.
func (ix *Index) embed(ctx context.Context, texts []string, ids []uint32) error {
	if e, ok := ix.opts.Embedder.(rowEmbedder); ok && e.Dim() > 0 {
		return ix.embedRows(ctx, e, texts, ids)
	}
	vs, err := embedAll(ctx, ix.opts.Embedder, texts, ix.opts.Workers)
	if err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for i, v := range vs {
		if err := ix.storeVector(ids[i], v); err != nil {
			return err
		}
	}
	return nil
}

// storeVector stores v as chunk id's vector and sketch; the first
// vector stored sets the index's dimensions, and one of others is an
// error. Callers hold ix.mu for writing.
func (ix *Index) storeVector(id uint32, v []float32) error {
	if ix.vec.dim == 0 {
		ix.vec.dim = len(v)
		ix.growVectors(ix.nchunks())
	}
	if len(v) != ix.vec.dim {
		return fmt.Errorf("embed with %s: vectors of %d and %d dimensions", ix.opts.Embedder.Name(), ix.vec.dim, len(v))
	}
	ix.vec.set(id, v)
	ix.vec.sketchRow(id)
	return nil
}

// rowEmbedder is an Embedder that writes vectors into a buffer of the
// caller's (embed.Model).
type rowEmbedder interface {
	Embedder
	EmbedInto(ctx context.Context, texts []string, dst []float32) error
}

// embedRows is embed by an embedder that writes into a buffer: each
// batch is embedded into a buffer of its worker's and its rows stored
// under ix.mu as soon as it is done, so no vector is allocated (embed
// kept a commit's vectors, 1 KB a chunk, until the last was made). The
// rows are stored in the order the batches end; each row's bytes are
// its vector's alone, so the index is the same.
func (ix *Index) embedRows(ctx context.Context, e rowEmbedder, texts []string, ids []uint32) error {
	d := e.Dim()
	bufs := sync.Pool{New: func() any { b := make([]float32, embedBatch*d); return &b }}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(ix.opts.Workers, 1))
	for i := 0; i < len(texts); i += embedBatch {
		end := min(i+embedBatch, len(texts))
		batch, rows := texts[i:end], ids[i:end]
		g.Go(func() error {
			bp := bufs.Get().(*[]float32)
			defer bufs.Put(bp)
			buf := (*bp)[:len(batch)*d]
			if err := e.EmbedInto(gctx, batch, buf); err != nil {
				return fmt.Errorf("embed with %s: %w", e.Name(), err)
			}
			ix.mu.Lock()
			defer ix.mu.Unlock()
			for j, id := range rows {
				v := buf[j*d : (j+1)*d]
				normalize(v)
				if err := ix.storeVector(id, v); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// embedTextRules numbers the way embedText and embedName make a chunk's
// text for the embedder. A saved index records it with the embedder's
// name (vectorsBy), so a change here embeds every chunk again instead
// of leaving old vectors beside new ones: change it whenever a change of
// code changes the text some chunk is embedded by.
// 2: code symbols embedded by name, without their package path; 3: a
// name's place in angle brackets kept whole (lastSep). A var for its test
// only.
var embedTextRules = 3

// vectorsBy is what a saved index records of the embedder and the text
// rules its vectors were made by.
func vectorsBy(e Embedder) string {
	return e.Name() + "+text=" + strconv.Itoa(embedTextRules)
}

// embedText is what a chunk is embedded as: its heading path titleWeight
// times, its lead (see leadSentence) leadWeight times, then its text. The
// heading path names what the chunk is about, so it weighs more in the
// vector as it does in BM25. On CoSQA-test (the path is the function's
// name) vector nDCG@10 goes from 0.356 to 0.365 (hybrid 0.419 to 0.422);
// three or six times score lower. A code symbol's chunk has its name
// without its package path embedded there (embedName).
func embedText(c chunk) string {
	if c.embedTitle != "" {
		c.title = c.embedTitle
	}
	if c.title == "" && c.lead == "" {
		return c.text
	}
	var b strings.Builder
	b.Grow((len(c.title)+2)*titleWeight + (len(c.lead)+2)*leadWeight + len(c.text))
	if c.title != "" {
		for range titleWeight {
			b.WriteString(c.title)
			b.WriteString("\n\n")
		}
	}
	if c.lead != "" {
		for range leadWeight {
			b.WriteString(c.lead)
			b.WriteString("\n\n")
		}
	}
	b.WriteString(c.text)
	return b.String()
}

// textHash identifies a chunk's embedded text, to reuse its vector.
func textHash(s string) [8]byte {
	// The hash only reads the bytes: they need no copy.
	h := contentHash(unsafe.Slice(unsafe.StringData(s), len(s)))
	return [8]byte(h[:8])
}
