package docsearch

import (
	"math"
	"strings"
	"sync"
	"unicode/utf8"
)

// queryTerm is a term of the query with its weight; group numbers the
// query word it came from, so that a chunk matching a word through
// several expansions counts the word once for coverage and for scoring.
type queryTerm struct {
	id     uint32
	weight float64
	group  int
}

// queryWord is a word of the query: its weight (wholeWeight for the whole
// of a compound, else 1) and its coverage weight (its IDF times its
// weight).
type queryWord struct {
	weight float64
	cover  float64
}

// Weights of the ways a query word reaches a term: the whole of a
// compound (the exact-literal path) above its parts; prefix and typo
// expansions below exact matches, as MiniSearch weighs them.
const (
	wholeWeight  = 1.5
	prefixWeight = 0.375
	fuzzyWeight  = 0.45
)

// scratch is the per-search accumulator, pooled: an accumulator per
// chunk and the chunks touched, and the chunks the current query word
// touched.
type scratch struct {
	acc     []chunkAcc
	gen     int32 // the stamps of a search are gen+1 and up (see lexicalSearch)
	touched []uint32
	inWord  []uint32
	kept    []uint8     // per chunk: 0 not asked yet, 1 kept, 2 filtered out
	asked   []uint32    // chunks whose kept is set
	lists   [][]posting // the postings of the current word's terms
	// region is the mapping acc and kept lie in when they are large (see
	// alloc); nil: they are on the heap.
	region *scratchRegion
}

// chunkAcc is what a search adds up for a chunk: its score, its coverage
// of the query's weight, the frequency of the current query word in it,
// and stamp, the last word that added to its coverage. One record a
// chunk, 16 bytes, so that a posting costs one cache line of scratch,
// where four arrays of one field each cost four: postings reach chunks
// all over an index of a million chunks, and on the Linux kernel each
// of those lines was a miss.
type chunkAcc struct {
	score, cov, freq float32
	stamp            int32
}

var scratchPool sync.Pool

// allocHeap sizes sc's arrays for n chunks, zeroed, on the Go heap.
func (sc *scratch) allocHeap(n int) {
	sc.acc = make([]chunkAcc, n)
	sc.kept = make([]uint8, n)
}

// lexicalSearch scores chunks by BM25 over the query's words and returns
// the best candidates with each one's coverage of the query.
//
// The terms one word reaches (its stem, its literal, its joining with
// the next word, abbreviations, prefix and typo expansions) are scored
// as one term, as Lucene's SynonymQuery does: their frequencies in a
// chunk are added, each times its weight relative to the word's, and the
// IDF is that of the most frequent of them. A rare spelling then counts
// as an occurrence of the word, not as a rarer and so heavier word of its
// own: on CoSQA-test this takes BM25 nDCG@10 from 0.403 to 0.413 (hybrid
// 0.418 to 0.419).
func (ix *Index) lexicalSearch(text string, keep func(uint32) bool, dead bitSet) ([]scored, map[uint32]float64) {
	hits, cov, _ := ix.lexicalSearchAlso(text, keep, nil, dead)
	return hits, cov
}

// alsoCandidates is how many chunks lexicalSearchAlso's second list holds.
const alsoCandidates = 20

// lexicalSearchAlso is lexicalSearch that, in the same pass over the
// postings, also ranks the chunks also keeps and keep does not (at most
// alsoCandidates, best first; none when keep or also is nil): the docs a
// code search reads for the names they give (docnames.go), at the cost
// of scoring a few more chunks rather than of a second search.
func (ix *Index) lexicalSearchAlso(text string, keep, also func(uint32) bool, dead bitSet) ([]scored, map[uint32]float64, []scored) {
	// keep is nil when every chunk is kept; dead, the removed chunks, is
	// nil when there are none (see keeper).
	lex := ix.lex
	terms, words := ix.queryTerms(text)
	if len(terms) == 0 {
		return nil, nil, nil
	}
	if keep == nil {
		also = nil
	}
	var total float64
	for _, w := range words {
		total += w.cover
	}
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	n := ix.nchunks()
	if len(sc.acc) < n {
		sc.alloc(n)
	}
	// A chunk's stamp is base+g once word g added to its coverage: the
	// stamps of earlier searches are all below base, so none needs
	// clearing, but when the numbers run out.
	if sc.gen > math.MaxInt32-int32(len(words))-1 {
		for i := range sc.acc {
			sc.acc[i].stamp = 0
		}
		sc.gen = 0
	}
	base := sc.gen + 1
	sc.gen += int32(len(words))
	acc := sc.acc[:n]
	avg := lex.avgLen()
	// Terms come grouped by word, in word order.
	for i := 0; i < len(terms); {
		g := terms[i].group
		word := words[g]
		df, j := 0, i
		// Read in place: a removed chunk's postings, which an overlay
		// (overlay.go) keeps, are skipped by dead.
		lists := sc.lists[:0]
		for ; j < len(terms) && terms[j].group == g; j++ {
			tab, add := lex.parts(terms[j].id)
			lists = append(lists, tab, add)
			df = max(df, lex.df(terms[j].id))
		}
		for k, t := range terms[i:j] {
			rel := float32(t.weight / word.weight)
			for _, ps := range lists[2*k : 2*k+2] {
				for _, p := range ps {
					c := p.chunk
					if c >= uint32(n) {
						continue // a damaged sealed file's (see decodeBody)
					}
					if dead.has(c) {
						continue
					}
					if keep != nil {
						// Filtered as it is first met, not after scoring: a
						// narrow scope scores only its own chunks (issue 34).
						k := sc.kept[c]
						if k == 0 {
							k = 2
							if keep(c) {
								k = 1
							} else if also != nil && also(c) {
								k = 3
							}
							sc.kept[c] = k
							sc.asked = append(sc.asked, c)
						}
						if k == 2 {
							continue
						}
					}
					a := &acc[c]
					if a.freq == 0 {
						sc.inWord = append(sc.inWord, c)
					}
					a.freq += rel * float32(p.tf)
					if a.stamp != base+int32(g) {
						a.stamp = base + int32(g)
						a.cov += float32(word.cover * min(t.weight, 1))
					}
				}
			}
		}
		idf := lex.idf(df)
		for _, c := range sc.inWord {
			a := &acc[c]
			tf := float64(a.freq)
			norm := bm25K1 * (1 - bm25B + bm25B*float64(lex.chunkLen(c))/avg)
			if a.score == 0 {
				sc.touched = append(sc.touched, c)
			}
			a.score += float32(word.weight * idf * tf * (bm25K1 + 1) / (tf + norm))
			a.freq = 0
		}
		sc.inWord = sc.inWord[:0]
		clear(lists)
		sc.lists = lists[:0]
		i = j
	}
	top, alsoTop := topK{k: candidates}, topK{k: alsoCandidates}
	cov := map[uint32]float64{}
	for _, c := range sc.touched {
		if also != nil && sc.kept[c] == 3 {
			alsoTop.push(c, acc[c].score)
			continue
		}
		top.push(c, acc[c].score) // only kept chunks were scored
	}
	for _, c := range sc.asked {
		sc.kept[c] = 0
	}
	sc.asked = sc.asked[:0]
	hits := top.sorted()
	for _, h := range hits {
		cov[h.chunk] = min(float64(acc[h.chunk].cov)/total, 1)
	}
	for _, c := range sc.touched {
		acc[c].score, acc[c].cov = 0, 0
	}
	sc.touched = sc.touched[:0]
	scratchPool.Put(sc)
	var alsoHits []scored
	if also != nil {
		alsoHits = alsoTop.sorted()
	}
	return hits, cov, alsoHits
}

// queryTerms analyses the query and expands each word to the terms it
// reaches: itself, its joining with the next word (see joinedTerms), its
// abbreviations or what it abbreviates (see aliases), its unstemmed
// literal, prefixes and typos. It returns the terms, grouped by word in
// word order, and the words.
func (ix *Index) queryTerms(text string) ([]queryTerm, []queryWord) {
	lex := ix.lex
	an := newAnalyzer()
	an.keep = queryStops(text)
	var terms []queryTerm
	var groups []queryWord
	seenWord := map[string]bool{}
	maxIDF := lex.idf(0)
	var sorted termOrder
	ordered := false
	joined := joinedTerms(lex, text)
	an.analyze(text, func(t string, whole bool) {
		if seenWord[t] {
			return
		}
		t = strings.Clone(t)
		seenWord[t] = true
		g := len(groups)
		w := 1.0
		if whole {
			w = wholeWeight
		}
		if ix.qualifies(t) {
			w *= qualifierWeight
		}
		reached := map[uint32]bool{}
		add := func(id uint32, weight float64) {
			if !reached[id] {
				reached[id] = true
				terms = append(terms, queryTerm{id: id, weight: weight, group: g})
			}
		}
		idf := maxIDF
		exact := false
		// spelling adds a term that spells the word itself, another way:
		// the first one found gives the word its IDF, and the word needs
		// no prefix or typo expansion.
		spelling := func(id uint32, weight float64) {
			add(id, weight)
			if !exact {
				idf, exact = lex.idf(lex.df(id)), true
			}
		}
		if id, ok := lex.id(t); ok {
			spelling(id, w)
		}
		for _, id := range joined[t] {
			spelling(id, w)
		}
		for _, a := range aliases[t] {
			if id, ok := lex.id(a); ok {
				spelling(id, w*aliasWeight)
			}
		}
		if !whole {
			// The literal path: a lower-case query word matches the whole
			// of a compound ("mapby" finds mapBy).
			if raw := strings.ToLower(rawWordFor(text, t)); raw != "" && raw != t {
				if id, ok := lex.id(raw); ok {
					add(id, wholeWeight)
					idf = min(idf, lex.idf(lex.df(id)))
				}
			}
		}
		if r := utf8.RuneCountInString(t); r >= 3 && !whole && !exact {
			if !ordered {
				sorted, ordered = lex.order(), true
			}
			for _, id := range lex.withPrefix(sorted, t) {
				add(id, w*prefixWeight*float64(r)/float64(utf8.RuneCountInString(lex.term(id))))
			}
			if d := fuzzyDistance(r); d > 0 {
				ids, dists := lex.fuzzy(sorted, t, d)
				for i, id := range ids {
					add(id, w*fuzzyWeight*(1-float64(dists[i])/float64(r+1)))
				}
			}
		}
		if len(reached) == 0 {
			idf = maxIDF
		}
		groups = append(groups, queryWord{weight: w, cover: idf * w})
	})
	return terms, groups
}

// fuzzyDistance is the edit distance tolerated in a word of n runes: 20%
// of its length, at most 2 (MiniSearch's fuzzy 0.2).
func fuzzyDistance(n int) int {
	return min(n/5, 2)
}

// rawWordFor returns the word of text whose stem is stem, lower-cased
// and unstemmed, or "": the word as typed, for the literal path.
func rawWordFor(text, stem string) string {
	an := newAnalyzer()
	found := ""
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) }) {
		w := strings.ToLower(f)
		if found == "" && an.stem(w) == stem {
			found = w
		}
	}
	return found
}
