package graphstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// racyWindow is how recent a modification time must be for Sync not to
// trust it next time; see Sync.
const racyWindow = 2 * time.Second

// FileName is the saved state's name inside the index directory.
const FileName = "graph.bin"

// State is what Sync saves: every source file's extraction by content,
// and the graph built over them.
type State struct {
	// Key is what the extraction depends on beyond the files (the
	// fileinfo version, the options); a saved state with another key is
	// rebuilt.
	Key string
	// Files are the walked source files in walk order; Config the go.mod
	// files, whose change re-extracts everything (they set Go packages'
	// import paths).
	Files  []Entry
	Config []Entry
	// GraphSkipped are the files the call graph left out; Edges and
	// Unresolved the rest of what callgraph.Restore needs beside the
	// files.
	GraphSkipped []extract.Skipped
	Edges        []callgraph.Edge
	Unresolved   []callgraph.Unresolved
}

// Entry is one file as it was last seen: its size, modification time
// and content hash, and its extraction or the reason it has none.
type Entry struct {
	Path    string
	Size    int64
	ModTime int64  // Unix nanoseconds
	Hash    string // lower-case hex SHA-256 of the content; "" if not read
	File    *extract.File
	Skip    string
}

// Options configure Sync. Root is required.
type Options struct {
	Root string
	// Dir holds the saved state. Default Root/.artifacts/.index.
	Dir string
	// Key is what the extraction depends on beyond the files, the
	// binary's build and the options (which Sync adds itself); see
	// State.Key. Writers of one root should agree on it: serve and the
	// CLI both leave it empty, and so share the saved state.
	Key string
	// Extract configures extraction; its Read hook, if any, is called for
	// the files Sync extracts (not those it reuses).
	Extract extract.Options
	// ReadOnly loads and refreshes the state without saving it.
	ReadOnly bool
	// Each, if set, sees the pass: every file Sync extracts, and every
	// file Want asks for, a batch at a time in walk order, with the bytes
	// it was extracted from, which are dropped once Each returns. So one
	// extraction feeds both the saved graph and, say, the code index.
	// Passed, if set, is called once the last batch was passed, before
	// the graph is built. An error of either stops Sync.
	Each   func(context.Context, []Extracted) error
	Passed func(context.Context) error
	// Want, if set with Each, is asked about every source file, in walk
	// order, with its size and modification time: true passes it to Each
	// even when Sync reuses its saved extraction (which it then does not
	// extract again). Files Sync extracts are passed whatever it says.
	Want func(path string, size, modTime int64) bool
	// Batch is how many files are extracted at a time. Default
	// DefaultBatch.
	Batch int
	// Discard says the caller wants the saved files, not the Snapshot's
	// files or graph: once graph.bin is saved, Sync lets go of them
	// before it writes symbols.idx, and the Snapshot it returns has no
	// Files (Graph returns nil) when it saved, or when it built the graph
	// to save it (callgraph.BuildToSave) and could not. For `fileinfo index`.
	Discard bool
	// Hold keeps every file's extraction on the heap until the graph is
	// built. By default, when Sync is to build and save a graph, each
	// batch's entries go to a run file beside graph.bin (see spill.go)
	// and are read back for the build: the pass then holds one batch.
	Hold bool
	// Lazy asks for the files' extractions to stay in graph.bin when
	// nothing changed: the Snapshot's Files then hold each file's path,
	// language, module and test flag (see Bare), Graph reads the files'
	// symbols with the graph's edges when first called (Files are then
	// slim: see Slim), and Extractions reads the rest of one file when
	// asked. For a server, which would otherwise hold every extraction
	// for as long as it runs (the Linux kernel's: 1 GB). The load decodes
	// the files slim (a Sync that extracts reads the ones it reuses whole
	// again). Ignored with Discard or Each.
	Lazy bool
	// Log receives a line when a saved state is rebuilt. Default: discard.
	Log *slog.Logger
}

// extractedHook, set by tests, hears that Sync closed its extractor;
// buildHook, the files it builds the graph over.
var (
	extractedHook func()
	buildHook     func([]extract.File)
)

// Sync brings the saved state of opt.Root up to date and returns it; see
// the package doc. Saving is best effort: a failure is logged.
func Sync(ctx context.Context, opt Options) (*Snapshot, error) {
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dir := opt.Dir
	if dir == "" {
		dir = filepath.Join(opt.Root, ".artifacts", ".index")
	}
	file := filepath.Join(dir, FileName)
	start := time.Now()
	maxSize := opt.Extract.MaxFileSize
	if maxSize <= 0 {
		maxSize = extract.DefaultMaxFileSize
	}
	key := stateKey(opt)
	// The walk and the load are independent: on a big tree each takes
	// seconds, so they run side by side.
	type walked struct {
		paths   []string
		skipped []extract.Skipped
		err     error
	}
	walkDone := make(chan walked, 1)
	go func() {
		var w walked
		w.paths, w.skipped, w.err = extract.Walk(ctx, opt.Root, opt.Extract.Walk)
		walkDone <- w
	}()
	old, kept, err := loadInside(opt.Root, dir, file, opt.Lazy && !opt.Discard && opt.Each == nil)
	defer func() {
		if kept != nil {
			kept.f.Close() // not handed to the Snapshot
		}
	}()
	loaded := time.Since(start)
	wk := <-walkDone
	log.Debug("graphstore: loaded and walked", "load", loaded, "walk", time.Since(start))
	lost := "" // why no saved state can be updated
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old, lost = &State{}, "no saved graph"
	case err != nil:
		log.Warn("graphstore: rebuilding the saved graph", "file", file, "reason", reason(err, file))
		old, lost = &State{}, "the saved graph cannot be read: "+reason(err, file)
	case old.Key != key:
		log.Info("graphstore: rebuilding the saved graph", "file", file, "reason", "saved for "+old.Key+", now "+key)
		old, lost = &State{}, "saved by another build or options"
	}
	if kept != nil && old.Key != key {
		kept.f.Close()
		kept = nil
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
	st := &State{Key: key}
	configPaths, sources, skippedMore := selectSources(paths, xo.Languages)
	skipped = append(skipped, skippedMore...)
	configChanged := false
	oldConfig := byPath(old.Config)
	for _, p := range configPaths {
		e, same := tree.check(p, oldConfig[p])
		if e.Hash == "" || !same {
			e.Hash = tree.hash(p)
			same = oldConfig[p] != nil && e.Hash == oldConfig[p].Hash
		}
		configChanged = configChanged || !same
		st.Config = append(st.Config, e)
	}
	configChanged = configChanged || len(st.Config) != len(old.Config)
	saved := byPath(old.Files)
	// A stat (and now and then a hash) per file: tens of thousands on a
	// big tree, done a few at a time.
	st.Files = make([]Entry, len(sources))
	same := make([]bool, len(sources))
	parallelOn(8, len(sources), func(i int) {
		st.Files[i], same[i] = tree.check(sources[i], saved[sources[i]])
	})
	log.Debug("graphstore: checked", "files", len(sources), "elapsed", time.Since(start))
	// Something changed: a few files are applied to the saved graph as
	// an update (see update.go), its edges read from the file now,
	// before it is closed below. why says why not.
	why, upd := "", false
	chg := changeSince(old.Files, st.Files, same)
	if n := chg.size(); n > 0 || configChanged || len(st.Files) != len(old.Files) || old.Key == "" {
		why = whyWhole(lost, configChanged, n, len(sources))
		upd = why == ""
		if upd && kept != nil {
			if err := kept.loadGraph(old); err != nil {
				why, upd = "the saved graph cannot be read: "+err.Error(), false
			}
		}
	}
	// A state loaded slim (kept, see Lazy) gives the files it reuses
	// whole to a Sync that extracts: the graph is built from them, and
	// saved with them.
	if kept != nil && (configChanged || len(st.Files) != len(old.Files) || slices.Contains(same, false)) {
		if err := kept.fullEntries(old.Files); err != nil {
			log.Warn("graphstore: extracting every file again", "file", file, "reason", err)
			configChanged = true
			why, upd = "the saved extractions cannot be read", false
		}
		kept.f.Close()
		kept = nil
		log.Debug("graphstore: read the saved files whole", "elapsed", time.Since(start))
	}
	// The files to go through: those to extract (todo) and, in walk
	// order among them, those only Each wants.
	var all []int
	todo := map[string]bool{}
	for i, p := range sources {
		want := opt.Want != nil && opt.Each != nil && opt.Want(p, st.Files[i].Size, st.Files[i].ModTime)
		if !same[i] || configChanged {
			todo[p] = true
		}
		if todo[p] || want {
			all = append(all, i)
		}
	}
	changed := len(todo) > 0 || len(st.Files) != len(old.Files) || old.Key == ""
	ps.entries, ps.saved = st.Files, saved
	// A graph to build and save: the entries wait in a run file, not on
	// the heap, until the pass is over. An update restores the saved
	// graph over the files' full extractions, held: none is spilled.
	if changed && !upd && !opt.ReadOnly && !opt.Hold && writable(slog.New(slog.DiscardHandler), root, dir) { // save says why not
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
		var g *callgraph.Graph
		if upd {
			var n int
			if g, n, err = updateSaved(log, old, st.Files, chg); err != nil {
				log.Warn("graphstore: building the graph: the saved one does not fit", "file", file, "reason", err)
				why = "the saved graph does not fit: " + err.Error()
			} else {
				snap.How, snap.Updated = GraphUpdated, n
				log.Info("graphstore: updated the saved graph", "file", file, "files", n, "elapsed", time.Since(start))
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
			if g, err = callgraph.BuildToSave(ctx, snap.Files, calls); err != nil {
				return nil, err
			}
		default:
			g = callgraph.Build(snap.Files)
		}
		if snap.How == "" {
			snap.How, snap.Why = GraphBuilt, why
		}
		snap.built = g
		st.GraphSkipped, st.Edges = g.Skipped(), g.Edges()
	} else {
		snap.How = GraphSaved
		st.GraphSkipped, st.Edges, st.Unresolved = old.GraphSkipped, old.Edges, old.Unresolved
		snap.saved = callgraph.Saved{Edges: old.Edges, Unresolved: old.Unresolved, Skipped: old.GraphSkipped}
		// Loaded slim, the edges and unresolved calls are still in the
		// file (see decodeStateSpans): read when the graph is.
		snap.deferred, snap.bare = kept, kept
	}
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	snap.Skipped = skipped
	forgetRacy(st.Files, start)
	forgetRacy(st.Config, start)
	var symID *[16]byte // of the symbols index known to describe st
	savedState := false // st was saved to file
	checkSymbols := func() bool {
		id, ok := symbolsCurrentID(dir, st)
		if ok {
			symID = &id
		}
		return ok
	}
	if saveGraph := changed || statChanged(st, old); !opt.ReadOnly && (saveGraph || !checkSymbols()) {
		ok := false
		if saveGraph && kept != nil && !changed {
			// Only stat data changed, and the files are slim: the state
			// saved holds them whole, and the graph's deferred fields,
			// read again from the file loaded.
			saveGraph = wholeFiles(log, kept, old.Files, st.Files) && snap.loadDeferred() == nil
			st.Edges, st.Unresolved = snap.saved.Edges, snap.saved.Unresolved
		}
		if saveGraph {
			from := saveFrom{files: ps.spill}
			if changed {
				from.graph = snap.built
			}
			ok = save(log, root, dir, file, st, from)
			savedState = ok
			log.Debug("graphstore: saved", "file", file, "elapsed", time.Since(start))
		} else {
			ok = writable(log, root, dir)
		}
		if ok {
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
				if ps.spill != nil {
					files = nil
				}
				g, snap.built, snap.Files, snap.saved = nil, nil, nil, callgraph.Saved{}
				for i := range st.Files {
					st.Files[i].File = nil
				}
				snap.discarded = true
				if ps.spill != nil {
					files, err = ps.spill.slimFiles()
				}
			}
			if err == nil {
				var id [16]byte
				if id, err = writeSymbols(dir, st, nodes, edges, files, sites); err == nil {
					symID = &id
				}
				log.Debug("graphstore: saved the symbols index", "elapsed", time.Since(start))
			} else {
				os.Remove(filepath.Join(dir, SymbolsFile)) // it no longer matches graph.bin
			}
			if err != nil {
				log.Warn("graphstore: could not save the symbols index", "error", err)
			}
		}
	}
	if snap.discarded {
		snap.deferred, snap.bare = nil, nil
	}
	if snap.How == GraphUpdated && opt.Lazy && savedState {
		// The update's full extractions and graph go: the state is read
		// back slim, as a start that finds nothing changed reads it.
		s, err := reopen(log, root, dir, file, st, snap, symID)
		if err == nil {
			return s, nil
		}
		log.Warn("graphstore: holding the updated graph: the state saved cannot be read back", "reason", err)
	}
	if toSave && !snap.discarded {
		// Not saved: the files the build took over are cleared and its
		// graph answers no Update; neither is the Snapshot's.
		snap.built, snap.Files, snap.discarded = nil, nil, true
	}
	if kept != nil && !changed && old.Key == key {
		// kept goes on with the Snapshot: Extractions reads the files,
		// and Graph the deferred fields, from it (Extractions.Close
		// closes it).
		snap.lazy = newExtractions(kept, old.Files)
		kept = nil // the Snapshot's now
		if symID == nil && opt.ReadOnly {
			checkSymbols()
		}
		if symID != nil && snap.bare != nil {
			snap.symbols = &savedSymbols{dir, *symID}
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

// stateKey is the key of the state Sync saves with opt (see State.Key).
func stateKey(opt Options) string {
	maxSize := opt.Extract.MaxFileSize
	if maxSize <= 0 {
		maxSize = extract.DefaultMaxFileSize
	}
	return fmt.Sprintf("%s; build %s; max %d bytes; languages %v", opt.Key, buildKey(), maxSize, opt.Extract.Languages)
}

// selectSources splits the walked paths into the go.mod files (config),
// the source files extraction is to read, and those it leaves out (of
// an unknown language, or of a language not in langs when it is set).
func selectSources(paths, langs []string) (config, sources []string, skipped []extract.Skipped) {
	var selected map[string]bool
	if len(langs) > 0 {
		selected = map[string]bool{}
		for _, l := range langs {
			selected[l] = true
		}
	}
	for _, p := range paths {
		if path.Base(p) == "go.mod" {
			config = append(config, p)
		}
		switch l := extract.LanguageOf(p, nil); {
		case extract.UnknownByName(p):
			skipped = append(skipped, extract.Skipped{Path: p, Reason: "unknown language"})
			continue
		case l != nil && selected != nil && !selected[l.Name]:
			skipped = append(skipped, extract.Skipped{Path: p, Reason: "language " + l.Name + " not selected"})
			continue
		}
		sources = append(sources, p)
	}
	return config, sources, skipped
}

// buildKey names the running binary: its module version and VCS
// revision, marked when built from a modified tree (whose saved states a
// rebuilt binary still reuses).
func buildKey() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	k := bi.Main.Version
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			k += " " + s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			k += " modified"
		}
	}
	return k
}

// forgetRacy clears the saved time of the entries modified within
// racyWindow of start: such a file may change again with the same size
// and time stamp (file systems stamp at clock-tick granularity), so next
// time its content is hashed, as git does for racily clean files.
func forgetRacy(es []Entry, start time.Time) {
	for i := range es {
		if es[i].ModTime > start.Add(-racyWindow).UnixNano() {
			es[i].ModTime = 0
		}
	}
}

func byPath(es []Entry) map[string]*Entry {
	m := make(map[string]*Entry, len(es))
	for i := range es {
		m[es[i].Path] = &es[i]
	}
	return m
}

// statChanged reports whether only the stat data of some file changed
// (touched, same content): worth saving so the next Sync need not hash it.
func statChanged(st, old *State) bool {
	if len(st.Files) != len(old.Files) || len(st.Config) != len(old.Config) {
		return true
	}
	for i := range st.Files {
		if st.Files[i].ModTime != old.Files[i].ModTime {
			return true
		}
	}
	for i := range st.Config {
		if st.Config[i].ModTime != old.Config[i].ModTime || st.Config[i].Hash != old.Config[i].Hash {
			return true
		}
	}
	return false
}
