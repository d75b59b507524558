package graphstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/par"
)

// Sync's steps: load the saved state (beside the walk), check which
// files changed, pass over the files to extract (and those Each wants),
// update or build the graph, save.

// Sync brings the saved state of opt.Root up to date and returns it; see
// the package doc. Saving is best effort: a failure is logged.
func Sync(ctx context.Context, opt Options) (*Snapshot, error) {
	r := &syncRun{opt: opt, log: opt.Log, dir: opt.Dir, start: time.Now(), key: stateKey(opt)}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.dir == "" {
		r.dir = filepath.Join(opt.Root, ".artifacts", ".index")
	}
	r.file = filepath.Join(r.dir, FileName)
	defer func() {
		if r.kept != nil {
			r.kept.f.Close() // not handed to the Snapshot
		}
	}()
	wk := r.load(ctx)
	log, dir, start := r.log, r.dir, r.start
	maxSize := opt.Extract.MaxFileSize
	if maxSize <= 0 {
		maxSize = extract.DefaultMaxFileSize
	}
	ps := &pass{batch: opt.Batch, each: opt.Each, hash: map[string]string{}, start: start,
		fresh: map[string]*extract.File{}, reasons: map[string]string{}}
	if ps.batch <= 0 {
		ps.batch = DefaultBatch
	}
	xo := opt.Extract
	xo.Read = func(rel string, src []byte) {
		ps.read(rel, src)
		if opt.Extract.Read != nil {
			opt.Extract.Read(rel, src)
		}
	}
	ex, err := extract.New(opt.Root, xo)
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	paths, skipped := wk.paths, wk.skipped
	if wk.err != nil {
		return nil, wk.err
	}
	root := ex.Root()
	dirRoot, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer dirRoot.Close()
	tree := sourceTree{root: root, dir: dirRoot, max: maxSize}
	ps.ex, ps.tree = ex, tree
	configPaths, sources, skippedMore := selectSources(paths, xo.Languages)
	skipped = append(skipped, skippedMore...)
	r.check(tree, configPaths, sources)
	old, st := r.old, r.st
	// The files to go through: those to extract (todo) and, in walk
	// order among them, those only Each wants.
	var all []int
	todo := map[string]bool{}
	for i, p := range sources {
		want := opt.Want != nil && opt.Each != nil && opt.Want(p, st.Files[i].Size, st.Files[i].ModTime)
		if !r.same[i] || r.configChanged {
			todo[p] = true
		}
		if todo[p] || want {
			all = append(all, i)
		}
	}
	changed := len(todo) > 0 || len(st.Files) != len(old.Files) || old.Key == ""
	ps.entries, ps.saved = st.Files, byPath(old.Files)
	// A graph to build and save: the entries wait in a run file, not on
	// the heap, until the pass is over. An update restores the saved
	// graph over the files' full extractions, held: none is spilled.
	if changed && !r.upd && !opt.ReadOnly && !opt.Hold && writable(slog.New(slog.DiscardHandler), root, dir) { // save says why not
		if ps.spill, err = newRunFile(dir); err != nil {
			log.Warn("graphstore: holding every extraction in memory", "error", err)
		} else {
			defer ps.spill.close()
		}
	}
	if err := ps.run(ctx, all, todo); err != nil {
		return nil, err
	}
	// Every file is extracted: the parsers go, and the C heap's free
	// pages with them (glibc keeps what the biggest trees needed), before
	// Passed and the graph's build grow the Go heap. On Linux 6.1's fs,
	// include, kernel, lib and drivers/net that was 100 MB of the
	// process's resident set (docs/bigrepos.md).
	ex.Close()
	if extractedHook != nil {
		extractedHook()
	}
	if opt.Passed != nil {
		if err := opt.Passed(ctx); err != nil {
			return nil, err
		}
	}
	if ps.spill != nil {
		// For `fileinfo index` the files go once the graph is built:
		// they are decoded for the build alone, C's calls when the build
		// resolves them, and read again slim for the symbols index (see
		// build.go).
		decode := ps.spill.entries
		if opt.Discard {
			decode = ps.spill.streamedEntries
		}
		es, err := decode()
		if err != nil {
			return nil, err
		}
		if len(es) != len(st.Files) {
			return nil, fmt.Errorf("graphstore: run file %s: %d entries, not %d", ps.spill.name, len(es), len(st.Files))
		}
		for i := range es {
			if es[i].Path != st.Files[i].Path {
				return nil, fmt.Errorf("graphstore: run file %s: entry %d is %s, not %s", ps.spill.name, i, es[i].Path, st.Files[i].Path)
			}
		}
		st.Files = es
	}
	snap := &Snapshot{Extracted: len(todo), Reused: len(st.Files) - len(todo), Digests: make(map[string]string, len(st.Files)), log: log}
	n := 0
	for i := range st.Files {
		if st.Files[i].File != nil {
			n++
		}
	}
	snap.Files = make([]extract.File, 0, n)
	for i := range st.Files {
		e := &st.Files[i]
		if e.File != nil {
			snap.Files = append(snap.Files, *e.File)
			snap.Digests[e.Path] = e.Hash
		} else {
			skipped = append(skipped, extract.Skipped{Path: e.Path, Reason: e.Skip})
		}
	}
	// For `fileinfo index` the graph is built to be saved: the build
	// takes the files over and lets go of each one's calls once resolved
	// (callgraph.BuildToSave), so the entries must not hold them too.
	toSave := changed && opt.Discard && ps.spill != nil
	var calls func(string) ([]extract.Call, error)
	if toSave {
		if calls, err = ps.spill.callSource(st.Files); err != nil {
			return nil, err
		}
		snap.sites = sitesToSave(snap.Files) // the build lets go of the Refs
		for i := range st.Files {
			st.Files[i].File = nil
		}
	}
	if changed {
		if err := r.graph(ctx, snap, toSave, calls); err != nil {
			return nil, err
		}
	} else {
		snap.How = GraphSaved
		st.GraphSkipped, st.Edges, st.Unresolved = old.GraphSkipped, old.Edges, old.Unresolved
		snap.saved = callgraph.Saved{Edges: old.Edges, Unresolved: old.Unresolved, Skipped: old.GraphSkipped}
		// Loaded slim, the edges and unresolved calls are still in the
		// file (see decodeStateSpans): read when the graph is.
		snap.deferred, snap.bare = r.kept, r.kept
	}
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	snap.Skipped = skipped
	forgetRacy(st.Files, start, tree.asRead)
	forgetRacy(st.Config, start, tree.asRead)
	symID, savedState := r.save(root, snap, ps.spill, changed)
	return r.finish(root, snap, symID, savedState, toSave, changed)
}

// syncRun is one Sync's state from step to step.
type syncRun struct {
	opt            Options
	log            *slog.Logger
	dir, file, key string
	start          time.Time
	old            *State     // the state saved, or an empty one (lost says why)
	kept           *openState // old's file, kept open to read slim (Options.Lazy); nil once closed or handed on
	lost           string     // why no saved state can be updated
	st             *State     // the state now
	same           []bool     // by st.Files: the file is as saved
	configChanged  bool       // a go.mod changed, came or went
	chg            change
	why            string // why the graph is built whole
	upd            bool   // the saved graph is to be updated
	stamps         walkStamps
}

// walkResult is the walk Sync runs beside the load.
type walkResult struct {
	paths   []string
	skipped []extract.Skipped
	err     error
}

// load reads the saved state into r.old (slim and kept open for a
// Lazy Sync; an empty State, with r.lost saying why, when there is none
// of this build and options) while the tree is walked, and returns the
// walk.
func (r *syncRun) load(ctx context.Context) walkResult {
	// The walk and the load are independent: on a big tree each takes
	// seconds, so they run side by side.
	walkDone := make(chan walkResult, 1)
	wo := r.opt.Extract.Walk
	if _, root, err := symbolsPaths(r.opt); err == nil && !r.opt.ReadOnly {
		wo = r.stamps.watch(root, wo)
	}
	go func() {
		var w walkResult
		w.paths, w.skipped, w.err = extract.Walk(ctx, r.opt.Root, wo)
		walkDone <- w
	}()
	old, kept, err := loadInside(r.opt.Root, r.dir, r.file, r.opt.Lazy && !r.opt.Discard && r.opt.Each == nil)
	r.kept = kept
	loaded := time.Since(r.start)
	wk := <-walkDone
	r.log.Debug("graphstore: loaded and walked", "load", loaded, "walk", time.Since(r.start))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old, r.lost = &State{}, "no saved graph"
	case err != nil:
		r.log.Warn("graphstore: rebuilding the saved graph", "file", r.file, "reason", reason(err, r.file))
		old, r.lost = &State{}, "the saved graph cannot be read: "+reason(err, r.file)
	case old.Key != r.key:
		r.log.Info("graphstore: rebuilding the saved graph", "file", r.file, "reason", "saved for "+old.Key+", now "+r.key)
		old, r.lost = &State{}, "saved by another build or options"
	}
	if r.kept != nil && old.Key != r.key {
		r.kept.f.Close()
		r.kept = nil
	}
	r.old = old
	return wk
}

// check stats the go.mod files (configPaths) and the sources against
// the saved state, making r.st (entries, no extractions yet) and r.same,
// and decides whether something changed: whether the saved graph is to
// be updated (r.upd, its edges read now when kept) or built whole
// (r.why). A state loaded slim gives its files whole when anything is
// to be extracted.
func (r *syncRun) check(tree sourceTree, configPaths, sources []string) {
	old, log := r.old, r.log
	st := &State{Key: r.key}
	oldConfig := byPath(old.Config)
	for _, p := range configPaths {
		e, same := tree.check(p, oldConfig[p])
		if e.Hash == "" || !same {
			e.Hash = tree.hash(p)
			same = oldConfig[p] != nil && e.Hash == oldConfig[p].Hash
		}
		r.configChanged = r.configChanged || !same
		st.Config = append(st.Config, e)
	}
	r.configChanged = r.configChanged || len(st.Config) != len(old.Config)
	saved := byPath(old.Files)
	// A stat (and now and then a hash) per file: tens of thousands on a
	// big tree, done a few at a time.
	st.Files = make([]Entry, len(sources))
	r.same = make([]bool, len(sources))
	par.For(8, len(sources), func(i int) {
		st.Files[i], r.same[i] = tree.check(sources[i], saved[sources[i]])
	})
	r.st = st
	log.Debug("graphstore: checked", "files", len(sources), "elapsed", time.Since(r.start))
	// Something changed: a few files are applied to the saved graph as
	// an update (see update.go), its edges read from the file now,
	// before it is closed below. why says why not.
	r.chg = changeSince(old.Files, st.Files, r.same)
	if n := r.chg.size(); n > 0 || r.configChanged || len(st.Files) != len(old.Files) || old.Key == "" {
		var saved int64
		if info, err := os.Stat(r.file); err == nil {
			saved = info.Size()
		}
		r.why = whyWhole(r.lost, r.configChanged, n, len(sources), overBudget(r.opt, saved))
		r.upd = r.why == ""
		if r.upd && r.kept != nil {
			if err := r.kept.loadGraph(old); err != nil {
				r.why, r.upd = "the saved graph cannot be read: "+err.Error(), false
			}
		}
	}
	// A state loaded slim (kept, see Lazy) gives the files it reuses
	// whole to a Sync that extracts: the graph is built from them, and
	// saved with them.
	if r.kept != nil && (r.configChanged || len(st.Files) != len(old.Files) || slices.Contains(r.same, false)) {
		if err := r.kept.fullEntries(old.Files); err != nil {
			log.Warn("graphstore: extracting every file again", "file", r.file, "reason", err)
			r.configChanged = true
			r.why, r.upd = "the saved extractions cannot be read", false
		}
		r.kept.f.Close()
		r.kept = nil
		log.Debug("graphstore: read the saved files whole", "elapsed", time.Since(r.start))
	}
	if r.why != "" {
		// Built whole: nothing reads the saved graph again, and on a
		// big tree it is a fifth of the heap the build runs in (the
		// Linux kernel's edges: 269 MB against a 1.5 GB limit).
		old.GraphSkipped, old.Edges, old.Unresolved = nil, nil, nil
	}
	if checkedHook != nil {
		checkedHook(old)
	}
}

// graph makes the graph of a Sync that found something changed: the
// saved one updated (r.upd) or, failing that, built whole (to be
// saved, over calls, with toSave); it sets snap's graph and how it came
// by it, and r.st's graph fields.
func (r *syncRun) graph(ctx context.Context, snap *Snapshot, toSave bool, calls func(string) ([]extract.Call, error)) error {
	old, st, why, log := r.old, r.st, r.why, r.log
	var g *callgraph.Graph
	if r.upd {
		var n int
		var err error
		if g, n, err = updateSaved(log, old, st.Files, r.chg); err != nil {
			log.Warn("graphstore: building the graph: the saved one does not fit", "file", r.file, "reason", err)
			why = "the saved graph does not fit: " + err.Error()
		} else {
			snap.How, snap.Updated = GraphUpdated, n
			log.Info("graphstore: updated the saved graph", "file", r.file, "files", n, "elapsed", time.Since(r.start))
		}
		// The saved graph is the graph's now.
		old.Files, old.Edges, old.Unresolved = nil, nil, nil
	}
	if g == nil && buildHook != nil {
		buildHook(snap.Files)
	}
	switch {
	case g != nil:
	case toSave:
		var err error
		if g, err = callgraph.BuildToSave(ctx, snap.Files, calls); err != nil {
			return err
		}
	default:
		g = callgraph.Build(snap.Files)
	}
	if snap.How == "" {
		snap.How, snap.Why = GraphBuilt, why
	}
	snap.built = g
	st.GraphSkipped, st.Edges = g.Skipped(), g.Edges()
	return nil
}

// save saves r.st (graph.bin, from spill's entries when there is a run
// file) when something changed, or only stat data did, and the symbols
// index when it is not current; with Options.Discard it lets go of
// snap's files and graph before the symbols index is made. It returns
// the identity of the symbols index known to describe r.st, if any, and
// whether r.st was saved.
func (r *syncRun) save(root string, snap *Snapshot, spill *runFile, changed bool) (symID *[16]byte, savedState bool) {
	opt, log, dir, file, st, old, kept := r.opt, r.log, r.dir, r.file, r.st, r.old, r.kept
	defer func() {
		if symID != nil && !opt.ReadOnly {
			r.stamps.write(log, dir, *symID)
		}
	}()
	checkSymbols := func() bool {
		id, ok := symbolsCurrentID(dir, st)
		if ok {
			symID = &id
		}
		return ok
	}
	saveGraph := changed || statChanged(st, old)
	if opt.ReadOnly || !saveGraph && checkSymbols() {
		return symID, false
	}
	ok := false
	if saveGraph && kept != nil && !changed {
		// Only stat data changed, and the files are slim: the state
		// saved holds them whole, and the graph's deferred fields,
		// read again from the file loaded.
		saveGraph = wholeFiles(log, kept, old.Files, st.Files) && snap.loadDeferred() == nil
		st.Edges, st.Unresolved = snap.saved.Edges, snap.saved.Unresolved
	}
	if saveGraph {
		from := saveFrom{files: spill}
		if changed {
			from.graph = snap.built
		}
		ok = save(log, root, dir, file, st, from)
		savedState = ok
		log.Debug("graphstore: saved", "file", file, "elapsed", time.Since(r.start))
	} else {
		ok = writable(log, root, dir)
	}
	if !ok {
		return symID, savedState
	}
	g := snap.Graph()
	nodes, edges, files := g.Nodes(), g.Edges(), snap.Files
	sites := snap.refSitesFor(files)
	var err error
	if opt.Discard {
		// The symbols index reads the files' symbols, no more: the
		// rest of the extractions and the graph's resolution state
		// go before its sections are made. Files decoded for the
		// build (without docs, see build.go) are read again slim.
		files = symbolsOnly(files)
		if spill != nil {
			files = nil
		}
		g, snap.built, snap.Files, snap.saved = nil, nil, nil, callgraph.Saved{}
		for i := range st.Files {
			st.Files[i].File = nil
		}
		snap.discarded = true
		if spill != nil {
			files, err = spill.slimFiles()
		}
	}
	if err == nil {
		var id [16]byte
		if id, err = writeSymbols(dir, st, nodes, edges, files, sites); err == nil {
			symID = &id
		}
		log.Debug("graphstore: saved the symbols index", "elapsed", time.Since(r.start))
	} else {
		os.Remove(filepath.Join(dir, SymbolsFile)) // it no longer matches graph.bin
	}
	if err != nil {
		log.Warn("graphstore: could not save the symbols index", "error", err)
	}
	return symID, savedState
}

// finish makes snap what Sync returns: an update saved by a Lazy Sync
// read back slim (reopen), the kept file handed on when nothing
// changed, what is left in the file read now when it is not.
func (r *syncRun) finish(root string, snap *Snapshot, symID *[16]byte, savedState, toSave, changed bool) (*Snapshot, error) {
	opt, old := r.opt, r.old
	if snap.discarded {
		snap.deferred, snap.bare = nil, nil
	}
	if snap.How == GraphUpdated && opt.Lazy && savedState {
		// The update's full extractions and graph go: the state is read
		// back slim, as a start that finds nothing changed reads it.
		s, err := reopen(r.log, root, r.dir, r.file, r.st, snap, symID)
		if err == nil {
			return s, nil
		}
		r.log.Warn("graphstore: holding the updated graph: the state saved cannot be read back", "reason", err)
	}
	if toSave && !snap.discarded {
		// Not saved: the files the build took over are cleared and its
		// graph answers no Update; neither is the Snapshot's.
		snap.built, snap.Files, snap.discarded = nil, nil, true
	}
	if r.kept != nil && !changed && old.Key == r.key {
		// kept goes on with the Snapshot: Extractions reads the files,
		// and Graph the deferred fields, from it (Extractions.Close
		// closes it).
		snap.lazy = newExtractions(r.kept, old.Files)
		r.kept = nil // the Snapshot's now
		if symID == nil && opt.ReadOnly {
			if id, ok := symbolsCurrentID(r.dir, r.st); ok {
				symID = &id
			}
		}
		if symID != nil && snap.bare != nil {
			snap.symbols = &savedSymbols{r.dir, *symID}
		}
	}
	if snap.lazy == nil && (snap.deferred != nil || snap.bare != nil) {
		// kept is closed on return: what it holds is read now.
		if _, err := snap.RestoreGraph(); err != nil {
			return nil, err
		}
	}
	return snap, nil
}
