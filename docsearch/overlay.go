package docsearch

import (
	"math/bits"
	"slices"
	"sort"
	"strings"
)

// The overlay. A change to a loaded index (ix.tab) is kept beside the
// mapped tables rather than decoding them all onto the heap
// (materialize): new documents and chunks take the IDs after the
// table's (ix.docs and ix.chunks hold them, offset by the table's
// counts), removed ones are bits of a set over all IDs, and the
// postings of the new chunks are a small lexicon merged with the mapped
// one as it is read. The statistics of BM25 (live chunks, their lengths
// summed, each term's document frequency) come out as a whole rebuild's
// would: a removed chunk's postings are not counted, a term left with
// none is not found. materialize is left to compaction and to a full
// save; a save writes the overlay as a delta (delta.go).

// lexOverlay is what a lexicon holds beside its mapped vocabulary (tab).
type lexOverlay struct {
	base  uint32               // the table's terms; new terms' IDs follow
	cbase uint32               // the table's chunks; new chunks' IDs follow
	terms []string             // new terms, by ID-base
	ids   map[string]uint32    // new term -> ID
	post  map[uint32][]posting // a term's postings of new chunks, in chunk order
	lens  []uint32             // new chunks' lengths, by ID-cbase
	gone  bitSet               // removed chunks, over all IDs
	ngone int
	order []uint32       // every term's ID in term order; nil when stale (guarded by the lexicon's sortMu)
	dfs   map[uint32]int // live postings counted so far, by term; cleared by a change (guarded by sortMu)
}

// df returns the number of term id's live postings, its document
// frequency, without copying them; counted once per term until the next
// change.
func (lex *lexicon) df(id uint32) int {
	o := lex.ov
	if lex.tab == nil {
		return lex.count(id)
	}
	if o == nil {
		return len(lex.postings(id))
	}
	lex.sortMu.Lock()
	n, ok := o.dfs[id]
	lex.sortMu.Unlock()
	if ok {
		return n
	}
	tab, add := lex.parts(id)
	for _, ps := range [2][]posting{tab, add} {
		n += len(ps)
		if o.ngone > 0 {
			for _, p := range ps {
				if o.isGone(p.chunk) {
					n--
				}
			}
		}
	}
	lex.sortMu.Lock()
	if o.dfs == nil {
		o.dfs = map[uint32]int{}
	}
	o.dfs[id] = n
	lex.sortMu.Unlock()
	return n
}

// parts returns term id's postings in the table and in the overlay, the
// removed chunks' among them, without copying: for a reader that skips
// removed chunks itself (lexicalSearch's keep).
func (lex *lexicon) parts(id uint32) (tab, add []posting) {
	o := lex.ov
	if lex.tab == nil || o == nil {
		return lex.postings(id), nil
	}
	if id < o.base {
		tab = lex.tab.postings(lex.all, id)
	}
	return tab, o.post[id]
}

// overlay starts lex's overlay, if it has a mapped vocabulary and none
// yet.
func (lex *lexicon) overlay() *lexOverlay {
	if lex.ov == nil && lex.tab != nil {
		lex.ov = &lexOverlay{base: uint32(len(lex.tab.terms) - 1), cbase: uint32(len(lex.lens)),
			ids: map[string]uint32{}, post: map[uint32][]posting{}}
	}
	return lex.ov
}

// isGone reports whether chunk c was removed after the vocabulary was
// loaded.
func (o *lexOverlay) isGone(c uint32) bool {
	return o.gone.has(c)
}

func (o *lexOverlay) setGone(c uint32) {
	if o.gone.add(c) {
		o.ngone++
	}
}

// chunkLen returns chunk c's weighted length.
func (lex *lexicon) chunkLen(c uint32) uint32 {
	if o := lex.ov; o != nil && c >= o.cbase {
		if int(c-o.cbase) < len(o.lens) {
			return o.lens[c-o.cbase]
		}
		return 0
	}
	if int(c) < len(lex.lens) {
		return lex.lens[c]
	}
	return 0
}

// addOverlay is add for a lexicon with an overlay: chunk ID
// cbase+len(lens).
func (o *lexOverlay) add(lex *lexicon, terms []termFreq) {
	id := o.cbase + uint32(len(o.lens))
	var n uint32
	for _, t := range terms {
		tid, ok := lex.tab.findTerm(t.term)
		if !ok {
			if tid, ok = o.ids[t.term]; !ok {
				tid = o.base + uint32(len(o.terms))
				s := strings.Clone(t.term)
				o.terms = append(o.terms, s)
				o.ids[s] = tid
				lex.sortMu.Lock()
				o.order = nil
				lex.sortMu.Unlock()
			}
		}
		o.post[tid] = append(o.post[tid], posting{id, t.tf})
		n += t.tf
	}
	lex.sortMu.Lock()
	o.dfs = nil
	lex.sortMu.Unlock()
	o.lens = append(o.lens, n)
	lex.total += uint64(n)
	lex.live++
}

// postingsOverlay returns term id's live postings: the table's less the
// removed chunks', then the new chunks'. It copies only when it must.
func (lex *lexicon) postingsOverlay(id uint32) []posting {
	o := lex.ov
	var tab []posting
	if id < o.base {
		tab = lex.tab.postings(lex.all, id)
	}
	add := o.post[id]
	if o.ngone == 0 && len(add) == 0 {
		return tab
	}
	hit := len(add) > 0
	for i := 0; !hit && i < len(tab); i++ {
		hit = o.isGone(tab[i].chunk)
	}
	if !hit {
		return tab
	}
	out := make([]posting, 0, len(tab)+len(add))
	for _, ps := range [2][]posting{tab, add} {
		for _, p := range ps {
			if !o.isGone(p.chunk) {
				out = append(out, p)
			}
		}
	}
	return out
}

// ovID returns the ID of term in a lexicon with an overlay, if it has a
// live posting.
func (lex *lexicon) ovID(term string) (uint32, bool) {
	id, ok := lex.tab.findTerm(term)
	if !ok {
		id, ok = lex.ov.ids[term]
	}
	if ok && !lex.ovLive(id) {
		return 0, false // only removed chunks had it
	}
	return id, ok
}

// ovOrder returns every term's ID in term order, the new terms merged
// in; terms without a live posting are left out.
func (lex *lexicon) ovOrder() []uint32 {
	lex.sortMu.Lock()
	defer lex.sortMu.Unlock()
	o := lex.ov
	if o.order != nil {
		return o.order
	}
	news := make([]uint32, len(o.terms))
	for i := range news {
		news[i] = o.base + uint32(i)
	}
	slices.SortFunc(news, func(a, b uint32) int { return strings.Compare(o.terms[a-o.base], o.terms[b-o.base]) })
	out := make([]uint32, 0, int(o.base)+len(news))
	var i uint32
	for _, id := range news {
		// Where the new term goes among the table's: a binary search.
		t := o.terms[id-o.base]
		at := uint32(sort.Search(int(o.base), func(k int) bool { return lex.tab.term(uint32(k)) >= t }))
		for ; i < at; i++ {
			out = append(out, i)
		}
		out = append(out, id)
	}
	for ; i < o.base; i++ {
		out = append(out, i)
	}
	if o.ngone > 0 {
		out = slices.DeleteFunc(out, func(id uint32) bool { return !lex.ovLive(id) })
	}
	o.order = out
	return out
}

// ovLive reports whether term id has a live posting. Only a term with
// no more postings than there are removed chunks needs them read.
func (lex *lexicon) ovLive(id uint32) bool {
	o := lex.ov
	n := len(o.post[id])
	if id < o.base {
		e := lex.tab.terms
		if a, b := e[id].post, e[id+1].post; b > a {
			n += int(b - a)
		}
	}
	if n > o.ngone {
		return true
	}
	return len(lex.postingsOverlay(id)) > 0
}

// removeOverlay marks chunk c removed.
func (o *lexOverlay) remove(c uint32) { o.setGone(c) }

// staleOrder drops the cached term order after a removal, which may
// leave a term without postings.
func (lex *lexicon) staleOrder() {
	lex.sortMu.Lock()
	if lex.ov != nil {
		lex.ov.order, lex.ov.dfs = nil, nil
	}
	lex.sortMu.Unlock()
}

// materializeOverlay folds the overlay into a lexicon just
// materialized: the new terms after the table's, each term's new
// postings after its table ones, the new lengths after the table's.
// The removed chunks' postings stay, as a removal leaves them (compact
// drops them).
func (lex *lexicon) materializeOverlay(o *lexOverlay) {
	lex.terms = append(lex.terms, o.terms...)
	if len(lex.post) < len(lex.terms) {
		lex.post = append(lex.post, make([][]posting, len(lex.terms)-len(lex.post))...)
	}
	for id, ps := range o.post {
		lex.post[id] = append(slices.Clip(lex.post[id]), ps...)
	}
	lens := make([]uint32, 0, len(lex.lens)+len(o.lens))
	lex.lens = append(append(lens, lex.lens...), o.lens...)
	if len(o.terms) > 0 {
		ids := newTermTable(len(lex.terms))
		for i := range lex.terms {
			ids.insert(lex.terms, uint32(i))
		}
		lex.ids, lex.sortedBase = ids, 0
	}
	lex.sorted = nil
}

// livePostings counts the overlay's postings of live chunks, for Stats.
func (o *lexOverlay) npostings() int {
	n := 0
	for _, ps := range o.post {
		n += len(ps)
	}
	return n
}

// goneCount returns the number of removed chunks under n.
func (o *lexOverlay) goneUnder(n uint32) int {
	k := 0
	for w, x := range o.gone {
		if uint32(w*64) >= n {
			break
		}
		if end := uint32(w*64 + 64); end > n {
			x &= 1<<(n-uint32(w*64)) - 1
		}
		k += bits.OnesCount64(x)
	}
	return k
}
