package docsearch

// On-disk format. The index is one file, <Dir>/docsearch.idx, written
// whole: a temporary file in Dir is written, synced and renamed over it,
// so a reader sees the old index or the new one. Integers are unsigned
// LEB128 varints ("uv") unless said otherwise; a string is a uv length
// and that many bytes of UTF-8; a time is a uv of Unix seconds (0 for
// none).
//
//	magic      "FIDOCS" then the format version, one byte (storeVersion)
//	embedder   string (the Embedder's Name(), "" without vectors)
//	dim        uv (0 without vectors)
//	docs       uv count, then per document:
//	             path, scope, title, summary  string
//	             entities                     uv count, strings
//	             headings                     uv count, then level uv, line uv, text string
//	             updated                      time
//	             size, mtime                  uv, uv (mtime in Unix ns)
//	             hash                         16 bytes
//	             format                       1 byte (0 markdown, 1 text, 2 rst)
//	             put                          1 byte; if 1, text string follows
//	             chunks                       uv count (they follow the previous
//	                                          document's, in order)
//	chunks     uv count (the sum of the documents'), then per chunk:
//	             title string, line uv, end uv, content type 1 byte
//	             (0 prose, 1 code, 2 api-reference), tokens uv, hash 8 bytes
//	terms      uv count, then per term:
//	             term string, uv postings, then per posting the chunk as a
//	             uv delta from the previous one (from 0) and the tf uv
//	pad        if dim > 0: zero bytes up to a multiple of 4 from the
//	           start of the file, so the vectors can be used in place
//	vectors    if dim > 0: chunks*dim float32, little-endian IEEE 754
//	checksum   CRC-32 (Castagnoli) of everything before it, 4 bytes
//	           little-endian
//
// Every chunk has length = the sum of its postings' tf; it is not stored.
// The index is compacted before it is written, so no chunk is dead.
// Reading checks the magic, the version, every count against the bytes
// left, the ranges and orders of chunks, and the checksum; any failure is
// an error and Open rebuilds the index.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"
	"unsafe"
)

const (
	storeMagic = "FIDOCS"
	// storeVersion is 3: since 2, chunks embed their heading path
	// titleWeight times (embedText); since 3, vectors are 4-byte aligned
	// to be used in place. An index of another version is rebuilt.
	storeVersion = 3
	storeFile    = "docsearch.idx"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var ctypeCodes = []ContentType{Prose, Code, APIReference}

func ctypeCode(c ContentType) byte {
	for i, t := range ctypeCodes {
		if t == c {
			return byte(i)
		}
	}
	return 0
}

// Save writes the index to opts.Dir atomically. It streams the index to
// a temporary file, so a large index is never held twice in memory;
// searches go on meanwhile, changes wait.
func (ix *Index) Save() error {
	ix.update.Lock()
	defer ix.update.Unlock()
	return ix.save()
}

// save is Save for callers that hold ix.update, so that no change comes
// between compacting the index and writing it.
func (ix *Index) save() error {
	if ix.opts.Dir == "" {
		return errors.New("docsearch: the index has no Dir to save to")
	}
	ix.mu.Lock()
	if ix.dead > 0 || ix.holes > 0 {
		ix.compact()
	}
	ix.mu.Unlock()
	if err := os.MkdirAll(ix.opts.Dir, 0o755); err != nil {
		return fmt.Errorf("save index: %w", err)
	}
	f, err := os.CreateTemp(ix.opts.Dir, ".docsearch-*.tmp")
	if err != nil {
		return fmt.Errorf("save index: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	ix.mu.RLock()
	err = ix.encodeTo(bw)
	ix.mu.RUnlock()
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(ix.opts.Dir, storeFile))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("save index: %w", err)
	}
	return nil
}

// encodeTo writes the index in the on-disk format to w. Callers hold
// ix.mu (a read lock is enough) and have compacted the index.
func (ix *Index) encodeTo(w io.Writer) error {
	crc := crc32.New(castagnoli)
	out := io.MultiWriter(w, crc)
	var b []byte // pending bytes, written out in pieces
	var err error
	off := 0 // bytes written before b
	flush := func(force bool) {
		if err == nil && (force || len(b) >= 1<<16) {
			_, err = out.Write(b)
			off += len(b)
			b = b[:0]
		}
	}
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...); flush(false) }
	uv := func(n uint64) { b = binary.AppendUvarint(b, n) }
	b = append(b, storeMagic...)
	b = append(b, storeVersion)
	dim := ix.vec.dim
	if ix.vec.chunks() != len(ix.chunks) {
		dim = 0
	}
	if dim == 0 {
		str("")
	} else {
		str(ix.embName)
	}
	uv(uint64(dim))
	uv(uint64(len(ix.docs)))
	for _, d := range ix.docs {
		str(d.path)
		str(d.scope)
		str(d.title)
		str(d.summary)
		uv(uint64(len(d.entities)))
		for _, e := range d.entities {
			str(e)
		}
		uv(uint64(len(d.headings)))
		for _, h := range d.headings {
			uv(uint64(h.Level))
			uv(uint64(h.Line))
			str(h.Text)
		}
		if d.updated.IsZero() {
			uv(0)
		} else {
			uv(uint64(max(d.updated.Unix(), 0)))
		}
		uv(uint64(d.size))
		uv(uint64(max(d.mtime, 0)))
		b = append(b, d.hash[:]...)
		b = append(b, byte(d.format))
		if d.put {
			b = append(b, 1)
			str(d.text)
		} else {
			b = append(b, 0)
		}
		uv(uint64(d.count))
	}
	uv(uint64(len(ix.chunks)))
	for _, c := range ix.chunks {
		str(c.title)
		uv(uint64(c.line))
		uv(uint64(c.end))
		b = append(b, ctypeCode(c.ctype))
		uv(uint64(c.tokens))
		b = append(b, c.hash[:]...)
	}
	uv(uint64(len(ix.lex.terms)))
	for t, term := range ix.lex.terms {
		str(term)
		ps := ix.lex.post[t]
		uv(uint64(len(ps)))
		prev := uint32(0)
		for _, p := range ps {
			uv(uint64(p.chunk - prev))
			uv(uint64(p.tf))
			prev = p.chunk
			flush(false)
		}
	}
	if dim > 0 {
		for (off+len(b))%4 != 0 {
			b = append(b, 0)
		}
		for c := range uint32(len(ix.chunks)) {
			for _, x := range ix.vec.row(c) {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
			}
			flush(false)
		}
	}
	flush(true)
	if err != nil {
		return err
	}
	_, err = w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return err
}

// load reads the index from opts.Dir; a missing file is fs.ErrNotExist.
// The file is mapped, not read: the vectors are used where they lie, and
// the mapping lives as long as the index.
func (ix *Index) load() error {
	data, release, err := readIndexFile(filepath.Join(ix.opts.Dir, storeFile))
	if err != nil {
		return err
	}
	st, err := decodeIndex(data)
	if err != nil {
		release()
		return err
	}
	if st.vec.n > 0 && inside(data, st.vec.blocks[0]) {
		runtime.AddCleanup(ix, func(release func()) { release() }, release)
	} else {
		release()
	}
	for _, d := range st.docs {
		if d.scope != "" && !ix.scopes.has(d.scope) {
			return fmt.Errorf("the index has scope %q, which is no longer configured", d.scope)
		}
	}
	ix.docs, ix.chunks, ix.lex, ix.vec, ix.embName = st.docs, st.chunks, st.lex, st.vec, st.embName
	ix.byPath = make(map[string]uint32, len(st.docs))
	for i, d := range st.docs {
		ix.byPath[d.path] = uint32(i)
	}
	ix.vec.resketch()
	if ix.opts.Quantize && ix.vec.dim > 0 {
		ix.vec.quantizeAll()
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
	if k <= 0 {
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
	return string(r.bytes(int(n), what))
}

func (r *reader) byte1(what string) byte { return r.bytes(1, what)[0] }

// decodeIndex parses the on-disk format.
func decodeIndex(data []byte) (*stored, error) {
	if len(data) < len(storeMagic)+1+4 || !bytes.HasPrefix(data, []byte(storeMagic)) {
		return nil, fmt.Errorf("%w: not a docsearch index", errCorrupt)
	}
	if v := data[len(storeMagic)]; v != storeVersion {
		return nil, fmt.Errorf("index format version %d, want %d", v, storeVersion)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	// The checksum is computed beside the decoding, which is safe on any
	// bytes (FuzzDecodeIndex): a mismatch discards what was decoded.
	crc := make(chan uint32, 1)
	go func() { crc <- crc32.Checksum(body, castagnoli) }()
	st, err := decodeBody(body)
	if <-crc != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return st, err
}

// decodeBody parses body, the index file without its checksum.
func decodeBody(body []byte) (*stored, error) {
	r := &reader{b: body[len(storeMagic)+1:]}
	st := &stored{lex: newLexicon()}
	st.embName = r.str("embedder")
	dim := r.uv("dim")
	if dim > 1<<16 {
		r.fail("dim")
	}
	nd := r.count("docs", 8)
	var counts []uint64
	for range nd {
		d := &doc{}
		d.path, d.scope, d.title, d.summary = r.str("path"), r.str("scope"), r.str("title"), r.str("summary")
		for range r.count("entities", 1) {
			d.entities = append(d.entities, r.str("entity"))
		}
		for range r.count("headings", 3) {
			lvl, line := r.uv("heading level"), r.uv("heading line")
			if lvl > 6 || line > math.MaxInt32 {
				r.fail("heading")
			}
			d.headings = append(d.headings, Heading{Level: int(lvl), Line: int(line), Text: r.str("heading")})
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
		switch r.byte1("put") {
		case 0:
		case 1:
			d.put, d.text = true, r.str("text")
		default:
			r.fail("put")
		}
		counts = append(counts, r.uv("chunk count"))
		st.docs = append(st.docs, d)
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
		tokens := r.uv("tokens")
		if tokens > math.MaxUint32 {
			r.fail("tokens")
		}
		rec.tokens = uint32(tokens)
		copy(rec.hash[:], r.bytes(8, "chunk hash"))
		st.chunks = append(st.chunks, rec)
	}
	lex := st.lex
	lex.lens = make([]uint32, nc)
	nt := r.count("terms", 2)
	// Sized for the count up to a bound: a corrupt count, which only the
	// file's length limits, must not allocate gigabytes before it fails.
	hint := min(nt, 1<<20)
	lex.ids = make(map[string]uint32, hint)
	lex.terms = make([]string, 0, hint)
	lex.post = make([][]posting, 0, hint)
	for range nt {
		term := r.str("term")
		if term == "" {
			r.fail("term")
		}
		np := r.count("postings", 2)
		ps := make([]posting, np)
		var prev uint64
		for i := range ps {
			delta, tf := r.uv("posting"), r.uv("tf")
			c := prev + delta
			if (i > 0 && delta == 0) || c >= uint64(nc) || tf == 0 || tf > 1<<24 {
				r.fail("posting")
				break
			}
			ps[i] = posting{uint32(c), uint32(tf)}
			lex.lens[c] += uint32(tf)
			prev = c
		}
		if r.err != nil {
			break
		}
		before := len(lex.ids)
		if lex.ids[term] = uint32(len(lex.terms)); len(lex.ids) == before {
			r.fail("term") // repeated
			break
		}
		lex.terms = append(lex.terms, term)
		lex.post = append(lex.post, ps)
	}
	for _, n := range lex.lens {
		lex.total += uint64(n)
	}
	lex.live = nc
	if dim > 0 && r.err == nil {
		for off := len(body) - len(r.b); off%4 != 0 && r.err == nil; off++ {
			if r.byte1("pad") != 0 {
				r.fail("pad")
			}
		}
		need := uint64(nc) * dim * 4
		if need != uint64(len(r.b)) {
			r.fail("vectors")
		} else {
			st.vec = vectors{dim: int(dim)}
			st.vec.setRows(floats(r.b))
			r.b = nil
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, r.err
	}
	return st, nil
}

// floats returns b's little-endian IEEE 754 float32s. On a little-endian
// machine, with b aligned, they are b itself: nothing is copied or
// allocated, which is what makes loading a large index fast. Otherwise
// they are decoded into a new slice.
func floats(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(float32(0)) == 0 {
		return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// inside reports whether v lies in the memory of b.
func inside(b []byte, v []float32) bool {
	start := uintptr(unsafe.Pointer(&b[0]))
	p := uintptr(unsafe.Pointer(&v[0]))
	return p >= start && p < start+uintptr(len(b))
}

// littleEndian reports whether the machine stores integers low byte first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
