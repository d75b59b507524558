package docsearch

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"
)

// A spill holds, off the Go heap, the bytes of an index that are large,
// grow with the documents and are seldom read while it is built: the
// texts of Put documents (a code document's is its symbol's source), the
// blocks of the vectors and runs of postings (postruns.go). On a third of
// the Linux kernel's chunks they were 442 of the 824 MB live when a cold
// build saved its doc index (docs/bigrepos.md); kept on the heap on the
// whole kernel, they pushed it past the memory budget, where the
// collector runs back to back.
//
// The bytes lie in a scratch file of the index's directory, unlinked as
// soon as it is made (nothing else can open it; it goes with the
// process), and are read through a shared mapping of it, as a loaded
// index's texts and arrays are read from the saved file: strings and
// slices alias the mapping, which lives as long as the index (the same
// rule holds: no string of it leaves the index). The file's space is
// allocated before it is mapped, so that a full disk is an error here,
// not a fault when a page is written. Texts are written with pwrite and
// never touched by the build; vector blocks and runs of postings are
// written through the mapping. release drops the pages the process
// touched from its resident set (they stay in the page cache, or on
// disk): every spillRelease bytes touched, so that what the mapping adds
// to the resident set stays bounded whatever the size of the tree (a
// run, written whole, adds its size before it is let go).
//
// A spill is used under ix.mu; its own mutex guards it against two
// holders of the read lock (a save and a search reading vectors do not
// touch it; two saves are serialized by ix.update).
type spill struct {
	mu       sync.Mutex
	f        *os.File
	segs     [][]byte // mapped, spillSeg bytes each but for larger pieces
	ats      []int64  // each segment's offset in the file
	end      int64    // the file's allocated bytes
	off      int      // bytes used of the last segment
	touched  int      // bytes written or read through the mapping since the last release
	releases int      // releases made, for tests
	failed   bool     // the file could not grow: everything stays on the heap

	// pend holds texts given to later and not written yet, the bytes
	// of the file from pendAt on (alignment padding included); lost is
	// set when a write of them failed, until flush reports it; writes
	// counts the pwrites made, for tests.
	pend   []byte
	pendAt int64
	lost   bool
	writes int
}

// spillSeg is the size of a mapped segment. A piece larger than a quarter
// of it (a run of postings) is mapped alone.
const spillSeg = 64 << 20

// spillPage is the bytes a read through the mapping makes resident at
// least.
const spillPage = 4096

// spillRelease is how many bytes touched through the mapping make
// release run. A variable for tests.
var spillRelease = 32 << 20

// newSpill returns a spill whose file lies in the index's directory, or
// nil when the index has no Dir, the platform maps no files (spill_other.go),
// or the file cannot be made: the bytes then stay on the heap, as they
// would without a spill.
func (ix *Index) newSpill() *spill {
	if ix.opts.Dir == "" || !canSpill {
		return nil
	}
	d, err := ix.indexDir(true)
	if err != nil {
		return nil
	}
	defer d.Close()
	f, err := createTemp(d)
	if err != nil {
		return nil
	}
	if err := d.Remove(filepath.Base(f.Name())); err != nil {
		f.Close()
		return nil
	}
	return &spill{f: f}
}

// spillFor returns the spill that n more bytes of text or vectors go to,
// or nil while the index keeps them on the heap. Callers hold ix.mu.
func (ix *Index) spillFor(n int) *spill {
	if ix.spill != nil || ix.opts.SpillBytes <= 0 || ix.noSpill {
		return ix.spill
	}
	ix.kept += int64(n)
	if ix.kept <= ix.opts.SpillBytes {
		return nil
	}
	sp := ix.newSpill()
	if sp == nil {
		ix.noSpill = true
		return nil
	}
	ix.spill = sp
	runtime.AddCleanup(ix, func(sp *spill) { sp.close() }, sp)
	return sp
}

// spillText returns s where the index keeps a Put document's text.
// Callers hold ix.mu.
func (ix *Index) spillText(s string) string { return ix.spillFor(len(s)).text(s) }

// spillBlock is the vectors' more (vector.go). Callers hold ix.mu.
func (ix *Index) spillBlock(n int) []byte { return ix.spillFor(n).block(n) }

// growVectors is ix.vec.growTo(n), with new blocks from the spill.
// Callers hold ix.mu.
func (ix *Index) growVectors(n int) {
	ix.vec.more = ix.spillBlock
	ix.vec.growTo(n)
}

// room returns the segment and offset where n more bytes fit, mapping a
// new segment if the last has no room (one of its own for n over a
// quarter of spillSeg); ok is false when none could be mapped (the spill
// then fails for good).
func (sp *spill) room(n int) (seg []byte, at int64, off int, ok bool) {
	if sp.failed {
		return nil, 0, 0, false
	}
	if len(sp.segs) == 0 || sp.off+n > len(sp.segs[len(sp.segs)-1]) {
		size := spillSeg
		if n > spillSeg/4 {
			size = (n + 1<<20 - 1) &^ (1<<20 - 1)
		}
		s, err := mapSegment(sp.f, sp.end, size)
		if err != nil {
			sp.failed = true
			return nil, 0, 0, false
		}
		sp.segs = append(sp.segs, s)
		sp.ats = append(sp.ats, sp.end)
		sp.end += int64(size)
		sp.off = 0
	}
	seg, at, off = sp.segs[len(sp.segs)-1], sp.ats[len(sp.segs)-1], sp.off
	sp.off += (n + 7) &^ 7 // what follows stays 8-byte aligned
	return seg, at + int64(off), off, true
}

// text returns s in the spill, or s itself when it cannot be spilled.
func (sp *spill) text(s string) string {
	if sp == nil || len(s) == 0 {
		return s
	}
	b := sp.bytes(unsafe.Slice(unsafe.StringData(s), len(s)))
	if b == nil {
		return s
	}
	return unsafe.String(&b[0], len(b))
}

// bytes writes b to the spill (with pwrite: the build touches none of
// its pages) and returns its bytes there, or nil when it cannot.
func (sp *spill) bytes(b []byte) []byte {
	if sp == nil || len(b) == 0 {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	seg, at, off, ok := sp.room(len(b))
	if !ok {
		return nil
	}
	if _, err := sp.f.WriteAt(b, at); err != nil {
		sp.failed = true
		return nil
	}
	sp.writes++
	return seg[off : off+len(b) : off+len(b)]
}

// pendMax is the bytes of texts later holds before it writes them: one
// pwrite for some hundreds of symbols' texts, where a pwrite for each
// cost 4.5 of the kernel's CPU-s (docs/bigrepos.md, h9-idxcpu).
const pendMax = 1 << 20

// later returns s where it will lie in the spill once flush has written
// it, or s itself when it cannot be spilled. Nothing may read the
// returned string before flush: callers give texts to later and flush
// under one hold of ix.mu's write lock, so no reader sees one unwritten.
func (sp *spill) later(s string) string {
	if sp == nil || len(s) == 0 {
		return s
	}
	if len(s) > pendMax {
		sp.mu.Lock()
		ok := sp.flushLocked()
		sp.mu.Unlock()
		if !ok {
			return s
		}
		return sp.text(s)
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	seg, at, off, ok := sp.room(len(s))
	if !ok {
		return s
	}
	// Only a text that follows the last one, past its padding, joins
	// them: the bytes between them are another's (a block of vectors, a
	// run) when anything else took room since.
	if len(sp.pend) > 0 && (at != sp.pendAt+int64((len(sp.pend)+7)&^7) || at-sp.pendAt+int64(len(s)) > pendMax) {
		if !sp.flushLocked() {
			return s
		}
	}
	if len(sp.pend) == 0 {
		sp.pendAt = at
	}
	for int64(len(sp.pend)) < at-sp.pendAt { // the last text's padding
		sp.pend = append(sp.pend, 0)
	}
	sp.pend = append(sp.pend, s...)
	b := seg[off : off+len(s) : off+len(s)]
	return unsafe.String(&b[0], len(b))
}

// flush writes the texts later holds. When it cannot (now or at a
// write later made itself since the last flush), the spill fails for
// good and flush returns false: some texts later returned since the last
// flush are not in the spill, and the caller must put back what it
// replaced with them.
func (sp *spill) flush() bool {
	if sp == nil {
		return true
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.flushLocked()
	ok := !sp.lost
	sp.lost = false
	return ok
}

// flushLocked writes the texts later holds, reporting whether it could.
func (sp *spill) flushLocked() bool {
	if len(sp.pend) == 0 {
		return true
	}
	_, err := sp.f.WriteAt(sp.pend, sp.pendAt)
	sp.writes++
	sp.pend = sp.pend[:0]
	if err != nil {
		sp.failed, sp.lost = true, true
		return false
	}
	return true
}

// reserve returns n bytes of the spill, to be written through the
// mapping (a run of postings); nil when they cannot be had.
func (sp *spill) reserve(n int) []byte {
	if sp == nil || n <= 0 {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	seg, _, off, ok := sp.room(n)
	if !ok {
		return nil
	}
	return seg[off : off+n : off+n]
}

// block returns n zero bytes of the spill to write through, or nil when
// they cannot be spilled.
func (sp *spill) block(n int) []byte {
	if sp == nil {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	seg, _, off, ok := sp.room(n)
	if !ok {
		return nil
	}
	sp.touchLocked(n)
	return seg[off : off+n : off+n]
}

// touch records that n bytes of the spill were read or written through
// the mapping, and releases the touched pages every spillRelease bytes.
func (sp *spill) touch(n int) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	sp.touchLocked(n)
	sp.mu.Unlock()
}

func (sp *spill) touchLocked(n int) {
	sp.touched += n
	if sp.touched >= spillRelease {
		for _, s := range sp.segs {
			releasePages(s)
		}
		sp.touched = 0
		sp.releases++
	}
}

// letGo drops the whole pages of b, bytes of the spill written through
// the mapping, from the resident set at once; the pages b shares with
// its neighbours stay.
func (sp *spill) letGo(b []byte) {
	if sp == nil || len(b) == 0 {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from := int((p+spillPage-1)&^(spillPage-1) - p)
	to := int((p+uintptr(len(b)))&^(spillPage-1) - p)
	if from < to {
		releasePages(b[from:to])
	}
	sp.mu.Lock()
	sp.releases++
	sp.mu.Unlock()
}

// holds reports whether s lies in the spill.
func (sp *spill) holds(s string) bool {
	if sp == nil || len(s) == 0 {
		return false
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	for _, seg := range sp.segs {
		start := uintptr(unsafe.Pointer(&seg[0]))
		if p >= start && p < start+uintptr(len(seg)) {
			return true
		}
	}
	return false
}

// close unmaps the segments and closes the file, which removes it.
// Nothing may use the spill's bytes afterwards.
func (sp *spill) close() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, s := range sp.segs {
		unmapSegment(s)
	}
	sp.segs = nil
	sp.f.Close()
}
