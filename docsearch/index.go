package docsearch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// Options configure an Index. The zero value indexes the built-in scopes
// lexically, in memory.
type Options struct {
	// Scopes are named scopes beyond artifacts and docs.
	Scopes []Scope
	// Embedder makes the vectors of semantic search; nil searches
	// lexically only.
	Embedder Embedder
	// Reranker reorders fused results; nil keeps their order.
	Reranker Reranker
	// ChunkTokens is the chunk size limit in cl100k_base tokens; 0 means
	// 512.
	ChunkTokens int
	// Dir is the OS directory the index is saved in and loaded from
	// (conventionally <root>/.artifacts/.index); "" keeps it in memory.
	Dir string
	// LinkBase is prefixed to the root-relative target of a relative link
	// when Fetch makes links absolute; "" means "/".
	LinkBase string
	// MaxFileBytes skips larger files; 0 means 4 MB.
	MaxFileBytes int64
	// Workers bounds the goroutines that process documents; 0 means
	// GOMAXPROCS (chunking and analysis are CPU-bound).
	Workers int
	// Quantize keeps vectors as int8 for search (4x less memory for the
	// scan); see BenchmarkVectorSearch.
	Quantize bool
	// Logger receives progress and rebuild notices; nil discards them.
	Logger *slog.Logger
	// Progress, when set, is called as documents are processed.
	Progress func(done, total int)
}

func (o *Options) defaults() {
	if o.ChunkTokens <= 0 {
		o.ChunkTokens = 512
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 4 << 20
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Reranker == nil {
		o.Reranker = noRerank{}
	}
	if o.LinkBase == "" {
		o.LinkBase = "/"
	}
}

// Index is a searchable index of the documents of a workspace. It is safe
// for concurrent use: searches run in parallel, updates one at a time.
// An update reads and analyses files without blocking searches; a search
// waits only while a processed batch of documents (at most applyBatch)
// enters the lexicon, tens of milliseconds for the largest batches.
type Index struct {
	opts    Options
	scopes  *scopeSet
	update  sync.Mutex // serializes writers
	workers sync.Pool  // of *worker

	mu      sync.RWMutex
	docs    []*doc // by doc ID; nil once removed
	byPath  map[string]uint32
	chunks  []chunkRec
	lex     *lexicon
	vec     vectors
	embName string // the embedder the vectors were made by
	dead    int    // chunks of removed documents
	holes   int    // removed documents (nil in docs)
	skipped []Skipped
	// unmap releases the mapped index file the arrays were loaded from
	// (see load); nil when nothing is mapped. compact, which copies the
	// arrays, calls it.
	unmap func()
}

// chunkRec is what the index keeps of a chunk.
type chunkRec struct {
	doc       uint32
	title     string
	line, end uint32
	ctype     ContentType
	tokens    uint32
	hash      [8]byte // of the embedded text, to reuse its vector
}

// Open returns the index of root's documents. It loads the index saved in
// opts.Dir if there is one, brings it up to date with the files (only
// changed files are read again), and saves it back. An index that cannot
// be read, or was written by another format version, is rebuilt; that is
// logged, never an error.
func Open(ctx context.Context, root fs.FS, opts Options) (*Index, error) {
	opts.defaults()
	ss, err := newScopeSet(root, opts.Scopes)
	if err != nil {
		return nil, err
	}
	ix := &Index{opts: opts, scopes: ss, byPath: map[string]uint32{}, lex: newLexicon()}
	// The walk reads only the file system: it runs while the saved index
	// loads, and the rescan then uses what it found.
	type walked struct {
		srcs    []source
		skipped []Skipped
		err     error
	}
	walk := make(chan walked, 1)
	go func() {
		srcs, skipped, err := ss.walk(opts.MaxFileBytes)
		walk <- walked{srcs, skipped, err}
	}()
	if opts.Dir != "" {
		start := time.Now()
		switch err := ix.load(); {
		case err == nil:
			opts.Logger.Info("docsearch: index loaded", "dir", opts.Dir, "docs", len(ix.byPath), "chunks", len(ix.chunks), "took", time.Since(start))
		case errors.Is(err, fs.ErrNotExist):
		default:
			opts.Logger.Warn("docsearch: rebuilding the index", "dir", opts.Dir, "reason", err)
			ix.reset()
		}
	}
	w := <-walk
	if w.err != nil {
		return nil, w.err
	}
	ix.update.Lock()
	err = ix.rescan(ctx, w.srcs, w.skipped)
	ix.update.Unlock()
	if err != nil {
		return nil, err
	}
	return ix, nil
}

// reset empties the index.
func (ix *Index) reset() {
	ix.docs, ix.chunks, ix.dead, ix.holes = nil, nil, 0, 0
	ix.byPath = map[string]uint32{}
	ix.lex = newLexicon()
	ix.vec = vectors{}
	ix.embName = ""
}

// Rescan walks every scope and updates the index with what changed:
// new, changed and removed files. A file whose size and modification time
// are as indexed is not read; one whose content hash is as indexed is not
// processed again. The index is saved when it changed and has a Dir.
func (ix *Index) Rescan(ctx context.Context) error {
	ix.update.Lock()
	defer ix.update.Unlock()
	// The walk is under the update lock: a document an Update adds
	// after a walk that missed it would otherwise be removed again.
	srcs, skipped, err := ix.scopes.walk(ix.opts.MaxFileBytes)
	if err != nil {
		return err
	}
	return ix.rescan(ctx, srcs, skipped)
}

// rescan updates the index with what a walk of every scope found. Callers
// hold ix.update, or own ix alone (Open).
func (ix *Index) rescan(ctx context.Context, srcs []source, skipped []Skipped) error {
	seen := make(map[string]bool, len(srcs))
	for _, s := range srcs {
		seen[s.path] = true
	}
	var removed []string
	ix.mu.RLock()
	for p, id := range ix.byPath {
		if !seen[p] && !ix.docs[id].put {
			removed = append(removed, p)
		}
	}
	ix.mu.RUnlock()
	slices.Sort(removed)
	return ix.apply(ctx, srcs, removed, skipped, true)
}

// Update brings the documents at paths up to date: a path whose file is
// gone, or is no longer a document, leaves the index; any other is read
// again if it changed. Paths are document paths (slash paths from the
// root, or "scope:path" for a scope with a file system of its own); a
// path outside every scope is an error. It is what a file watcher calls.
func (ix *Index) Update(ctx context.Context, paths []string) error {
	ix.update.Lock()
	defer ix.update.Unlock()
	var srcs []source
	var removed []string
	var skipped []Skipped
	for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
		src, err := ix.scopes.resolve(p)
		if err != nil {
			return fmt.Errorf("update %s: %w", p, err)
		}
		info, err := fs.Lstat(src.fsys, src.name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			removed = append(removed, p)
			continue
		case err != nil:
			return fmt.Errorf("update %s: %w", p, err)
		case info.Mode()&fs.ModeSymlink != 0: // as the walk: links are not followed
			removed = append(removed, p)
			skipped = append(skipped, Skipped{p, "symbolic link"})
			continue
		case !info.Mode().IsRegular():
			removed = append(removed, p)
			continue
		case info.Size() > ix.opts.MaxFileBytes:
			removed = append(removed, p)
			skipped = append(skipped, Skipped{p, fmt.Sprintf("%d bytes, over the %d limit", info.Size(), ix.opts.MaxFileBytes)})
			continue
		}
		src.size, src.mtime = info.Size(), info.ModTime().UnixNano()
		srcs = append(srcs, src)
	}
	return ix.apply(ctx, srcs, removed, skipped, false)
}

// Put adds or replaces documents that have no file. Rescans leave them
// alone.
func (ix *Index) Put(ctx context.Context, docs []Document) error {
	ix.update.Lock()
	defer ix.update.Unlock()
	var ps []processed
	ch := make([]processed, len(docs))
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(ix.opts.Workers) // processing is CPU-bound
	next := make(chan *worker, ix.opts.Workers)
	for range ix.opts.Workers {
		w, err := newWorker(ix.opts.ChunkTokens)
		if err != nil {
			return err
		}
		w.keepText = ix.opts.Embedder != nil
		next <- w
	}
	for i, d := range docs {
		if !ix.scopes.has(d.Scope) {
			return fmt.Errorf("put %s: %w", d.Path, ix.scopes.errUnknownScope(d.Scope))
		}
		f := formatMarkdown
		switch d.Format {
		case "", "markdown":
		case "text":
			f = formatText
		case "rst":
			f = formatRST
		case "html":
			f = formatHTML
		default:
			return fmt.Errorf("put %s: format %q; want markdown, text, rst or html", d.Path, d.Format)
		}
		g.Go(func() error {
			w := <-next
			defer func() { next <- w }()
			rec := &doc{path: d.Path, scope: d.Scope, updated: d.Updated, text: d.Text, put: true,
				size: int64(len(d.Text)), hash: contentHash([]byte(d.Text))}
			ch[i] = w.process(rec, d.Text, f, d.Title)
			return ctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	ps = ch
	changed, err := ix.commit(ctx, ps, nil, nil, false)
	if err == nil && changed && ix.opts.Dir != "" {
		err = ix.save()
	}
	return err
}

// apply reads and processes srcs, drops removed, and commits.
func (ix *Index) apply(ctx context.Context, srcs []source, removed []string, skipped []Skipped, rescan bool) error {
	// Unchanged files are not read, unless their vectors are to be made
	// by another embedder.
	ix.mu.RLock()
	emb := ix.opts.Embedder
	reembed := emb != nil && (ix.embName != emb.Name() || ix.vec.chunks() < len(ix.chunks))
	var todo []source
	for _, s := range srcs {
		if id, ok := ix.byPath[s.path]; ok && !reembed {
			if d := ix.docs[id]; d.size == s.size && d.mtime == s.mtime && d.scope == s.scope {
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
		c, err := ix.commit(ctx, b.ps, nil, nil, false)
		if err != nil {
			firstErr = err
		}
		changed = changed || c
	}
	if firstErr != nil {
		return firstErr
	}
	c, err := ix.commit(ctx, nil, removed, skipped, rescan)
	if err != nil {
		return err
	}
	if (changed || c) && ix.opts.Dir != "" {
		return ix.save()
	}
	return nil
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
			if id, ok := ix.byPath[s.path]; ok {
				had[i] = indexed{ix.docs[id].hash, ix.docs[id].scope, true}
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
				data, err := fs.ReadFile(s.fsys, s.name)
				if err != nil {
					skip[i] = err.Error()
					continue
				}
				d := &doc{path: s.path, scope: s.scope, size: int64(len(data)), mtime: s.mtime,
					hash: contentHash(data), updated: time.Unix(0, s.mtime).UTC()}
				if s.scope == ScopeArtifacts {
					d.updated = time.Time{} // the front matter's extracted_at comes first
				}
				if h := had[i]; h.ok && h.hash == d.hash && h.scope == s.scope {
					out[i] = processed{doc: d}
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

// commit swaps processed documents in and removed ones out and embeds
// the new chunks. It reports whether the index changed.
func (ix *Index) commit(ctx context.Context, ps []processed, removed []string, skipped []Skipped, rescan bool) (bool, error) {
	// Vectors to reuse: by the hash of the text they were made from.
	var texts []string
	var textChunks []uint32
	emb := ix.opts.Embedder

	ix.mu.Lock()
	changed := false
	reuse := map[[8]byte]uint32{}
	if emb != nil && ix.embName != emb.Name() {
		if ix.embName != "" {
			ix.opts.Logger.Info("docsearch: embedder changed; embedding again", "was", ix.embName, "now", emb.Name())
		}
		ix.vec = vectors{}
		ix.embName = emb.Name()
		changed = true
		// No chunk has a vector now; if embedding stops partway, the
		// next rescan goes on where it stopped.
		for c := range ix.chunks {
			ix.forgetVector(uint32(c))
		}
	}
	if emb == nil && ix.embName != "" {
		ix.vec, ix.embName, changed = vectors{}, "", true
	}
	// drop removes p's document, reporting whether there was one.
	drop := func(p string) bool {
		id, ok := ix.byPath[p]
		if !ok {
			return false
		}
		d := ix.docs[id]
		for c := d.first; c < d.first+d.count; c++ {
			if ix.vec.dim > 0 && int(c) < ix.vec.chunks() {
				reuse[ix.chunks[c].hash] = c
			}
			ix.lex.remove(c)
		}
		ix.dead += int(d.count)
		ix.holes++
		ix.docs[id] = nil
		delete(ix.byPath, p)
		return true
	}
	for _, p := range removed {
		// A skipped file is "removed" at every rescan; only a document
		// that was indexed changes the index.
		changed = drop(p) || changed
	}
	for _, p := range ps {
		if p.chunks == nil && p.terms == nil {
			// Same content: refresh what the file system says.
			if id, ok := ix.byPath[p.doc.path]; ok {
				ix.docs[id].size, ix.docs[id].mtime = p.doc.size, p.doc.mtime
			}
			continue
		}
		changed = true
		drop(p.doc.path)
		d := p.doc
		d.first, d.count = uint32(len(ix.chunks)), uint32(len(p.chunks))
		id := uint32(len(ix.docs))
		ix.docs = append(ix.docs, d)
		ix.byPath[d.path] = id
		for i, c := range p.chunks {
			text := embedText(c)
			rec := chunkRec{doc: id, title: c.title, line: uint32(c.line), end: uint32(c.end), ctype: c.ctype, tokens: uint32(c.tokens), hash: textHash(text)}
			cid := uint32(len(ix.chunks))
			ix.chunks = append(ix.chunks, rec)
			ix.lex.add(p.terms[i])
			if emb != nil {
				if old, ok := reuse[rec.hash]; ok && ix.vec.dim > 0 {
					ix.vec.growTo(int(cid) + 1)
					copy(ix.vec.row(cid), ix.vec.row(old))
				} else {
					texts = append(texts, text)
					textChunks = append(textChunks, cid)
				}
			}
		}
	}
	if ix.vec.dim > 0 {
		ix.vec.growTo(len(ix.chunks))
		ix.vec.extendSketch()
	}
	// The skipped list is not saved (a rescan finds it again), so it
	// changes nothing to save.
	if !rescan {
		skipped = mergeSkipped(ix.skipped, skipped, removed, ps)
	}
	ix.skipped = skipped
	ix.mu.Unlock()

	if len(texts) > 0 {
		if err := ix.embed(ctx, texts, textChunks); err != nil {
			ix.unembedded(textChunks)
			return changed, err
		}
	}
	// Compaction renumbers the chunks, so it waits for the new chunks'
	// vectors, which embed stores by number.
	ix.mu.Lock()
	if ix.dead > len(ix.chunks)/4 && ix.dead > 64 || ix.holes > len(ix.docs)/4 && ix.holes > 64 {
		ix.compact()
	}
	ix.mu.Unlock()
	return changed, nil
}

// unembedded records chunks left without vectors because the embedder
// failed. They stay searchable by their words.
func (ix *Index) unembedded(chunks []uint32) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, c := range chunks {
		ix.forgetVector(c)
	}
}

// forgetVector records that chunk c has no vector: its text hash goes,
// so that no zero row is reused for the same text, and its document
// counts as never read, so that the next rescan reads, processes and
// embeds it again. Callers hold ix.mu.
func (ix *Index) forgetVector(c uint32) {
	ix.chunks[c].hash = [8]byte{}
	if d := ix.docs[ix.chunks[c].doc]; d != nil && !d.put {
		d.hash, d.mtime = [16]byte{}, 0
	}
}

// mergeSkipped updates the skipped list after an Update: paths updated or
// removed leave it, newly skipped ones join it.
func mergeSkipped(old, add []Skipped, removed []string, ps []processed) []Skipped {
	gone := map[string]bool{}
	for _, p := range removed {
		gone[p] = true
	}
	for _, p := range ps {
		gone[p.doc.path] = true
	}
	var out []Skipped
	for _, s := range old {
		if !gone[s.Path] {
			out = append(out, s)
		}
	}
	out = append(out, add...)
	slices.SortFunc(out, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Skipped) bool { return a.Path == b.Path })
}
