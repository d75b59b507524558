package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// symOptions are the graphstore options of the workspace's saved state,
// as extractSaved syncs it (the key depends on them).
func (w *workspace) symOptions() graphstore.Options {
	return graphstore.Options{Root: w.root, Extract: extract.Options{MaxFileSize: w.maxSize}, Log: w.log}
}

// startEarly opens, beside the first load, what answers before it ends
// (see earlySymbols): the saved symbols index, if the last run left one
// of this build and options, with the files changed since; the files
// the load extracts stream into w.stream either way.
func (w *workspace) startEarly(ctx context.Context) {
	e := &earlySymbols{stream: w.stream}
	go func() {
		defer close(w.earlyDone)
		s, changed, err := graphstore.OpenSymbolsChanged(ctx, w.symOptions())
		switch {
		case err == nil:
			e.saved, e.changed = s, make(map[string]bool, len(changed))
			for _, p := range changed {
				e.changed[p] = true
			}
			w.log.Info("answering from the saved symbols index while loading", "root", w.root, "symbols", s.Len(), "changed", len(changed))
		case errors.Is(err, os.ErrNotExist):
		default:
			w.log.Info("no saved symbols index to answer from while loading", "root", w.root, "reason", err)
		}
		if e.saved == nil {
			e.cold = newColdScan(w)
		}
		w.earlyMu.Lock()
		defer w.earlyMu.Unlock()
		if w.earlyOver {
			e.close()
			return
		}
		w.early.Store(e)
	}()
}

// endEarly ends the early answers once the first load has put its graph
// in place, which extracted (re-extracted) files: a saved index that
// still describes that graph (nothing changed since it was saved) goes
// on answering lookups (see lookupIndex); else it is closed, and
// reopen says to open the one the load saved. The caller holds mu.
func (w *workspace) endEarly(extracted int) (reopen bool) {
	w.earlyMu.Lock()
	w.earlyOver = true
	e := w.early.Swap(nil)
	w.earlyMu.Unlock()
	w.stream = nil
	if e == nil {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.saved != nil && len(e.changed) == 0 && extracted == 0 {
		w.symIdx, w.symEdits = e.saved, w.edits
		e.saved = nil
		// Its names by word, if built, are the graph's (the same
		// numbering): code queries read them until the code scope is
		// complete, instead of restoring the graph to index it again.
		e.words.mu.Lock()
		w.names.adopt(w.graphID(), e.words.byWord)
		e.words.mu.Unlock()
		// The early answers' index of names by word (buildWords, over
		// now: e is closed) read every node: lookups read a few.
		w.symIdx.DropPages()
		return false
	}
	if e.saved != nil {
		e.saved.Close()
		e.saved = nil
	}
	return true
}

// reopenSymbols opens the symbols index the first load saved, if it is
// up to date, to answer lookups from while no update changes the graph.
func (w *workspace) reopenSymbols() {
	w.mu.RLock()
	edits := w.edits
	w.mu.RUnlock()
	s, err := graphstore.OpenSymbols(w.docsCtx, w.symOptions())
	if err != nil {
		w.log.Debug("lookups read the graph", "root", w.root, "reason", err)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.edits != edits || w.symIdx != nil || w.docsCtx.Err() != nil {
		s.Close()
		return
	}
	w.symIdx, w.symEdits = s, edits
}

// symIdxCurrent reports whether the saved symbols index describes the
// workspace's graph: no edit since it was adopted. The caller holds mu.
func (w *workspace) symIdxCurrent() bool {
	return w.symIdx != nil && w.symEdits == w.edits
}

// lookupIndex returns the lookup index of the current graph: the saved
// symbols index, read in place, while it describes the graph (no update
// since it was opened: on the Linux kernel an index of the graph's 1.5
// million names takes a second and a half to build); else an index of
// the graph, built once per update over the graph's own lookups. saved
// says which. The caller holds mu for reading.
func (w *workspace) lookupIndex() (ix *lookup.Index, saved bool) {
	if w.symIdxCurrent() {
		return lookup.NewSaved(w.symIdx, w.symIdx), true
	}
	w.lookupMu.Lock()
	defer w.lookupMu.Unlock()
	if w.lookupIx != nil && w.lookupGraph == w.callGraph() && w.lookupEdits == w.edits {
		return w.lookupIx, false
	}
	w.buildLookup(w.callGraph())
	return w.lookupIx, false
}

// buildLookup builds the lookup index of g, the workspace's graph. The
// caller holds mu and lookupMu.
func (w *workspace) buildLookup(g *callgraph.Graph) {
	if w.hooks != nil && w.hooks.lookupBuilt != nil {
		w.hooks.lookupBuilt()
	}
	// The graph's own lookups and files answer (lookup.NewGraph): only
	// the lower-case names are indexed anew.
	w.lookupIx = lookup.NewGraph(g)
	w.lookupGraph, w.lookupEdits = g, w.edits
}

// withLookup runs f over lookupIndex under mu for reading, with the
// graph's state and coverage. While an update holds mu it runs f over
// the index of the graph before the update instead (see answerAsOf): a
// lookup does not wait for an update. A saved index found damaged (a
// block failing its checksum) is dropped and removed, so that the next
// load saves it anew, and f runs again over the graph: the damage is
// never an answer.
func (w *workspace) withLookup(f func(ix *lookup.Index, at lookupAt)) {
	if !w.mu.TryRLock() {
		if w.answerAsOf(f) {
			return
		}
		w.mu.RLock()
	}
	ix, saved := w.lookupIndex()
	at := w.lookupAtNow()
	err := graphstore.Guard(func() { f(ix, at) })
	w.mu.RUnlock()
	if err == nil || !saved {
		return
	}
	w.log.Warn("the saved symbols index is damaged; answering from the graph", "root", w.root, "err", err)
	w.mu.Lock()
	if w.symIdx != nil {
		w.closingSymbols(func() { w.symIdx.Close() })
		w.symIdx = nil
		os.Remove(filepath.Join(w.root, ".artifacts", ".index", graphstore.SymbolsFile))
	}
	w.mu.Unlock()
	w.mu.RLock()
	defer w.mu.RUnlock()
	ix, _ = w.lookupIndex()
	f(ix, w.lookupAtNow())
}

// closeSymbols releases the symbols indexes, early and saved.
func (w *workspace) closeSymbols() {
	w.earlyMu.Lock()
	w.earlyOver = true
	e := w.early.Swap(nil)
	w.earlyMu.Unlock()
	if e != nil {
		e.close()
	}
	w.mu.Lock()
	if w.symIdx != nil {
		w.closingSymbols(func() { w.symIdx.Close() })
		w.symIdx = nil
	}
	w.mu.Unlock()
}
