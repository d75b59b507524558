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
// the terms in increasing ID order. Chunk IDs only grow as chunks are
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
// A run sorts the log by term (a chunk's terms are distinct, so term
// then chunk is an order with no ties) and writes it out.
//
// A run's postings lie in the spill, read through its mapping (its
// pages let go as the save reads them, see spill.touch); its index, the
// terms and their postings' offsets, on the heap (8 bytes a term a run,
// exactly sized): the save and a search find a term in every run, and
// the pages of a binary search through the mapping would be resident
// until the next release.

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

// find returns term id's postings in the run, terms being the lexicon's
// list: a binary search by the term's bytes.
func (r *postRun) find(terms []string, id uint32) []posting {
	s := terms[id]
	i, ok := slices.BinarySearchFunc(r.tids, s, func(t uint32, s string) int { return strings.Compare(terms[t], s) })
	if !ok {
		return nil
	}
	return r.data[r.at[i]:r.at[i+1]]
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
// move to post, where they stay on the heap. The run is written through
// small buffers into space reserved for it: no copy of it is made on the
// heap.
//
// The log is put in the run's order in place: counted by term, moved
// into each term's place, then each term's postings sorted by chunk (a
// chunk's terms are distinct, so there are no ties). Sorting the whole
// log by term then chunk took 10.7 of the kernel's CPU-s.
func (lex *lexicon) run() bool {
	nt := lex.nterms()
	next := make([]uint32, nt) // each term's postings in the log, then where its next one goes
	for _, e := range lex.log {
		next[e.term]++
	}
	n, terms := len(lex.log), 0
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
	data := reserved[posting](sp, n)
	if data.dst == nil {
		lex.settle()
		return false
	}
	r := postRun{tids: make([]uint32, 0, terms), at: make([]uint32, 1, terms+1)}
	for t := range uint32(nt) {
		if len(lex.mem(t)) > 0 || next[t] > 0 {
			r.tids = append(r.tids, t)
		}
	}
	sortTerms(r.tids, lex.terms)
	ends := make([]uint32, terms) // where each term's postings end in the sorted log
	at := uint32(0)
	for i, t := range r.tids {
		c := next[t]
		next[t] = at
		at += c
		ends[i] = at
	}
	log := lex.log
	for i, t := range r.tids {
		for k := next[t]; k < ends[i]; k = next[t] {
			e := log[k]
			if e.term == t {
				next[t]++
				continue
			}
			j := next[e.term] // in a later term's place: the earlier ones are full
			next[e.term]++
			log[k], log[j] = log[j], e
		}
	}
	from := uint32(0)
	for i, t := range r.tids {
		for _, p := range lex.mem(t) {
			data.put(p)
		}
		ps := log[from:ends[i]]
		sortByChunk(ps)
		for _, e := range ps {
			data.put(posting{e.chunk, e.tf})
		}
		from = ends[i]
		r.at = append(r.at, uint32(data.len()))
	}
	if !data.flush() {
		lex.settle()
		return false
	}
	r.data = data.dst
	lex.runs = append(lex.runs, r)
	lex.post = nil
	lex.log = lex.log[:0]
	lex.inmem = 0
	return true
}

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

// sortByChunk sorts one term's postings of the log by chunk. They are
// mostly in order, and mostly few: an insertion sort does those.
func sortByChunk(ps []logged) {
	if len(ps) > 16 {
		slices.SortFunc(ps, func(a, b logged) int { return cmp.Compare(a.chunk, b.chunk) })
		return
	}
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].chunk < ps[j-1].chunk; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// spillArray writes an array of n Ts to space reserved in a spill, a
// buffer's worth at a time.
type spillArray[T any] struct {
	sp  *spill
	dst []T   // the array in the spill; nil when there was no room
	at  int64 // dst's offset in the spill's file
	buf []T
	n   int // elements written out
	ok  bool
}

// spillBuffer is the bytes of a spillArray's buffer.
const spillBuffer = 256 << 10

func reserved[T any](sp *spill, n int) *spillArray[T] {
	var zero T
	size := int(unsafe.Sizeof(zero))
	b, at := sp.reserve(n * size)
	a := &spillArray[T]{sp: sp, at: at, ok: b != nil}
	if b != nil {
		a.dst = unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
		a.buf = make([]T, 0, min(n, spillBuffer/size))
	}
	return a
}

// len returns the number of elements put.
func (a *spillArray[T]) len() int { return a.n + len(a.buf) }

func (a *spillArray[T]) put(x T) {
	a.buf = append(a.buf, x)
	if len(a.buf) == cap(a.buf) {
		a.flush()
	}
}

// flush writes the buffer out and reports whether every write so far
// succeeded.
func (a *spillArray[T]) flush() bool {
	if len(a.buf) > 0 && a.ok {
		var zero T
		size := int(unsafe.Sizeof(zero))
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a.buf))), len(a.buf)*size)
		a.ok = a.sp.writeAt(b, a.at+int64(a.n*size))
	}
	a.n += len(a.buf)
	a.buf = a.buf[:0]
	return a.ok && a.n == len(a.dst)
}

// settle moves the log's postings to post, a slice per term.
func (lex *lexicon) settle() {
	if len(lex.log) == 0 {
		return
	}
	if n := lex.nterms(); len(lex.post) < n {
		lex.post = append(lex.post, make([][]posting, n-len(lex.post))...)
	}
	for _, e := range lex.log {
		lex.post[e.term] = append(lex.post[e.term], posting{e.chunk, e.tf})
	}
	lex.log = nil
}

// flush writes the postings in memory to a run, if the lexicon has a
// spill; then the log is empty, as the save and compaction, which read
// every term's postings, want it. Callers hold ix.mu for writing.
func (lex *lexicon) flush() {
	if len(lex.runs) > 0 || len(lex.log) > 0 {
		lex.run()
	}
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
	var ps []posting
	for _, e := range lex.log {
		if e.term == id {
			ps = append(ps, posting{e.chunk, e.tf})
		}
	}
	if len(ps) > 0 {
		f(ps)
	}
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
	for _, e := range lex.log {
		if e.term == id {
			n++
		}
	}
	return n
}
