package docsearch

import (
	"context"
	"slices"
	"strings"
)

// commit swaps processed documents in and removed ones out and embeds
// the new chunks. It reports whether the index changed.
func (ix *Index) commit(ctx context.Context, ps []processed, removed []string, skipped []Skipped, rescan bool) (bool, error) {
	// Vectors to reuse: by the hash of the text they were made from.
	var texts []string
	var textChunks []uint32
	emb := ix.opts.Embedder

	var put []putText // Put documents' texts, as they were before the spill took them

	// The lists are made at their size: grown by append, they made
	// 2-3 times it in garbage at each part of a batch of code documents.
	nchunks, nput := 0, 0
	for _, p := range ps {
		nchunks += len(p.chunks)
		if p.doc.put {
			nput++
		}
	}
	if emb != nil && nchunks > 0 {
		texts, textChunks = make([]string, 0, nchunks), make([]uint32, 0, nchunks)
	}
	if nput > 0 {
		put = make([]putText, 0, nput)
	}

	ix.mu.Lock()
	if ix.tab != nil && ix.changes(ps, removed) {
		if ix.embedderChanged() {
			ix.materialize() // every vector is made again
		} else {
			ix.lex.overlay() // the change is kept beside the tables
			if ix.byPath == nil {
				ix.byPath = map[string]uint32{}
			}
		}
	}
	changed := false
	reuse := map[[8]byte]uint32{}
	if emb != nil && ix.embName != vectorsBy(emb) {
		if ix.embName != "" {
			ix.opts.Logger.Info("docsearch: embedder changed; embedding again", "was", ix.embName, "now", vectorsBy(emb))
		}
		ix.vec = vectors{}
		ix.embName = vectorsBy(emb)
		changed = true
		// No chunk has a vector now; if embedding stops partway, the
		// next rescan goes on where it stopped.
		for c := range ix.chunks {
			ix.forgetVector(uint32(c))
		}
	}
	if emb == nil && ix.embName != "" {
		ix.vec, ix.embName, changed = vectors{}, "", true
	}
	// drop removes p's document, reporting whether there was one.
	drop := func(p string) bool {
		id, ok := ix.find(p)
		if !ok {
			return false
		}
		var first, count uint32
		scope := ix.docScope(id)
		if t := ix.tab; t != nil && int(id) < len(t.docs) {
			f := &t.docs[id]
			first, count = f.first, f.count
			ix.goneDoc(id)
		} else {
			d := ix.docs[id-ix.docBase()]
			first, count = d.first, d.count
			ix.docs[id-ix.docBase()] = nil
			delete(ix.byPath, p)
		}
		for c := first; c < first+count && int(c) < ix.nchunks(); c++ {
			rec := ix.chunk(c)
			if ix.vec.dim > 0 && int(c) < ix.vec.chunks() {
				reuse[rec.hash] = c
			}
			ix.lex.remove(c)
			if ix.tab != nil {
				ix.ovKey(scope, rec.template)
			}
		}
		ix.killChunks(first, count)
		ix.holes++
		return true
	}
	for _, p := range removed {
		// A skipped file is "removed" at every rescan; only a document
		// that was indexed changes the index.
		changed = drop(p) || changed
	}
	if ix.opts.SpillBytes > 0 {
		ix.lex.spillTo, ix.lex.runAt = ix.spillFor, runPostings(ix.opts.SpillBytes)
		ix.lex.touch = func(n int) { ix.spill.touch(n) }
	}
	for _, p := range ps {
		if p.chunks == nil && p.terms == nil {
			// Same content: refresh what the file system says.
			if id, ok := ix.find(p.doc.path); ok {
				if ix.tab != nil && id < ix.docBase() {
					if ix.restat == nil {
						ix.restat = map[uint32][2]int64{}
					}
					ix.restat[id] = [2]int64{p.doc.size, p.doc.mtime}
				} else {
					d := ix.docs[id-ix.docBase()]
					d.size, d.mtime = p.doc.size, p.doc.mtime
				}
			}
			continue
		}
		changed = true
		drop(p.doc.path)
		d := ix.mem.keep(p.doc)
		if d.put {
			put = append(put, putText{d, d.text})
			d.text = ix.spillFor(len(d.text)).later(d.text)
		}
		d.first, d.count = uint32(ix.nchunks()), uint32(len(p.chunks))
		id := uint32(ix.ndocs())
		ix.docs = append(ix.docs, d)
		ix.byPath[d.path] = id
		for i, c := range p.chunks {
			text := embedText(c)
			rec := chunkRec{doc: id, title: ix.mem.title(d, c.title), line: uint32(c.line), end: uint32(c.end), ctype: c.ctype, hash: textHash(text), template: c.template}
			cid := uint32(ix.nchunks())
			ix.chunks = append(ix.chunks, rec)
			ix.lex.add(p.terms[i])
			if ix.tab != nil {
				ix.ovKey(d.scope, rec.template)
			}
			if emb != nil {
				if old, ok := reuse[rec.hash]; ok && ix.vec.dim > 0 {
					ix.growVectors(int(cid) + 1)
					ix.vec.copyRow(cid, &ix.vec, old)
				} else {
					texts = append(texts, text)
					textChunks = append(textChunks, cid)
				}
			}
		}
	}
	// The texts given to the spill are written before the lock is let go,
	// so no reader sees one unwritten; those that could not be stay here.
	if !ix.spill.flush() {
		for _, t := range put {
			t.d.text = t.text
		}
	}
	if ix.vec.dim > 0 {
		ix.growVectors(ix.nchunks())
	}
	// The skipped list is not saved (a rescan finds it again), so it
	// changes nothing to save.
	if !rescan {
		skipped = mergeSkipped(ix.skipped, skipped, removed, ps)
	}
	ix.skipped = skipped
	if changed {
		ix.underived = true
	}
	ix.mu.Unlock()

	if len(texts) > 0 {
		if err := ix.embed(ctx, texts, textChunks); err != nil {
			ix.unembedded(textChunks)
			return changed, err
		}
	}
	// Compaction renumbers the chunks, so it waits for the new chunks'
	// vectors, which embed stores by number.
	ix.mu.Lock()
	if ix.dead > ix.nchunks()/4 && ix.dead > 64 || ix.holes > ix.ndocs()/4 && ix.holes > 64 {
		ix.materialize() // an overlay is folded in first
		ix.compact()
	}
	ix.mu.Unlock()
	return changed, nil
}

// putText is a Put document's text before the spill took it (commit).
type putText struct {
	d    *doc
	text string
}

// changes reports whether a commit of ps and removed changes a loaded
// index, which must then be materialized first. Callers hold ix.mu.
func (ix *Index) changes(ps []processed, removed []string) bool {
	if ix.embedderChanged() {
		return true
	}
	for _, p := range ps {
		if p.chunks != nil || p.terms != nil { // not only a new stamp (see restat)
			return true
		}
	}
	for _, p := range removed {
		if _, ok := ix.find(p); ok {
			return true
		}
	}
	return false
}

// embedderChanged reports whether the vectors are not the embedder's:
// all are to be made again. Callers hold ix.mu.
func (ix *Index) embedderChanged() bool {
	emb := ix.opts.Embedder
	return emb != nil && ix.embName != vectorsBy(emb) || emb == nil && ix.embName != ""
}

// killChunks counts the count chunks from first as dead: their
// document was removed. Callers hold ix.mu for writing.
func (ix *Index) killChunks(first, count uint32) {
	ix.dead += int(count)
	ix.deadChunks.addRange(first, first+count)
}

// goneDoc marks the table's document id removed. Callers hold ix.mu for
// writing.
func (ix *Index) goneDoc(id uint32) {
	if ix.gone.add(id) {
		ix.goneDocs++
	}
}

// ovKey records that the overlay added or removed a chunk of template
// in scope: derive counts its copies again.
func (ix *Index) ovKey(scope string, template uint64) {
	if template == 0 {
		return
	}
	if ix.ovKeys == nil {
		ix.ovKeys = map[copyKey]bool{}
	}
	ix.ovKeys[copyKey{scope, template}] = true
}

// unembedded records chunks left without vectors because the embedder
// failed. They stay searchable by their words.
func (ix *Index) unembedded(chunks []uint32) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, c := range chunks {
		ix.forgetVector(c)
	}
}

// forgetVector records that chunk c has no vector: its text hash goes,
// so that no zero row is reused for the same text, and its document
// counts as never read, so that the next rescan reads, processes and
// embeds it again. Callers hold ix.mu.
func (ix *Index) forgetVector(c uint32) {
	ix.materialize()
	ix.chunks[c].hash = [8]byte{}
	if d := ix.docs[ix.chunks[c].doc]; d != nil && !d.put {
		d.hash, d.mtime = [16]byte{}, 0
	}
}

// mergeSkipped updates the skipped list after an Update: paths updated or
// removed leave it, newly skipped ones join it.
func mergeSkipped(old, add []Skipped, removed []string, ps []processed) []Skipped {
	if len(old) == 0 && len(add) == 0 {
		// Nothing to merge: a part of a batch of code documents made a
		// set of its paths here, 21 MB of S's code pass (docs/bigrepos.md).
		return nil
	}
	gone := map[string]bool{}
	for _, p := range removed {
		gone[p] = true
	}
	for _, p := range ps {
		gone[p.doc.path] = true
	}
	var out []Skipped
	for _, s := range old {
		if !gone[s.Path] {
			out = append(out, s)
		}
	}
	out = append(out, add...)
	slices.SortFunc(out, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Skipped) bool { return a.Path == b.Path })
}
