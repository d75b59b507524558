package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/extract"
)

// coldScan finds, while the first load extracts with no saved symbols
// index to answer from, the files that mention a name: it reads every
// file the load's walk finds (the same walk, the same reads) and keeps
// those that hold the name's bytes, extracting just those, ahead of the
// load. A definition of Name holds the text Name, so the definitions
// found are all there are once every file was read; a call of Name by
// that name is in those files too, so only calls through another name
// (an alias, an interface, a function value) can be missing.
//
// On golang.org/x/tools (1,281 source files, 20 MB) a scan reads for
// tens of milliseconds when the files are in the page cache; the Linux
// kernel's gigabyte takes seconds.
type coldScan struct {
	w *workspace

	walkOnce sync.Once
	files    []string // the source files the load's walk finds, sorted
	walkErr  error

	mu    sync.Mutex
	done  map[string]scanned   // extractions by path
	memos map[string]*scanMemo // the last scan for each set of names, by memoKey

	reads atomic.Int64 // files read by scans, for the tests
	stats atomic.Int64 // files stated by scans, for the tests

	gate scanGate // holds the load's extraction while a scan runs
}

// scanGate holds the first load's extraction workers between files
// while scans, and the answers made of them, run: a question asked
// during the load is answered ahead of it (on 2 cores, the load's
// workers would otherwise take as much CPU as the answer). Entering is
// counted, so an answer may enter again around each of its scans.
type scanGate struct {
	mu   sync.Mutex
	n    int           // scans running
	free chan struct{} // closed when n drops to 0; nil while 0
}

func (g *scanGate) enter() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n == 0 {
		g.free = make(chan struct{})
	}
	g.n++
}

func (g *scanGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.n == 0 {
		close(g.free)
		g.free = nil
	}
}

// held reports whether a scan or an answer holds the gate.
func (g *scanGate) held() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n > 0
}

// wait returns once no scan runs.
func (g *scanGate) wait() {
	g.mu.Lock()
	free := g.free
	g.mu.Unlock()
	if free != nil {
		<-free
	}
}

// yieldToScans holds the calling extraction worker of the first load
// while a scan runs; it returns at once when none does.
func (w *workspace) yieldToScans() {
	if e := w.early.Load(); e != nil && e.cold != nil {
		e.cold.gate.wait()
	}
}

func newColdScan(w *workspace) *coldScan {
	return &coldScan{w: w, done: map[string]scanned{}, memos: map[string]*scanMemo{}}
}

// scanMemo is what a scan saw of each file (by its index in the walk's
// files), so that a scan for the same names again reads only the files
// whose size or modification time changed since: on the Linux kernel a
// scan reads a gigabyte (3-5 s on 2 cores), and find_symbol then callers
// of one name scan for it twice. Size and modification time are the
// saved symbols index's rule of freshness too (graphstore).
type scanMemo struct {
	stamps []fileStamp
	hit    []bool // the file holds one of the names
	// watched says every directory of the walk's files was watched for
	// events, and no change seen, when the scan began (see watchedAll).
	watched bool
}

// fileStamp is a file's size and modification time as a scan read it;
// ok is false for a file not read cleanly, which is read again.
type fileStamp struct {
	size, mtime int64
	ok          bool
}

func stampOf(st os.FileInfo) fileStamp {
	return fileStamp{size: st.Size(), mtime: st.ModTime().UnixNano(), ok: true}
}

// maxMemos bounds the scans remembered: each is 25 bytes a file.
const maxMemos = 8

// memoKey is the key of a scan for pats, folded or not.
func memoKey(pats [][]byte, fold bool) string {
	ps := make([]string, len(pats))
	for i, p := range pats {
		ps[i] = string(p)
	}
	slices.Sort(ps)
	return fmt.Sprint(fold, "\x00", strings.Join(ps, "\x00"))
}

// scanned is a file a scan extracted, and the digest of the bytes it
// was extracted from: a file changed since is extracted again.
type scanned struct {
	digest string
	f      *extract.File
}

// scanHits is what a scan found: the extractions of the files that
// mention a name, sorted by path, and how much it covered.
type scanHits struct {
	files  []*extract.File
	total  int      // source files walked
	missed []string // files that could not be read: whether they mention it is unknown
	left   []string // files the load leaves out too (too large, minified...), "path: reason"
	// pending counts the files that mention a name and were not extracted
	// within the scan's budget (see find); mentioned counts all that do.
	pending, mentioned int
}

// complete reports whether every file was read, and every one that
// mentions a name extracted.
func (h scanHits) complete() bool { return len(h.missed) == 0 && h.pending == 0 }

// read reports whether every file was read.
func (h scanHits) read() bool { return len(h.missed) == 0 }

// sources walks the tree once, as the first load does, keeping the files
// whose names say they may be source.
func (c *coldScan) sources() ([]string, error) {
	c.walkOnce.Do(func() {
		// Not the request's context: the walk serves every query of the load.
		files, _, err := extract.Walk(c.w.docsCtx, c.w.root, extract.WalkOptions{})
		c.files, c.walkErr = slices.DeleteFunc(files, extract.UnknownByName), err
	})
	return c.files, c.walkErr
}

// find reads every source file and extracts those that hold one of
// names; fold matches ASCII letters of either case (names then must be
// lower case). Reading and matching run on GOMAXPROCS workers: they are
// CPU-bound on files in the page cache. A worker takes a directory's
// files at a time and opens them through a handle of that directory:
// os.Root opens a path a component at a time (an openat and a close
// each), which was most of a scan's system time on the kernel's fs/ and
// include/ (BenchmarkColdScan).
//
// The files that hold a name are extracted once every file is read,
// those with a line that looks like a definition of it first (see
// likelyDefines), the first minScanExtracted whatever the budget. Extraction, not reading, is most of a first scan on
// the Linux kernel: 339 files mention kmem_cache_create, 5,221
// mutex_lock, most of them calls. With a budget above 0, extraction
// stops once the budget has passed since it began and the rest are
// counted pending: a later scan for the same names extracts them.
func (c *coldScan) find(ctx context.Context, names []string, fold bool, budget time.Duration) (scanHits, error) {
	c.gate.enter()
	defer c.gate.leave()
	start := time.Now()
	files, err := c.sources()
	if err != nil {
		return scanHits{}, err
	}
	pats := make([][]byte, 0, len(names))
	for _, n := range names {
		if n != "" {
			pats = append(pats, []byte(n))
		}
	}
	found := make([]*extract.File, len(files))
	missed := make([]bool, len(files))
	left := make([]string, len(files))
	todo := make([]int8, len(files)) // 0: nothing to extract; else mentions a name: 1 likely defines it, 2 not
	kept := make([]keptSource, len(files))
	var room atomic.Int64 // bytes of the files to extract that may be kept from the reading to the extraction
	room.Store(maxKeptBytes)
	key := memoKey(pats, fold)
	c.mu.Lock()
	prev := c.memos[key]
	c.mu.Unlock()
	groups := dirGroups(files)
	seen := &scanMemo{stamps: make([]fileStamp, len(files)), hit: make([]bool, len(files)), watched: c.watchedAll(files, groups)}
	trust := prev != nil && prev.watched && c.unchanged()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			r := scanReader{c: c}
			defer r.close()
			for {
				g := int(next.Add(1) - 1)
				if g >= len(groups) || ctx.Err() != nil {
					return
				}
				from, to := groups[g], len(files)
				if g+1 < len(groups) {
					to = groups[g+1]
				}
				r.enter(path.Dir(files[from]))
				for i := from; i < to && ctx.Err() == nil; i++ {
					found[i], todo[i], kept[i], missed[i], left[i] = c.one(&r, i, files[i], pats, fold, prev, trust, seen, &room)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return scanHits{}, err
	}
	order := make([]int, 0)
	for i, t := range todo {
		if t != 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(todo[a]) - int(todo[b]) })
	read := time.Since(start)
	sure := min(len(order), minScanExtracted) // the first files of order, extracted whatever the budget
	pending := c.extractHits(ctx, files, order, sure, kept, pats, fold, budget, found, missed, left, seen)
	if err := ctx.Err(); err != nil {
		return scanHits{}, err
	}
	c.mu.Lock()
	if len(c.memos) >= maxMemos {
		clear(c.memos)
	}
	c.memos[key] = seen
	c.mu.Unlock()
	h := scanHits{total: len(files), pending: pending}
	defer func() {
		c.w.log.Debug("scanned the files for names while loading", "names", names, "files", len(files), "found", len(h.files), "pending", pending, "read", read, "elapsed", time.Since(start))
	}()
	for i, f := range found {
		if f != nil {
			h.files = append(h.files, f)
		}
		if seen.hit[i] || todo[i] != 0 {
			h.mentioned++
		}
		if missed[i] {
			h.missed = append(h.missed, files[i])
		}
		if left[i] != "" {
			h.left = append(h.left, files[i]+": "+left[i])
		}
	}
	return h, nil
}

// dirGroups returns where each run of files of one directory starts in
// files (sorted slash paths, so a directory's files are together).
func dirGroups(files []string) []int {
	var starts []int
	for i, f := range files {
		if i == 0 || path.Dir(f) != path.Dir(files[i-1]) {
			starts = append(starts, i)
		}
	}
	return starts
}

// one reads the file at rel (the walk's i-th) with r and says whether
// it holds one of pats: found is its extraction when one is at hand
// (cached, or prev's), else todo says it is to be extracted, 1 when it
// likely defines a name and 2 when not. When prev, the last scan for
// pats, saw the file at the size and modification time it has now,
// prev's finding stands and the file is not read; with trust it is not
// even stated (see watchedAll). What it saw goes into
// seen (a file to extract goes in once extracted). missed is set when
// the file could not be read for a reason the load would not share;
// left is the reason the load leaves it out of the graph too (too large,
// minified...), "" when it does not or the file is no source (gone,
// binary, of no language it reads).
func (c *coldScan) one(r *scanReader, i int, rel string, pats [][]byte, fold bool, prev *scanMemo, trust bool, seen *scanMemo, room *atomic.Int64) (found *extract.File, todo int8, kept keptSource, missed bool, left string) {
	var hook error
	if c.w.hooks != nil && c.w.hooks.scanRead != nil {
		hook = c.w.hooks.scanRead(rel)
	}
	if hook == nil && prev != nil && prev.stamps[i].ok {
		if trust || stampUnchanged(r, rel, prev.stamps[i]) {
			c.mu.Lock()
			had, ok := c.done[rel]
			c.mu.Unlock()
			if !prev.hit[i] || ok {
				seen.stamps[i], seen.hit[i] = prev.stamps[i], prev.hit[i]
				if prev.hit[i] {
					return had.f, 0, kept, false, ""
				}
				return nil, 0, kept, false, ""
			}
		}
	}
	src, st, err := r.read(rel)
	if hook != nil {
		err = hook
	}
	if err != nil {
		return nil, 0, kept, !passedOver(err), leftOut(err)
	}
	if !slices.ContainsFunc(pats, func(p []byte) bool { return holds(src, p, fold) }) {
		seen.stamps[i] = stampOf(st)
		return nil, 0, kept, false, ""
	}
	c.mu.Lock()
	had, ok := c.done[rel]
	c.mu.Unlock()
	if ok && had.digest == artifacts.SourceDigest(src) {
		seen.stamps[i], seen.hit[i] = stampOf(st), true
		return had.f, 0, kept, false, ""
	}
	if room.Add(-int64(len(src))) >= 0 {
		kept = keptSource{src: bytes.Clone(src), stamp: stampOf(st)} // out of the shared buffer
	}
	if likelyDefines(src, pats, fold) {
		return nil, 1, kept, false, ""
	}
	return nil, 2, kept, false, ""
}

// keptSource is a file to extract as a scan read it, kept for the
// extraction, and its stamp then.
type keptSource struct {
	src   []byte
	stamp fileStamp
}

// maxKeptBytes bounds the bytes of the files to extract that a scan
// keeps from its reading to their extraction; past it they are read
// again.
const maxKeptBytes = 64 << 20

// minScanExtracted is how many files a scan extracts whatever its
// budget, those that likely define a name first: an answer holds the
// definitions however loaded the machine is, and each scan for the same
// names extracts more. A variable for the tests.
var minScanExtracted = 16

// extractHits extracts the files of order (indexes into files) in turn
// on GOMAXPROCS workers, putting each in found, missed or left and,
// once extracted, in seen; with a budget above 0 it stops taking files
// past the first sure once the budget has passed, and returns how many
// it left.
func (c *coldScan) extractHits(ctx context.Context, files []string, order []int, sure int, kept []keptSource, pats [][]byte, fold bool, budget time.Duration, found []*extract.File, missed []bool, left []string, seen *scanMemo) (pending int) {
	start := time.Now()
	var next, skipped atomic.Int64
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			r := scanReader{c: c}
			defer r.close()
			for ctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= len(order) {
					return
				}
				if k >= sure && budget > 0 && time.Since(start) > budget {
					skipped.Add(1)
					continue
				}
				i := order[k]
				found[i], missed[i], left[i] = c.extractOne(ctx, &r, i, files[i], kept[i], pats, fold, seen)
				kept[i] = keptSource{}
			}
		})
	}
	wg.Wait()
	return int(skipped.Load())
}

// extractOne extracts the file at rel (the walk's i-th) as kept, or
// when nothing was kept reads it again and extracts it if it still holds
// one of pats.
func (c *coldScan) extractOne(ctx context.Context, r *scanReader, i int, rel string, kept keptSource, pats [][]byte, fold bool, seen *scanMemo) (f *extract.File, missed bool, left string) {
	src, stamp := kept.src, kept.stamp
	if src == nil {
		read, st, err := r.read(rel)
		if err != nil {
			return nil, !passedOver(err), leftOut(err)
		}
		if !slices.ContainsFunc(pats, func(p []byte) bool { return holds(read, p, fold) }) {
			seen.stamps[i] = stampOf(st) // changed since it was read
			return nil, false, ""
		}
		src, stamp = bytes.Clone(read), stampOf(st) // out of the shared buffer: extraction keeps it
	}
	d := artifacts.SourceDigest(src)
	c.mu.Lock()
	had, ok := c.done[rel]
	c.mu.Unlock()
	if ok && had.digest == d {
		seen.stamps[i], seen.hit[i] = stamp, true
		return had.f, false, ""
	}
	f, err := c.w.ex.Source(ctx, rel, src)
	if err != nil {
		return nil, !passedOver(err), leftOut(err)
	}
	c.mu.Lock()
	c.done[rel] = scanned{digest: d, f: f}
	c.mu.Unlock()
	seen.stamps[i], seen.hit[i] = stamp, true
	return f, false, ""
}

// passedOver reports whether err is one the first load also meets and
// passes over the file for.
func passedOver(err error) bool {
	var skip *extract.SkipError
	return errors.As(err, &skip) || errors.Is(err, fs.ErrNotExist)
}

// leftOut is the reason of a skip that leaves a source file out of the
// graph (as graphCoverage counts them), or "".
func leftOut(err error) string {
	var skip *extract.SkipError
	if !errors.As(err, &skip) || noLanguageRead(skip.Reason) || skip.Reason == "binary file" {
		return ""
	}
	return skip.Reason
}

// holds reports whether src holds p; with fold, ASCII letters of src
// match p's (lower-case) whatever their case.
func holds(src, p []byte, fold bool) bool { return indexFrom(src, p, fold, 0) >= 0 }

// indexFrom is the offset of the first p in src at or after from, -1
// when there is none; with fold, as holds matches.
func indexFrom(src, p []byte, fold bool, from int) int {
	if from > len(src) {
		return -1
	}
	if !fold {
		if k := bytes.Index(src[from:], p); k >= 0 {
			return from + k
		}
		return -1
	}
	c0, up := p[0], p[0]
	if 'a' <= c0 && c0 <= 'z' {
		up = c0 - 'a' + 'A'
	}
	at := func(c byte, from int) int {
		if k := bytes.IndexByte(src[from:], c); k >= 0 {
			return from + k
		}
		return -1
	}
	// lo and hi are the next places of either case of p's first byte at
	// or after i; -1 when there is none.
	lo, hi := at(c0, from), -1
	if up != c0 {
		hi = at(up, from)
	}
	for i := from; ; {
		if lo >= 0 && lo < i {
			lo = at(c0, i)
		}
		if hi >= 0 && hi < i {
			hi = at(up, i)
		}
		j := lo
		if hi >= 0 && (j < 0 || hi < j) {
			j = hi
		}
		if j < 0 || j+len(p) > len(src) {
			return -1
		}
		if equalLower(src[j:j+len(p)], p) {
			return j
		}
		i = j + 1
	}
}

// equalLower reports whether s, ASCII letters lowered, equals lower.
func equalLower(s, lower []byte) bool {
	for i, b := range s {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != lower[i] {
			return false
		}
	}
	return true
}
