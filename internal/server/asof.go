package server

import (
	"sync"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// Lookups while an update runs. An update holds mu for writing while it
// changes the graph: on the Linux kernel 10-30 s for an edit that
// renumbers it, which a callers call made meanwhile waited for
// (docs/bigrepos.md). Before it takes mu, commit publishes the lookup
// index of the graph as it is (lookupAsOf): the saved symbols index,
// read in place, or an index over the graph's View, which the update
// leaves as it is (callgraph.Graph.View). A lookup that finds mu held
// for writing answers from it, marked as of the graph before the update
// (updatingPrefix), instead of waiting.

// lookupAsOf is the lookup index of the graph before an update, and what
// a lookup of it says about that graph.
type lookupAsOf struct {
	index func() *lookup.Index // built once, on the first lookup that needs it
	at    lookupAt
}

// lookupAt is what a lookup answer says about the graph it was read
// from: its state (for the tree pages) and its coverage.
type lookupAt struct {
	state    treeState
	coverage string
}

// lookupAtNow is what a lookup of the graph as it is says about it. The
// caller holds mu.
func (w *workspace) lookupAtNow() lookupAt {
	return lookupAt{state: w.stateOf(), coverage: w.graphCoverage()}
}

// updatingPrefix starts the coverage of an answer read from the graph as
// it was before an update in progress.
const updatingPrefix = "as of the graph before an update in progress: "

// publishAsOf publishes the lookup index of the graph as it is, for
// lookups while the update that follows holds mu. It builds no index:
// the saved symbols index, or the graph's last index, is taken as it
// is; else the graph's View is taken (a copy of the files' map) and
// indexed by the first lookup that needs it. The caller holds mu for
// reading, and runs the update before anything else changes the graph.
func (w *workspace) publishAsOf() {
	at := w.lookupAtNow()
	at.coverage = updatingPrefix + at.coverage
	a := &lookupAsOf{at: at}
	switch {
	case w.symIdxCurrent():
		s := w.symIdx
		a.index = func() *lookup.Index { return lookup.NewSaved(s, s) }
	default:
		w.lookupMu.Lock()
		g := w.callGraph()
		if w.lookupIx != nil && w.lookupGraph == g && w.lookupEdits == w.edits {
			ix := w.lookupIx
			a.index = func() *lookup.Index { return ix }
		} else {
			v := g.View()
			a.index = sync.OnceValue(func() *lookup.Index { return lookup.NewView(v) })
		}
		w.lookupMu.Unlock()
	}
	w.asOf.Store(a)
}

// lockToUpdate takes mu for writing, for an update of the graph, having
// published the lookup index of the graph as it is (publishAsOf) for the
// lookups made meanwhile. unlockUpdated ends both.
func (w *workspace) lockToUpdate() {
	w.mu.RLock()
	w.publishAsOf()
	w.mu.RUnlock()
	w.mu.Lock()
}

// unlockUpdated ends what lockToUpdate began: the update is over.
func (w *workspace) unlockUpdated() {
	w.asOf.Store(nil)
	w.mu.Unlock()
}

// beginUpdate starts an update of the graph: with prepare, the graph
// for updates is made first (prepareUpdate), then mu is taken through
// lockToUpdate. The func it returns ends the update: unlockUpdated, then,
// with prepare and mu released, updated. Callers defer it:
// `defer w.beginUpdate(true)()`.
func (w *workspace) beginUpdate(prepare bool) (end func()) {
	if prepare {
		w.prepareUpdate()
	}
	w.lockToUpdate()
	return func() {
		w.unlockUpdated()
		if prepare {
			w.updated()
		}
	}
}

// updateGraph applies changed and removed to the graph and counts the
// edit. An update of a large graph gives the heap's free pages back
// after (see giveBackNodes). The caller holds mu through lockToUpdate.
func (w *workspace) updateGraph(changed []extract.File, removed []string) {
	if w.hooks != nil && w.hooks.updating != nil {
		w.hooks.updating()
	}
	g := w.callGraph()
	g.Update(changed, removed)
	if g.Len() >= giveBackNodes {
		w.giveBack.Store(true)
	}
	w.edits++
	// The updated graph's lookup index is built here, while lookups
	// answer from the published one, not by the first lookup after,
	// which every other lookup waited for (on the Linux kernel 5-13 s
	// at load 15, docs/bigrepos.md).
	w.lookupMu.Lock()
	w.buildLookup(g)
	w.lookupMu.Unlock()
}

// answerAsOf runs f over the published lookup index of the graph before
// an update, and reports whether it did: false when nothing is
// published, or when the saved symbols index was found damaged (f then
// runs again over the graph, under mu, as withLookup does).
func (w *workspace) answerAsOf(f func(ix *lookup.Index, at lookupAt)) bool {
	w.asOfMu.RLock()
	defer w.asOfMu.RUnlock()
	a := w.asOf.Load()
	if a == nil {
		return false
	}
	return graphstore.Guard(func() { f(a.index(), a.at) }) == nil
}

// closingSymbols runs close (of the saved symbols index) once no lookup
// reads it from the published index, and unpublishes that index.
func (w *workspace) closingSymbols(close func()) {
	w.asOfMu.Lock()
	defer w.asOfMu.Unlock()
	w.asOf.Store(nil)
	close()
}
