package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/lookup"
	"github.com/fileinfo/fileinfo/internal/watch"
)

// workspace is one loaded root: every file's extraction, the call graph
// over them, and the artifact store. Reads take mu for reading; a change
// of a file (noticed when a tool reads it) takes it for writing, so a
// reader never sees a half-updated graph.
type workspace struct {
	root    string // absolute, symbolic links evaluated
	dir     *os.Root
	ex      *extract.Extractor
	store   *artifacts.Store
	maxSize int64
	log     *slog.Logger
	// viaClient is the session whose declared roots allowed this root;
	// nil when the server's own roots do.
	viaClient *mcp.ServerSession

	hooks *testHooks // nil but in tests; set before any goroutine starts

	// calls are the server's tool calls, which afterLoad's work yields
	// to; nil without a server (Enrich).
	calls *foreground

	// keepGraph keeps a restored graph in place: a caller that reads
	// the graph without taking mu (Enrich) sets it before load, and
	// changes no file.
	keepGraph bool

	// completeMu makes one prepareUpdate at a time build the graph for
	// updates; the others wait for it.
	completeMu sync.Mutex

	ready     chan struct{} // closed when the first load ends
	readyOnce sync.Once
	err       error // the first load's error, set before ready closes

	mu    sync.RWMutex
	files map[string]*source // by slash path
	// held is the call graph, unless pending is set: then it is nil
	// until the graph is restored (see callGraph). Read both through
	// callGraph, set them through setGraph.
	held    *callgraph.Graph
	pending *pendingGraph
	skipped map[string]string // files extraction left out: path → reason (see skips.go)
	warned  map[string]string // internal-error skips already logged: path → reason
	loaded  time.Time

	// saveMu serializes report saves: each reads the artifact it rewrites.
	saveMu  sync.Mutex
	partsMu sync.Mutex
	parts   map[string]partsSeen // by slash path, for files file_info split

	digestMu sync.Mutex
	digests  map[string]string // filled by the first load's extraction
	done     atomic.Int64      // files the first load has extracted so far
	tried    loadProgress      // how far the first load's extraction has got

	docs        atomic.Pointer[docsearch.Index] // nil until opened (a first pass's: once its docs are in), or when it could not be (see docIndex)
	docsReady   chan struct{}                   // closed when the attempt to open it ends
	docsCtx     context.Context                 // cancelled by close
	stopDocs    context.CancelFunc
	docsMu      sync.Mutex
	docsPending []string
	docsRescan  bool
	docsBusy    bool           // a docsLoop runs
	docsOpen    bool           // the doc index is open: docsLoop may run
	docsNone    bool           // there is no doc index: changes are not noted
	docsClosed  bool           // set by close: no docsLoop starts
	docsLoops   sync.WaitGroup // the running docsLoop and dependency index run, which close waits for

	deps  depsIndex     // the dependencies' API and docs, filled in the background
	code  codeProgress  // how far the code scope of the doc index is
	sel   codeSelection // what the code scope leaves to the vendor scope, or out
	names namesCache    // symbol names by word, for code queries while the code scope builds

	// Answers before the first load ends (see earlySymbols).
	stream    *streamNames                 // fed by the first load's extraction; nil after
	early     atomic.Pointer[earlySymbols] // nil but while the first load runs
	earlyDone chan struct{}                // closed once early is set, or known to stay nil
	earlyMu   sync.Mutex
	earlyOver bool // the first load has ended: early stays nil

	// symIdx is the saved symbols index while it describes the graph:
	// lookups read it in place (see lookupIndex). Guarded by mu, as are
	// edits, the graph's updates since the load, and symEdits, their
	// number when symIdx was taken.
	// saved reads the saved extractions of the slim files (see full);
	// nil when none is slim. Set by the first load.
	saved    *graphstore.Extractions
	symIdx   *graphstore.Symbols
	symEdits uint64
	edits    uint64
	// giveBack says that the graph for updates was made (prepareUpdate):
	// the update that follows gives the heap's free pages back (see
	// updated).
	giveBack atomic.Bool
	// graphLoad says how the first load came by the graph (see
	// noteGraphLoad); firstBuilt, that the first pass built it.
	graphLoad  atomic.Pointer[string]
	firstBuilt bool
	// updatedSyms is the symbols index saved by a load that updated the
	// saved graph, adopted once the load ends (see load).
	updatedSyms *graphstore.Symbols
	lookupMu    sync.Mutex // guards the index of the graph lookupIndex built last
	lookupIx    *lookup.Index
	lookupGraph *callgraph.Graph
	lookupEdits uint64
	// asOf is the lookup index of the graph before the update that holds
	// mu, if any (see asof.go); asOfMu is held while a lookup reads it,
	// and for writing to close what it reads.
	asOf   atomic.Pointer[lookupAsOf]
	asOfMu sync.RWMutex

	watchMu   sync.Mutex
	closed    bool
	watcher   *watch.Watcher
	stopWatch context.CancelFunc
	watchDone chan struct{}
}

// source is one extracted file and the digest of the bytes it was
// extracted from. A suspect one is extracted again when next read or
// watched: a batch that touched it failed. A slim one holds part of the
// extraction (see full).
type source struct {
	file    *extract.File
	digest  string
	suspect bool
	// slim: file is graphstore.Bare's part of the saved extraction (no
	// symbols: the restored graph holds them), whose whole full reads
	// from graph.bin.
	slim bool
}

// testHooks let tests pause or break background work at fixed points.
type testHooks struct {
	load         func(root string)                         // after the first load's extraction, before its graph
	batch        func(watch.Batch)                         // before a watched batch is applied
	docs         func(paths []string)                      // before the doc index applies changes
	graphSkipped func([]extract.Skipped) []extract.Skipped // edits what the call graph says it skipped
	complete     func()                                    // before the restored graph is built for updates
	sync         func()                                    // before the first load syncs the saved state (decoding it)
	streamed     func(path string)                         // after the first load hands a file's symbols to the early answers
	lookupBuilt  func()                                    // when a lookup index of the graph is built in memory
	openDocs     func()                                    // before the doc index is opened
	scanRead     func(path string) error                   // before a scan reads a file while loading; an error stands for the read's
	scanGraph    func(held bool)                           // before a cold callers/callees answer builds its call graph; held: the load's extraction is held
	updating     func()                                    // while an update holds mu, before it changes the graph
	searchable   func()                                    // when the first pass published its index, before the index is saved
	batchPut     func(done, total int)                     // after a batch of the first pass is in its index, before the next
	selecting    func()                                    // after the load, before the code scope's files are chosen (selectCode)
}

// partsSeen is the most parts file_info split a file into, for the source
// with digest.
type partsSeen struct {
	digest string
	n      int
}

// openWorkspace checks root and prepares its workspace; load fills it.
func openWorkspace(root string, maxSize int64, log *slog.Logger) (*workspace, error) {
	if maxSize <= 0 {
		maxSize = extract.DefaultMaxFileSize
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("workspace root %s is not a directory", root)
	}
	dir, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	store, err := artifacts.Open(abs)
	if err != nil {
		dir.Close()
		return nil, err
	}
	w := &workspace{
		root: abs, dir: dir, store: store, maxSize: maxSize, log: log,
		ready:     make(chan struct{}),
		docsReady: make(chan struct{}),
		earlyDone: make(chan struct{}),
		stream:    newStreamNames(),
		files:     map[string]*source{},
		skipped:   map[string]string{},
		parts:     map[string]partsSeen{},
		digests:   map[string]string{},
	}
	w.docsCtx, w.stopDocs = context.WithCancel(context.Background())
	w.ex, err = extract.New(abs, extract.Options{
		MaxFileSize: maxSize,
		Read:        w.sawSource,
		Walk:        extract.WalkOptions{Dir: w.sawDir},
		Progress:    w.tried.saw,
	})
	if err != nil {
		dir.Close()
		return nil, err
	}
	return w, nil
}

// stopWatching stops the workspace's watcher and waits for it; closing
// also keeps it from starting again.
func (w *workspace) stopWatching(closing bool) {
	w.watchMu.Lock()
	w.closed = w.closed || closing
	stop, done, wt := w.stopWatch, w.watchDone, w.watcher
	w.watcher, w.stopWatch, w.watchDone = nil, nil, nil
	w.watchMu.Unlock()
	if stop != nil {
		stop()
		<-done
		wt.Close()
	}
}

// sawSource records the digest of a file the first load extracted.
func (w *workspace) sawSource(rel string, src []byte) {
	w.yieldToScans() // a question asked during the load goes first (see coldScan)
	d := artifacts.SourceDigest(src)
	w.done.Add(1)
	w.digestMu.Lock()
	if w.digests != nil {
		w.digests[rel] = d
	}
	w.digestMu.Unlock()
}

// sawDir watches the directory the first load's walk is entering, before
// the walk reads it, if the workspace is watched: what is created there
// from then on is seen, by the walk or by the watcher.
func (w *workspace) sawDir(rel string) {
	w.watchMu.Lock()
	wt := w.watcher
	w.watchMu.Unlock()
	if wt != nil {
		wt.AddDir(rel)
	}
}

// close stops the workspace's watcher, waiting for it, and releases its
// parsers and its directory handle. Calls still running on it fail with
// an error rather than reading another directory.
func (w *workspace) close() {
	w.stopWatching(true)
	// A load or an update under way may be saving under .artifacts: cancel
	// it and wait, so that nothing writes there after close.
	w.docsMu.Lock()
	w.docsClosed = true
	w.docsMu.Unlock()
	w.stopDocs()
	w.docsLoops.Wait()
	w.closeSymbols()
	if w.saved != nil {
		w.saved.Close()
	}
	w.ex.Close()
	w.dir.Close()
}

// load extracts every file under the root and builds the graph (or
// restores the saved one), closes ready, and leaves the doc index and the
// code index to afterLoad (a restored graph is made ready for updates by
// the first change, see prepareUpdate): answers that need
// none of them do not wait (the Linux kernel's doc index takes 20 s to
// load).
// A panic is recovered, logged, and returned as an internal error, which
// the workspace's tools then report.
func (w *workspace) load(ctx context.Context, opt Options) (err error) {
	// close cancels the load and waits for it: nothing it saves (the graph
	// under .artifacts/.index) is written after close returns.
	w.docsMu.Lock()
	closed := w.docsClosed
	if !closed {
		w.docsLoops.Add(1)
	}
	w.docsMu.Unlock()
	if closed {
		w.finish(context.Canceled)
		return context.Canceled
	}
	defer w.docsLoops.Done()
	// The doc index opens once the files and graph are in (this defer
	// runs after finish): on a big tree both loads are seconds of CPU and
	// memory traffic, and the first answers need only the graph.
	defer func() { w.afterLoad(opt) }()
	reopen := false // open the symbols index the load saved
	defer func() {
		if reopen {
			w.background(w.reopenSymbols)
		}
	}()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(w.docsCtx, cancel)
	defer stop()
	defer func() {
		if v := recover(); v != nil {
			w.log.Error("loading the workspace panicked", "root", w.root, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			err = internalError("loading", v)
		}
		w.finish(err)
	}()
	start := time.Now()
	if w.keepGraph { // Enrich: no tool answers before the load
		w.stream = nil
		close(w.earlyDone)
	} else {
		if w.hooks != nil {
			w.stream.after = w.hooks.streamed
		}
		w.startEarly(ctx)
		// The early answers first: opening the saved symbols index is a
		// walk and a stat per file (0.6 s on the kernel), which the load's
		// own walk and decoding would slow to a crawl on a loaded machine.
		select {
		case <-w.earlyDone:
		case <-ctx.Done():
		}
	}
	if err := w.firstPass(ctx, opt); err != nil {
		return err
	}
	files, skipped, g, pending, extracted, err := w.extractSaved(ctx)
	if err != nil {
		return err
	}
	if w.hooks != nil && w.hooks.load != nil {
		w.hooks.load(w.root)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.digestMu.Lock()
	for i := range files {
		f := &files[i]
		w.files[f.Path] = &source{file: f, digest: w.digests[f.Path], slim: w.saved != nil}
	}
	w.digests = nil
	w.digestMu.Unlock()
	w.setGraph(g)
	if pending != nil {
		pending.rebuild = func(err error) *callgraph.Graph { return w.rebuildGraph(files, err) }
		pending.log = w.log
		w.pending = pending
	}
	reopen = w.endEarly(extracted)
	if s := w.updatedSyms; s != nil {
		w.updatedSyms = nil
		if reopen && w.symIdx == nil {
			w.symIdx, w.symEdits, reopen = s, w.edits, false
		} else {
			s.Close()
		}
	}
	for _, sk := range skipped {
		w.skipped[sk.Path] = sk.Reason
	}
	w.noteSkips()
	w.loaded = time.Now()
	w.log.Info("workspace loaded", "root", w.root, "files", len(files), "graph pending", pending != nil,
		"skipped", len(w.skipped)+len(w.graphSkipped()), "elapsed", time.Since(start).Round(time.Millisecond))
	w.depsChanged(opt)
	return nil
}

// finish ends the first load with err: tools stop waiting, and report
// err if it is not nil. Only the first call counts.
func (w *workspace) finish(err error) {
	w.readyOnce.Do(func() {
		w.err = err
		close(w.ready)
	})
}

// internalError is the error for a panic v recovered while doing
// something: a bug in fileinfo, which the caller may retry.
func internalError(doing string, v any) error {
	return fmt.Errorf("internal error while %s (a bug in fileinfo; the server is still running): %v", doing, v)
}

// wait blocks until the first load has ended, returning its error.
func (w *workspace) wait(ctx context.Context) error {
	select {
	case <-w.ready:
		return w.err
	case <-ctx.Done():
		return fmt.Errorf("workspace %s is still loading: %w", w.root, ctx.Err())
	}
}

// rel turns a tool's path argument — relative to the root, or absolute —
// into a clean slash path of a file inside the root. Paths that leave the
// root, lexically or through a symbolic link, are refused.
func (w *workspace) rel(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", errors.New("path is empty; give a file's path relative to the workspace root")
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	rel, err := w.ex.Rel(p)
	if err != nil {
		var skip *extract.SkipError
		if errors.As(err, &skip) {
			return "", fmt.Errorf("path %s refused: %s", p, skip.Reason)
		}
		return "", err
	}
	return rel, nil
}

// read returns the bytes of the file at rel as readRaw reads them,
// holding UTF-8 text; its errors are for a model to act on.
func (w *workspace) read(rel string) ([]byte, error) {
	src, err := w.readRaw(rel)
	var skip *extract.SkipError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such file in the workspace: %w", rel, fs.ErrNotExist)
	case errors.As(err, &skip) && skip.Reason == "not a regular file (directory)":
		return nil, fmt.Errorf("%s is a directory, not a file", rel)
	case errors.As(err, &skip):
		return nil, fmt.Errorf("%s: %s", rel, skip.Reason)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, fmt.Errorf("%s is a binary file", rel)
	}
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("%s is not UTF-8 text", rel)
	}
	return src, nil
}

// current returns rel's extraction as its content is now, and that
// content. A file that changed since it was last seen is extracted again
// and the graph updated; one that is gone is removed from the graph.
func (w *workspace) current(ctx context.Context, rel string) (*source, []byte, error) {
	src, err := w.read(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			w.forget(rel)
		}
		return nil, nil, err
	}
	d := artifacts.SourceDigest(src)
	w.mu.RLock()
	s := w.files[rel]
	w.mu.RUnlock()
	if s != nil && s.digest == d && !s.suspect {
		full, err := w.full(s)
		if err == nil {
			return full, src, nil
		}
		// The saved extraction cannot be read: the file's content is the
		// one it was made from, so extracting it again gives it back,
		// with no change to the graph.
		w.log.Warn("reading a saved extraction failed: extracting the file again", "path", rel, "error", err)
		f, err := w.ex.Source(ctx, rel, src)
		if err != nil {
			return nil, nil, err
		}
		return &source{file: f, digest: d}, src, nil
	}
	f, err := w.ex.Source(ctx, rel, src)
	if err != nil {
		var skip *extract.SkipError
		if errors.As(err, &skip) {
			return nil, nil, &unextracted{rel: rel, reason: skip.Reason, minified: skip.Minified, src: src}
		}
		return nil, nil, err
	}
	defer w.beginUpdate(true)()
	if cur := w.files[rel]; cur == nil || cur.digest != d || cur.suspect {
		start := time.Now()
		w.updateGraph([]extract.File{*f}, nil)
		w.files[rel] = &source{file: f, digest: d}
		delete(w.skipped, rel)
		w.noteSkips()
		w.log.Debug("file updated", "path", rel, "elapsed", time.Since(start))
	}
	return w.files[rel], src, nil
}

// unextracted is current's error for a file extraction passes over: a
// minified one is summarised by file_info (see summary), from src.
type unextracted struct {
	rel, reason string
	minified    bool
	src         []byte
}

func (e *unextracted) Error() string {
	return fmt.Sprintf("%s cannot be extracted: %s", e.rel, e.reason)
}

// forget removes a file that is gone from the graph.
func (w *workspace) forget(rel string) {
	w.mu.RLock()
	known := w.files[rel] != nil
	w.mu.RUnlock()
	defer w.beginUpdate(known)()
	delete(w.skipped, rel)
	if w.files[rel] != nil {
		w.updateGraph(nil, []string{rel})
		delete(w.files, rel)
		w.noteSkips()
	}
}

// fingerprint returns what rel's artifact is judged by now: its source's
// digest and the digest of the calls into it. The caller holds mu.
func (w *workspace) fingerprint(s *source) artifacts.Fingerprint {
	return artifacts.Fingerprint{
		SourceSHA256:  s.digest,
		CallersDigest: artifacts.CallersDigest(enrich.CallerKeys(s.file, w.enrichGraph())),
	}
}

// artifactStatus returns the status of rel's artifact for fingerprint fp:
// Missing when there is none, Stale when it was made from other source or
// callers. An artifact whose front matter cannot be read counts as Stale,
// so that a basic artifact never replaces it, with the error; so does any
// other failure to read it, with Missing.
func (w *workspace) artifactStatus(rel string, fp artifacts.Fingerprint) (artifacts.Status, error) {
	st, err := w.store.Status(rel, fp)
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, artifacts.ErrMalformed):
		return artifacts.Stale, err
	}
	return artifacts.Missing, err
}
