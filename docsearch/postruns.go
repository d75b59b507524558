package docsearch

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"
)

// Postings runs. A lexicon given a spill (Index.spillFor) writes its
// postings out in runs once they pass runPostings: each run holds, for
// every term with postings added since the run before, those postings,
// the terms in byte order. Chunk IDs only grow as chunks are
// added, so a term's postings are its runs', in run order, then those
// still in memory: postings and the save read them so, and what they
// read is what an index built on the heap holds (TestSpillSameIndex).
// On a third of the Linux kernel's chunks the postings were 139 of the
// 824 MB live when a cold build saved its doc index; in runs, the heap
// holds at most a run's worth.
//
// While a lexicon has a spill, the postings added since the last run
// wait in one log (lexicon.log), each with its term, not in a slice per
// term: a term's slice header alone was 24 bytes, 90 MB over the
// kernel's 3.78 M terms, with the slack of every slice's growth on top.
// A run places the log's postings term by term, each term's in the
// log's order, which is chunk order (see run).
//
// A run's postings lie in the spill, read through its mapping (its
// pages let go as the save reads them, see spill.touch); its index, the
// terms and their postings' offsets, on the heap (8 bytes a term a run,
// exactly sized): a search finds a term in every run by a binary search
// of the index (the pages of one through the mapping would be resident
// until the next release); the save reads every run in order.

// postRun is one run. Its terms are in byte order, as the save writes
// them: the save reads each run once from start to end (runCursor),
// where, in term ID order, it read a page of a run for each term the
// run has, in an order unrelated to the run's (on the kernel, 13 of the
// save's 34 CPU-s were those pages' faults).
type postRun struct {
	tids []uint32  // terms with postings in the run, in increasing byte order
	at   []uint32  // the first posting of tids[i] is data[at[i]]; len(tids)+1 entries
	data []posting // in the spill
}

// logged is a posting in the log, with its term.
type logged struct {
	term, chunk, tf uint32
}

// postLog is the lexicon's log: its postings in blocks of logBlock,
// filled in order and kept when the log is emptied by a run, so that the
// next run's log reuses them. One slice grown by append copied the log
// at every growth (by a quarter, past 256 entries): a run of the
// kernel's 5.6 M postings allocated 335 MB to hold 67, and the copies
// and their fresh pages cost 1.2 of the serial commit's 3.9 CPU-s on
// fs, include, kernel, lib and mm (docs/bigrepos.md, h10-idxcpu).
type postLog struct {
	blocks [][]logged // each logBlock long; the first n postings are the log
	n      int
}

// logBlock is the postings of a block of the log: 768 KB.
const logBlock = 1 << 16

// len returns the number of postings in the log.
func (l *postLog) len() int { return l.n }

// add appends e to the log.
func (l *postLog) add(e logged) {
	b, i := l.n/logBlock, l.n%logBlock
	if b == len(l.blocks) {
		l.blocks = append(l.blocks, make([]logged, logBlock))
	}
	l.blocks[b][i] = e
	l.n++
}

// from calls f with the log's postings from the i-th on, a block at a
// time, in order.
func (l *postLog) from(i int, f func([]logged)) {
	for b := i / logBlock; b*logBlock < l.n; b++ {
		lo := max(i-b*logBlock, 0)
		f(l.blocks[b][lo:min(logBlock, l.n-b*logBlock)])
	}
}

// parts calls f with the log's postings a block at a time, in order;
// f may change them.
func (l *postLog) parts(f func([]logged)) {
	for b := 0; b*logBlock < l.n; b++ {
		f(l.blocks[b][:min(logBlock, l.n-b*logBlock)])
	}
}

// reset empties the log, keeping its blocks for the postings to come.
func (l *postLog) reset() { l.n = 0 }

// find returns term id's postings in the run, terms being the lexicon's
// list: a binary search by the term's bytes.
func (r *postRun) find(terms []string, id uint32) []posting {
	i, ok := r.index(terms, id)
	if !ok {
		return nil
	}
	return r.data[r.at[i]:r.at[i+1]]
}

// count returns the number of term id's postings in the run, without
// reading them.
func (r *postRun) count(terms []string, id uint32) int {
	i, ok := r.index(terms, id)
	if !ok {
		return 0
	}
	return int(r.at[i+1] - r.at[i])
}

// index returns term id's place among the run's terms, if it has one.
func (r *postRun) index(terms []string, id uint32) (int, bool) {
	return findTerm(r.tids, terms, terms[id])
}

// runPostings is how many postings in memory make the lexicon write a
// run, given the spill's byte budget: that many bytes' worth of the log,
// at least one posting.
func runPostings(spillBytes int64) int {
	return int(max(spillBytes/int64(unsafe.Sizeof(logged{})), 1))
}

// maybeRun writes the postings in memory to a run once there are
// lex.runAt of them and the lexicon has a spill to write to; otherwise,
// or when the spill cannot take them, they stay in memory.
func (lex *lexicon) maybeRun() {
	if lex.spillTo == nil || lex.inmem < lex.runAt {
		return
	}
	if !lex.run() {
		lex.inmem = 0 // kept on the heap: ask again after as many more
	}
}

// run writes the postings in memory, those of post then the log's, to a
// run and reports whether it did; when it cannot, the log's postings
// move to post, where they stay on the heap. No copy of the run is made
// on the heap: the log is counted by term, each term given its place in
// space reserved in the spill, and each posting of the log, in its
// order (chunk order), written to its term's next place through the
// mapping, a window of the run at a time (runWindow), whose pages are
// let go as soon as it is written. Sorting the log by term then chunk,
// and writing it out through a buffer, took 10.7 of the kernel's CPU-s.
func (lex *lexicon) run() bool {
	nt := lex.nterms()
	next := make([]uint32, nt) // each term's postings in the log, then its next place in the run
	lex.log.parts(func(es []logged) {
		for _, e := range es {
			next[e.term]++
		}
	})
	n, terms := lex.log.len(), 0
	for t := range uint32(nt) {
		if m := len(lex.mem(t)); m > 0 || next[t] > 0 {
			n, terms = n+m, terms+1
		}
	}
	if n == 0 {
		return true
	}
	var sp *spill
	if lex.spillTo != nil {
		sp = lex.spillTo(n * int(unsafe.Sizeof(posting{})))
	}
	b := sp.reserve(n * int(unsafe.Sizeof(posting{})))
	if b == nil {
		lex.settle()
		return false
	}
	data := unsafe.Slice((*posting)(unsafe.Pointer(unsafe.SliceData(b))), n)
	r := postRun{tids: make([]uint32, 0, terms), at: make([]uint32, 1, terms+1), data: data}
	for t := range uint32(nt) {
		if len(lex.mem(t)) > 0 || next[t] > 0 {
			r.tids = append(r.tids, t)
		}
	}
	sortTerms(r.tids, lex.terms)
	at := uint32(0)
	for _, t := range r.tids {
		at += uint32(copy(data[at:], lex.mem(t)))
		c := next[t]
		next[t] = at
		at += c
		r.at = append(r.at, at)
	}
	// A window of the run at a time, its pages let go once it is
	// written, so that no more than a window is resident at once: each
	// pass places the postings whose places lie in its window and marks
	// them placed, and a term's next place only grows, so a posting not
	// placed yet never has its place before the window.
	const placed = ^uint32(0)
	window := runWindow / int(unsafe.Sizeof(posting{}))
	for lo := 0; lo < n; lo += window {
		hi := uint32(min(lo+window, n))
		lex.log.parts(func(es []logged) {
			for i := range es {
				e := &es[i]
				if e.term == placed || next[e.term] >= hi {
					continue
				}
				data[next[e.term]] = posting{e.chunk, e.tf}
				next[e.term]++
				e.term = placed
			}
		})
		sp.letGo(b[lo*int(unsafe.Sizeof(posting{})) : int(hi)*int(unsafe.Sizeof(posting{}))])
	}
	lex.runs = append(lex.runs, r)
	lex.post = nil
	lex.log.reset()
	lex.dropLogCounts()
	lex.inmem = 0
	return true
}

// runWindow is the bytes of a run a pass of run writes: on the kernel
// a run is 45 MB, six passes over its log. A variable for tests.
var runWindow = 8 << 20

// sortTerms sorts ids by their terms' bytes. The first eight bytes of
// each, as a number, decide most comparisons without reading the terms
// again.
func sortTerms(ids []uint32, terms []string) {
	type keyed struct {
		key uint64
		id  uint32
	}
	ks := make([]keyed, len(ids))
	for i, id := range ids {
		var b [8]byte
		copy(b[:], terms[id])
		ks[i] = keyed{binary.BigEndian.Uint64(b[:]), id}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(terms[a.id], terms[b.id])
	})
	for i, k := range ks {
		ids[i] = k.id
	}
}

// settle moves the log's postings to post, a slice per term.
func (lex *lexicon) settle() {
	if lex.log.len() == 0 {
		return
	}
	if n := lex.nterms(); len(lex.post) < n {
		lex.post = append(lex.post, make([][]posting, n-len(lex.post))...)
	}
	lex.log.parts(func(es []logged) {
		for _, e := range es {
			lex.post[e.term] = append(lex.post[e.term], posting{e.chunk, e.tf})
		}
	})
	lex.log = postLog{}
	lex.dropLogCounts()
}

// flush writes the postings in memory to a run, if the lexicon has a
// spill; then the log is empty, as the save and compaction, which read
// every term's postings, want it. Callers hold ix.mu for writing.
func (lex *lexicon) flush() {
	if len(lex.runs) > 0 || lex.log.len() > 0 {
		lex.run()
	}
}

// count returns the number of term id's postings without reading them:
// post's, each run's and the log's (logCount). A search during a build
// asks it of every term it weighs, where counting the postings read
// would read the log whole for each, up to a run's worth of postings
// (millions on the Linux kernel), and every run's postings of a
// frequent term.
func (lex *lexicon) count(id uint32) int {
	n := len(lex.mem(id))
	for i := range lex.runs {
		n += lex.runs[i].count(lex.terms, id)
	}
	return n + lex.logCount(id)
}

// logCount returns the number of term id's postings in the log. The
// counts are kept for the readers that ask (searches during a build,
// under the index's read lock): the first ask after postings were added
// counts those added since (the log only grows between two runs), and a
// run or a settle, which empty the log, drop them. A build that nobody
// searches never holds them.
func (lex *lexicon) logCount(id uint32) int {
	n := lex.log.len()
	if n == 0 {
		return 0
	}
	lex.sortMu.Lock()
	defer lex.sortMu.Unlock()
	c := &lex.logCounts
	if c.n < n {
		if nt := lex.nterms(); len(c.ids) < nt {
			c.ids = append(c.ids, make([]uint32, nt-len(c.ids))...)
		}
		lex.log.from(c.n, func(es []logged) {
			for _, e := range es {
				c.ids[e.term]++
			}
		})
		c.n = n
	}
	if int(id) < len(c.ids) {
		return int(c.ids[id])
	}
	return 0
}

// dropLogCounts lets go of logCount's counts, once the log is emptied;
// the caller holds the index's write lock.
func (lex *lexicon) dropLogCounts() {
	lex.sortMu.Lock()
	lex.logCounts = logCounts{}
	lex.sortMu.Unlock()
}

// mem returns term id's postings in post.
func (lex *lexicon) mem(id uint32) []posting {
	if int(id) < len(lex.post) {
		return lex.post[id]
	}
	return nil
}

// eachRun calls f with term id's postings, in chunk order: each run's
// that has some, then those in post, then the log's (a search while a
// build has postings in the log reads it whole for each term; the save
// and compaction flush it first).
func (lex *lexicon) eachRun(id uint32, f func([]posting)) {
	for i := range lex.runs {
		if ps := lex.runs[i].find(lex.terms, id); len(ps) > 0 {
			f(ps)
			lex.touchRead(ps)
		}
	}
	lex.eachMem(id, f)
}

// touchRead counts a read of ps in a run. Its pages are let go as reads
// go on (spill.touch). A read is counted as a page of its own, however
// few its postings: one by one, terms are read in no order of the runs';
// in the save's walk (runCursor) the runs are read in order, and the
// page counted is at most one more than was made resident.
func (lex *lexicon) touchRead(ps []posting) {
	if lex.touch != nil {
		lex.touch(len(ps)*8 + spillPage)
	}
}

// eachMem calls f with term id's postings in post, then with the log's.
func (lex *lexicon) eachMem(id uint32, f func([]posting)) {
	if ps := lex.mem(id); len(ps) > 0 {
		f(ps)
	}
	n := lex.logCount(id)
	if n == 0 {
		return // nothing to find in the log: not read
	}
	ps := make([]posting, 0, n)
	lex.log.parts(func(es []logged) {
		for _, e := range es {
			if e.term == id {
				ps = append(ps, posting{e.chunk, e.tf})
			}
		}
	})
	f(ps)
}

// runCursor reads the postings of terms visited in increasing byte
// order, every term with postings in a run among them, as the save
// visits them: each run from its start to its end, a term found by
// comparing it with the run's next, where eachRun searches every run
// for it.
type runCursor struct {
	lex *lexicon
	pos []int // the next term of each run
}

func (lex *lexicon) cursor() *runCursor {
	return &runCursor{lex: lex, pos: make([]int, len(lex.runs))}
}

// each calls f with term id's postings as eachRun does; id must follow
// the term of the cursor's last call in byte order.
func (c *runCursor) each(id uint32, f func([]posting)) {
	lex := c.lex
	for i := range lex.runs {
		r := &lex.runs[i]
		if k := c.pos[i]; k < len(r.tids) && r.tids[k] == id {
			c.pos[i]++
			ps := r.data[r.at[k]:r.at[k+1]]
			f(ps)
			lex.touchRead(ps)
		}
	}
	lex.eachMem(id, f)
}

// count returns the number of term id's postings, as lex.count does,
// and moves past it as each does.
func (c *runCursor) count(id uint32) int {
	lex := c.lex
	n := len(lex.mem(id))
	for i := range lex.runs {
		r := &lex.runs[i]
		if k := c.pos[i]; k < len(r.tids) && r.tids[k] == id {
			c.pos[i]++
			n += int(r.at[k+1] - r.at[k])
		}
	}
	return n + lex.logCount(id)
}
