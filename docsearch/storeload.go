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
	"unsafe"
)

// load reads the index from opts.Dir; a missing file is fs.ErrNotExist.
// The file's meta part is read; its arrays part (postings, sketches,
// vectors, texts and the document, chunk and term tables) is mapped and
// used where it lies (ix.tab), the mapping living until a compaction has
// copied everything out of it, or else as long as the index. Pages of
// the mapping are touched only as they are used, so a vector or a
// record nobody searches costs nothing.
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
	data, release, mapped, err := mapFile(f)
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
	for _, sc := range st.tab.scopes {
		if sc != "" && !ix.scopes.has(sc) {
			release()
			return fmt.Errorf("the index has scope %q, which is no longer configured", sc)
		}
	}
	ix.unmap = sync.OnceFunc(release)
	ix.mapped, ix.fileMapped = data, mapped
	runtime.AddCleanup(ix, func(unmap func()) { unmap() }, ix.unmap)
	ix.tab, ix.lex, ix.vec, ix.embName = st.tab, st.lex, st.vec, st.embName
	ix.docs, ix.chunks, ix.byPath, ix.mem = nil, nil, map[string]uint32{}, docMem{}
	ix.gone, ix.goneDocs, ix.copies, ix.ovKeys, ix.deadChunks = nil, 0, nil, nil, nil
	ix.names, ix.underived = st.names, false
	if ix.vec.sk.words == 0 {
		ix.vec.resketch()
	}
	// The changes saved since the index file, beside it (delta.go).
	if err := ix.loadDelta(d, data); err != nil {
		return err
	}
	return nil
}

// stored is a decoded index.
type stored struct {
	tab     *table
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
// alias buf, which is never written; the arrays, the tables and the
// texts alias arrays. full checks every table entry, every record and
// every posting; otherwise (a sealed file, whose tables and postings a
// full load checked, see sealFile) they are not read, so that their
// pages are touched only by the searches that use them, and their
// readers bound what they read (table, lexicalSearch, compact).
func decodeBody(buf, arrays []byte, full bool) (*stored, error) {
	meta := len(buf)
	r := &reader{b: buf[len(storeMagic)+1:]}
	st := &stored{lex: newLexicon()}
	st.embName = r.str("embedder")
	dim := r.uv("dim")
	if dim > 1<<16 || (dim == 0 && st.embName != "") {
		r.fail("dim")
	}
	// Each document, chunk, term and posting takes bytes of the arrays
	// part: the counts are bounded by it before anything is sized by them.
	nd := r.uv("docs")
	nc := r.uv("chunks")
	nt := r.uv("terms")
	total := r.uv("postings")
	lenSum := r.uv("lengths")
	room := uint64(len(arrays))
	if nd > room/docFixedSize || nc > room/chunkFixedSize || nt > room/termFixedSize || total > room/8 ||
		nc > math.MaxUint32 || nd > math.MaxUint32 || nt > math.MaxUint32 {
		r.fail("counts")
	}
	ns := r.count("scopes", 1)
	t := &table{scopes: make([]string, ns)}
	for i := range t.scopes {
		t.scopes[i] = r.str("scope")
	}
	if ns > math.MaxUint16+1 {
		r.fail("scopes")
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
	nf := r.count("files", 1)
	if uint64(nf) > nd {
		r.fail("files")
		nf = 0
	}
	t.files = make([]uint32, nf)
	var fid uint64
	for i := range t.files {
		n := r.uv("file")
		if i > 0 && n == 0 || n >= nd-fid {
			r.fail("file") // repeated, out of order or past the documents
			break
		}
		fid += n
		t.files[i] = uint32(fid)
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
	// The areas' sizes end the arrays part.
	if len(a.b) < 40 {
		return nil, fmt.Errorf("%w: bad arrays length", errCorrupt)
	}
	var area [5]uint64 // texts, records, titles, paths, terms
	tail := a.b[len(a.b)-40:]
	for i := range area {
		area[i] = binary.LittleEndian.Uint64(tail[8*i:])
		if area[i] > room {
			return nil, fmt.Errorf("%w: bad area size", errCorrupt)
		}
	}
	a.b = a.b[:len(a.b)-40]
	pad8 := func(n uint64) uint64 { return (n + 7) &^ 7 }
	words := (dim + 63) / 64
	// The sections before the texts, in their order, 8-aligned as a whole.
	head := nc*4 + total*8
	if dim > 0 {
		head += nc*4 + nc*dim // scales, vectors
	}
	if base > 0 {
		head += nc*words*8 + dim*4
	}
	// The texts follow the sections before them with no pad; a pad
	// aligns each area's end.
	need := pad8(head+area[0]) + pad8(area[1]) + pad8(area[2]) + pad8(area[3]) + pad8(area[4]) +
		nd*docFixedSize + nc*chunkFixedSize + (nt+1)*termFixedSize + pad8(nd*4)
	if need != uint64(len(a.b)) {
		a.fail("arrays length")
		return nil, a.err
	}
	var bits []uint64
	if base > 0 {
		bits = uint64s(a.bytes(int(nc*words*8), "sketches"))
	}
	lex := st.lex
	lex.lens = uint32s(a.bytes(int(nc)*4, "lengths"))
	lex.all = postings(a.bytes(int(total)*8, "postings"))
	lex.total, lex.live = lenSum, int(nc)
	if base > 0 {
		mean := floats(a.bytes(int(dim)*4, "mean"))
		st.vec.sk = sketches{mean: mean[:dim:dim], words: int(words), bits: bits, base: int(base)}
	}
	if dim > 0 {
		st.vec.dim = int(dim)
		scales := floats(a.bytes(int(nc)*4, "scales"))
		if full {
			for _, s := range scales {
				if !(s >= 0 && s < 1) { // a unit vector's largest value over 127
					return nil, fmt.Errorf("%w: bad vector scale", errCorrupt)
				}
			}
		}
		st.vec.setRows(int8s(a.bytes(int(nc*dim), "vectors")), scales)
	}
	t.texts = a.bytes(int(area[0]), "texts")
	skip := func(n uint64) {
		for range pad8(n) - n {
			if a.byte1("pad") != 0 {
				a.fail("pad")
			}
		}
	}
	skip(head + area[0])
	t.records = a.bytes(int(area[1]), "records")
	skip(area[1])
	t.titles = a.bytes(int(area[2]), "titles")
	skip(area[2])
	t.paths = a.bytes(int(area[3]), "paths")
	skip(area[3])
	t.strs = a.bytes(int(area[4]), "terms")
	skip(area[4])
	t.docs = array(a.bytes(int(nd)*docFixedSize, "documents"), decodeDocFixed)
	t.chunks = array(a.bytes(int(nc)*chunkFixedSize, "chunk table"), decodeChunkFixed)
	t.terms = array(a.bytes(int(nt+1)*termFixedSize, "term table"), decodeTermFixed)
	t.byPath = uint32s(a.bytes(int(nd)*4, "paths table"))
	skip(nd * 4)
	if a.err != nil {
		return nil, a.err
	}
	t.total = lenSum
	st.tab = t
	lex.tab = t
	// The last term entry ends the areas: checked at every open, as it
	// is what bounds the terms' strings and postings.
	if e := t.terms[nt]; e.str != area[4] || e.post != total {
		return nil, fmt.Errorf("%w: bad term table end", errCorrupt)
	}
	if full {
		if err := t.check(lex.all, lex.lens); err != nil {
			return nil, err
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
