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
	// When the root is a RootFS and Dir lies in its directory, Dir is
	// opened through the root: a symbolic link cannot lead the index out
	// of it.
	Dir string
	// LinkBase is prefixed to the root-relative target of a relative link
	// when Fetch makes links absolute; "" means "/".
	LinkBase string
	// MaxFileBytes skips larger files; 0 means 4 MB.
	MaxFileBytes int64
	// Workers bounds the goroutines that process documents; 0 means
	// GOMAXPROCS (chunking and analysis are CPU-bound).
	Workers int
	// Logger receives progress and rebuild notices; nil discards them.
	Logger *slog.Logger
	// Progress, when set, is called as documents are processed.
	Progress func(done, total int)
	// Walked, when set, gives Open's walk what another walk of the root
	// read (see Listing); it may wait for that walk. nil: none.
	Walked func() *Listing
	// SpillBytes bounds the bytes of Put documents' texts and of vector
	// blocks the index keeps on the heap; those beyond it are kept in a
	// scratch file of Dir, read through a mapping (see spill.go), so that
	// the heap of a large build does not grow with them. 0 keeps them all
	// on the heap, as does an index without Dir or off Linux.
	SpillBytes int64
	// Fresh leaves the index saved in Dir unread: the index is built
	// from the scopes' files, and its save replaces the one there. For a
	// caller that knows most of the saved documents are to be replaced
	// (code documents of another build after an upgrade): the first
	// change to a loaded index decodes all of it onto the heap
	// (materialize), the documents it then replaces included.
	Fresh bool
	// Merge makes every save write the whole index file, the changes
	// since it was last written folded in, rather than a delta beside it
	// (see delta.go): for a caller that indexes at length and saves
	// once (fileinfo index).
	Merge bool
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
	codeGen uint64     // counts the putCode calls that changed the index (guarded by update)
	workers sync.Pool  // of *worker
	builds  builds     // which build directories hold their package's code (buildonly.go)

	mu      sync.RWMutex
	docs    []*doc // by doc ID; nil once removed
	mem     docMem // the records and strings of docs that commit added
	byPath  map[string]uint32
	chunks  []chunkRec
	lex     *lexicon
	vec     vectors
	embName string // the embedder the vectors were made by
	dead    int    // chunks of removed documents (deadChunks)
	holes   int    // removed documents (nil in docs)
	skipped []Skipped
	unsaved string          // why the last save failed; "" if it did not
	names   map[string]bool // stems naming a whole scope (scopename.go)
	// underived is set when a commit changed documents since names and
	// the chunks' copies were last derived (derive); a loaded index has
	// them as they were saved.
	underived bool
	// unmap releases the mapped index file the arrays and the Put
	// documents' texts were loaded from (see load); nil when nothing is
	// mapped. compact, which copies the arrays and the texts that lie in
	// mapped, calls it. No string of the mapping leaves the index: Fetch
	// and the results copy what they take of a text, so that neither a
	// compaction nor the cleanup that unmaps a dropped index pulls the
	// pages from under them.
	unmap  func()
	mapped []byte
	// fileMapped is set while mapped is a mapping of the file rather
	// than a copy read into memory (see shedder).
	fileMapped bool
	// tab is a loaded index's tables, read in place, until its first
	// change (materialize); docs, chunks and byPath are empty meanwhile.
	tab *table
	// spill holds texts and vector blocks off the heap once kept passes
	// opts.SpillBytes (spill.go); nil until then, or when none could be
	// made (noSpill).
	spill   *spill
	kept    int64
	noSpill bool
	// restat is, while tab is set, the size and modification time of
	// documents found unchanged in content but not in those (a touched
	// file): so that the next rescan does not read them again, without
	// decoding the tables for it.
	restat map[uint32][2]int64
	// gone is, while tab is set, the table's documents removed since it
	// was loaded, a bit each, goneDocs their count, and copies the
	// table's chunks whose copies changed since (see overlay.go).
	gone     bitSet
	goneDocs int
	copies   map[uint32]uint32
	// ovKeys are the scope and template of the chunks the overlay added
	// or removed: those whose copies derive counts again.
	ovKeys map[copyKey]bool
	// deadChunks holds the chunks of removed documents, a bit each, so
	// that a search leaves them out by a bit test rather than by a look
	// at each one's document; nil when none.
	deadChunks bitSet
}

// chunkRec is what the index keeps of a chunk.
type chunkRec struct {
	doc       uint32
	title     string
	line, end uint32
	ctype     ContentType
	hash      [8]byte // of the embedded text, to reuse its vector
	template  uint64  // of its terms less its page's words; 0 for none (dup.go)
	copies    uint32  // documents of its scope with its template, at least 1 (countCopies)
}

// Open returns the index of root's documents. It loads the index saved in
// opts.Dir if there is one, brings it up to date with the files (only
// changed files are read again), and saves it back. An index that cannot
// be read, or was written by another format version, is rebuilt; one that
// cannot be saved is kept in memory (Stats.Unsaved); both are logged,
// never an error.
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
		var l *Listing
		if opts.Walked != nil {
			l = opts.Walked()
		}
		srcs, skipped, err := ss.walkListed(opts.MaxFileBytes, l)
		walk <- walked{srcs, skipped, err}
	}()
	if opts.Dir != "" && !opts.Fresh {
		start := time.Now()
		switch err := ix.load(); {
		case err == nil:
			opts.Logger.Info("docsearch: index loaded", "dir", opts.Dir, "docs", ix.liveDocs(), "chunks", ix.nchunks(), "took", time.Since(start))
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
	if err == nil && opts.Merge && opts.Dir != "" && ix.lex.ov != nil {
		// A delta was loaded and nothing changed since: fold it in.
		ix.saved(ix.save())
	}
	ix.update.Unlock()
	if err != nil {
		return nil, err
	}
	return ix, nil
}

// OpenSaved returns the index saved in opts.Dir as it was saved: no
// scope is walked and no file is read but the index's own, so that a
// search costs what its query touches, not what the tree holds. It is
// for a caller that knows by other means that the files did not change
// since the index was saved (the CLI's quick check, see
// codeindex.CheckDirs); anything that Open would have to rebuild or read
// again is an error, for the caller to call Open: no saved index, one of
// another format or damaged, one whose vectors another embedder made.
func OpenSaved(ctx context.Context, root fs.FS, opts Options) (*Index, error) {
	opts.defaults()
	if opts.Dir == "" {
		return nil, errors.New("docsearch: no saved index: Options.Dir is empty")
	}
	ss, err := newScopeSet(root, opts.Scopes)
	if err != nil {
		return nil, err
	}
	ix := &Index{opts: opts, scopes: ss, byPath: map[string]uint32{}, lex: newLexicon()}
	if err := ix.load(); err != nil {
		return nil, fmt.Errorf("docsearch: saved index %s: %w", opts.Dir, err)
	}
	emb := opts.Embedder
	switch {
	case emb != nil && ix.embName != vectorsBy(emb):
		return nil, fmt.Errorf("docsearch: saved index %s: vectors by %q, want %q", opts.Dir, ix.embName, vectorsBy(emb))
	case emb != nil && ix.vec.chunks() < ix.nchunks():
		return nil, fmt.Errorf("docsearch: saved index %s: %d vectors for %d chunks", opts.Dir, ix.vec.chunks(), ix.nchunks())
	case emb == nil && ix.embName != "":
		return nil, fmt.Errorf("docsearch: saved index %s: vectors by %q, and no embedder", opts.Dir, ix.embName)
	}
	return ix, nil
}

// HasScope reports whether the index holds a document of scope; it stops
// at the first.
func (ix *Index) HasScope(scope string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if t := ix.tab; t != nil {
		// A saved index is compacted and its scopes are those of its
		// documents.
		if slices.Contains(t.scopes, scope) {
			return true
		}
	}
	for _, d := range ix.docs {
		if d != nil && d.scope == scope {
			return true
		}
	}
	return false
}

// reset empties the index.
func (ix *Index) reset() {
	ix.docs, ix.chunks, ix.dead, ix.holes, ix.tab, ix.restat = nil, nil, 0, 0, nil, nil
	ix.mem = docMem{}
	ix.gone, ix.goneDocs, ix.copies, ix.ovKeys, ix.deadChunks = nil, 0, nil, nil, nil
	ix.byPath = map[string]uint32{}
	ix.lex = newLexicon()
	ix.vec = vectors{}
	ix.embName = ""
	ix.names, ix.underived = nil, false
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
	for p := range ix.fileDocs() { // a Put document has no file to be gone
		if !seen[p] {
			removed = append(removed, strings.Clone(p))
		}
	}
	ix.mu.RUnlock()
	slices.Sort(removed)
	return ix.apply(ctx, srcs, removed, skipped, true)
}

// Update brings the documents at paths up to date: a path whose file is
// gone, or is no longer a document, leaves the index; any other is read
// again if it changed. Paths are document paths (slash paths from the
// root, or "scope:path" for a scope with a file system of its own). A
// path that no scope would index (a source file, a file in node_modules
// or in build output, a git-ignored one) is passed over quietly, as the
// walk would: Update is what a file watcher calls, with every change.
// A path that is not a clean relative path, or leaves the root or its
// scope, is an error.
func (ix *Index) Update(ctx context.Context, paths []string) error {
	ix.update.Lock()
	defer ix.update.Unlock()
	var srcs []source
	var removed []string
	var skipped []Skipped
	for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
		src, ok, err := ix.scopes.resolve(p)
		if err != nil {
			return fmt.Errorf("update %s: %w", p, err)
		}
		if !ok {
			ix.opts.Logger.Debug("docsearch: not a document of any scope; passed over", "path", p)
			continue
		}
		info, err := fs.Lstat(src.fsys, src.name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			removed = append(removed, p)
			continue
		case err != nil:
			return fmt.Errorf("update %s: %w", p, err)
		case !info.Mode().IsRegular(): // as the walk: links are not followed
			removed = append(removed, p)
			skipped = append(skipped, Skipped{p, irregular(info.Mode())})
			continue
		case info.Size() > ix.opts.MaxFileBytes:
			removed = append(removed, p)
			skipped = append(skipped, Skipped{p, errTooBig(info.Size(), ix.opts.MaxFileBytes).Error()})
			continue
		}
		if src.scope == ScopeDocs {
			reason, err := ix.scopes.excluded(p)
			if errors.Is(err, fs.ErrNotExist) {
				removed = append(removed, p)
				continue
			}
			if err != nil {
				return fmt.Errorf("update %s: %w", p, err)
			}
			if reason != "" {
				removed = append(removed, p)
				skipped = append(skipped, Skipped{p, reason})
				continue
			}
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
			rec := &doc{path: d.Path, scope: d.Scope, prose: &prose{updated: d.Updated}, text: d.Text, put: true,
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
	ix.mu.Lock()
	ix.vec.extendSketch()
	if ix.underived {
		ix.derive()
	}
	ix.mu.Unlock()
	if err == nil && changed && ix.opts.Dir != "" {
		ix.saved(ix.save())
	}
	return err
}
