package docsearch

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// A document's flags.
const (
	flagPut   = 1 // its text follows
	flagNote  = 2 // its note follows
	flagStamp = 4 // its stamp follows (a code document's, see CodeFile.Stamp)
	// flagGenerated marks a code document of a generated file
	// (CodeFile.Generated); nothing follows.
	flagGenerated = 8
	// knownFlags are the flags there are; a document with another is
	// corrupt.
	knownFlags = flagPut | flagNote | flagStamp | flagGenerated
)

// docFlags returns d's flags but flagPut, which the table and the delta
// each set where they write its text.
func docFlags(d *doc) uint8 {
	var f uint8
	if d.note != "" {
		f |= flagNote
	}
	if d.stamp != 0 {
		f |= flagStamp
	}
	if d.generated {
		f |= flagGenerated
	}
	return f
}

// The document, chunk and term tables of a loaded index (format 10, see
// store.go), used in place from the mapped file: opening an index reads
// none of them, and a search decodes only the records of what it ranks.
// An Index holds a *table until its first change, which decodes the
// table into the in-memory structures that changes are made to
// (materialize); a CLI search, or a serve that nothing changed, never
// decodes it.

// docFixed is a document's fixed-size entry in the document table, 80
// bytes, little-endian, laid out as the format has it.
type docFixed struct {
	path    uint64 // start of its path in the paths area
	rec     uint64 // start of its record in the records area
	text    uint64 // start of its text in the texts area (a Put document's)
	textLen uint64
	size    int64
	mtime   int64
	stamp   uint64
	first   uint32 // its chunks are [first, first+count)
	count   uint32
	recLen  uint32
	pathLen uint32
	scope   uint16 // in the meta part's scope names
	flags   uint8
	format  uint8
	pad     uint32
}

// chunkFixed is a chunk's entry in the chunk table, 48 bytes.
type chunkFixed struct {
	template uint64
	hash     [8]byte
	title    uint64 // start of its title in the titles area
	doc      uint32
	line     uint32
	end      uint32
	copies   uint32
	titleLen uint32
	scope    uint16 // its document's scope
	ctype    uint8
	pad      uint8
}

// termFixed is a term's entry in the term table, 16 bytes. The table has
// one more entry than terms: a term's string and postings end where the
// next entry's start.
type termFixed struct {
	str  uint64 // start of the term in the term strings area
	post uint64 // index of its first posting
}

const (
	docFixedSize   = 80
	chunkFixedSize = 48
	termFixedSize  = 16
)

// The in-place arrays rely on Go laying the entries out as the format
// does: no padding, these sizes.
var (
	_ [docFixedSize - unsafe.Sizeof(docFixed{})]byte
	_ [unsafe.Sizeof(docFixed{}) - docFixedSize]byte
	_ [chunkFixedSize - unsafe.Sizeof(chunkFixed{})]byte
	_ [unsafe.Sizeof(chunkFixed{}) - chunkFixedSize]byte
	_ [termFixedSize - unsafe.Sizeof(termFixed{})]byte
	_ [unsafe.Sizeof(termFixed{}) - termFixedSize]byte
)

func appendDocFixed(b []byte, f docFixed) []byte {
	le := binary.LittleEndian
	for _, x := range []uint64{f.path, f.rec, f.text, f.textLen, uint64(f.size), uint64(f.mtime), f.stamp} {
		b = le.AppendUint64(b, x)
	}
	for _, x := range []uint32{f.first, f.count, f.recLen, f.pathLen} {
		b = le.AppendUint32(b, x)
	}
	b = le.AppendUint16(b, f.scope)
	b = append(b, f.flags, f.format)
	return le.AppendUint32(b, f.pad)
}

func appendChunkFixed(b []byte, f chunkFixed) []byte {
	le := binary.LittleEndian
	b = le.AppendUint64(b, f.template)
	b = append(b, f.hash[:]...)
	b = le.AppendUint64(b, f.title)
	for _, x := range []uint32{f.doc, f.line, f.end, f.copies, f.titleLen} {
		b = le.AppendUint32(b, x)
	}
	b = le.AppendUint16(b, f.scope)
	return append(b, f.ctype, f.pad)
}

func appendTermFixed(b []byte, f termFixed) []byte {
	b = binary.LittleEndian.AppendUint64(b, f.str)
	return binary.LittleEndian.AppendUint64(b, f.post)
}

// The decoders of table entries, for a machine where they cannot be
// used in place (big-endian, or bytes not 8-aligned).

func decodeDocFixed(b []byte) docFixed {
	le := binary.LittleEndian
	return docFixed{path: le.Uint64(b), rec: le.Uint64(b[8:]), text: le.Uint64(b[16:]), textLen: le.Uint64(b[24:]),
		size: int64(le.Uint64(b[32:])), mtime: int64(le.Uint64(b[40:])), stamp: le.Uint64(b[48:]),
		first: le.Uint32(b[56:]), count: le.Uint32(b[60:]), recLen: le.Uint32(b[64:]), pathLen: le.Uint32(b[68:]),
		scope: le.Uint16(b[72:]), flags: b[74], format: b[75], pad: le.Uint32(b[76:])}
}

func decodeChunkFixed(b []byte) chunkFixed {
	le := binary.LittleEndian
	f := chunkFixed{template: le.Uint64(b), title: le.Uint64(b[16:]), doc: le.Uint32(b[24:]), line: le.Uint32(b[28:]),
		end: le.Uint32(b[32:]), copies: le.Uint32(b[36:]), titleLen: le.Uint32(b[40:]), scope: le.Uint16(b[44:]),
		ctype: b[46], pad: b[47]}
	copy(f.hash[:], b[8:16])
	return f
}

func decodeTermFixed(b []byte) termFixed {
	return termFixed{str: binary.LittleEndian.Uint64(b), post: binary.LittleEndian.Uint64(b[8:])}
}

// table is the in-place part of a loaded index: its arrays alias the
// mapped file. Its accessors bound every offset, so that even a table
// that was not checked (a sealed file, see sealFile) never panics.
type table struct {
	docs    []docFixed
	chunks  []chunkFixed
	terms   []termFixed // len(terms) terms + 1
	byPath  []uint32    // document IDs in increasing path order
	paths   []byte
	records []byte
	titles  []byte
	strs    []byte // the terms
	texts   []byte
	scopes  []string // by scope ID
	files   []uint32 // the IDs of the documents that have a file, in order
	total   uint64   // the chunks' lengths summed

	mu    sync.Mutex
	cache map[uint32]*doc // records decoded so far
}

// areaSpan returns area[off:off+n], or nil if that is outside area.
func areaSpan(area []byte, off uint64, n uint64) []byte {
	if off > uint64(len(area)) || n > uint64(len(area))-off {
		return nil
	}
	return area[off : off+n]
}

// alias returns b as a string sharing its memory.
func alias(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (t *table) scopeName(id uint16) string {
	if int(id) < len(t.scopes) {
		return t.scopes[id]
	}
	return ""
}

// path returns document id's path, aliasing the mapping.
func (t *table) path(id uint32) string {
	f := &t.docs[id]
	return alias(areaSpan(t.paths, f.path, uint64(f.pathLen)))
}

// find returns the ID of the document at p.
func (t *table) find(p string) (uint32, bool) {
	i, ok := t.searchPath(p)
	if !ok {
		return 0, false
	}
	return t.byPath[i], true
}

// searchPath returns where p is or would be in byPath, and whether it is.
func (t *table) searchPath(p string) (int, bool) {
	return slices.BinarySearchFunc(t.byPath, p, func(id uint32, p string) int {
		if int(id) >= len(t.docs) {
			return -1
		}
		return strings.Compare(t.path(id), p)
	})
}

// under returns the IDs of byPath whose paths begin with prefix.
func (t *table) under(prefix string) []uint32 {
	from, _ := t.searchPath(prefix)
	to := from
	for to < len(t.byPath) && int(t.byPath[to]) < len(t.docs) && strings.HasPrefix(t.path(t.byPath[to]), prefix) {
		to++
	}
	return t.byPath[from:to]
}

// doc returns document id, decoded from its record on the first call and
// kept. Its strings are the index's own copies; a Put document's text
// aliases the mapping (see Index.unmap).
func (t *table) doc(id uint32) *doc {
	t.mu.Lock()
	d := t.cache[id]
	t.mu.Unlock()
	if d != nil {
		return d
	}
	d, err := t.decodeDoc(id, nil, true)
	if err != nil {
		// A sealed file is checked once, when sealed: this is a file
		// changed since behind the seal's back. Its path is what is known.
		d = &doc{path: strings.Clone(t.path(id)), scope: t.scopeName(t.docs[id].scope), prose: noProse}
	}
	t.mu.Lock()
	if t.cache == nil {
		t.cache = map[uint32]*doc{}
	}
	if old := t.cache[id]; old != nil {
		d = old
	} else {
		t.cache[id] = d
	}
	t.mu.Unlock()
	return d
}

// decodeDoc decodes document id, with an (nil for a new one) to read a
// page's signals. With own, its strings are copied out of
// the mapping (one allocation for the path and the record); otherwise
// they alias it (validation, which keeps nothing).
func (t *table) decodeDoc(id uint32, an *analyzer, own bool) (*doc, error) {
	f := &t.docs[id]
	p := areaSpan(t.paths, f.path, uint64(f.pathLen))
	rec := areaSpan(t.records, f.rec, uint64(f.recLen))
	if p == nil || rec == nil {
		return nil, fmt.Errorf("%w: bad document %d", errCorrupt, id)
	}
	if own {
		b := make([]byte, len(p)+len(rec))
		copy(b, p)
		copy(b[len(p):], rec)
		p, rec = b[:len(p)], b[len(p):]
	}
	d := &doc{path: alias(p), scope: t.scopeName(f.scope), size: f.size, mtime: f.mtime, stamp: f.stamp,
		first: f.first, count: f.count, format: format(f.format), put: f.flags&flagPut != 0, generated: f.flags&flagGenerated != 0, prose: &prose{}}
	if d.put {
		d.text = alias(areaSpan(t.texts, f.text, f.textLen))
	}
	if err := decodeRecord(d, rec, f.flags&flagNote != 0); err != nil {
		return nil, err
	}
	if own && d.scope != ScopeCode && d.scope != ScopeArtifacts {
		// Only a page's signals are read (pageSignal); a symbol's or an
		// artifact's title and path are its source file's.
		if an == nil {
			an = newAnalyzer()
		}
		d.page = pageOf(an, d)
	}
	d.prose = proseOr(d.prose)
	return d, nil
}

// chunk returns chunk c; its title aliases the mapping.
func (t *table) chunk(c uint32) chunkRec {
	if int(c) >= len(t.chunks) {
		return chunkRec{doc: math.MaxUint32} // asked by a damaged sealed file's document
	}
	f := &t.chunks[c]
	ct := ContentType(Prose)
	if int(f.ctype) < len(ctypeCodes) {
		ct = ctypeCodes[f.ctype]
	}
	return chunkRec{doc: f.doc, title: alias(areaSpan(t.titles, f.title, uint64(f.titleLen))), line: f.line, end: f.end,
		ctype: ct, hash: f.hash, template: f.template, copies: f.copies}
}

// term returns term id, aliasing the mapping.
func (t *table) term(id uint32) string {
	a, b := t.terms[id].str, t.terms[id+1].str
	if b < a {
		return ""
	}
	return alias(areaSpan(t.strs, a, b-a))
}

// postings returns term id's postings, in place.
func (t *table) postings(all []posting, id uint32) []posting {
	a, b := t.terms[id].post, t.terms[id+1].post
	if b < a || b > uint64(len(all)) {
		return nil
	}
	return all[a:b:b]
}

// findTerm returns the ID of term.
func (t *table) findTerm(term string) (uint32, bool) {
	n := len(t.terms) - 1
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.term(uint32(m)) < term {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < n && t.term(uint32(lo)) == term {
		return uint32(lo), true
	}
	return 0, false
}

// check checks every entry of the tables, every record and every
// posting: what a full load does (an unsealed file, or Verify), so that
// a sealed file's tables are read unchecked only once a load found them
// sound.
func (t *table) check(all []posting, lens []uint32) error {
	bad := func(what string, i int) error { return fmt.Errorf("%w: bad %s %d", errCorrupt, what, i) }
	nc := uint64(len(t.chunks))
	var chunk, text, rec uint64
	scopes := 0 // scopes are numbered in the order documents first have them
	for i := range t.docs {
		f := &t.docs[i]
		if int(f.scope) == scopes {
			scopes++
		}
		if int(f.scope) >= scopes || f.rec != rec {
			return bad("document", i)
		}
		rec += uint64(f.recLen)
		if f.flags&^knownFlags != 0 || f.format > uint8(formatRST) || int(f.scope) >= len(t.scopes) ||
			f.pad != 0 || f.size < 0 || f.mtime < 0 || (f.stamp != 0) != (f.flags&flagStamp != 0) ||
			uint64(f.first) != chunk || uint64(f.count) > nc-chunk || f.pathLen == 0 {
			return bad("document", i)
		}
		chunk += uint64(f.count)
		if f.flags&flagPut != 0 {
			if f.text != text || areaSpan(t.texts, f.text, f.textLen) == nil && f.textLen > 0 {
				return bad("document text", i)
			}
			text += f.textLen
		} else if f.text != 0 || f.textLen != 0 {
			return bad("document text", i)
		}
		if areaSpan(t.paths, f.path, uint64(f.pathLen)) == nil {
			return bad("document path", i)
		}
		if _, err := t.decodeDoc(uint32(i), nil, false); err != nil {
			return err
		}
		for c := f.first; c < f.first+f.count; c++ {
			cf := &t.chunks[c]
			if cf.doc != uint32(i) || cf.scope != f.scope {
				return bad("chunk", int(c))
			}
		}
	}
	if chunk != nc || text != uint64(len(t.texts)) || rec != uint64(len(t.records)) || scopes != len(t.scopes) {
		return fmt.Errorf("%w: bad chunk or text total", errCorrupt)
	}
	var title uint64
	for i := range t.chunks {
		f := &t.chunks[i]
		if f.line > math.MaxInt32 || f.end > math.MaxInt32 || f.end < f.line || int(f.ctype) >= len(ctypeCodes) ||
			f.pad != 0 || f.copies == 0 || uint64(f.copies) > uint64(len(t.docs)) || f.title != title ||
			areaSpan(t.titles, f.title, uint64(f.titleLen)) == nil {
			return bad("chunk", i)
		}
		title += uint64(f.titleLen)
	}
	if title != uint64(len(t.titles)) {
		return fmt.Errorf("%w: bad chunk titles total", errCorrupt)
	}
	var lenSum uint64
	for _, n := range lens {
		lenSum += uint64(n)
	}
	if lenSum != t.total {
		return fmt.Errorf("%w: bad lengths total", errCorrupt)
	}
	n := len(t.terms) - 1
	if t.terms[0].str != 0 || t.terms[0].post != 0 && n > 0 {
		return bad("term", 0)
	}
	for i := range n {
		a, b := t.terms[i], t.terms[i+1]
		if b.str <= a.str || b.post <= a.post || b.str > uint64(len(t.strs)) || b.post > uint64(len(all)) {
			return bad("term", i) // empty, or without postings
		}
		if i > 0 && t.term(uint32(i)) <= t.term(uint32(i-1)) {
			return bad("term order", i) // repeated or out of order
		}
		if !goodPostings(all[a.post:b.post], len(t.chunks)) {
			return fmt.Errorf("%w: bad posting", errCorrupt)
		}
	}
	files := t.files
	for i := range t.docs {
		put := t.docs[i].flags&flagPut != 0
		if !put && (len(files) == 0 || files[0] != uint32(i)) || put && len(files) > 0 && files[0] == uint32(i) {
			return bad("file list at document", i)
		}
		if !put {
			files = files[1:]
		}
	}
	seen := make([]bool, len(t.docs))
	var path uint64 // paths lie in the order of the path table
	for i, id := range t.byPath {
		if int(id) >= len(t.docs) || seen[id] || t.docs[id].path != path || i > 0 && t.path(id) <= t.path(t.byPath[i-1]) {
			return bad("path order", i)
		}
		seen[id] = true
		path += uint64(t.docs[id].pathLen)
	}
	if path != uint64(len(t.paths)) {
		return fmt.Errorf("%w: bad paths total", errCorrupt)
	}
	return nil
}

// decodeRecord reads d's record, rec (see appendRecord), into d; noted
// says the record ends with a note. d's strings alias rec.
func decodeRecord(d *doc, rec []byte, noted bool) error {
	r := &reader{b: rec}
	d.title, d.summary = r.str("title"), r.str("summary")
	if n := r.count("entities", 1); n > 0 {
		d.entities = make([]string, n)
		for j := range d.entities {
			d.entities[j] = r.str("entity")
		}
	}
	if n := r.count("headings", 3); n > 0 {
		d.headings = make([]Heading, n)
		for j := range d.headings {
			lvl, line := r.uv("heading level"), r.uv("heading line")
			if lvl > 6 || line > math.MaxInt32 {
				r.fail("heading")
			}
			d.headings[j] = Heading{Level: int(lvl), Line: int(line), Text: r.str("heading")}
		}
	}
	if u := r.uv("updated"); u > 0 {
		if u > 1<<40 {
			r.fail("updated")
		}
		d.updated = time.Unix(int64(u), 0).UTC()
	}
	copy(d.hash[:], r.bytes(16, "hash"))
	if noted {
		if d.note = r.str("note"); d.note == "" {
			r.fail("note") // one spelling: no flag for no note
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("record length")
	}
	return r.err
}
