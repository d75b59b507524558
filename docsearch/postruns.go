package docsearch

import (
	"slices"
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
// A run's postings lie in the spill, read through its mapping (its
// pages let go as the save reads them, see spill.touch); its index, the
// terms and their postings' offsets, on the heap (8 bytes a term a run).

// postRun is one run.
type postRun struct {
	tids []uint32  // terms with postings in the run, increasing
	at   []uint32  // the first posting of tids[i] is data[at[i]]; len(tids)+1 entries
	data []posting // in the spill
}

// find returns term id's postings in the run.
func (r *postRun) find(id uint32) []posting {
	i, ok := slices.BinarySearch(r.tids, id)
	if !ok {
		return nil
	}
	return r.data[r.at[i]:r.at[i+1]]
}

// runPostings is how many postings in memory make the lexicon write a
// run, given the spill's byte budget: that many bytes' worth, at least
// one posting.
func runPostings(spillBytes int64) int {
	return int(max(spillBytes/int64(unsafe.Sizeof(posting{})), 1))
}

// maybeRun writes the postings in memory to a run once there are
// lex.runAt of them and the lexicon has a spill to write to; otherwise,
// or when the spill cannot take them, they stay in memory.
func (lex *lexicon) maybeRun() {
	if lex.spillTo == nil || lex.inmem < lex.runAt {
		return
	}
	size := lex.inmem * int(unsafe.Sizeof(posting{}))
	sp := lex.spillTo(size)
	if sp == nil {
		lex.inmem = 0 // kept on the heap: ask again after as many more
		return
	}
	r := postRun{at: []uint32{0}}
	buf := make([]posting, 0, lex.inmem)
	for t, ps := range lex.post {
		if len(ps) == 0 {
			continue
		}
		r.tids = append(r.tids, uint32(t))
		buf = append(buf, ps...)
		r.at = append(r.at, uint32(len(buf)))
	}
	b := sp.bytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)*int(unsafe.Sizeof(posting{}))))
	if b == nil {
		lex.inmem = 0
		return
	}
	r.data = unsafe.Slice((*posting)(unsafe.Pointer(unsafe.SliceData(b))), len(buf))
	lex.runs = append(lex.runs, r)
	for t := range lex.post {
		lex.post[t] = nil
	}
	lex.inmem = 0
}

// count returns the number of term id's postings, runs' included.
func (lex *lexicon) count(id uint32) int {
	n := len(lex.post[id])
	for i := range lex.runs {
		n += len(lex.runs[i].find(id))
	}
	return n
}

// eachRun calls f with term id's postings, in chunk order: each run's
// that has some, then those in memory.
func (lex *lexicon) eachRun(id uint32, f func([]posting)) {
	for i := range lex.runs {
		if ps := lex.runs[i].find(id); len(ps) > 0 {
			f(ps)
		}
	}
	if len(lex.post[id]) > 0 {
		f(lex.post[id])
	}
}
