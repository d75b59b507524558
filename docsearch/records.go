package docsearch

import (
	"iter"
	"math"
	"strings"
	"unsafe"
)

// The documents, chunks and paths of an index are read through these
// accessors: from the in-memory structures, or from the table of a
// loaded index (ix.tab, see storetable.go) until its first change.
// Callers hold ix.mu.

// While ix.tab is set, ix.docs, ix.chunks and ix.byPath hold the
// overlay (overlay.go): the documents and chunks added since the table
// was loaded, whose IDs follow the table's (ix.docs[0] is document
// docBase()), and ix.gone the table's documents removed since.

// docBase returns the first document ID past the table's; 0 without one.
func (ix *Index) docBase() uint32 {
	if ix.tab != nil {
		return uint32(len(ix.tab.docs))
	}
	return 0
}

// chunkBase returns the first chunk ID past the table's; 0 without one.
func (ix *Index) chunkBase() uint32 {
	if ix.tab != nil {
		return uint32(len(ix.tab.chunks))
	}
	return 0
}

// tabGone reports whether the table's document id was removed.
func (ix *Index) tabGone(id uint32) bool {
	return ix.gone.has(id)
}

// ndocs returns the number of document IDs, removed documents' included.
func (ix *Index) ndocs() int {
	if ix.tab != nil {
		return len(ix.tab.docs) + len(ix.docs)
	}
	return len(ix.docs)
}

// liveDocs returns the number of documents.
func (ix *Index) liveDocs() int {
	if ix.tab != nil {
		return len(ix.tab.docs) - ix.goneDocs + len(ix.byPath)
	}
	return len(ix.byPath)
}

// ovDoc returns overlay document id (at least docBase), nil if removed
// or past the documents.
func (ix *Index) ovDoc(id uint32) *doc {
	k := id - ix.docBase()
	if int(k) < len(ix.docs) {
		return ix.docs[k]
	}
	return nil
}

// doc returns document id; nil once it is removed. A loaded document is
// decoded on the first call; its strings are the index's own, not the
// mapping's.
func (ix *Index) doc(id uint32) *doc {
	if t := ix.tab; t != nil {
		if int(id) >= len(t.docs) {
			if d := ix.ovDoc(id); d != nil {
				return d
			}
			return &doc{prose: noProse} // a damaged sealed file's chunk (see table)
		}
		if ix.tabGone(id) {
			return nil
		}
		return t.doc(id)
	}
	return ix.docs[id]
}

// docScope returns document id's scope, "" once it is removed.
func (ix *Index) docScope(id uint32) string {
	if t := ix.tab; t != nil {
		if int(id) >= len(t.docs) {
			if d := ix.ovDoc(id); d != nil {
				return d.scope
			}
			return ""
		}
		if ix.tabGone(id) {
			return ""
		}
		return t.scopeName(t.docs[id].scope)
	}
	if d := ix.docs[id]; d != nil {
		return d.scope
	}
	return ""
}

// live reports whether document id is there (not removed).
func (ix *Index) live(id uint32) bool {
	if t := ix.tab; t != nil && int(id) < len(t.docs) {
		return !ix.tabGone(id)
	}
	if ix.tab != nil {
		return ix.ovDoc(id) != nil
	}
	return int(id) < len(ix.docs) && ix.docs[id] != nil
}

// docPath returns live document id's path; a loaded one aliases the
// mapping.
func (ix *Index) docPath(id uint32) string {
	if t := ix.tab; t != nil && int(id) < len(t.docs) {
		return t.path(id)
	}
	return ix.docs[id-ix.docBase()].path
}

// unchanged reports whether document id is s's as it is now: same size,
// modification time and scope. A loaded one is not decoded.
func (ix *Index) unchanged(id uint32, s source) bool {
	if t := ix.tab; t != nil && int(id) < len(t.docs) {
		f := &t.docs[id]
		size, mtime := f.size, f.mtime
		if st, ok := ix.restat[id]; ok {
			size, mtime = st[0], st[1]
		}
		return size == s.size && mtime == s.mtime && t.scopeName(f.scope) == s.scope
	}
	d := ix.docs[id-ix.docBase()]
	return d.size == s.size && d.mtime == s.mtime && d.scope == s.scope
}

// docStamp returns document id's stamp (see CodeFile.Stamp).
func (ix *Index) docStamp(id uint32) uint64 {
	if t := ix.tab; t != nil && int(id) < len(t.docs) {
		return t.docs[id].stamp
	}
	return ix.docs[id-ix.docBase()].stamp
}

// docNoted reports whether document id has a note (was indexed in part).
func (ix *Index) docNoted(id uint32) bool {
	if t := ix.tab; t != nil && int(id) < len(t.docs) {
		return !ix.tabGone(id) && t.docs[id].flags&flagNote != 0
	}
	d := ix.docs[id-ix.docBase()]
	return d != nil && d.note != ""
}

// find returns the ID of the document at p.
func (ix *Index) find(p string) (uint32, bool) {
	if id, ok := ix.byPath[p]; ok {
		return id, true
	}
	if ix.tab != nil {
		if id, ok := ix.tab.find(p); ok && !ix.tabGone(id) {
			return id, true
		}
	}
	return 0, false
}

// paths yields every document's path and ID, in no set order. A loaded
// index's paths alias the mapping: a caller that keeps one clones it.
func (ix *Index) paths() iter.Seq2[string, uint32] {
	return func(yield func(string, uint32) bool) {
		if t := ix.tab; t != nil {
			for _, id := range t.byPath {
				if int(id) < len(t.docs) && !ix.tabGone(id) && !yield(t.path(id), id) {
					return
				}
			}
		}
		for p, id := range ix.byPath {
			if !yield(p, id) {
				return
			}
		}
	}
}

// pathsUnder yields the path and ID of every document whose path begins
// with prefix, as paths does: a loaded index's by a search of its sorted
// paths, the documents put since by a walk of theirs.
func (ix *Index) pathsUnder(prefix string) iter.Seq2[string, uint32] {
	return func(yield func(string, uint32) bool) {
		if t := ix.tab; t != nil {
			for _, id := range t.under(prefix) {
				if int(id) < len(t.docs) && !ix.tabGone(id) && !yield(t.path(id), id) {
					return
				}
			}
		}
		for p, id := range ix.byPath {
			if strings.HasPrefix(p, prefix) && !yield(p, id) {
				return
			}
		}
	}
}

// fileDocs yields the path and ID of every document that has a file (that
// was not Put), in no set order; as paths, a loaded path aliases the
// mapping.
func (ix *Index) fileDocs() iter.Seq2[string, uint32] {
	return func(yield func(string, uint32) bool) {
		if t := ix.tab; t != nil {
			for _, id := range t.files {
				if int(id) < len(t.docs) && !ix.tabGone(id) && !yield(t.path(id), id) {
					return
				}
			}
		}
		base := ix.docBase()
		for p, id := range ix.byPath {
			if d := ix.docs[id-base]; d != nil && !d.put && !yield(p, id) {
				return
			}
		}
	}
}

// nchunks returns the number of chunk IDs, removed documents' included.
func (ix *Index) nchunks() int {
	if ix.tab != nil {
		return len(ix.tab.chunks) + len(ix.chunks)
	}
	return len(ix.chunks)
}

// chunk returns chunk c. A loaded chunk's title aliases the mapping: a
// result clones it.
func (ix *Index) chunk(c uint32) chunkRec {
	if t := ix.tab; t != nil {
		if int(c) >= len(t.chunks) {
			if k := int(c) - len(t.chunks); k < len(ix.chunks) {
				return ix.chunks[k]
			}
		}
		rec := t.chunk(c)
		if n, ok := ix.copies[c]; ok {
			rec.copies = n
		}
		return rec
	}
	return ix.chunks[c]
}

// chunkDoc returns the document of chunk c.
func (ix *Index) chunkDoc(c uint32) uint32 {
	if t := ix.tab; t != nil {
		if int(c) >= len(t.chunks) {
			if k := int(c) - len(t.chunks); k < len(ix.chunks) {
				return ix.chunks[k].doc
			}
			return math.MaxUint32 // see table.chunk
		}
		return t.chunks[c].doc
	}
	return ix.chunks[c].doc
}

// materialize decodes a loaded index's tables into the in-memory
// structures that a change is made to: what opening an index did before
// format 10, now done only by the first change. Callers hold ix.mu for
// writing.
func (ix *Index) materialize() {
	t := ix.tab
	if t == nil {
		return
	}
	an := newAnalyzer()
	pages := ix.shedder()
	docs := make([]*doc, len(t.docs))
	byPath := make(map[string]uint32, len(t.docs))
	for i := range t.docs {
		t.mu.Lock()
		d := t.cache[uint32(i)]
		t.mu.Unlock()
		if d == nil {
			var err error
			if d, err = t.decodeDoc(uint32(i), an, true); err != nil {
				d = &doc{path: strings.Clone(t.path(uint32(i))), scope: t.scopeName(t.docs[i].scope), prose: noProse}
			}
		}
		if st, ok := ix.restat[uint32(i)]; ok {
			d.size, d.mtime = st[0], st[1]
		}
		if ix.tabGone(uint32(i)) {
			continue
		}
		docs[i] = d
		byPath[d.path] = uint32(i)
		pages.read(int(unsafe.Sizeof(t.docs[i])) + int(t.docs[i].pathLen) + int(t.docs[i].recLen))
	}
	titles := string(t.titles) // out of the mapping, which compaction unmaps
	pages.read(len(titles))
	chunks := make([]chunkRec, len(t.chunks))
	for c := range t.chunks {
		rec := t.chunk(uint32(c))
		f := &t.chunks[c]
		rec.title = ""
		if s := areaSpan(t.titles, f.title, uint64(f.titleLen)); len(s) > 0 {
			rec.title = titles[f.title : f.title+uint64(f.titleLen)]
		}
		if n, ok := ix.copies[uint32(c)]; ok {
			rec.copies = n
		}
		chunks[c] = rec
		pages.read(int(unsafe.Sizeof(*f)))
	}
	ix.lex.materializeShedding(pages)
	// The overlay follows the table.
	for k, d := range ix.docs {
		if d != nil {
			byPath[d.path] = uint32(len(t.docs) + k)
		}
	}
	docs = append(docs, ix.docs...)
	chunks = append(chunks, ix.chunks...)
	ix.docs, ix.chunks, ix.byPath, ix.tab, ix.restat = docs, chunks, byPath, nil, nil
	ix.gone, ix.goneDocs, ix.copies = nil, 0, nil
}
