package server

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
)

// docsDebounce batches the artifact writes the doc index is told of.
const docsDebounce = 50 * time.Millisecond

// openDocs opens the workspace's doc index (saved under
// .artifacts/.index), reading only what changed since it was saved. It is
// read and saved through the workspace's root handle: nothing of it is
// written outside the root, whatever links .artifacts holds. A workspace
// where the index cannot be saved gets one in memory (docsearch logs why,
// and index_status shows it).
func (w *workspace) openDocs(ctx context.Context, opt Options) (*docsearch.Index, error) {
	return w.openDocsWith(ctx, w.docOptions(opt))
}

// docOptions are the options of the workspace's doc index.
func (w *workspace) docOptions(opt Options) docsearch.Options {
	return docsearch.Options{
		Scopes:   opt.DocScopes,
		Embedder: opt.Embedder,
		Dir:      filepath.Join(w.root, ".artifacts", ".index"),
		Logger:   w.log,
		// SpillBytes: a loaded index holds its texts, vectors and
		// postings in its mapped file until its first change decodes
		// and compacts it. Without a spill that put them all on the
		// heap for as long as the server ran: on the Linux kernel, after
		// one artifact changed, 1.5 GB of the 2.3 GB live and 4.7 GB
		// resident (docs/bigrepos.md).
		SpillBytes: docsSpillBytes,
	}
}

// docsSpillBytes is how many bytes of texts, vectors and postings the
// doc index keeps on the heap before it spills them to a scratch file
// (docsearch.Options.SpillBytes), as `fileinfo index` does (64 MB there
// too). A variable for the tests.
var docsSpillBytes int64 = 64 << 20

// openDocsWith opens the workspace's doc index with o (see docOptions).
func (w *workspace) openDocsWith(ctx context.Context, o docsearch.Options) (*docsearch.Index, error) {
	// The index is saved under .artifacts/; its .gitignore keeps it out
	// of the user's commits while the markdown goes in.
	if err := w.store.WriteGitignore(); err != nil {
		w.log.Debug("no .artifacts/.gitignore", "err", err)
	}
	return docsearch.Open(ctx, docsearch.RootFS(w.dir), o)
}

// afterLoad does, on one goroutine of its own, what the first load
// leaves to the background, one thing at a time and each once the tool
// calls in flight are answered (see foreground), so that answers come
// first (on the Linux kernel each is a minute of CPU and GBs of memory):
// it opens the doc index (unless opt.NoDocs), closing
// docsReady; indexes the code of the files whose code documents are not
// current (see indexAllCode); and prepares the graph the load built for
// updates (callgraph.Graph.PrepareUpdates). A graph restored from the
// saved state is left as it is: what it lacks for updates is built when
// the first change comes (see prepareUpdate), not at every start (on the
// Linux kernel a second graph, a minute of CPU and gigabytes held for as
// long as serve runs). Close cancels it and waits.
func (w *workspace) afterLoad(opt Options) {
	ready := sync.OnceFunc(func() { close(w.docsReady) })
	started := w.background(func() {
		decided := false // docsOpened was told how it went
		defer func() {
			if v := recover(); v != nil {
				w.log.Error("background work after loading panicked", "root", w.root,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
			if !decided {
				w.docsOpened(nil)
			}
			ready()
		}()
		switch {
		case opt.NoDocs:
			w.docsOpened(nil)
		case w.docIndex() != nil: // opened by the first pass
		default:
			w.calls.yield(w.docsCtx)
			w.openDocIndex(opt)
		}
		decided = true
		ready()
		if w.err != nil || w.docsCtx.Err() != nil {
			return
		}
		w.calls.yield(w.docsCtx)
		if w.hooks != nil && w.hooks.selecting != nil {
			w.hooks.selecting()
		}
		w.selectCode(w.docsCtx)
		w.indexAllCode()
		if w.docsCtx.Err() != nil {
			return
		}
		w.calls.yield(w.docsCtx)
		w.indexVendor(w.docsCtx)
		if w.docsCtx.Err() != nil {
			return
		}
		w.calls.yield(w.docsCtx)
		// Updates take mu for writing: under it for reading, this
		// runs beside readers only, which never touch what it writes.
		w.mu.RLock()
		if w.pending == nil && !w.held.Restored() { // see prepareUpdate for a restored one
			w.held.PrepareUpdates()
		}
		w.mu.RUnlock()
	})
	if !started {
		w.docsOpened(nil)
		ready()
	}
}

// openDocIndex opens the doc index and tells docsOpened how it went.
func (w *workspace) openDocIndex(opt Options) {
	if w.hooks != nil && w.hooks.openDocs != nil {
		w.hooks.openDocs()
	}
	ix, err := w.openDocs(w.docsCtx, opt)
	if err != nil {
		ix = nil
		if w.docsCtx.Err() == nil {
			w.log.Warn("no doc search in this workspace", "err", err)
		}
	}
	w.docsOpened(ix)
}

// docIndex returns the doc index, or nil while it is being opened, or
// when there is none.
func (w *workspace) docIndex() *docsearch.Index { return w.docs.Load() }

// waitDocs waits for the doc index to be opened and returns it, or nil
// when there is none.
func (w *workspace) waitDocs(ctx context.Context) (*docsearch.Index, error) {
	defer w.calls.waiting(ctx)()
	select {
	case <-w.docsReady:
		return w.docIndex(), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("the doc index of %s is still loading: %w", w.root, ctx.Err())
	}
}

// docsChanged tells the doc index, in the background, that the files at
// paths (slash paths under the root) changed or went away; a nil paths
// asks for a rescan. Requests that arrive close together are applied as
// one.
func (w *workspace) docsChanged(paths []string) {
	w.docsMu.Lock()
	defer w.docsMu.Unlock()
	if w.docsClosed || w.docsNone {
		return
	}
	if paths == nil {
		w.docsRescan = true
	}
	w.docsPending = append(w.docsPending, paths...)
	w.startDocsLoop()
}

// settleDocs waits, at most wait, until the doc changes noted so far are
// applied, and reports whether any were pending: a report's artifact is
// indexed in the background, and fetch_doc right after the report would
// otherwise answer that no such document exists.
func (w *workspace) settleDocs(ctx context.Context, wait time.Duration) bool {
	pending := func() bool {
		w.docsMu.Lock()
		defer w.docsMu.Unlock()
		return w.docsBusy || len(w.docsPending) > 0 || w.docsRescan
	}
	if !pending() {
		return false
	}
	defer w.calls.waiting(ctx)()
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for pending() {
		select {
		case <-ctx.Done():
			return true
		case <-timeout.C:
			return true
		case <-tick.C:
		}
	}
	return true
}

// startDocsLoop starts docsLoop when the index is open, changes wait and
// no loop runs; a change that comes while the index is being opened
// waits for it. The caller holds docsMu.
func (w *workspace) startDocsLoop() {
	if w.docsOpen && !w.docsBusy && (len(w.docsPending) > 0 || w.docsRescan) {
		w.docsBusy = true
		w.docsLoops.Add(1)
		go w.docsLoop()
	}
}

// docsOpened records how the attempt to open the doc index ended: changes
// noted meanwhile are applied to ix, or dropped when there is none.
func (w *workspace) docsOpened(ix *docsearch.Index) {
	w.docsMu.Lock()
	defer w.docsMu.Unlock()
	if ix == nil {
		w.docsNone, w.docsPending, w.docsRescan = true, nil, false
		return
	}
	w.docs.Store(ix)
	w.docsOpen = true
	w.startDocsLoop()
}

// docsLoop applies pending doc changes until none are left, or the
// workspace is closed.
func (w *workspace) docsLoop() {
	defer w.docsLoops.Done()
	ctx := w.docsCtx
	for {
		select {
		case <-time.After(docsDebounce):
		case <-ctx.Done():
		}
		w.docsMu.Lock()
		paths, rescan := w.docsPending, w.docsRescan
		w.docsPending, w.docsRescan = nil, false
		if len(paths) == 0 && !rescan || ctx.Err() != nil {
			w.docsBusy = false
			w.docsMu.Unlock()
			return
		}
		w.docsMu.Unlock()
		w.applyDocs(ctx, paths, rescan)
	}
}

// applyDocs hands the doc index a batch of changes: paths, or a rescan.
// A panic is logged and the batch dropped; the loop goes on.
func (w *workspace) applyDocs(ctx context.Context, paths []string, rescan bool) {
	defer func() {
		if v := recover(); v != nil {
			w.log.Error("updating the doc index panicked; the change is skipped", "paths", len(paths), "rescan", rescan,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	if w.hooks != nil && w.hooks.docs != nil {
		w.hooks.docs(paths)
	}
	var err error
	if rescan {
		err = w.docIndex().Rescan(ctx)
	} else {
		slices.Sort(paths)
		err = w.docIndex().Update(ctx, slices.Compact(paths))
	}
	if err != nil && ctx.Err() == nil {
		w.log.Warn("updating the doc index failed", "err", err)
	}
}
