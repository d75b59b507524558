package docsearch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// load reads the index from opts.Dir; a missing file is fs.ErrNotExist.
// The file's meta part is read; its arrays part (postings, sketches,
// vectors) is mapped and used where it lies, the mapping living until a
// compaction has copied everything out of it, or else as long as the
// index. Pages of the mapping are touched only as they are used, so a
// vector nobody searches costs nothing.
//
// Only a regular file is read, of at most maxIndexBytes (see
// storedir.go); temporary files that killed saves left are removed
// first.
func (ix *Index) load() error {
	d, err := ix.indexDir(false)
	if err != nil {
		return err
	}
	defer d.Close()
	if n := removeStale(d); n > 0 {
		ix.opts.Logger.Info("docsearch: removed temporary files of unfinished saves", "dir", ix.opts.Dir, "files", n)
	}
	f, info, err := openRegular(d, storeFile)
	if err != nil {
		return err
	}
	defer f.Close()
	if info.Size() > maxIndexBytes {
		return fmt.Errorf("%w: %d bytes, over the %d an index may have", errCorrupt, info.Size(), maxIndexBytes)
	}
	data, release, err := mapFile(f)
	if err != nil {
		return err
	}
	seal := sealOf(info, data)
	full := seal == "" || readSeal(d) != seal
	st, err := decodeFrom(data, f, full)
	if err != nil {
		release()
		removeSeal(d)
		return err
	}
	if full && seal != "" {
		writeSeal(d, seal)
	}
	known := ""
	for _, d := range st.docs {
		if d.scope == known {
			continue // a scope's documents are mostly in a row: each looked up once
		}
		known = d.scope
		if d.scope != "" && !ix.scopes.has(d.scope) {
			release()
			return fmt.Errorf("the index has scope %q, which is no longer configured", d.scope)
		}
	}
	ix.unmap = sync.OnceFunc(release)
	ix.mapped = data
	runtime.AddCleanup(ix, func(unmap func()) { unmap() }, ix.unmap)
	ix.docs, ix.chunks, ix.lex, ix.vec, ix.embName = st.docs, st.chunks, st.lex, st.vec, st.embName
	ix.names, ix.underived = st.names, false
	ix.byPath = make(map[string]uint32, len(st.docs))
	for i, d := range st.docs {
		ix.byPath[d.path] = uint32(i)
	}
	if ix.vec.sk.words == 0 {
		ix.vec.resketch()
	}
	return nil
}

// stored is a decoded index.
type stored struct {
	docs    []*doc
	chunks  []chunkRec
	lex     *lexicon
	vec     vectors
	embName string
	names   map[string]bool // stems naming a scope (scopename.go)
}

// errCorrupt wraps every decoding error.
var errCorrupt = errors.New("corrupt index")

type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: bad %s", errCorrupt, what)
	}
	r.b = nil
}

func (r *reader) uv(what string) uint64 {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || (k > 1 && r.b[k-1] == 0) { // overlong: the format has one spelling
		r.fail(what)
		return 0
	}
	r.b = r.b[k:]
	return n
}

// count reads a count of items of at least minSize bytes each, bounded by
// the bytes left.
func (r *reader) count(what string, minSize int) int {
	n := r.uv(what)
	if n > uint64(len(r.b)/max(minSize, 1)) {
		r.fail(what + " count")
		return 0
	}
	return int(n)
}

func (r *reader) bytes(n int, what string) []byte {
	if n < 0 || n > len(r.b) {
		r.fail(what)
		return make([]byte, max(n, 0))
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) str(what string) string {
	n := r.uv(what)
	if n > uint64(len(r.b)) {
		r.fail(what)
		return ""
	}
	if n == 0 {
		return ""
	}
	b := r.bytes(int(n), what)
	return unsafe.String(&b[0], len(b)) // r.b is decodeBody's own copy, never written
}

func (r *reader) byte1(what string) byte { return r.bytes(1, what)[0] }

// decodeFrom parses the on-disk format, data, which src reads too. The
// arrays part of the result aliases data; the meta part is read once
// through src, which does not touch data's memory when data is a mapping
// of the file src reads, and summed and decoded from that copy. full
// checks the checksum of every segment; otherwise only of those holding
// the meta part (the arrays were checked when the file was sealed, see
// sealFile).
func decodeFrom(data []byte, src io.ReaderAt, full bool) (*stored, error) {
	const trailer = 8 + 4 // meta length, sum count
	if len(data) < len(storeMagic)+1+trailer || !bytes.HasPrefix(data, []byte(storeMagic)) {
		return nil, fmt.Errorf("%w: not a docsearch index", errCorrupt)
	}
	if v := data[len(storeMagic)]; v != storeVersion {
		return nil, fmt.Errorf("index format version %d, want %d", v, storeVersion)
	}
	nsums := uint64(binary.LittleEndian.Uint32(data[len(data)-4:]))
	if nsums*4 > uint64(len(data)-trailer) {
		return nil, fmt.Errorf("%w: bad checksum count", errCorrupt)
	}
	body := data[:len(data)-4-4*int(nsums)]
	if (uint64(len(body))+uint64(sumSegment)-1)/uint64(sumSegment) != nsums || len(body) < len(storeMagic)+1+8 {
		return nil, fmt.Errorf("%w: bad checksum count", errCorrupt)
	}
	sums := data[len(body) : len(data)-4]
	meta := binary.LittleEndian.Uint64(body[len(body)-8:])
	if meta < uint64(len(storeMagic)+1) || meta > uint64(len(body)-8) {
		return nil, fmt.Errorf("%w: bad meta length", errCorrupt)
	}
	// The checksums are verified beside the decoding, which is safe on
	// any bytes (FuzzDecodeIndex): a mismatch discards what was decoded.
	buf := make([]byte, meta)
	if _, err := src.ReadAt(buf, 0); err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	ok := make(chan bool, 1)
	go func() {
		n := (int(meta) + sumSegment - 1) / sumSegment
		good := checkMeta(buf, body, sums[:4*n])
		if good && full {
			good = checkSegments(src, n, len(body), sums)
		}
		ok <- good
	}()
	st, err := decodeBody(buf, body[meta:len(body)-8], full)
	if !<-ok {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return st, err
}

// decodeBody parses the meta part of the format, buf, and the arrays
// part after it, arrays (without the meta length). The strings decoded
// alias buf, which is never written; the arrays and the texts alias
// arrays. full checks every
// posting's chunk, order and tf; otherwise (a sealed file, whose
// postings a full load checked, see sealFile) they are not read, so
// that their pages are touched only by the searches that use them, and
// the readers of postings bound their chunks (lexicalSearch, compact).
func decodeBody(buf, arrays []byte, full bool) (*stored, error) {
	meta := len(buf)
	r := &reader{b: buf[len(storeMagic)+1:]}
	st := &stored{lex: newLexicon()}
	st.embName = r.str("embedder")
	dim := r.uv("dim")
	if dim > 1<<16 || (dim == 0 && st.embName != "") {
		r.fail("dim")
	}
	nd := r.count("docs", 8)
	docs := make([]doc, nd)
	st.docs = make([]*doc, nd)
	counts := make([]uint64, nd)
	textLens := make([]uint64, nd) // of the Put documents' texts, in the arrays part
	var textBytes uint64
	var headings slab[Heading]
	an := newAnalyzer()
	var entities slab[string]
	for i := range docs {
		d := &docs[i]
		d.path, d.scope, d.title, d.summary = r.str("path"), r.str("scope"), r.str("title"), r.str("summary")
		d.entities = entities.take(r.count("entities", 1))
		for j := range d.entities {
			d.entities[j] = r.str("entity")
		}
		d.headings = headings.take(r.count("headings", 3))
		for j := range d.headings {
			lvl, line := r.uv("heading level"), r.uv("heading line")
			if lvl > 6 || line > math.MaxInt32 {
				r.fail("heading")
			}
			d.headings[j] = Heading{Level: int(lvl), Line: int(line), Text: r.str("heading")}
		}
		if t := r.uv("updated"); t > 0 {
			if t > 1<<40 {
				r.fail("updated")
			}
			d.updated = time.Unix(int64(t), 0).UTC()
		}
		size, mtime := r.uv("size"), r.uv("mtime")
		if size > math.MaxInt64 || mtime > math.MaxInt64 {
			r.fail("size")
		}
		d.size, d.mtime = int64(size), int64(mtime)
		copy(d.hash[:], r.bytes(16, "hash"))
		f := r.byte1("format")
		if f > byte(formatRST) {
			r.fail("format")
		}
		d.format = format(f)
		flags := r.byte1("flags")
		if flags&^(flagPut|flagNote|flagStamp) != 0 {
			r.fail("flags")
		}
		if flags&flagPut != 0 {
			n := r.uv("text length")
			if n > uint64(len(arrays))-textBytes {
				r.fail("text length")
				n = 0
			}
			d.put, textLens[i], textBytes = true, n, textBytes+n
		}
		if flags&flagNote != 0 {
			if d.note = r.str("note"); d.note == "" {
				r.fail("note") // one spelling: no flag for no note
			}
		}
		if flags&flagStamp != 0 {
			if d.stamp = r.uv("stamp"); d.stamp == 0 {
				r.fail("stamp")
			}
		}
		counts[i] = r.uv("chunk count")
		if d.scope != ScopeCode && d.scope != ScopeArtifacts {
			// Only a page's signals are read (pageSignal); a symbol's or an
			// artifact's title and path are its source file's. Reading
			// them all was most of opening an index of code: the
			// kernel's has a million symbol documents.
			d.page = pageOf(an, d)
		}
		st.docs[i] = d
	}
	nc := r.count("chunks", 12)
	var first uint64
	for i, d := range st.docs {
		if counts[i] > uint64(nc)-first {
			r.fail("chunk count")
			break
		}
		d.first, d.count = uint32(first), uint32(counts[i])
		first += counts[i]
	}
	if r.err == nil && first != uint64(nc) {
		r.fail("chunk total")
	}
	st.chunks = make([]chunkRec, 0, nc)
	docOf := uint32(0)
	for c := range nc {
		for r.err == nil && int(docOf) < len(st.docs) && uint32(c) >= st.docs[docOf].first+st.docs[docOf].count {
			docOf++
		}
		rec := chunkRec{doc: docOf, title: r.str("chunk title")}
		line, end := r.uv("line"), r.uv("end")
		if line > math.MaxInt32 || end > math.MaxInt32 || end < line {
			r.fail("chunk lines")
		}
		rec.line, rec.end = uint32(line), uint32(end)
		ct := r.byte1("content type")
		if int(ct) >= len(ctypeCodes) {
			r.fail("content type")
			ct = 0
		}
		rec.ctype = ctypeCodes[ct]
		copy(rec.hash[:], r.bytes(8, "chunk hash"))
		if b := r.bytes(8, "chunk template"); len(b) == 8 {
			rec.template = binary.LittleEndian.Uint64(b)
		}
		copies := r.uv("chunk copies")
		if copies == 0 || copies > uint64(nd) {
			r.fail("chunk copies")
		}
		rec.copies = uint32(copies)
		st.chunks = append(st.chunks, rec)
	}
	lex := st.lex
	nt := r.count("terms", 2)
	lex.terms = make([]string, nt)
	npost := make([]uint64, nt)
	var total uint64 // postings
	for i := range nt {
		term := r.str("term")
		if term == "" || (i > 0 && term <= lex.terms[i-1]) {
			r.fail("term") // empty, repeated or out of order
			break
		}
		lex.terms[i] = term
		np := r.uv("postings")
		if np == 0 || np > uint64(len(arrays))/8-total {
			r.fail("postings")
			break
		}
		npost[i], total = np, total+np
	}
	base := r.uv("sketch")
	if base > 0 && (dim == 0 || nc == 0 || base > math.MaxInt32) {
		r.fail("sketch")
	}
	nn := r.count("names", 2)
	st.names = make(map[string]bool, nn)
	prev := ""
	for i := range nn {
		name := r.str("name")
		if name == "" || (i > 0 && name <= prev) {
			r.fail("name") // empty, repeated or out of order
			break
		}
		st.names[name], prev = true, name
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("meta length")
	}
	if r.err != nil {
		return nil, r.err
	}
	a := &reader{b: arrays}
	for range (8 - meta%8) % 8 {
		if a.byte1("pad") != 0 {
			a.fail("pad")
		}
	}
	if a.err != nil {
		return nil, a.err
	}
	words := (int(dim) + 63) / 64
	need := uint64(nc)*4 + total*8 + textBytes
	if dim > 0 {
		need += uint64(nc)*4 + uint64(nc)*dim // scales, vectors
	}
	if base > 0 {
		need += uint64(nc)*uint64(words)*8 + dim*4
	}
	if need != uint64(len(a.b)) {
		a.fail("arrays length")
		return nil, a.err
	}
	var bits []uint64
	if base > 0 {
		bits = uint64s(a.bytes(nc*words*8, "sketches"))
	}
	lex.lens = uint32s(a.bytes(nc*4, "lengths"))
	all := postings(a.bytes(int(total)*8, "postings"))
	lex.post = make([][]posting, nt)
	for t, np := range npost {
		ps := all[:np:np]
		all = all[np:]
		if full && !goodPostings(ps, nc) {
			return nil, fmt.Errorf("%w: bad posting", errCorrupt)
		}
		lex.post[t] = ps
	}
	for _, n := range lex.lens {
		lex.total += uint64(n)
	}
	lex.live = nc
	lex.sortedBase = nt
	lex.sorted = make([]uint32, nt)
	for i := range lex.sorted {
		lex.sorted[i] = uint32(i)
	}
	if base > 0 {
		mean := floats(a.bytes(int(dim)*4, "mean"))
		st.vec.sk = sketches{mean: mean[:dim:dim], words: words, bits: bits, base: int(base)}
	}
	if dim > 0 {
		st.vec.dim = int(dim)
		scales := floats(a.bytes(nc*4, "scales"))
		for _, s := range scales {
			if !(s >= 0 && s < 1) { // a unit vector's largest value over 127
				return nil, fmt.Errorf("%w: bad vector scale", errCorrupt)
			}
		}
		st.vec.setRows(int8s(a.bytes(nc*int(dim), "vectors")), scales)
	}
	texts := a.bytes(int(textBytes), "texts")
	for i, n := range textLens {
		if n > 0 {
			// The text aliases the arrays: see Index.unmap for why it
			// never outlives them.
			st.docs[i].text = unsafe.String(&texts[0], n)
			texts = texts[n:]
		}
	}
	return st, nil
}

// goodPostings reports whether ps are postings of chunks under nc, in
// increasing chunk order, each of a tf the analysis can make.
func goodPostings(ps []posting, nc int) bool {
	for i, p := range ps {
		if p.chunk >= uint32(nc) || (i > 0 && p.chunk <= ps[i-1].chunk) || p.tf == 0 || p.tf > 1<<24 {
			return false
		}
	}
	return true
}
