package docsearch

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// apply reads and processes srcs, drops removed, and commits.
func (ix *Index) apply(ctx context.Context, srcs []source, removed []string, skipped []Skipped, rescan bool) error {
	// Unchanged files are not read, unless their vectors are to be made
	// by another embedder.
	ix.mu.RLock()
	emb := ix.opts.Embedder
	reembed := emb != nil && (ix.embName != vectorsBy(emb) || ix.vec.chunks() < ix.nchunks())
	var todo []source
	for _, s := range srcs {
		if id, ok := ix.find(s.path); ok && !reembed {
			if ix.unchanged(id, s) {
				continue
			}
		}
		todo = append(todo, s)
	}
	ix.mu.RUnlock()

	// Documents are processed in batches while the previous batch enters
	// the index: the lexicon is built by one goroutine, and this keeps it
	// busy beside the workers, and bounds the processed documents held.
	type batch struct {
		ps  []processed
		sk  []Skipped
		err error
	}
	results := make(chan batch, 1)
	go func() {
		defer close(results)
		for i := 0; i < len(todo); i += applyBatch {
			ps, sk, err := ix.processAll(ctx, todo[i:min(i+applyBatch, len(todo))], reembed)
			results <- batch{ps, sk, err}
			if err != nil {
				return
			}
		}
	}()
	changed := false
	var firstErr error
	for b := range results {
		if firstErr != nil {
			continue // drain
		}
		if b.err != nil {
			firstErr = b.err
			continue
		}
		skipped = append(skipped, b.sk...)
		for _, s := range b.sk {
			removed = append(removed, s.Path) // a file that became binary leaves
		}
		for _, part := range commitParts(b.ps) {
			c, err := ix.commit(ctx, part, nil, nil, false)
			if err != nil {
				firstErr = err
				break
			}
			changed = changed || c
		}
	}
	if firstErr != nil {
		return firstErr
	}
	c, err := ix.commit(ctx, nil, removed, skipped, rescan)
	if err != nil {
		return err
	}
	ix.mu.Lock()
	ix.vec.extendSketch()
	if ix.underived {
		ix.derive()
	}
	ix.mu.Unlock()
	if (changed || c) && ix.opts.Dir != "" {
		ix.saved(ix.save())
	}
	return nil
}

// saved records how a save that a change made went. A failed one is not
// the change's error: the index serves searches from memory, logs why it
// is not saved (once per reason) and says it in Stats.Unsaved; the next
// change tries again.
func (ix *Index) saved(err error) {
	reason := ""
	if err != nil {
		reason = err.Error()
	}
	ix.mu.Lock()
	was := ix.unsaved
	ix.unsaved = reason
	ix.mu.Unlock()
	switch {
	case reason != "" && reason != was:
		ix.opts.Logger.Warn("docsearch: the index cannot be saved; it is kept in memory", "dir", ix.opts.Dir, "reason", reason)
	case reason == "" && was != "":
		ix.opts.Logger.Info("docsearch: the index is saved again", "dir", ix.opts.Dir)
	}
}

// commitChunks is about the most chunks one commit adds while searches
// wait: a batch of documents enters the index in parts of at most this
// many chunks, or one document (which maxDocChunks bounds).
const commitChunks = 8192

// commitParts cuts ps into parts of at most commitChunks chunks, or one
// document.
func commitParts(ps []processed) [][]processed {
	var parts [][]processed
	start, n := 0, 0
	for i, p := range ps {
		if i > start && n+len(p.chunks) > commitChunks {
			parts = append(parts, ps[start:i])
			start, n = i, 0
		}
		n += len(p.chunks)
	}
	if start < len(ps) {
		parts = append(parts, ps[start:])
	}
	return parts
}

// worker returns a worker from the pool, whose caches of words, stems
// and token pieces are warm from earlier documents.
func (ix *Index) worker() (*worker, error) {
	if w, ok := ix.workers.Get().(*worker); ok {
		return w, nil
	}
	w, err := newWorker(ix.opts.ChunkTokens)
	if err != nil {
		return nil, err
	}
	w.keepText = ix.opts.Embedder != nil
	return w, nil
}

// applyBatch is how many documents are processed before they enter the
// index.
const applyBatch = 256

// processAll reads and processes srcs in parallel, in order. A file whose
// hash is as indexed comes back with a nil chunk list (only its size and
// time are refreshed) unless reprocess is set.
func (ix *Index) processAll(ctx context.Context, srcs []source, reprocess bool) ([]processed, []Skipped, error) {
	if len(srcs) == 0 {
		return nil, nil, nil // no tokenizer to load
	}
	out := make([]processed, len(srcs))
	skip := make([]string, len(srcs))
	g, gctx := errgroup.WithContext(ctx)
	workers := min(ix.opts.Workers, max(len(srcs), 1))
	next := make(chan int, len(srcs))
	for i := range srcs {
		next <- i
	}
	close(next)
	// What the index holds of each path, read once: the workers never
	// wait for the lock a commit of the previous batch holds. Only this
	// apply changes these documents while it runs.
	type indexed struct {
		hash  [16]byte
		scope string
		ok    bool
	}
	had := make([]indexed, len(srcs))
	if !reprocess {
		ix.mu.RLock()
		for i, s := range srcs {
			if id, ok := ix.find(s.path); ok {
				d := ix.doc(id)
				had[i] = indexed{d.hash, d.scope, true}
			}
		}
		ix.mu.RUnlock()
	}
	var done int
	var doneMu sync.Mutex
	for range workers {
		g.Go(func() error {
			// Made on first use: files that are unchanged or cannot be
			// decoded need no tokenizer loaded.
			var w *worker
			defer func() {
				if w != nil {
					ix.workers.Put(w)
				}
			}()
			for i := range next {
				if err := gctx.Err(); err != nil {
					return err
				}
				s := srcs[i]
				data, err := readFile(s.fsys, s.name, ix.opts.MaxFileBytes)
				if err != nil {
					skip[i] = err.Error()
					continue
				}
				d := &doc{path: s.path, scope: s.scope, size: int64(len(data)), mtime: s.mtime,
					hash: contentHash(data), prose: &prose{updated: time.Unix(0, s.mtime).UTC()}}
				if s.scope == ScopeArtifacts {
					d.updated = time.Time{} // the front matter's extracted_at comes first
				}
				if h := had[i]; h.ok && h.hash == d.hash && h.scope == s.scope {
					out[i] = processed{doc: d}
				} else if r := GeneratedReason(s.name, data); r != "" && s.scope != ScopeArtifacts {
					skip[i] = r
				} else if text, err := decodeText(data); err != nil {
					skip[i] = err.Error()
				} else {
					if w == nil {
						if w, err = ix.worker(); err != nil {
							return err
						}
					}
					out[i] = w.process(d, text, s.format, "")
					if d.updated.IsZero() {
						d.updated = time.Unix(0, s.mtime).UTC()
					}
				}
				if ix.opts.Progress != nil {
					doneMu.Lock()
					done++
					ix.opts.Progress(done, len(srcs))
					doneMu.Unlock()
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	var ps []processed
	var skipped []Skipped
	for i := range srcs {
		if skip[i] != "" {
			skipped = append(skipped, Skipped{srcs[i].path, skip[i]})
			continue
		}
		ps = append(ps, out[i])
	}
	return ps, skipped, nil
}
