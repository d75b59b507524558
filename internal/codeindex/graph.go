package codeindex

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// inFlightHook, set by tests, hears the most files SyncGraph had
// extracted and not yet indexed at once.
var inFlightHook func(files int)

// renderHook, set by tests, is called with a file's path as its code
// documents start to be rendered, on the goroutine rendering them.
var renderHook func(path string)

// GraphOptions configure SyncGraph.
type GraphOptions struct {
	// Dir holds the code stamps ("": none kept, every file is indexed).
	Dir string
	// Log receives a line when the stamps are rebuilt. Default: discard.
	Log *slog.Logger
	// Graph configures the saved graph's side; its Root is SyncGraph's
	// root, and its Each, Want and Passed are SyncGraph's own.
	Graph graphstore.Options
	// Scan, if set, is the walk of root begun ahead (StartScan), with
	// Dir and Log as its SelectOptions; nil: SyncGraph starts one.
	Scan *Scan
	// Indexed, if set, is called with the index once the code index is
	// saved, before the graph is built; SyncGraph holds the index no
	// more after that, so a caller that lets go of it too leaves its
	// memory to the graph's build.
	Indexed func(*docsearch.Index)
	// Searchable, if set, is called with the index once every code
	// document of the pass is in it and searchable, before it is saved
	// (on the Linux kernel 8-10 s) and Indexed is called: a server can
	// search it meanwhile. Only in a tree with no vendored code, whose
	// scope is brought up to date after the save (syncVendor).
	Searchable func(*docsearch.Index)
	// Progress, if set, hears how far the code documents are: once
	// with (0, total) when the files that need them are known, then
	// after each batch is indexed, with the files indexed so far (a
	// server says so in its answers while it builds). Default: none.
	Progress func(done, total int)
}

// SyncGraph is Sync and graphstore.Sync in one pass over the files: a
// source file that changed since either the code stamps or the saved
// graph is extracted once, and that extraction gives both its code
// documents in ix (in the code scope, or the vendor scope for a
// vendored file the graph reads) and its record in the saved graph,
// which SyncGraph leaves behind (graph.bin, symbols.idx: a first lookup
// after `fileinfo index` builds nothing). SyncVendor extracts only the
// vendored files the graph does not read (vendor/).
//
// The pass streams: files are extracted opt.Graph.Batch at a time, each
// batch rendered into code documents and indexed (by a goroutine in
// docsearch.PutCodeBatches) before the next is extracted, so the sources
// and documents held are one batch's whatever the size of the tree. The
// code index is saved before the graph is built, so their peaks do not
// add up.
func SyncGraph(ctx context.Context, ix *docsearch.Index, root string, opt GraphOptions) (SyncStats, *graphstore.Snapshot, error) {
	dir, log := opt.Dir, opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// Vendored files and copies are chosen as Sync chooses them: the
	// graph still reads every source file, the code scope only sel.Code.
	scan := opt.Scan
	if scan == nil {
		scan = StartScan(ctx, root, SelectOptions{Dir: dir, Log: log})
	}
	sel, err := scan.Selection()
	if err != nil {
		return SyncStats{}, nil, err
	}
	p := &codePass{ix: ix, root: root, indexed: opt.Indexed, searchable: opt.Searchable, progress: opt.Progress, log: log, sel: sel, code: make(map[string]bool, len(sel.Code)),
		now: map[string][3]int64{}, need: map[string]bool{}, old: map[string][3]int64{},
		vendor: make(map[string]bool, len(sel.Vendor)), vendorHave: ix.VendorStamps(), vendorNow: map[string]uint64{}}
	for _, c := range sel.Code {
		p.code[c] = true
	}
	for _, v := range sel.Vendor {
		p.vendor[v] = true
	}
	p.st.Left = sel.Left
	if dir != "" && hasCode(ix) {
		for _, s := range scan.oldStamps(log) {
			p.old[s.path] = s.stamp
		}
	}
	ix = nil // p holds it until the code index is saved
	gopt := opt.Graph
	p.store, _ = artifacts.Open(root) // no store: no prose
	p.dirs = newDirCache(root, scan.listing)
	gopt.Root = root
	gopt.Want, gopt.Each, gopt.Passed = p.want, p.each, p.passed
	snap, err := graphstore.Sync(ctx, gopt)
	if perr := p.finish(ctx); err == nil {
		err = perr
	}
	if err != nil {
		return p.st, nil, err
	}
	p.st.Files = len(p.now)
	byPath := func(a, b docsearch.Skipped) int { return strings.Compare(a.Path, b.Path) }
	slices.SortFunc(p.st.Left, byPath)
	slices.SortFunc(p.st.Vendor.Left, byPath)
	if inFlightHook != nil {
		inFlightHook(p.peak)
	}
	if dir != "" && (p.st.Read > 0 || p.st.Removed > 0 || scan.legacy) {
		if err := writeStamps(dir, sortedStamps(p.now)); err != nil {
			return p.st, snap, err
		}
	}
	return p.st, snap, nil
}

// codePass is the code side of SyncGraph's pass.
type codePass struct {
	ix      *docsearch.Index // nil once saved and handed to indexed
	root    string
	indexed func(*docsearch.Index)
	// searchable is GraphOptions.Searchable.
	searchable func(*docsearch.Index)
	// progress is GraphOptions.Progress; indexedN counts the files indexed.
	progress func(done, total int)
	indexedN int
	log      *slog.Logger
	sel      Selection       // the files of the code and vendor scopes
	code     map[string]bool // sel.Code
	store    *artifacts.Store
	dirs     *dirCache
	old      map[string][3]int64 // stamps as saved
	now      map[string][3]int64 // stamps of the files there are now
	need     map[string]bool     // files whose code documents are out of date
	st       SyncStats
	// The vendor scope's files the graph reads too (a third_party/ root
	// with a licence: the walk enters it; vendor/ it does not) are
	// indexed from the pass's extraction, not extracted again by
	// SyncVendor, which does the rest (syncVendor's done).
	vendor     map[string]bool   // sel.Vendor
	vendorHave map[string]uint64 // the vendor scope's stamps as indexed
	vendorNow  map[string]uint64 // stamps of the vendored files the pass saw that are out of date
	vendorDone map[string]bool   // of them, those handed to the index

	started bool
	queue   chan []docsearch.CodeFile // the batches rendered, to index
	ack     chan bool                 // a batch was indexed (false: indexing stopped)
	done    chan error                // PutCodeBatches' result
	once    sync.Once
	err     error

	mu             sync.Mutex
	inFlight, peak int // files rendered and not yet indexed
}

// want records the stamp of a source file and reports whether its code
// documents are out of date (see stampsFile). graphstore.Sync calls it
// for every source file, from one goroutine, before any batch.
func (p *codePass) want(path string, size, modTime int64) bool {
	// The code scope holds regular files only, as Sync's: the graph
	// follows a symbolic link to a source file (the kernel's
	// include/dt-bindings has some), and a search after an index took
	// their documents out again. Vendored files and copies of another
	// are no part of it either (Select).
	if p.vendor[path] {
		return p.wantVendor(path)
	}
	if !p.code[path] {
		return false
	}
	if info, err := p.sel.Lstat(p.root, path); err != nil || !Held(info) {
		return false
	}
	stamp := [3]int64{size, modTime, 0}
	if p.store != nil {
		if a, err := p.store.Path(path); err == nil && p.dirs.exists(filepath.Dir(a)) {
			if ai, err := os.Stat(a); err == nil {
				stamp[2] = ai.ModTime().UnixNano()
			}
		}
	}
	p.now[path] = stamp
	o, ok := p.old[path]
	need := !ok || o != stamp
	if need {
		p.need[path] = true
	}
	return need
}

// wantVendor records the stamp of a vendored file and reports whether
// its documents are out of date, as SyncVendor judges them.
func (p *codePass) wantVendor(path string) bool {
	stamp, stale := vendorStale(p.sel, p.root, path, p.vendorHave)
	if stale {
		p.vendorNow[path] = stamp
	}
	return stale
}

// start starts indexing, with the files gone since the stamps, once
// every file was seen by want.
func (p *codePass) start(ctx context.Context) {
	if p.started {
		return
	}
	p.started = true
	var removed []string
	for path := range p.old {
		if _, ok := p.now[path]; !ok {
			removed = append(removed, path)
		}
	}
	slices.Sort(removed)
	p.st.Removed = len(removed)
	if p.progress != nil {
		p.progress(0, len(p.need)+len(p.vendorNow))
	}
	// A batch is indexed before the next is extracted, not beside it:
	// the parsers' time limits are wall-clock, and on a loaded machine
	// indexing beside them made big files miss them (fs/ext4/inode.c on
	// two shared cores), which extracting alone does not.
	p.queue = make(chan []docsearch.CodeFile)
	p.ack = make(chan bool, 1)
	p.done = make(chan error, 1)
	ix := p.ix
	go func() {
		batches := func(yield func([]docsearch.CodeFile) bool) {
			for cfs := range p.queue {
				ok := yield(cfs)
				p.mu.Lock()
				p.inFlight -= len(cfs)
				p.mu.Unlock()
				p.ack <- ok
				if !ok {
					return
				}
			}
		}
		var put func()
		if p.searchable != nil && len(p.sel.Vendor) == 0 {
			put = func() { p.searchable(ix) }
		}
		p.done <- ix.PutCodeBatchesThen(ctx, batches, removed, put)
	}()
}

// each renders the code documents of the files of a batch that need
// them and returns once they are indexed. What is counted and recorded
// of each file is done in the batch's order; the rendering, on every
// core (renderAll), gives the documents in that order too.
func (p *codePass) each(ctx context.Context, batch []graphstore.Extracted) error {
	p.start(ctx)
	renders := make([]func() docsearch.CodeFile, 0, len(batch))
	for i := range batch {
		x := &batch[i]
		if stamp, ok := p.vendorNow[x.Path]; ok {
			renders = append(renders, p.vendorDocs(x, stamp))
			continue
		}
		if !p.need[x.Path] {
			continue // extracted for the graph; its documents are current
		}
		p.st.Read++
		if x.File == nil {
			p.st.Left = skippedLeft(p.st.Left, x)
			renders = append(renders, func() docsearch.CodeFile {
				return docsearch.CodeFile{Path: x.Path} // no symbols: its documents leave
			})
			continue
		}
		p.st.Extracted++
		renders = append(renders, func() docsearch.CodeFile {
			if renderHook != nil {
				renderHook(x.Path)
			}
			cf := File(x.File, x.Src, ReadProse(p.store, x.File, x.Digest))
			if x.Src != nil {
				cf.Stamp = Stamp(p.store, x.Path, x.Digest) // as serve stamps it: serve takes these
			}
			return cf
		})
	}
	cfs := renderAll(len(renders), func(i int) docsearch.CodeFile { return renders[i]() })
	if len(cfs) == 0 {
		return nil
	}
	p.mu.Lock()
	p.inFlight += len(cfs)
	p.peak = max(p.peak, p.inFlight)
	p.mu.Unlock()
	select {
	case p.queue <- cfs:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case ok := <-p.ack:
		if ok {
			if p.progress != nil {
				p.indexedN += len(cfs)
				p.progress(p.indexedN, len(p.need)+len(p.vendorNow))
			}
			return nil
		}
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := p.finish(ctx); err != nil { // indexing stopped: say why
		return err
	}
	return errors.New("code index: indexing stopped")
}

// vendorDocs records that the pass indexes x in the vendor scope and
// returns what renders its documents there (vendorFile).
func (p *codePass) vendorDocs(x *graphstore.Extracted, stamp uint64) func() docsearch.CodeFile {
	if p.vendorDone == nil {
		p.vendorDone = map[string]bool{}
	}
	p.vendorDone[x.Path] = true
	if x.File == nil {
		p.st.Vendor.Left = skippedLeft(p.st.Vendor.Left, x)
		return func() docsearch.CodeFile {
			return docsearch.CodeFile{Path: x.Path, Vendor: true} // no symbols: its documents leave
		}
	}
	return func() docsearch.CodeFile { return vendorFile(x.File, x.Src, stamp) }
}

// skippedLeft appends x to left when its extraction was skipped, but
// for a file of no language (see appendLeft).
func skippedLeft(left []docsearch.Skipped, x *graphstore.Extracted) []docsearch.Skipped {
	if x.Skip == "" {
		return left
	}
	return appendLeft(left, []extract.Skipped{{Path: x.Path, Reason: x.Skip}})
}

// passed waits for the code index to take the last batch and save.
func (p *codePass) passed(ctx context.Context) error {
	p.start(ctx)
	return p.finish(ctx)
}

// finish ends indexing, if it started, brings the vendor scope up to
// date, and returns the first error.
func (p *codePass) finish(ctx context.Context) error {
	if !p.started {
		return nil
	}
	p.once.Do(func() {
		close(p.queue)
		if p.err = <-p.done; p.err == nil {
			p.st.Vendor, p.err = syncVendor(ctx, p.ix, p.root, p.sel, p.vendorDone, p.st.Vendor.Left)
		}
	})
	ix, indexed := p.ix, p.indexed
	p.ix, p.indexed = nil, nil // indexed may let go of the index for good
	if p.err == nil && ix != nil && indexed != nil {
		indexed(ix)
	}
	return p.err
}
