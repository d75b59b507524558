package server

import (
	"context"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// extractSaved extracts the workspace for its first load through the
// saved graph under .artifacts/.index/ (see graphstore): only files
// changed since it was saved are extracted, and it is saved again. It
// returns the files, what extraction skipped, and the graph: built when
// anything changed, else the saved one restored (see prepareUpdate). The digests of
// the files it reuses are recorded as sawSource records those it reads;
// the files it extracts stream into w.stream (see earlySymbols), and
// extracted is their number.
func (w *workspace) extractSaved(ctx context.Context) (files []extract.File, skipped []extract.Skipped, g *callgraph.Graph, extracted int, err error) {
	if w.hooks != nil && w.hooks.sync != nil {
		w.hooks.sync()
	}
	xo := extract.Options{
		MaxFileSize: w.maxSize,
		Read:        w.sawSource,
		Walk:        extract.WalkOptions{Dir: w.sawDir},
		Progress:    w.tried.saw,
	}
	if w.stream != nil {
		xo.Extracted = w.stream.add
	}
	snap, err := graphstore.Sync(ctx, graphstore.Options{Root: w.root, Extract: xo, Log: w.log})
	if err != nil {
		return nil, nil, nil, 0, err
	}
	w.digestMu.Lock()
	for p, d := range snap.Digests {
		if _, ok := w.digests[p]; !ok && w.digests != nil {
			w.digests[p] = d
		}
	}
	w.digestMu.Unlock()
	w.log.Info("saved graph", "root", w.root, "extracted", snap.Extracted, "reused", snap.Reused)
	return snap.Files, snap.Skipped, snap.Graph(), snap.Extracted, nil
}

// prepareUpdate makes a graph restored from the saved state ready for
// updates before one is applied: it builds, from the files, what the
// restored graph lacks (the resolution state, see callgraph.Restore) and
// puts the built graph in its place. A restored graph holds the answers
// only; the rest is built here, on the first change, not at every start
// (on the Linux kernel a full build: a minute of CPU, and gigabytes
// held for as long as serve runs, which a session that edits nothing
// never needs). Readers are not held up: the build reads the files
// under no lock, as nothing changes a file's extraction in place, only
// replaces it; they read the restored graph meanwhile. Callers call it
// before taking mu to update; one build runs at a time and the others
// wait for it. Close cancels it, and keepGraph skips it: the update
// then completes the graph itself (callgraph.Graph.Update), under mu.
func (w *workspace) prepareUpdate() {
	w.completeMu.Lock()
	defer w.completeMu.Unlock()
	w.mu.RLock()
	g := w.graph
	if g == nil || !g.Restored() || w.keepGraph {
		// keepGraph: no other graph may take g's place; an update
		// completes g itself, under mu.
		w.mu.RUnlock()
		return
	}
	files := make([]extract.File, 0, len(w.files))
	for _, s := range w.files {
		files = append(files, *s.file)
	}
	w.mu.RUnlock()
	if w.hooks != nil && w.hooks.complete != nil {
		w.hooks.complete()
	}
	start := time.Now()
	full, err := callgraph.BuildContext(w.docsCtx, files)
	if err != nil {
		return // closed
	}
	full.PrepareUpdates() // before anyone reads it

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.graph != g || !g.Restored() {
		return
	}
	w.graph = full
	w.log.Info("graph ready for updates", "root", w.root, "elapsed", time.Since(start).Round(time.Millisecond))
}

// background runs f on a goroutine of its own, which close cancels
// (through docsCtx) and waits for, unless the workspace is closed; it
// reports whether f runs.
func (w *workspace) background(f func()) bool {
	w.docsMu.Lock()
	defer w.docsMu.Unlock()
	if w.docsClosed {
		return false
	}
	w.docsLoops.Add(1)
	go func() {
		defer w.docsLoops.Done()
		f()
	}()
	return true
}
