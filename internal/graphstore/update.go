package graphstore

// A Sync that finds a few files changed since graph.bin applies them to
// the saved graph as an update (callgraph.Graph.Update, the path an edit
// takes while serving) instead of building the graph whole; see
// updateLimit for when it does not.

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// How says how a Sync came by its graph.
type How string

const (
	// GraphSaved: nothing changed; the saved graph is the graph.
	GraphSaved How = "saved"
	// GraphUpdated: the files changed since the save were applied to
	// the saved graph as an update (Snapshot.Updated of them).
	GraphUpdated How = "updated"
	// GraphBuilt: the graph was built whole (Snapshot.Why says why).
	GraphBuilt How = "built"
)

// updateMin and updateShare set how many files changed, added or
// removed since graph.bin a Sync applies as an update: at most
// updateMin, or updateShare of the files when that is more. Past it
// the graph is built whole. An update costs a restore of the saved
// graph over every file's saved extraction and the rebuild of its
// resolution state (callgraph.Graph.Update's first call), which is
// most of a build's work less its resolving of every call, plus the
// resolving of the files the change affects: the changed ones and
// their readers. A few changed files affect few; a tenth of a tree
// (a branch switch) reads as much as a build, see docs/bigrepos.md
// (eleventh session) for the measure. Variables for the tests.
var (
	updateMin   = 64
	updateShare = 0.1
)

// updateHeapFactor is how many times the size of graph.bin the Go
// heap's limit (debug.SetMemoryLimit) must be for a Sync with
// Options.Discard (`fileinfo index`) to update the saved graph; under a
// tighter limit it builds whole, keeping to the budget. An update holds
// every saved extraction whole beside the restored graph and its
// resolution state, where the build to save streams them from its run
// file (docs/bigrepos.md, twelfth session). On the Linux kernel at the
// default 2 GB budget (limit 5.1 times graph.bin) the update peaked at
// 3.42 GB against the build's 2.62-2.66 GB (161 against 178 CPU-s); on
// the kernel subset S it took more CPU than the build under limits of
// 6.5 and 9.8 times graph.bin (15.6 against 13.1, 8.8 against 7.6-8.0)
// and less at 33 times. 16 keeps the kernel's index within its budget
// and lets trees a sixteenth of the budget update. A variable for the
// tests, as is memoryLimit.
var updateHeapFactor int64 = 16

// memoryLimit returns the Go heap's limit now (math.MaxInt64: none).
var memoryLimit = func() int64 { return debug.SetMemoryLimit(-1) }

// overBudget says why an update by a Sync with opt would not fit the
// Go heap's limit, saved being the size of graph.bin, or "" when it
// fits; see updateHeapFactor. Only Options.Discard (`fileinfo index`,
// a server's first pass) builds under a budget; a restart's Sync holds
// the graph it builds whole, so the update is the lighter of the two.
func overBudget(opt Options, saved int64) string {
	limit := memoryLimit()
	if !opt.Discard || saved <= 0 || saved <= limit/updateHeapFactor {
		return ""
	}
	return fmt.Sprintf("an update would hold the saved state whole (graph.bin %d MB), too much for the memory limit of %d MB", saved>>20, limit>>20)
}

// updateLimit is the most changed files Sync applies as an update to a
// saved graph over n files.
func updateLimit(n int) int {
	return max(updateMin, int(updateShare*float64(n)))
}

// whyWhole says why a Sync that found something changed builds the
// graph whole instead of updating the saved one, or "" when it may
// update: lost, why no saved state of this build and options could be
// read ("" when one was: with none, or one of another format or key,
// there is nothing to update); no go.mod changed (every Go file's import
// path may have); few enough files changed (updateLimit); and the
// update fits the memory limit (budget, see overBudget). The same holds
// with Options.Discard or Options.Each (`fileinfo index`,
// codeindex.SyncGraph): the pass gives Each the files it extracts
// either way, and a graph updated is saved as one built to save is.
func whyWhole(lost string, configChanged bool, changed, files int, budget string) string {
	switch {
	case lost != "":
		return lost
	case configChanged:
		return "a go.mod changed"
	case changed > updateLimit(files):
		return fmt.Sprintf("%d files changed, more than %d", changed, updateLimit(files))
	case budget != "":
		return budget
	}
	return ""
}

// change is what changed since the saved state, as the check finds
// it before anything is extracted: the entries now whose file is not
// as saved (changed or added), by index, and the saved files with an
// extraction that are no longer there (removed).
type change struct {
	touched []int
	removed []string
}

// changeSince finds the change from old, the saved entries, to es, the
// entries now, of which same says which are as saved.
func changeSince(old []Entry, es []Entry, same []bool) change {
	var c change
	for i, s := range same {
		if !s {
			c.touched = append(c.touched, i)
		}
	}
	now := make(map[string]bool, len(es))
	for i := range es {
		now[es[i].Path] = true
	}
	for i := range old {
		if old[i].File != nil && !now[old[i].Path] {
			c.removed = append(c.removed, old[i].Path)
		}
	}
	return c
}

// size is how many files the change counts against updateLimit.
func (c change) size() int { return len(c.touched) + len(c.removed) }

// updateSaved restores the graph saved in old over old's files, which
// hold their full extractions, and applies c to it, es being the
// state's entries once this pass settled them: a touched entry with an
// extraction is changed or added, one without (no longer extractable)
// removed if the graph had it, as are c's removed files. It returns the
// graph, which equals a Build over es's files (see
// callgraph.Graph.Update), and how many files it changed or removed.
func updateSaved(log *slog.Logger, old *State, es []Entry, c change) (*callgraph.Graph, int, error) {
	start := time.Now()
	files := make([]extract.File, 0, len(old.Files))
	had := make(map[string]bool, len(old.Files))
	for i := range old.Files {
		if f := old.Files[i].File; f != nil {
			files = append(files, *f)
			had[f.Path] = true
		}
	}
	g, err := callgraph.Restore(files, callgraph.Saved{Edges: old.Edges, Unresolved: old.Unresolved, Skipped: old.GraphSkipped})
	if err != nil {
		return nil, 0, err
	}
	log.Debug("graphstore: restored the saved graph to update it", "elapsed", time.Since(start))
	var changed []extract.File
	removed := c.removed
	for _, i := range c.touched {
		switch e := &es[i]; {
		case e.File != nil:
			changed = append(changed, *e.File)
		case had[e.Path]:
			removed = append(removed, e.Path)
		}
	}
	g.Update(changed, removed)
	log.Debug("graphstore: updated the graph", "changed", len(changed), "removed", len(removed), "resolved", g.Resolved(), "elapsed", time.Since(start))
	return g, len(changed) + len(removed), nil
}

// reopen reads back the state just saved to file, st, as a Sync that
// found nothing changed returns it with Options.Lazy: the files bare,
// the graph's edges left in the file until the graph is read, the
// extractions read on demand. The Snapshot of the update, made holds
// every full extraction and the updated graph, a build's worth of heap
// (on the Linux kernel, gigabytes for as long as a server runs), which
// goes once reopen returns. symID names the symbols index saved with st,
// if any.
func reopen(log *slog.Logger, root, dir, file string, st *State, made *Snapshot, symID *[16]byte) (*Snapshot, error) {
	old, kept, err := loadInside(root, dir, file, true)
	if err != nil {
		return nil, err
	}
	if kept == nil {
		return nil, errors.New("graphstore: the state saved was not kept open")
	}
	bad := old.Key != st.Key || len(old.Files) != len(st.Files)
	for i := 0; !bad && i < len(old.Files); i++ {
		bad = old.Files[i].Path != st.Files[i].Path || (old.Files[i].File == nil) != (st.Files[i].File == nil)
	}
	if bad {
		kept.f.Close()
		return nil, fmt.Errorf("graphstore: %s read back is not the state saved", file)
	}
	s := &Snapshot{Digests: made.Digests, Skipped: made.Skipped, Extracted: made.Extracted, Reused: made.Reused,
		How: GraphUpdated, Updated: made.Updated, log: log}
	s.Files = make([]extract.File, 0, len(made.Files))
	for i := range old.Files {
		if f := old.Files[i].File; f != nil {
			s.Files = append(s.Files, *f)
		}
	}
	s.saved = callgraph.Saved{Edges: old.Edges, Unresolved: old.Unresolved, Skipped: old.GraphSkipped}
	s.deferred, s.bare = kept, kept
	s.lazy = newExtractions(kept, old.Files)
	if symID != nil {
		s.symbols = &savedSymbols{dir, *symID}
	}
	return s, nil
}
