package docsearch

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// lexicon is the inverted index: for each term, the chunks it occurs in
// with its weighted frequency there (postings, in increasing chunk order),
// and each chunk's weighted length. Chunks of removed documents stay in
// the postings until the index is compacted; search skips them.
type lexicon struct {
	// terms[:sortedBase] are in increasing order, as a loaded index's
	// are, and are found by binary search; ids finds the terms after
	// them. A large loaded vocabulary so needs no table built to be
	// searched; the first change builds it (see add). The strings of
	// terms added lie in arena.
	ids        *termTable
	sortedBase int
	terms      []string
	arena      termArena
	post       [][]posting
	lens       []uint32 // weighted length per chunk
	total      uint64   // sum of the lengths of live chunks
	live       int      // live chunks

	sortMu sync.Mutex // guards sorted and logCounts, which searches holding only a read lock build
	sorted []uint32   // term ids in term order, for prefix and fuzzy lookups; nil when stale

	// tab, when set, holds a loaded vocabulary in place (terms, ids and
	// post are then empty), all its postings; the first add decodes it
	// (materialize).
	tab *table
	all []posting
	// ov, when set, holds what was added and removed since tab was
	// loaded, beside it (overlay.go); the first add of a lexicon with a
	// tab and no ov decodes the tab instead.
	ov *lexOverlay

	// runs are the postings written out to the spill (postruns.go), in
	// the order written; post and log then hold only those added since:
	// with spillTo set, postings are added to log, not post (post may be
	// shorter than terms then). inmem counts the postings added since the
	// last run, runAt the count that makes the next; spillTo, when set, is
	// the spill a run goes to (Index.spillFor, nil while there is none).
	runs []postRun
	log  postLog
	// logCounts are logCount's, guarded by sortMu.
	logCounts logCounts
	touch     func(n int) // counts n bytes of runs read (Index.spill's touch); nil: none
	inmem     int
	runAt     int
	spillTo   func(n int) *spill
}

// logCounts counts each term's postings in the first n of the log, by
// term ID (see logCount).
type logCounts struct {
	n   int
	ids []uint32
}

// nterms returns the number of terms.
func (lex *lexicon) nterms() int {
	if lex.tab != nil {
		if lex.ov != nil {
			return int(lex.ov.base) + len(lex.ov.terms)
		}
		return len(lex.tab.terms) - 1
	}
	return len(lex.terms)
}

// term returns term id; a loaded one aliases the mapping.
func (lex *lexicon) term(id uint32) string {
	if lex.tab != nil {
		if o := lex.ov; o != nil && id >= o.base {
			return o.terms[id-o.base]
		}
		return lex.tab.term(id)
	}
	return lex.terms[id]
}

// postings returns term id's postings.
func (lex *lexicon) postings(id uint32) []posting {
	if lex.tab != nil {
		if lex.ov != nil {
			return lex.postingsOverlay(id)
		}
		return lex.tab.postings(lex.all, id)
	}
	if len(lex.runs) > 0 || lex.log.len() > 0 {
		var out []posting
		lex.eachRun(id, func(ps []posting) { out = append(out, ps...) })
		return out
	}
	return lex.mem(id)
}

// npostings returns the number of postings, those of removed chunks
// included.
func (lex *lexicon) npostings() int {
	if lex.tab != nil {
		if lex.ov != nil {
			return len(lex.all) + lex.ov.npostings()
		}
		return len(lex.all)
	}
	n := 0
	for _, p := range lex.post {
		n += len(p)
	}
	for _, r := range lex.runs {
		n += len(r.data)
	}
	return n + lex.log.len()
}

// materialize decodes a loaded vocabulary into terms and post, so that
// terms can be added: the terms are copied out of the mapping (compaction
// unmaps it), the postings stay there (compaction copies them).
func (lex *lexicon) materialize() { lex.materializeShedding(&shedder{}) }

// materializeShedding is materialize, counting what it reads of a
// mapping with pages.
func (lex *lexicon) materializeShedding(pages *shedder) {
	t := lex.tab
	if t == nil {
		return
	}
	n := len(t.terms) - 1
	strs := string(t.strs)
	lex.terms = make([]string, n)
	lex.post = make([][]posting, n)
	for i := range n {
		a, b := t.terms[i].str, t.terms[i+1].str
		if b >= a && b <= uint64(len(strs)) {
			lex.terms[i] = strs[a:b]
		}
		lex.post[i] = t.postings(lex.all, uint32(i))
		pages.read(int(b-a) + int(unsafe.Sizeof(t.terms[i])))
	}
	lex.sortedBase = n
	lex.sorted = nil
	lex.tab, lex.all = nil, nil
	if o := lex.ov; o != nil {
		lex.ov = nil
		lex.materializeOverlay(o)
	}
}

// termOrder is the term IDs in term order: ids, or when ids is nil the
// IDs 0 to n-1 (a loaded vocabulary, sorted as saved).
type termOrder struct {
	ids []uint32
	n   int
}

func (o termOrder) len() int { return o.n }

func (o termOrder) at(i int) uint32 {
	if o.ids == nil {
		return uint32(i)
	}
	return o.ids[i]
}

// search returns the first position whose term is not below p.
func (lex *lexicon) search(o termOrder, from int, p string) int {
	lo, hi := from, o.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lex.term(o.at(m)) < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

type posting struct {
	chunk uint32
	tf    uint32
}

func newLexicon() *lexicon { return &lexicon{ids: newTermTable(0)} }

// add appends a chunk, whose ID must be len(lex.lens), with its terms.
func (lex *lexicon) add(terms []termFreq) {
	if lex.ov != nil {
		lex.ov.add(lex, terms)
		return
	}
	lex.materialize()
	if lex.sortedBase > 0 {
		// A binary search costs a cache miss a step: a change as large
		// as indexing everything again would spend seconds on them.
		ids := newTermTable(len(lex.terms))
		for i := range lex.terms {
			ids.insert(lex.terms, uint32(i))
		}
		lex.ids, lex.sortedBase = ids, 0
	}
	id := uint32(len(lex.lens))
	var n uint32
	for _, t := range terms {
		tid, ok := lex.id(t.term)
		if !ok {
			tid = uint32(len(lex.terms))
			lex.terms = append(lex.terms, lex.arena.intern(t.term))
			lex.ids.insert(lex.terms, tid)
			if lex.spillTo == nil {
				lex.post = append(lex.post, nil)
			}
		}
		if lex.spillTo != nil {
			lex.log.add(logged{tid, id, t.tf})
		} else {
			if int(tid) >= len(lex.post) { // the log was flushed or settled: post is short
				lex.post = append(lex.post, make([][]posting, int(tid)+1-len(lex.post))...)
			}
			lex.post[tid] = append(lex.post[tid], posting{id, t.tf})
		}
		n += t.tf
	}
	lex.lens = append(lex.lens, n)
	lex.total += uint64(n)
	lex.live++
	lex.inmem += len(terms)
	lex.maybeRun()
}

// id returns term's ID.
func (lex *lexicon) id(term string) (uint32, bool) {
	if lex.tab != nil {
		if lex.ov != nil {
			return lex.ovID(term)
		}
		return lex.tab.findTerm(term)
	}
	if i, ok := slices.BinarySearch(lex.terms[:lex.sortedBase], term); ok {
		return uint32(i), true
	}
	return lex.ids.find(lex.terms, term)
}

// remove marks a chunk dead in the statistics; its postings stay.
func (lex *lexicon) remove(chunk uint32) {
	lex.total -= uint64(lex.chunkLen(chunk))
	lex.live--
	if lex.ov != nil {
		lex.ov.remove(chunk)
		lex.staleOrder()
	}
}

// BM25 parameters. k1 is the usual 1.2. b is 1, not the usual 0.75:
// a chunk's length is normalized fully, since a longer chunk (a longer
// function, a section at the token limit) matches more query words by
// chance, not by being more about them. Measured hybrid nDCG@10, b 0.75
// -> 1 (2026-11-26): CoSQA-test 0.5009 -> 0.5018, the known-item sets of
// Go 0.566 -> 0.575, Python 0.560 -> 0.564 and JavaScript 0.489 ->
// 0.497, npm docs sections 0.633 -> 0.635 and 0.626 -> 0.627; b 0.9 lay
// between on all but CoSQA (0.4996, within its noise). k1 1.5 or 2.0
// raised the known-item sets by up to 0.004 more and lowered CoSQA by
// 0.001-0.003; k1 1.0 the reverse.
const (
	bm25K1 = 1.2
	bm25B  = 1.0
)

// idf is BM25's inverse document frequency of a term in df chunks, never
// negative.
func (lex *lexicon) idf(df int) float64 {
	n := float64(max(lex.live, 1))
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// avgLen is the mean weighted chunk length.
func (lex *lexicon) avgLen() float64 {
	if lex.live == 0 {
		return 1
	}
	return max(float64(lex.total)/float64(lex.live), 1)
}

// order returns the term IDs in term order.
func (lex *lexicon) order() termOrder {
	if lex.tab != nil {
		if o := lex.ov; o != nil && (len(o.terms) > 0 || o.ngone > 0) {
			s := lex.ovOrder()
			return termOrder{ids: s, n: len(s)}
		}
		return termOrder{n: lex.nterms()}
	}
	s := lex.sortedTerms()
	return termOrder{ids: s, n: len(s)}
}

// sortedTerms returns the term ids in term order; the vocabulary is not
// loaded in place. Terms are only ever appended to a vocabulary, so an
// order built before some were added holds every ID below its length:
// the terms added since are sorted alone and merged into it (see
// mergeTerms), which a search during a long build (the first pass's, its
// vocabulary growing between two searches) would otherwise pay for by
// sorting millions of terms again each time.
func (lex *lexicon) sortedTerms() []uint32 {
	lex.sortMu.Lock()
	defer lex.sortMu.Unlock()
	old, n := lex.sorted, len(lex.terms)
	if old != nil && len(old) == n {
		return old
	}
	if len(old) > n {
		old = nil
	}
	added := make([]uint32, n-len(old))
	for i := range added {
		added[i] = uint32(len(old) + i)
	}
	sortTerms(added, lex.terms)
	lex.sorted = mergeTerms(old, added, lex.terms)
	return lex.sorted
}

// findTerm returns the place of term t among ids, term IDs in term
// order, or where it would go, and whether it is there.
func findTerm(ids []uint32, terms []string, t string) (int, bool) {
	return slices.BinarySearchFunc(ids, t, func(id uint32, t string) int { return strings.Compare(terms[id], t) })
}

// mergeTerms returns a new slice of the term IDs of a and b, each in term
// order, in term order: each run of a between two of b's terms is found
// by a binary search and copied whole, so the cost is b's terms' searches
// and one copy of a.
func mergeTerms(a, b []uint32, terms []string) []uint32 {
	if len(a) == 0 {
		return b
	}
	out := make([]uint32, 0, len(a)+len(b))
	for _, id := range b {
		i, _ := findTerm(a, terms, terms[id])
		out = append(out, a[:i]...)
		out = append(out, id)
		a = a[i:]
	}
	return append(out, a...)
}

// maxPrefixTerms bounds the expansions of one prefix: a short prefix of
// a big vocabulary would otherwise touch most of the index.
const maxPrefixTerms = 32

// withPrefix returns the terms that start with p (p itself excluded), the
// most frequent first, at most maxPrefixTerms of them.
func (lex *lexicon) withPrefix(sorted termOrder, p string) []uint32 {
	i := lex.search(sorted, 0, p)
	var out []uint32
	for ; i < sorted.len() && strings.HasPrefix(lex.term(sorted.at(i)), p); i++ {
		if lex.term(sorted.at(i)) != p {
			out = append(out, sorted.at(i))
		}
	}
	if len(out) > maxPrefixTerms {
		df := make(map[uint32]int, len(out)) // each term's counted once, not per comparison
		for _, id := range out {
			df[id] = lex.df(id)
		}
		slices.SortStableFunc(out, func(a, b uint32) int { return df[b] - df[a] })
		out = out[:maxPrefixTerms]
	}
	return out
}

// fuzzy returns the terms within edit distance maxDist of t (t itself
// excluded) with their distances. An edit is an insertion, a deletion, a
// substitution or two neighbouring letters swapped (the optimal string
// alignment distance): "cehck" is one edit from "check", the commonest
// typo, where Levenshtein distance counts two. A swap reads the row two
// up, but never revives a dead prefix: it costs no less than the
// substitution path through the row above. It walks the sorted vocabulary as a
// trie: terms sharing a prefix share the rows of the edit-distance table
// for it, and a prefix whose row is all above maxDist skips every term
// that starts with it.
func (lex *lexicon) fuzzy(sorted termOrder, t string, maxDist int) (ids []uint32, dists []int) {
	q := []rune(t)
	w := len(q) + 1
	// rows[d] is the table row after the first d runes of the current term.
	rows := make([]int, w*(maxTermLen+2))
	for j := range w {
		rows[j] = j
	}
	var prev []rune
	var cur []rune
	for i := 0; i < sorted.len(); {
		term := lex.term(sorted.at(i))
		cur = append(cur[:0], []rune(term)...)
		// Shared prefix with the previous term: its rows are valid.
		k := 0
		for k < len(prev) && k < len(cur) && prev[k] == cur[k] {
			k++
		}
		dead := -1 // depth whose row exceeds maxDist everywhere
		for d := k + 1; d <= len(cur) && d <= maxTermLen; d++ {
			row, up := rows[d*w:(d+1)*w], rows[(d-1)*w:d*w]
			row[0] = d
			low := d
			for j := 1; j < w; j++ {
				cost := 1
				if q[j-1] == cur[d-1] {
					cost = 0
				}
				row[j] = min(up[j]+1, row[j-1]+1, up[j-1]+cost)
				if d > 1 && j > 1 && q[j-1] == cur[d-2] && q[j-2] == cur[d-1] {
					// Two neighbours swapped count as one edit.
					row[j] = min(row[j], rows[(d-2)*w+j-2]+1)
				}
				low = min(low, row[j])
			}
			if low > maxDist {
				dead = d
				break
			}
		}
		prev = append(prev[:0], cur...)
		if dead > 0 {
			// Skip every term sharing the dead prefix.
			pfx := string(cur[:dead])
			prev = prev[:dead-1] // rows up to dead-1 stay valid
			j := lex.search(sorted, i, pfx+"\U0010FFFF")
			i = max(j, i+1)
			continue
		}
		if len(cur) <= maxTermLen {
			if d := rows[len(cur)*w+len(q)]; d <= maxDist && term != t {
				ids = append(ids, sorted.at(i))
				dists = append(dists, d)
			}
		}
		i++
	}
	return ids, dists
}
