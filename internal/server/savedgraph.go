package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// extractSaved extracts the workspace for its first load through the
// saved graph under .artifacts/.index/ (see graphstore): only files
// changed since it was saved are extracted, and it is saved again. It
// returns the files, what extraction skipped, and the graph: built when
// anything changed; else, the files slim, pending, the saved one to be
// restored when first read (see pendingGraph), or restored (keepGraph;
// see prepareUpdate). The digests of
// the files it reuses are recorded as sawSource records those it reads;
// the files it extracts stream into w.stream (see earlySymbols), and
// extracted is their number.
func (w *workspace) extractSaved(ctx context.Context) (files []extract.File, skipped []extract.Skipped, g *callgraph.Graph, pending *pendingGraph, extracted int, err error) {
	if w.hooks != nil && w.hooks.sync != nil {
		w.hooks.sync()
	}
	xo := w.extractOptions()
	// A restored graph over slim files is completed by its first Update
	// from those files, not from full ones: keepGraph keeps them full.
	snap, err := graphstore.Sync(ctx, graphstore.Options{Root: w.root, Extract: xo, Log: w.log, Lazy: !w.keepGraph})
	if err != nil {
		return nil, nil, nil, nil, 0, err
	}
	w.saved = snap.Extractions()
	w.digestMu.Lock()
	for p, d := range snap.Digests {
		if _, ok := w.digests[p]; !ok && w.digests != nil {
			w.digests[p] = d
		}
	}
	w.digestMu.Unlock()
	w.log.Info("saved graph", "root", w.root, "extracted", snap.Extracted, "reused", snap.Reused, "graph", snap.How, "updated", snap.Updated)
	w.noteGraphLoad(snap)
	if (snap.How == graphstore.GraphUpdated || snap.How == graphstore.GraphSaved && w.firstBuilt) && w.saved != nil {
		// The symbols index saved with the update, or by the first pass
		// and found current, describes the graph: lookups and file_info
		// read it from the start, as after a start that found nothing
		// changed, rather than restoring the graph until a walk has
		// checked it (reopenSymbols). After a first pass on the Linux
		// kernel, the first file_info restored it (1.8 s), and the
		// server held it (0.9 GB) for as long as it ran.
		if s, err := snap.SavedSymbols(); err != nil {
			w.log.Debug("lookups read the graph", "root", w.root, "reason", err)
		} else {
			w.updatedSyms = s
		}
	}
	if w.saved != nil {
		if edges, _ := snap.GraphCounts(); edges < pendingMinEdges {
			if g, err := snap.RestoreGraph(); err == nil {
				return snap.Files, snap.Skipped, g, nil, snap.Extracted, nil
			}
		}
		return snap.Files, snap.Skipped, nil, &pendingGraph{snap: snap}, snap.Extracted, nil
	}
	return snap.Files, snap.Skipped, snap.Graph(), nil, snap.Extracted, nil
}

// noteGraphLoad records how the load came by the graph, for
// index_status. An update of the saved graph (the files changed since it
// was saved, see graphstore.Sync) leaves most of a build's heap free
// once the state is read back slim, and so does a first pass: it is
// given back to the system on a goroutine of its own, as after the
// first edit (see updated).
func (w *workspace) noteGraphLoad(snap *graphstore.Snapshot) {
	how := string(snap.How)
	switch {
	case snap.How == graphstore.GraphUpdated:
		how = fmt.Sprintf("updated: %d files changed since it was saved", snap.Updated)
		if snap.Extractions() != nil {
			go giveBackPages()
		}
	case snap.How == graphstore.GraphBuilt && snap.Why != "":
		how += ": " + snap.Why
	case snap.How == graphstore.GraphSaved && w.firstBuilt:
		how = "built: no saved graph (the first pass built and saved it)"
		// The pass's heap (the code index built, the files read back for
		// the graph: 1.2 GB live on the Linux kernel) is garbage now; the
		// runtime gave it back slowly, and a cold start's server held
		// 300-900 MB of it after its first calls (docs/bigrepos.md,
		// twenty-third session).
		go giveBackPages()
	}
	w.graphLoad.Store(&how)
}

// pendingMinEdges is the fewest saved edges for which a start leaves the
// graph pending (see pendingGraph): a smaller graph is restored during
// the load, as its memory is small and the first answer that reads it
// need not wait for it (golang.org/x/tools: 10,000 symbols, a restore of
// 33-41 ms; the Linux kernel: millions of edges, 0.6 GB restored). A
// variable for the tests.
var pendingMinEdges = 1 << 19

// extractOptions are the first load's extraction options: the digests
// of the files read are recorded (sawSource), the directories entered
// watched (sawDir), and the files extracted stream into w.stream.
func (w *workspace) extractOptions() extract.Options {
	xo := extract.Options{
		MaxFileSize: w.maxSize,
		Read:        w.sawSource,
		Walk:        extract.WalkOptions{Dir: w.sawDir},
		Progress:    w.tried.saw,
	}
	if w.stream != nil {
		xo.Extracted = w.stream.add
	}
	return xo
}

// prepareUpdate makes a graph restored from the saved state ready for
// updates before one is applied: it restores the saved graph over the
// files' full extractions, builds what the restored graph lacks (the
// resolution state, see callgraph.Restore; no call is resolved again)
// and puts that graph in its place. A restored graph holds the answers
// only; the rest is built here, on the first change, not at every start
// (gigabytes held for as long as serve runs, which a session that edits
// nothing never needs). Readers are not held up: the build reads the files
// under no lock, as nothing changes a file's extraction in place, only
// replaces it; they read the restored graph meanwhile. Callers call it
// before taking mu to update; one build runs at a time and the others
// wait for it. Close cancels it, and keepGraph skips it: the update
// then completes the graph itself (callgraph.Graph.Update), under mu.
func (w *workspace) prepareUpdate() {
	w.completeMu.Lock()
	defer w.completeMu.Unlock()
	w.mu.RLock()
	g := w.graphID()
	if w.pending == nil && (w.held == nil || !w.held.Restored()) || w.keepGraph {
		// keepGraph: no other graph may take g's place; an update
		// completes g itself, under mu.
		w.mu.RUnlock()
		return
	}
	pending, held := w.pending, w.held
	files := make([]extract.File, 0, len(w.files))
	var slim []string // their full extractions are read from graph.bin
	for p, s := range w.files {
		if s.slim {
			slim = append(slim, p)
			continue
		}
		files = append(files, *s.file)
	}
	w.mu.RUnlock()
	own := files                // the files that are not slim
	var again map[string]string // the digests of files extracted again
	// tokens: the slim files were read a segment at a time, their calls
	// dropped as read (see fullFilesWithoutCalls).
	var tokens map[string][]string
	if len(slim) > 0 && w.saved != nil {
		var err error
		if files, tokens, err = w.fullFilesWithoutCalls(own, slim); err != nil {
			w.log.Warn("the saved extractions could not be read a segment at a time", "root", w.root, "error", err)
			files, tokens = own, nil
		}
	}
	if len(slim) > 0 && tokens == nil {
		var err error
		if files, again, err = w.fullFiles(own, slim); err != nil {
			return // closed
		}
	}
	if w.hooks != nil && w.hooks.complete != nil {
		w.hooks.complete()
	}
	start := time.Now()
	// The saved graph is Build's of these files: restored over them
	// whole, its resolution state is rebuilt without resolving a call
	// (callgraph.Graph.PrepareUpdates), and the update re-resolves what
	// it affects. On the Linux kernel building the graph whole here took
	// 3.9 GB (docs/bigrepos.md).
	// The saved graph's edges are read without restoring it over the
	// slim files (see graphstore.Snapshot.SavedGraph); a saved state that
	// cannot be read is restored, or built, by get as before.
	var saved callgraph.Saved
	err := errors.New("no saved graph")
	if pending != nil {
		saved, err = pending.saved()
	}
	if err != nil {
		if pending != nil {
			held = pending.get()
		}
		saved = held.Save()
	}
	full, err := callgraph.Restore(files, saved)
	saved = callgraph.Saved{}
	if err != nil {
		w.log.Warn("the saved call graph does not fit the files: building it", "root", w.root, "error", err)
		if tokens != nil {
			// A build resolves every call: read them whole.
			tokens = nil
			if files, again, err = w.fullFiles(own, slim); err != nil {
				return // closed
			}
		}
		if full, err = callgraph.BuildContext(w.docsCtx, files); err != nil {
			return // closed
		}
	}
	// The calls, most of the extractions, are read again from graph.bin
	// for the files an update re-resolves (fetchCalls): the workspace's
	// sources stay slim.
	letGo := len(slim) > 0 && again == nil && w.saved != nil
	switch {
	case tokens != nil:
		full.PrepareUpdatesWithoutCalls(tokens, w.fetchCalls) // before anyone reads it
	case letGo:
		full.PrepareUpdates()
		full.LetGoOfCalls(w.fetchCalls)
	default:
		full.PrepareUpdates()
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.graphID() != g || w.pending == nil && !w.held.Restored() {
		return
	}
	w.setGraph(full)
	if len(slim) > 0 && !letGo {
		w.unslim(files, again)
	}
	w.giveBack.Store(true)
	w.log.Info("graph ready for updates", "root", w.root, "elapsed", time.Since(start).Round(time.Millisecond), "resolved", full.Resolved())
}

// updated runs after an update, mu released: the first after the graph
// for updates was made, and any of a large graph (see giveBackNodes),
// gives the heap's free pages back to the system, on a
// goroutine of its own. Making it leaves most of a peak free (the
// full extractions' calls, a restore's node table, the old graph's): on
// the Linux kernel the live heap after the first edit was 1.3 GB and the
// resident set 4.0 GB twenty seconds later, as the runtime gives free
// pages back slowly (docs/bigrepos.md).
func (w *workspace) updated() {
	if w.giveBack.Swap(false) {
		go giveBackPages()
	}
}

// giveBackPages gives the heap's free pages back; a variable for the
// tests.
var giveBackPages = debug.FreeOSMemory

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

// fullFiles appends to files the full extractions of the slim files at
// paths: as saved, read from graph.bin; if that fails (the file damaged
// since the load), extracted again from their content now, whose
// digests it returns.
func (w *workspace) fullFiles(files []extract.File, paths []string) ([]extract.File, map[string]string, error) {
	slim := make(map[string]bool, len(paths))
	for _, p := range paths {
		slim[p] = true
	}
	all, err := w.saved.All()
	if err == nil {
		for _, f := range all {
			if slim[f.Path] {
				files = append(files, f)
			}
		}
		return files, nil, nil
	}
	w.log.Warn("the saved extractions could not be read: extracting the files again", "root", w.root, "files", len(paths), "error", err)
	again := map[string]string{}
	for _, p := range paths {
		if w.docsCtx.Err() != nil {
			return nil, nil, w.docsCtx.Err()
		}
		src, err := w.readRaw(p)
		var f *extract.File
		if err == nil {
			f, err = w.ex.Source(w.docsCtx, p, src)
		}
		if err != nil {
			// Gone or no longer extractable: the watcher, or the next
			// read, removes it; its calls are left out until then.
			w.log.Warn("extracting a file again failed", "path", p, "error", err)
			continue
		}
		files = append(files, *f)
		again[p] = artifacts.SourceDigest(src)
	}
	return files, again, nil
}

// fullFilesWithoutCalls appends to files the full extractions of the
// slim files at paths, read from graph.bin a segment at a time, without
// their calls (but those of the files whose language the graph holds
// calls of, see callgraph.HoldsCalls); tokens holds what the graph's
// token index needs of the calls dropped (callgraph.CallTokens). Reading
// every extraction whole first (fullFiles) held every call at once: most
// of 0.8 GB of the first edit's peak on the Linux kernel
// (docs/bigrepos.md). A file with no saved extraction, or an error,
// makes it fail: the caller reads them as fullFiles does.
func (w *workspace) fullFilesWithoutCalls(files []extract.File, paths []string) ([]extract.File, map[string][]string, error) {
	tokens := make(map[string][]string, len(paths))
	n := len(files)
	err := w.saved.Files(paths, func(f *extract.File) {
		if !callgraph.HoldsCalls(f.Language) {
			tokens[f.Path] = callgraph.CallTokens(f)
			f.Calls = nil
		}
		files = append(files, *f)
	})
	if err == nil && len(files)-n != len(paths) {
		err = fmt.Errorf("%d of %d saved extractions read", len(files)-n, len(paths))
	}
	if err != nil {
		return nil, nil, err
	}
	return files, tokens, nil // tokens is not nil, though empty
}

// fetchCalls puts back the calls of files, which the graph for updates
// let go of (callgraph.Graph.LetGoOfCalls): a slim source's from its
// saved extraction, read from graph.bin a segment at a time; another's
// (changed since the load) from the source. A file whose saved
// extraction cannot be read is extracted again if its content is still
// the one it was made from; else it is left without calls, with a log
// line, until the change that made it differ updates it. It runs under
// an update, which holds mu.
func (w *workspace) fetchCalls(files []*extract.File) {
	want := map[string]*extract.File{}
	var paths []string
	for _, f := range files {
		s := w.files[f.Path]
		switch {
		case s == nil:
		case !s.slim:
			f.Calls = s.file.Calls
		default:
			want[f.Path] = f
			paths = append(paths, f.Path)
		}
	}
	if len(paths) == 0 {
		return
	}
	err := w.saved.Files(paths, func(full *extract.File) {
		if f := want[full.Path]; f != nil {
			f.Calls = full.Calls
			delete(want, full.Path)
		}
	})
	if err != nil {
		w.log.Warn("reading saved extractions failed: extracting the files again", "files", len(want), "error", err)
	}
	for p, f := range want {
		src, err := w.readRaw(p)
		var x *extract.File
		if err == nil && artifacts.SourceDigest(src) == w.files[p].digest {
			x, err = w.ex.Source(w.docsCtx, p, src)
		}
		if x == nil {
			w.log.Warn("no calls of a file to resolve", "path", p, "error", err)
			continue
		}
		f.Calls = x.Calls
	}
}

// unslim puts in the place of each slim file its full extraction among
// files, which the graph built from them holds anyway; again are the
// digests of those fullFiles extracted again. The caller holds mu.
func (w *workspace) unslim(files []extract.File, again map[string]string) {
	for i := range files {
		if s := w.files[files[i].Path]; s != nil && s.slim {
			d := s.digest
			if a, ok := again[files[i].Path]; ok {
				d = a
			}
			w.files[files[i].Path] = &source{file: &files[i], digest: d, suspect: s.suspect}
		}
	}
}

// full returns s with its full extraction: s itself unless it is slim,
// else s's saved extraction read from graph.bin (see
// graphstore.Extractions). The caller need not hold mu.
func (w *workspace) full(s *source) (*source, error) {
	if !s.slim {
		return s, nil
	}
	f, err := w.saved.File(s.file.Path)
	if err != nil {
		return nil, err
	}
	return &source{file: f, digest: s.digest, suspect: s.suspect}, nil
}

// fullBatch returns the full extractions of srcs, in order: the slim
// ones' read from graph.bin a segment at a time; one that cannot be read
// is extracted again from its content if that is still the one it was
// made from, else nil, with a log line.
func (w *workspace) fullBatch(ctx context.Context, srcs []*source) []*extract.File {
	out := make([]*extract.File, len(srcs))
	var slim []string
	for i, s := range srcs {
		if s.slim {
			slim = append(slim, s.file.Path)
		} else {
			out[i] = s.file
		}
	}
	if len(slim) == 0 {
		return out
	}
	read := make(map[string]*extract.File, len(slim))
	if err := w.saved.Files(slim, func(f *extract.File) { read[f.Path] = f }); err != nil {
		w.log.Warn("reading saved extractions failed: extracting the files again", "files", len(slim), "error", err)
	}
	for i, s := range srcs {
		if !s.slim {
			continue
		}
		if out[i] = read[s.file.Path]; out[i] != nil {
			continue
		}
		src, err := w.readRaw(s.file.Path)
		if err == nil && artifacts.SourceDigest(src) == s.digest {
			out[i], err = w.ex.Source(ctx, s.file.Path, src)
		}
		if out[i] == nil && err != nil {
			w.log.Warn("no extraction of a file to index", "path", s.file.Path, "error", err)
		}
	}
	return out
}
