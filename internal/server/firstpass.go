package server

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/codeindex"
	"github.com/fileinfo/fileinfo/internal/depindex"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// firstPassFiles is the fewest source files (code and vendor scopes, as
// walked: copies counted) for which the first load takes the one pass
// (see firstPass). On smaller trees the code index never reaches the
// spill, and the pass's doc index, open while the files are extracted,
// raised the peak: golang.org/x/tools (1,281 files) 201-208 MB before,
// 228-240 MB in the pass; 715 files of Linux's kernel/ and mm/ 294-301
// MB, 418-460 MB (docs/bigrepos.md). A variable for the tests.
var firstPassFiles = 4096

// firstPass is the first load of a workspace that has no saved graph
// (graph.bin) of this build: every file is to be extracted, for the graph and for the
// code scope. Extracted then, the whole tree is held twice over on a big
// one: every file's extraction and the graph built from them for as long
// as the server runs, the code index built on the heap beside them (a
// cold start on the Linux kernel peaked at 7.8 GB where `fileinfo index`
// peaks at 2.5 GB), and the code scope waits for the graph.
//
// So the first pass is `fileinfo index`'s (codeindex.SyncGraph): the doc
// index is opened first, each batch of files extracted once gives both
// its code documents and its entry of the saved graph, and the code index
// spills its texts, vectors and postings to a scratch file. Once it is
// saved, the index built is let go (its scratch file with it, which is
// unlinked and lives no longer than its index) and the saved one is
// opened and published, read in place as at any later start: the code
// scope is searchable from then on (see firstSearch), before the graph is
// built. The graph is built from the run file and saved, not held; the
// load then goes on as a warm start's (extractSaved), which finds nothing
// changed and restores the saved graph over slim files. The heap is held
// to opt.FirstMemory while the pass runs.
//
// It returns an error only when ctx is done; a pass that fails otherwise
// is logged, and the load goes on without it. A tree of fewer than
// firstPassFiles source files is loaded as ever: the graph first, then
// the code index from its extractions (afterLoad).
func (w *workspace) firstPass(ctx context.Context, opt Options) error {
	if w.keepGraph || opt.NoDocs || !w.firstStart() {
		return nil
	}
	start := time.Now()
	dir := filepath.Join(w.root, ".artifacts", ".index")
	scan := codeindex.StartScan(ctx, w.root, codeindex.SelectOptions{Dir: dir, Log: w.log, Yield: w.yieldToScans})
	// Counted as walked, copies still in: the doc index is opened while
	// they are compared.
	n := scan.Files()
	if n < firstPassFiles {
		return nil // a small tree (or no walk): loaded as ever
	}
	w.log.Debug("first pass: source files walked", "files", n, "elapsed", time.Since(start))
	defer holdMemory(opt.FirstMemory)()
	// After an upgrade every saved code document is put again: the saved
	// doc index is left unread and built anew (see docsearch.Options.Fresh).
	ix, err := w.openDocsSpill(ctx, opt, !codeindex.SameBuild(dir), scan.Listing)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		w.log.Warn("no doc search in this workspace", "err", err)
		return nil // afterLoad tries again
	}
	w.log.Debug("first pass: doc index opened", "elapsed", time.Since(start))
	if why := ix.Unsaved(); why != "" {
		// Nothing saved can be read in place, nor the graph: the load
		// builds it as ever, and the code goes to this index after it.
		w.docsOpened(ix)
		return nil
	}
	// Searched from now on (firstSearch): the docs whole, the code as
	// far as its batches are in; not open to changes until it is saved.
	w.docs.Store(ix)
	published := false
	last := 0
	copt := codeindex.GraphOptions{
		Dir: dir, Log: w.log, Scan: scan,
		Graph: graphstore.Options{Root: w.root, Extract: w.firstExtractOptions(opt.FirstMemory), Log: w.log, Discard: true},
		Progress: func(done, total int) {
			if done == 0 {
				w.code.start(total)
			}
			w.tried.saw(extract.Progress{Done: done, Total: total})
			w.code.add(done - last)
			last = done
			if done > 0 && w.hooks != nil && w.hooks.batchPut != nil {
				w.hooks.batchPut(done, total)
			}
		},
		Searchable: w.firstSearchable,
		Indexed: func(built *docsearch.Index) {
			w.firstIndexed(ctx, opt, built)
			published = true
		},
	}
	opened := ix
	ix = nil // the pass holds it until it is saved
	st, _, err := codeindex.SyncGraph(ctx, opened, w.root, copt)
	// The graph was built and saved, and let go: it goes before the
	// saved one is read back (extractSaved).
	runtime.GC()
	if err != nil && !published && !w.code.complete() {
		// The half-built index searched meanwhile is not the workspace's:
		// the load opens the doc index as without the pass (afterLoad).
		// No other is published before the pass ends. (Not compared with
		// opened: naming it here would keep the index built, a GB on the
		// Linux kernel, alive through the graph's build and save.)
		w.docs.Store(nil)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		w.log.Warn("the first pass failed: loading as without it", "root", w.root, "err", err)
		return nil
	}
	w.firstBuilt = true
	if !published { // no code at all: the index is as opened
		w.firstIndexed(ctx, opt, nil)
	}
	w.log.Info("first pass: code indexed, graph saved", "root", w.root, "files", st.Files, "indexed", st.Read,
		"elapsed", time.Since(start).Round(time.Millisecond))
	return nil
}

// firstStreamSymbols is the most symbols the first pass hands to the
// early answers' names (streamNames), which hold them until the load
// ends: each holds its extract.Symbol and the file's array of them, a
// node, and its entries by qualified name, name, file and word, about
// 820 bytes a symbol on Linux's kernel/ and mm/ (670 files, 25,663
// symbols, 21 MB). The kernel's 1.5 million symbols would be 1.2 GB
// of a pass held to a 1.5 GB heap: its collector ran without end, and
// the code scope was complete at 301.5 s where `fileinfo index`, which
// streams nothing, had built all of it, the graph too, by 195 s
// (docs/bigrepos.md, seventh session). Past the cap the early answers
// keep the symbols of the files they have, and say how many: the cold
// scan (coldScan) answers whole names from every file whatever the cap.
// 100,000 symbols are about 80 MB. The cap of a pass with no memory
// budget; with one, see firstStreamCap. A variable for the tests.
var firstStreamSymbols = 100_000

// streamSymbolBytes is what a symbol handed to the early answers holds
// (820 bytes, above). A variable for the tests.
var streamSymbolBytes int64 = 820

// firstStreamCap is the most symbols a first pass whose heap is held to
// budget bytes hands to the early answers: a twentieth of the budget's
// worth (98,000 of the default 2 GB --memory's 1.5 GB heap, about
// firstStreamSymbols; twice as many when given twice the memory), or
// firstStreamSymbols with no budget.
func firstStreamCap(budget int64) int {
	if budget <= 0 {
		return firstStreamSymbols
	}
	return int(budget / 20 / streamSymbolBytes)
}

// firstExtractOptions are the first pass's extraction options: the
// load's (extractOptions), with at most firstStreamCap(budget) symbols
// handed to the early answers, in the order the files are extracted,
// and no progress of its own.
func (w *workspace) firstExtractOptions(budget int64) extract.Options {
	xo := w.extractOptions()
	xo.Extracted = capStream(xo.Extracted, firstStreamCap(budget))
	// The pass extracts a batch at a time, each reporting its own files
	// and bytes (index_status said "1024 of 1024 tried, 6.0/6.0 MB" for
	// the whole pass): its progress is its batches', in files (above).
	xo.Progress = nil
	return xo
}

// capStream returns an extract.Options.Extracted that passes files to
// next until one would take the symbols passed past limit, and none
// after it; nil when next is. Safe for concurrent use.
func capStream(next func(*extract.File), limit int) func(*extract.File) {
	if next == nil {
		return nil
	}
	var mu sync.Mutex
	held, full := 0, false
	return func(f *extract.File) {
		mu.Lock()
		if !full && held+len(f.Symbols) > limit {
			full = true
		}
		pass := !full
		if pass {
			held += len(f.Symbols)
		}
		mu.Unlock()
		if pass {
			next(f)
		}
	}
}

// firstStart reports whether the workspace has no saved graph this
// build can reuse: none, or one of another build or options (after an
// upgrade), which the load would rebuild from every file all the same.
func (w *workspace) firstStart() bool {
	return !graphstore.SavedFor(w.symOptions())
}

// firstIndexed publishes the doc index once the first pass saved its
// code: the saved one, opened as at any start (built is let go, and its
// scratch file with it), or built itself when that cannot be opened. A
// nil built opens the saved one only.
func (w *workspace) firstIndexed(ctx context.Context, opt Options, built *docsearch.Index) {
	start := time.Now()
	ix, err := w.openDocs(ctx, opt)
	switch {
	case err != nil && built == nil:
		if ctx.Err() == nil {
			w.log.Warn("no doc search in this workspace", "err", err)
		}
		return // afterLoad tries again
	case err != nil:
		w.log.Warn("the saved doc index could not be opened: searching the one built", "err", err)
		ix = built
	}
	w.docsOpened(ix)
	w.names.drop() // code queries read the code scope from now on
	w.code.finish()
	if ix != built {
		// The index built, its heap and its scratch file, goes before
		// the graph is built.
		built = nil
		runtime.GC()
	}
	w.log.Info("code searchable", "root", w.root, "saved", true, "reopened", time.Since(start).Round(time.Millisecond))
}

// firstSearchable publishes the index the first pass built, every code
// document in it, for search while it is saved (on the Linux kernel
// 8-10 s): code queries read the code scope from then on. It is not
// open to changes (docsOpen): a change noted meanwhile waits for the
// saved index, which firstIndexed publishes in its place.
func (w *workspace) firstSearchable(built *docsearch.Index) {
	w.docs.Store(built)
	w.names.drop()
	w.code.finish()
	w.log.Info("code searchable", "root", w.root, "saved", false)
	if w.hooks != nil && w.hooks.searchable != nil {
		w.hooks.searchable()
	}
}

// firstSearch searches the doc index the first pass published while the
// load still builds the graph, and reports whether it did: not once the
// load is over, nor for a dependency's scope. The pass publishes its
// index once the docs are in it, before the code (on the Linux kernel
// 10 s after the start, the code complete at about 150 s): the code and
// vendor scopes cover the files whose batches are in so far, and say so.
func (s *Server) firstSearch(ctx context.Context, q docsearch.Query) (docsearch.Results, coverage, bool) {
	ws, ix := s.passIndex()
	if ix == nil || slices.ContainsFunc(q.Scopes, depindex.IsScope) {
		return docsearch.Results{}, nil, false
	}
	res, err := ix.Search(ctx, q)
	if err != nil {
		return docsearch.Results{}, nil, false
	}
	cov := loadingCoverage(q.Scopes, "complete")
	for _, sc := range []string{docsearch.ScopeCode, docsearch.ScopeVendor} {
		if _, ok := cov[sc]; ok {
			cov[sc] = ws.code.String()
		}
	}
	return res, cov, true
}

// passIndex returns the current workspace and the index its first pass
// published, while the load still runs; nil before the pass publishes
// it, without a pass, and once the load is over (the workspace's doc
// index is then whole and open to changes: see docsIndex).
func (s *Server) passIndex() (*workspace, *docsearch.Index) {
	ws := s.workspace()
	select {
	case <-ws.ready:
		return ws, nil
	default:
	}
	return ws, ws.docIndex()
}

// openDocsSpill is openDocs for the first pass, whose index spills as
// every doc index does (docsSpillBytes) while it is built; fresh leaves
// the saved one unread.
func (w *workspace) openDocsSpill(ctx context.Context, opt Options, fresh bool, walked func() *docsearch.Listing) (*docsearch.Index, error) {
	o := w.docOptions(opt)
	o.Walked, o.Fresh = walked, fresh
	// A question asked meanwhile goes first, as it does before the
	// extraction of a load (see coldScan).
	o.Progress = func(int, int) { w.yieldToScans() }
	return w.openDocsWith(ctx, o)
}

// The memory budget of first passes: one limit for the process, set by
// the first pass to start and put back by the last to end.
var (
	budgetMu   sync.Mutex
	budgetHeld int
	budgetOld  int64
)

// holdMemory sets the process's soft memory limit to budget while a
// first pass runs, and returns what puts it back; no budget, or a
// GOMEMLIMIT in the environment, leaves it alone.
func holdMemory(budget int64) (release func()) {
	if budget <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	budgetMu.Lock()
	defer budgetMu.Unlock()
	if budgetHeld == 0 {
		budgetOld = debug.SetMemoryLimit(budget)
	}
	budgetHeld++
	return sync.OnceFunc(func() {
		budgetMu.Lock()
		defer budgetMu.Unlock()
		if budgetHeld--; budgetHeld == 0 {
			debug.SetMemoryLimit(budgetOld)
		}
	})
}
