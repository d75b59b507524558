package docsearch

import (
	"math"
	"slices"
	"sync/atomic"
)

// Repeated sections. Docs sites repeat blocks across their pages: a
// "Customizing your theme" section on every utility page of Tailwind,
// the same "Browser support" or "License" note on every component page,
// each with the page's own name in it. For a question about that topic
// all of the copies matched alike, filled the first results, and the page
// that is about it came 15th. So each chunk gets a template hash at index
// time (templateHash): its terms in order with their frequencies, less
// the words of its page's title and path, so copies that differ only by
// the page they are on hash alike. A chunk whose template is in
// minCopies documents of its scope or more is boilerplate: in each
// retriever's list only its best copy stays, as the representative, and
// counts 1/(1+ln copies) as much (dedupe).

// minTemplateTerms is the least distinct terms a chunk has, its page's
// words aside, to have a template: short sections ("See also", a lone
// link) are alike by chance.
const minTemplateTerms = 8

// minCopies is the least documents of a scope a template is in to mark
// its chunks as boilerplate.
const minCopies = 3

// templateHash returns the template hash of a chunk's terms (in order of
// first occurrence, as the worker analyses them), leaving out the terms
// whose hashes are in page (sorted: the page field); 0 when fewer than
// minTemplateTerms terms are left.
func templateHash(terms []termFreq, page []uint64) uint64 {
	h := uint64(14695981039346656037)
	n := 0
	for _, t := range terms {
		th := termHash(t.term)
		if _, ok := slices.BinarySearch(page, th); ok {
			continue
		}
		n++
		h = (h ^ th) * 1099511628211
		h = (h ^ uint64(t.tf)) * 1099511628211
	}
	if n < minTemplateTerms || h == 0 {
		return 0
	}
	return h
}

// derive computes what the index derives from all of its documents after
// a change: the scope names and the chunks' copies. It runs once per
// update, after its last commit: per commit, it made indexing quadratic
// in the number of batches. Callers hold ix.mu for writing.
func (ix *Index) derive() {
	ix.names = ix.scopeNames()
	if ix.tab != nil {
		ix.countCopiesOverlay()
	} else {
		ix.countCopies()
	}
	ix.underived = false
	derives.Add(1)
}

// derives counts the runs of derive, for tests: an index opened
// unchanged reads what was derived from the file instead.
var derives atomic.Int64

// countCopies sets each live chunk's copies: how many documents of its
// scope have a chunk of its template (1 for none). Callers hold ix.mu
// for writing.
func (ix *Index) countCopies() {
	type key = copyKey
	docs := map[key][]uint32{} // the documents, each once: chunks of a document are in a row
	for c := range ix.chunks {
		rec := &ix.chunks[c]
		rec.copies = 1
		d := ix.docs[rec.doc]
		if rec.template == 0 || d == nil {
			continue
		}
		k := key{d.scope, rec.template}
		if ds := docs[k]; len(ds) == 0 || ds[len(ds)-1] != rec.doc {
			docs[k] = append(ds, rec.doc)
		}
	}
	for c := range ix.chunks {
		rec := &ix.chunks[c]
		d := ix.docs[rec.doc]
		if rec.template == 0 || d == nil {
			continue
		}
		if n := len(docs[key{d.scope, rec.template}]); n >= minCopies {
			rec.copies = uint32(min(n, math.MaxUint32))
		}
	}
}

// copyKey is a chunk's scope and template: the chunks whose documents
// countCopies counts.
type copyKey struct {
	scope    string
	template uint64
}

// countCopiesOverlay is countCopies for an index with an overlay: only
// the chunks of the scopes and templates the overlay added or removed
// (ovKeys) are counted again, those of the table in one walk of its
// chunk entries, with no document decoded; a table chunk's new count is
// kept in ix.copies. Callers hold ix.mu for writing.
func (ix *Index) countCopiesOverlay() {
	if len(ix.ovKeys) == 0 {
		return
	}
	t := ix.tab
	docs := map[copyKey]map[uint32]bool{}
	count := func(k copyKey, doc uint32) {
		m := docs[k]
		if m == nil {
			m = map[uint32]bool{}
			docs[k] = m
		}
		m[doc] = true
	}
	var mine []uint32 // the table's live chunks of ovKeys
	for c := range t.chunks {
		f := &t.chunks[c]
		if f.template == 0 {
			continue
		}
		if k := (copyKey{t.scopeName(f.scope), f.template}); ix.ovKeys[k] && !ix.tabGone(f.doc) {
			count(k, f.doc)
			mine = append(mine, uint32(c))
		}
	}
	for _, rec := range ix.chunks {
		if d := ix.ovDoc(rec.doc); d != nil && rec.template != 0 {
			if k := (copyKey{d.scope, rec.template}); ix.ovKeys[k] {
				count(k, rec.doc)
			}
		}
	}
	copiesOf := func(k copyKey) uint32 {
		if n := len(docs[k]); n >= minCopies {
			return uint32(min(n, math.MaxUint32))
		}
		return 1
	}
	if ix.copies == nil {
		ix.copies = map[uint32]uint32{}
	}
	for _, c := range mine {
		f := &t.chunks[c]
		if n := copiesOf(copyKey{t.scopeName(f.scope), f.template}); n != max(f.copies, 1) {
			ix.copies[c] = n
		} else {
			delete(ix.copies, c)
		}
	}
	for i := range ix.chunks {
		rec := &ix.chunks[i]
		if d := ix.ovDoc(rec.doc); d != nil && rec.template != 0 {
			if k := (copyKey{d.scope, rec.template}); ix.ovKeys[k] {
				rec.copies = copiesOf(k)
			}
		} else {
			rec.copies = 1
		}
	}
	ix.ovKeys = nil
}

// dedupe keeps, of the hits (best first) that are copies of one
// boilerplate template, the first, its score times 1/(1+ln copies), and
// sorts them again. Callers hold ix.mu for reading.
func (ix *Index) dedupe(hits []scored) []scored {
	var seen map[uint64]bool
	out := hits[:0]
	changed := false
	for _, h := range hits {
		rec := ix.chunk(h.chunk)
		if rec.copies < minCopies {
			out = append(out, h)
			continue
		}
		changed = true
		if seen == nil {
			seen = map[uint64]bool{}
		}
		if seen[rec.template] {
			continue
		}
		seen[rec.template] = true
		h.score *= float32(1 / (1 + math.Log(float64(rec.copies))))
		out = append(out, h)
	}
	if changed {
		slices.SortStableFunc(out, func(a, b scored) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return int(a.chunk) - int(b.chunk)
		})
	}
	return out
}
