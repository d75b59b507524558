package docsearch

// The delta. A save of an index whose tables are mapped (ix.tab) writes
// its overlay (overlay.go) to <Dir>/docsearch.delta, beside the index
// file, which it leaves as it is: a change costs what it changes, not a
// rewrite of the whole file. The next load maps the index file and reads
// the delta into an overlay again. The index file is rewritten, and the
// delta removed, when the overlay grows past deltaShare of the table's
// chunks (added, or removed), or when Options.Merge asks for it.
//
// The delta is written as the index file is, to a temporary file renamed
// over it. It names the index file it goes with by the file's size and
// the CRC of its checksums (main below): a full save renames the new
// index file in and then removes the delta, so a delta left by a save
// killed between the two names another file, and is dropped (the index
// file holds everything it did). A delta that names the index file but
// is damaged is an error: Open rebuilds the index, OpenSaved fails.
//
// In the meta part's encoding (uv, string, see store.go):
//
//	magic      "FIDELT" then the delta version, one byte (deltaVersion)
//	main       uv size of the index file, then the CRC-32 (Castagnoli)
//	           of its checksums and their count, uint32 little-endian
//	dim        uv: the vectors' dimensions (0: none)
//	docs       uv count, then per document added since the index file:
//	             path, scope string; flags byte (as the document
//	             table's); format byte; size, mtime, stamp uv; chunks uv;
//	             record string (see appendRecord); if Put, text string;
//	             then per chunk: title string, line, end uv, content
//	             type byte, hash 8 bytes, template uint64 little-endian,
//	             copies uv
//	gone       uv count, then the IDs of the index file's documents
//	           removed, increasing: the first, then differences
//	restat     uv count, then per entry: the index file's document ID
//	           (increasing, as gone), size, mtime uv
//	copies     uv count, then per entry: the index file's chunk ID
//	           (increasing, as gone), copies uv
//	names      uv count, then that many strings in increasing order
//	terms      uv count, then per term: string; uv count of postings,
//	           then per posting: the chunk, numbered from 0 over the
//	           delta's chunks (increasing, as gone), and tf uv
//	vectors    if dim > 0, per chunk: scale float32, then dim int8
//	sum        CRC-32 (Castagnoli) of everything before, uint32
//
// The chunks' lengths are their postings' tf summed.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
)

const (
	deltaMagic   = "FIDELT"
	deltaVersion = 1
	deltaFile    = "docsearch.delta"
	// deltaShare bounds the overlay a save writes as a delta: past a
	// tenth of the table's chunks added or removed (or deltaFloor
	// chunks, for a small index), the index file is rewritten whole.
	deltaShare = 10
	deltaFloor = 1024
)

// mainStamp names an index file by its size and the CRC of its
// checksums (the file's last bytes), which any change to it changes.
func mainStamp(data []byte) (uint64, uint32) {
	if len(data) < 4 {
		return uint64(len(data)), 0
	}
	n := uint64(binary.LittleEndian.Uint32(data[len(data)-4:]))
	if n*4 > uint64(len(data)-4) {
		return uint64(len(data)), 0
	}
	return uint64(len(data)), crc32.Checksum(data[len(data)-4-4*int(n):], castagnoli)
}

// deltaFits reports whether the overlay is to be saved as a delta.
// Callers hold ix.mu.
func (ix *Index) deltaFits() bool {
	if ix.tab == nil || ix.opts.Merge || ix.embedderChanged() || len(ix.mapped) == 0 {
		return false
	}
	n := max(len(ix.tab.chunks)/deltaShare, deltaFloor)
	return len(ix.chunks) <= n && ix.dead <= n
}

// encodeDelta returns the overlay in the delta format. Callers hold
// ix.mu; the index has a table. Removed documents of the overlay are
// left out, its chunks numbered again without them.
func (ix *Index) encodeDelta() []byte {
	size, crc := mainStamp(ix.mapped)
	b := append([]byte(deltaMagic), deltaVersion)
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	uv := func(n uint64) { b = binary.AppendUvarint(b, n) }
	uv(size)
	b = binary.LittleEndian.AppendUint32(b, crc)
	dim := ix.vec.dim
	if ix.vec.chunks() < ix.nchunks() {
		dim = 0
	}
	uv(uint64(dim))
	cbase := ix.chunkBase()
	local := map[uint32]uint32{} // an overlay chunk's ID -> its number in the delta
	var live []*doc
	for _, d := range ix.docs {
		if d != nil {
			live = append(live, d)
		}
	}
	uv(uint64(len(live)))
	var rows []uint32
	for _, d := range live {
		str(d.path)
		str(d.scope)
		flags := docFlags(d)
		if d.put {
			flags |= flagPut
		}
		b = append(b, flags, byte(d.format))
		uv(uint64(max(d.size, 0)))
		uv(uint64(max(d.mtime, 0)))
		uv(d.stamp)
		uv(uint64(d.count))
		str(string(appendRecord(nil, d)))
		if d.put {
			str(d.text)
		}
		for c := d.first; c < d.first+d.count; c++ {
			rec := ix.chunks[c-cbase]
			local[c] = uint32(len(local))
			rows = append(rows, c)
			str(rec.title)
			uv(uint64(rec.line))
			uv(uint64(rec.end))
			b = append(b, ctypeCode(rec.ctype))
			b = append(b, rec.hash[:]...)
			b = binary.LittleEndian.AppendUint64(b, rec.template)
			uv(uint64(max(rec.copies, 1)))
		}
	}
	ids := func(set []uint32, each func(id uint32)) {
		uv(uint64(len(set)))
		for i, id := range set {
			if i == 0 {
				uv(uint64(id))
			} else {
				uv(uint64(id - set[i-1]))
			}
			if each != nil {
				each(id)
			}
		}
	}
	var gone []uint32
	for id := range uint32(len(ix.tab.docs)) {
		if ix.tabGone(id) {
			gone = append(gone, id)
		}
	}
	ids(gone, nil)
	var restat []uint32
	for id := range ix.restat {
		if !ix.tabGone(id) {
			restat = append(restat, id)
		}
	}
	slices.Sort(restat)
	ids(restat, func(id uint32) { uv(uint64(max(ix.restat[id][0], 0))); uv(uint64(max(ix.restat[id][1], 0))) })
	ids(slices.Sorted(maps.Keys(ix.copies)), func(c uint32) { uv(uint64(ix.copies[c])) })
	names := slices.Sorted(maps.Keys(ix.names))
	uv(uint64(len(names)))
	for _, n := range names {
		str(n)
	}
	// The terms with a posting of a live overlay chunk, in term order.
	o := ix.lex.ov
	type term struct {
		s  string
		ps []posting
	}
	var terms []term
	if o != nil {
		for id, ps := range o.post {
			var keep []posting
			for _, p := range ps {
				if l, ok := local[p.chunk]; ok {
					keep = append(keep, posting{l, p.tf})
				}
			}
			if len(keep) > 0 {
				terms = append(terms, term{ix.lex.term(id), keep})
			}
		}
	}
	slices.SortFunc(terms, func(x, y term) int { return strings.Compare(x.s, y.s) })
	uv(uint64(len(terms)))
	for _, t := range terms {
		str(t.s)
		uv(uint64(len(t.ps)))
		for i, p := range t.ps {
			if i == 0 {
				uv(uint64(p.chunk))
			} else {
				uv(uint64(p.chunk - t.ps[i-1].chunk))
			}
			uv(uint64(p.tf))
		}
	}
	if dim > 0 {
		for _, c := range rows {
			r, s := ix.vec.row(c)
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s))
			for _, x := range r {
				b = append(b, byte(x))
			}
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// saveDelta writes the overlay to the delta file. Callers hold
// ix.update; the index has a table.
func (ix *Index) saveDelta() error {
	ix.mu.RLock()
	b := ix.encodeDelta()
	ix.mu.RUnlock()
	d, err := ix.indexDir(true)
	if err != nil {
		return fmt.Errorf("save index delta in %s: %w", ix.opts.Dir, err)
	}
	defer d.Close()
	if err := replaceFile(d, deltaFile, b, true); err != nil {
		return fmt.Errorf("save index delta in %s: %w", ix.opts.Dir, err)
	}
	return nil
}

// errStaleDelta is a delta of another index file than the one there.
var errStaleDelta = errors.New("the delta is of another index file")

// loadDelta reads the delta file of d, if there is one, into the
// overlay of the index just loaded from data. A stale delta is removed
// and nil returned; a damaged one is an error wrapping errCorrupt.
func (ix *Index) loadDelta(d *os.Root, data []byte) error {
	b, ok, err := readDeltaFile(d)
	if !ok || err != nil {
		return err
	}
	switch err := ix.applyDelta(b, data); {
	case errors.Is(err, errStaleDelta):
		ix.opts.Logger.Info("docsearch: dropped a delta of an earlier index file", "dir", ix.opts.Dir)
		d.Remove(deltaFile)
		return nil
	case err != nil:
		return fmt.Errorf("index delta: %w", err)
	}
	return nil
}

// readDeltaFile returns the content of d's delta file; ok is false when
// there is none. One larger than maxIndexBytes is damage (errCorrupt),
// not read.
func readDeltaFile(d *os.Root) (b []byte, ok bool, err error) {
	f, info, err := openRegular(d, deltaFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if info.Size() > maxIndexBytes {
		return nil, false, fmt.Errorf("%w: a delta of %d bytes", errCorrupt, info.Size())
	}
	b = make([]byte, info.Size())
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, false, fmt.Errorf("read index delta: %w", err)
	}
	return b, true, nil
}

// checkDelta checks b's magic, version and sum, and whether it is the
// delta of the index file data; it returns b's body.
func checkDelta(b, data []byte) (*reader, error) {
	if len(b) < len(deltaMagic)+1+4 || !bytes.HasPrefix(b, []byte(deltaMagic)) {
		return nil, fmt.Errorf("%w: not a docsearch delta", errCorrupt)
	}
	if v := b[len(deltaMagic)]; v != deltaVersion {
		return nil, fmt.Errorf("%w: delta version %d, want %d", errCorrupt, v, deltaVersion)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: delta checksum mismatch", errCorrupt)
	}
	r := &reader{b: body[len(deltaMagic)+1:]}
	size, crc := mainStamp(data)
	msize := r.uv("main size")
	mcrc := binary.LittleEndian.Uint32(r.bytes(4, "main sum"))
	if r.err != nil {
		return nil, r.err
	}
	if msize != size || mcrc != crc {
		return nil, errStaleDelta
	}
	return r, nil
}
