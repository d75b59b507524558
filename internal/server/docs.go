package server

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
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
	// The index is saved under .artifacts/; its .gitignore keeps it out
	// of the user's commits while the markdown goes in.
	if err := w.store.WriteGitignore(); err != nil {
		w.log.Debug("no .artifacts/.gitignore", "err", err)
	}
	return docsearch.Open(ctx, docsearch.RootFS(w.dir), docsearch.Options{
		Scopes:   opt.DocScopes,
		Embedder: opt.Embedder,
		Dir:      filepath.Join(w.root, ".artifacts", ".index"),
		Logger:   w.log,
	})
}

// docsChanged tells the doc index, in the background, that the files at
// paths (slash paths under the root) changed or went away; a nil paths
// asks for a rescan. Requests that arrive close together are applied as
// one.
func (w *workspace) docsChanged(paths []string) {
	if w.docs == nil {
		return
	}
	w.docsMu.Lock()
	defer w.docsMu.Unlock()
	if w.docsClosed {
		return
	}
	if paths == nil {
		w.docsRescan = true
	}
	w.docsPending = append(w.docsPending, paths...)
	if !w.docsBusy {
		w.docsBusy = true
		w.docsLoops.Add(1)
		go w.docsLoop()
	}
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
		err = w.docs.Rescan(ctx)
	} else {
		slices.Sort(paths)
		err = w.docs.Update(ctx, slices.Compact(paths))
	}
	if err != nil && ctx.Err() == nil {
		w.log.Warn("updating the doc index failed", "err", err)
	}
}
