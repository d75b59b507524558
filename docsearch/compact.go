package docsearch

import (
	"strings"
	"unsafe"
)

// compact renumbers chunks and documents without the removed ones.
// Callers hold ix.mu for writing.
func (ix *Index) compact() {
	ix.lex.flush() // the log would be read whole for every term
	remap := make([]uint32, len(ix.chunks))
	alive := make([]bool, len(ix.chunks))
	for _, d := range ix.docs {
		if d != nil {
			for c := d.first; c < d.first+d.count; c++ {
				alive[c] = true
			}
		}
	}
	var chunks []chunkRec
	var docs []*doc
	var mem docMem // what the removed documents left in ix.mem goes with it
	nv := vectors{dim: ix.vec.dim, more: ix.spillBlock}
	lex := newLexicon()
	lex.ids, lex.sortedBase, lex.terms = ix.lex.ids, ix.lex.sortedBase, ix.lex.terms
	lex.sorted = ix.lex.sortedTerms()
	pages := ix.shedder()
	for _, d := range ix.docs {
		if d == nil {
			continue
		}
		id := uint32(len(docs))
		first := uint32(len(chunks))
		nd := mem.keep(d)
		for c := d.first; c < d.first+d.count; c++ {
			remap[c] = uint32(len(chunks))
			rec := ix.chunks[c]
			rec.doc = id
			rec.title = mem.title(nd, rec.title)
			chunks = append(chunks, rec)
			lex.lens = append(lex.lens, ix.lex.lens[c])
			lex.total += uint64(ix.lex.lens[c])
			if int(c) < ix.vec.chunks() {
				nv.growTo(int(remap[c]) + 1)
				nv.copyRow(remap[c], &ix.vec, c)
				pages.read(ix.vec.dim)
			}
		}
		nd.first = first
		docs = append(docs, nd)
		ix.byPath[nd.path] = id
	}
	lex.post = make([][]posting, ix.lex.nterms())
	keep := func(t uint32, ps []posting) {
		pages.read(len(ps) * int(unsafe.Sizeof(posting{})))
		for _, p := range ps {
			if int(p.chunk) < len(alive) && alive[p.chunk] { // see decodeBody
				lex.post[t] = append(lex.post[t], posting{remap[p.chunk], p.tf})
			}
		}
	}
	if len(ix.lex.runs) > 0 {
		// The runs' too (the new lexicon has none), read in their order:
		// the terms in byte order, not a search of every run by each.
		cur := ix.lex.cursor()
		for _, t := range ix.lex.sortedTerms() {
			cur.each(t, func(ps []posting) { keep(t, ps) })
		}
	} else {
		for t := range lex.post {
			keep(uint32(t), ix.lex.postings(uint32(t)))
		}
	}
	lex.live = len(chunks)
	ix.docs, ix.chunks, ix.lex, ix.dead, ix.holes, ix.mem = docs, chunks, lex, 0, 0, mem
	ix.deadChunks = nil
	if ix.vec.dim > 0 {
		nv.growTo(len(chunks))
		ix.vec.blocks, ix.vec.scales, ix.vec.n = nv.blocks, nv.scales, nv.n
		ix.vec.resketch()
	}
	// Lengths, postings, rows and sketches are all new; the texts that
	// lie in the mapped file are copied out: nothing is left in it.
	if ix.unmap != nil {
		for _, d := range ix.docs {
			if d.put && ix.inMapping(d.text) {
				pages.read(len(d.text))
				if d.text = ix.spillText(d.text); ix.inMapping(d.text) {
					d.text = strings.Clone(d.text)
				}
			}
		}
		ix.unmap()
		ix.unmap, ix.mapped, ix.fileMapped = nil, nil, false
	}
}

// inMapping reports whether s lies in the mapped index file.
func (ix *Index) inMapping(s string) bool {
	if len(s) == 0 || len(ix.mapped) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	start := uintptr(unsafe.Pointer(&ix.mapped[0]))
	return p >= start && p < start+uintptr(len(ix.mapped))
}
