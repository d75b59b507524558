package docsearch

// On-disk format. The index is one file, <Dir>/docsearch.idx, written
// whole: a temporary file in Dir is written, synced and renamed over it,
// so a reader sees the old index or the new one. It has two parts. The
// meta part, read into memory, holds counts and a few short lists. The
// arrays part is used in place, straight from the mapped file: chunk
// lengths, postings, sign sketches, vectors, the texts of documents that
// have no file (a code document's is its symbol's source), and the
// document, chunk and term tables (since 10). Opening a large index so
// decodes nothing per document, chunk or term: a search reads the pages
// of the terms, postings and records it ranks, fetch_doc the one it
// returns (see storetable.go).
//
// In the meta part, integers are unsigned LEB128 varints ("uv"); a
// string is a uv length and that many bytes of UTF-8.
//
//	magic      "FIDOCS" then the format version, one byte (storeVersion)
//	embedder   string (the Embedder's Name(), "" without vectors)
//	dim        uv (0 without vectors)
//	docs       uv: documents
//	chunks     uv: chunks (the sum of the documents')
//	terms      uv: terms
//	postings   uv: postings (the sum of the terms')
//	lengths    uv: the chunks' lengths summed
//	scopes     uv count, then that many strings: the documents' scopes,
//	           numbered in the order documents first have them
//	sketch     uv: the rows the sketches' mean was taken over, 0 for no
//	           sketches (see sketch.go); only with vectors
//	names      uv count, then that many strings in increasing byte order:
//	           the stems that name a scope (since 9, see scopename.go)
//	files      uv count, then the IDs of the documents that have a file
//	           (those not Put), in increasing order: the first, then each
//	           one's difference from the one before (since 10; a rescan
//	           looks for those alone, not through every document)
//
// The arrays part starts at the next multiple of 8 from the start of the
// file, after zero bytes. Its numbers are little-endian, fixed width;
// "pad" is zero bytes up to the next multiple of 8:
//
//	bits       if sketched: chunks * ceil(dim/64) uint64, each row's sketch
//	lengths    chunks uint32: each chunk's weighted length, the sum of
//	           its postings' tf
//	postings   per term, in the terms' order, its postings in increasing
//	           chunk order: chunk uint32, tf uint32
//	mean       if sketched: dim float32 (IEEE 754), the sketches' mean
//	scales     if dim > 0: chunks float32, each vector's scale
//	vectors    if dim > 0: chunks*dim int8, each vector quantised: its
//	           values are the int8s times its scale
//	texts      the texts of the Put documents, in their order; pad
//	records    per document, in order, its record; pad
//	titles     the chunks' titles, in order; pad
//	paths      the documents' paths, in the order of the path table; pad
//	strings    the terms, in increasing byte order; pad
//	documents  docs entries of 80 bytes (docFixed in storetable.go):
//	             path, record, text offsets uint64 (into paths, records,
//	             texts), text length uint64, size int64, mtime int64 (Unix
//	             ns), stamp uint64 (CodeFile.Stamp, 0 for none), first
//	             chunk, chunk count, record length, path length uint32,
//	             scope uint16, flags byte (1 Put: it has a text; 2 it has
//	             a note; 4 it has a stamp; 8 a generated file's, since
//	             11), format byte (0 markdown, 1 text, 2 rst), 4 zero
//	             bytes
//	chunk tab  chunks entries of 48 bytes (chunkFixed): template uint64
//	             (dup.go), hash 8 bytes, title offset uint64, document,
//	             line, end, copies (documents of its scope with its
//	             template, at least 1, see countCopies), title length
//	             uint32, its document's scope uint16, content type byte
//	             (0 prose, 1 code, 2 api-reference), a zero byte
//	term tab   terms+1 entries of 16 bytes: the term's offset in strings
//	             and its first posting's index, uint64 each; a term ends
//	             where the next entry starts, the last entry ends them all
//	path tab   docs uint32: the document IDs in increasing path order; pad
//	areas      5 uint64: the bytes of texts, records, titles, paths and
//	           strings, without their pads
//	meta       uint64: the length of the meta part
//	sums       CRC-32 (Castagnoli) of each 16 MiB segment of everything
//	           before sums, uint32 each, then their count, uint32
//
// A record is, in the meta part's encoding: title, summary string;
// entities uv count, strings; headings uv count, then level uv, line uv,
// text string; updated uv (Unix seconds, 0 for none); hash 16 bytes; and
// if its flags say so, note string (what of it was not indexed).
//
// The index is compacted before it is written, so no chunk is dead.
// Reading checks the magic, the version, every count against the bytes
// there are, the areas' ends and the checksums of the meta part; a full
// load (an unsealed file, or Verify) also checks every table entry,
// record, range, order and posting, and every checksum (table.check);
// any failure is an error and Open rebuilds the index. A sealed file
// (see sealFile in storeseal.go) is read without those checks; its
// readers bound every offset they read.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"
)

const (
	storeMagic = "FIDOCS"
	// storeVersion is 10: since 2, chunks embed their heading path
	// titleWeight times (embedText); since 3, vectors are 4-byte aligned
	// to be used in place; since 4, postings, lengths and sketches are
	// too, terms are sorted and the checksum is per segment; since 5, a
	// code chunk's lead counts twice in its terms and vector, HTML is read
	// inside its main element, without nav, headings lose permalink marks
	// C++, C# and F# are terms, British spellings are read as American,
	// vectors are int8 with a scale per row, and chunks no longer record
	// a token count nothing read; since 6, markdown's HTML comments are
	// not indexed (an artifact's record of its prose was); since 7, MDX
	// markup and reStructuredText roles are not indexed and an overlined
	// reStructuredText title is a heading (markup.go), and chunks record
	// their template hash (dup.go); since 8, code documents may record
	// the stamp of what they were made from; since 9, Put documents' texts
	// are in the arrays part, used in place, and the chunks' copies and
	// the scope names are saved rather than derived at each open; since
	// 10, documents, chunks and terms are fixed-size tables in the arrays
	// part, read in place (storetable.go); since 11, a code document may
	// be marked generated (flagGenerated). An index of another version is
	// rebuilt.
	storeVersion = 11
	storeFile    = "docsearch.idx"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sumSegment is the span of one checksum: segments are checked in
// parallel at load. A variable for tests, which make an index of many
// segments out of a few documents.
var sumSegment = 16 << 20

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
// searches go on meanwhile, changes wait. Its error is also
// Stats.Unsaved.
func (ix *Index) Save() error {
	ix.update.Lock()
	defer ix.update.Unlock()
	err := ix.save()
	ix.saved(err)
	return err
}

// save is Save for callers that hold ix.update, so that no change comes
// between compacting the index and writing it.
func (ix *Index) save() error {
	if ix.opts.Dir == "" {
		return errors.New("docsearch: the index has no Dir to save to")
	}
	ix.mu.Lock()
	if ix.underived {
		ix.derive()
	}
	if ix.deltaFits() {
		// The overlay alone is written, beside the index file.
		ix.mu.Unlock()
		return ix.saveDelta()
	}
	ix.materialize() // encodeTo writes the in-memory structures
	ix.lex.flush()   // and reads every term's postings: none in the log
	if ix.dead > 0 || ix.holes > 0 {
		ix.compact()
	}
	if ix.underived { // PutCode does not derive: what is saved is current
		ix.derive()
	}
	ix.mu.Unlock()
	d, err := ix.indexDir(true)
	if err != nil {
		return fmt.Errorf("save index in %s: %w", ix.opts.Dir, err)
	}
	defer d.Close()
	ignoreAll(d)
	f, err := createTemp(d)
	if err != nil {
		return fmt.Errorf("save index in %s: %w", ix.opts.Dir, err)
	}
	tmp := filepath.Base(f.Name())
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
		removeSeal(d)
		err = replace(d, tmp)
	}
	if err != nil {
		d.Remove(tmp)
		return fmt.Errorf("save index in %s: %w", ix.opts.Dir, err)
	}
	// The new file holds the delta's changes: a delta left by a crash
	// here names the old file, and is dropped (see delta.go).
	if err := d.Remove(deltaFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("save index in %s: %w", ix.opts.Dir, err)
	}
	sealSaved(d)
	return nil
}

// ignoreAll writes, where d has none, a .gitignore that ignores
// everything in it: the index is rebuilt from the files, never
// committed, and a read-only command leaves git status clean. Best
// effort.
func ignoreAll(d *os.Root) {
	if _, err := d.Lstat(".gitignore"); err == nil {
		return
	}
	f, err := createTemp(d)
	if err != nil {
		return
	}
	tmp := filepath.Base(f.Name())
	_, err = f.WriteString("# Written by fileinfo: the saved index, rebuilt from the files.\n*\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, ".gitignore")
	}
	if err != nil {
		d.Remove(tmp)
	}
}

// sealSaved seals the index file just written and synced (see
// sealFile): its checksums are those encodeTo computed of what it wrote.
func sealSaved(d *os.Root) {
	f, info, err := openRegular(d, storeFile)
	if err != nil {
		return
	}
	defer f.Close()
	size := info.Size()
	var b [4]byte
	if size < 4 {
		return
	}
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return
	}
	n := int64(binary.LittleEndian.Uint32(b[:]))
	if n*4 > size-4 {
		return
	}
	tail := make([]byte, 4*n+4)
	if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil {
		return
	}
	if seal := sealOf(info, tail); seal != "" {
		writeSeal(d, seal)
	}
}

// encodeTo writes the index in the on-disk format to w. Callers hold
// ix.mu (a read lock is enough) and have compacted the index.
func (ix *Index) encodeTo(w io.Writer) error {
	sums := &segmentSums{}
	out := io.MultiWriter(w, sums)
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
	// Terms in byte order, without those only removed chunks had.
	lex := ix.lex
	var terms []uint32
	var npost uint64
	cur := lex.cursor() // the terms are visited in byte order, as the runs hold them
	for _, t := range lex.sortedTerms() {
		if n := cur.count(t); n > 0 {
			terms = append(terms, t)
			npost += uint64(n)
		}
	}
	scopeID := map[string]uint16{}
	var scopes []string
	for _, d := range ix.docs {
		if _, ok := scopeID[d.scope]; !ok {
			if len(scopes) > math.MaxUint16 {
				return fmt.Errorf("%d scopes, over the %d an index may have", len(scopes), math.MaxUint16+1)
			}
			scopeID[d.scope] = uint16(len(scopes))
			scopes = append(scopes, d.scope)
		}
	}
	uv(uint64(len(ix.docs)))
	uv(uint64(len(ix.chunks)))
	uv(uint64(len(terms)))
	uv(npost)
	uv(lex.total)
	uv(uint64(len(scopes)))
	for _, sc := range scopes {
		str(sc)
	}
	ix.vec.completeSketch()
	sk := &ix.vec.sk
	n := len(ix.chunks)
	sketched := dim > 0 && n > 0 && sk.base > 0 && sk.rows() == n // rows is 0 without sketches
	if sketched {
		uv(uint64(sk.base))
	} else {
		uv(0)
	}
	names := slices.Sorted(maps.Keys(ix.names))
	uv(uint64(len(names)))
	for _, n := range names {
		str(n)
	}
	var files []uint32 // documents with a file: those a rescan may find gone
	for i, d := range ix.docs {
		if !d.put {
			files = append(files, uint32(i))
		}
	}
	uv(uint64(len(files)))
	for i, id := range files {
		if i == 0 {
			uv(uint64(id))
		} else {
			uv(uint64(id - files[i-1]))
		}
		flush(false)
	}
	meta := off + len(b)
	for (off+len(b))%8 != 0 {
		b = append(b, 0)
	}
	if sketched {
		for _, x := range sk.bits[:n*sk.words] {
			b = binary.LittleEndian.AppendUint64(b, x)
			flush(false)
		}
	}
	for _, l := range lex.lens[:n] {
		b = binary.LittleEndian.AppendUint32(b, l)
		flush(false)
	}
	pages := ix.shedder() // a loaded index's postings, rows and texts are read from its mapping
	cur = lex.cursor()
	for _, t := range terms {
		cur.each(t, func(ps []posting) {
			pages.read(len(ps) * int(unsafe.Sizeof(posting{})))
			for _, p := range ps {
				b = binary.LittleEndian.AppendUint32(b, p.chunk)
				b = binary.LittleEndian.AppendUint32(b, p.tf)
				flush(false)
			}
		})
	}
	if sketched {
		for _, x := range sk.mean {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	if dim > 0 {
		for c := range uint32(n) {
			_, s := ix.vec.row(c)
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s))
			ix.spill.touch(4)
			flush(false)
		}
		for c := range uint32(n) {
			r, _ := ix.vec.row(c)
			for _, x := range r {
				b = append(b, byte(x))
			}
			ix.spill.touch(len(r))
			pages.read(len(r))
			flush(false)
		}
	}
	var area [5]uint64 // bytes of texts, records, titles, paths, terms
	pad := func() {
		for (off+len(b))%8 != 0 {
			b = append(b, 0)
		}
	}
	for _, d := range ix.docs {
		if d.put {
			b = append(b, d.text...)
			area[0] += uint64(len(d.text))
			ix.spill.touch(len(d.text)) // its pages are let go as the save goes on
			pages.read(len(d.text))
			flush(false)
		}
	}
	pad()
	recLen := make([]uint32, len(ix.docs))
	for i, d := range ix.docs {
		n := len(b)
		b = appendRecord(b, d)
		if len(b)-n > math.MaxUint32 {
			return fmt.Errorf("document %s: a record of %d bytes", d.path, len(b)-n)
		}
		recLen[i] = uint32(len(b) - n)
		area[1] += uint64(len(b) - n)
		flush(false)
	}
	pad()
	for _, c := range ix.chunks {
		b = append(b, c.title...)
		area[2] += uint64(len(c.title))
		flush(false)
	}
	pad()
	byPath := make([]uint32, len(ix.docs))
	for i := range byPath {
		byPath[i] = uint32(i)
	}
	slices.SortFunc(byPath, func(x, y uint32) int { return strings.Compare(ix.docs[x].path, ix.docs[y].path) })
	pathOff := make([]uint64, len(ix.docs))
	for _, id := range byPath {
		pathOff[id] = area[3]
		b = append(b, ix.docs[id].path...)
		area[3] += uint64(len(ix.docs[id].path))
		flush(false)
	}
	pad()
	for _, t := range terms {
		b = append(b, lex.terms[t]...)
		area[4] += uint64(len(lex.terms[t]))
		flush(false)
	}
	pad()
	var rec, text uint64
	for i, d := range ix.docs {
		f := docFixed{path: pathOff[i], rec: rec, size: d.size, mtime: max(d.mtime, 0), stamp: d.stamp,
			first: d.first, count: d.count, recLen: recLen[i], pathLen: uint32(len(d.path)),
			scope: scopeID[d.scope], format: uint8(d.format)}
		f.flags = docFlags(d)
		if d.put {
			f.flags |= flagPut
			f.text, f.textLen = text, uint64(len(d.text))
			text += f.textLen
		}
		rec += uint64(recLen[i])
		b = appendDocFixed(b, f)
		flush(false)
	}
	var title uint64
	for _, c := range ix.chunks {
		b = appendChunkFixed(b, chunkFixed{template: c.template, hash: c.hash, title: title, doc: c.doc,
			line: c.line, end: c.end, copies: max(c.copies, 1), titleLen: uint32(len(c.title)),
			scope: scopeID[ix.docs[c.doc].scope], ctype: ctypeCode(c.ctype)})
		title += uint64(len(c.title))
		flush(false)
	}
	var str0, post uint64
	cur = lex.cursor()
	for _, t := range terms {
		b = appendTermFixed(b, termFixed{str: str0, post: post})
		str0 += uint64(len(lex.terms[t]))
		post += uint64(cur.count(t))
		flush(false)
	}
	b = appendTermFixed(b, termFixed{str: str0, post: post})
	for _, id := range byPath {
		b = binary.LittleEndian.AppendUint32(b, id)
		flush(false)
	}
	pad()
	for _, n := range area {
		b = binary.LittleEndian.AppendUint64(b, n)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(meta))
	flush(true)
	if err != nil {
		return err
	}
	b = b[:0]
	for _, s := range sums.final() {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(sums.sums)))
	_, err = w.Write(b)
	return err
}

// segmentSums is a writer that keeps the CRC-32 of each sumSegment bytes
// written to it.
type segmentSums struct {
	sums []uint32
	crc  uint32 // of the current segment so far
	n    int    // bytes of the current segment
}

func (s *segmentSums) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		k := min(len(p), sumSegment-s.n)
		s.crc = crc32.Update(s.crc, castagnoli, p[:k])
		s.n += k
		p = p[k:]
		if s.n == sumSegment {
			s.sums = append(s.sums, s.crc)
			s.crc, s.n = 0, 0
		}
	}
	return total, nil
}

// final returns the sums, the short last segment's included.
func (s *segmentSums) final() []uint32 {
	if s.n > 0 {
		s.sums = append(s.sums, s.crc)
		s.crc, s.n = 0, 0
	}
	return s.sums
}

// appendRecord appends d's record, the part of a document the document
// table does not hold (see the format).
func appendRecord(b []byte, d *doc) []byte {
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	uv := func(n uint64) { b = binary.AppendUvarint(b, n) }
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
	b = append(b, d.hash[:]...)
	if d.note != "" {
		str(d.note)
	}
	return b
}
