package graphstore

// A run file holds the entries of a Sync, extraction included, while the
// pass goes on: each batch's entries leave the heap once encoded, so
// what a pass over a big tree holds is one batch, not every file's
// extraction (on the Linux kernel those were most of the live heap while
// the code index was built beside them). The graph is built from the
// entries read back, and graph.bin's Files field is the run file copied,
// not encoded again.
//
// Layout: the segments of graph.bin's Files field (segments.go), one
// after the other, without the leading element and segment counts:
//
//	per segment  uvarint elements, uvarint bytes, then those bytes: the
//	             elements (Entry values) with a string table of their own
//
// The run file is written and read by one Sync and removed when it ends.
// Its segments' sizes, element counts and CRC-32C are kept in memory as
// they are written, and checked when they are read back or copied: a
// damaged run file is an error naming it, never a wrong graph.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"reflect"
	"unsafe"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/par"
)

// spillPer is how many entries a run file's segment holds: as in
// graph.bin (segmented["Files"]), so the segments copy over as they are.
var spillPer = segmented["Files"]

// runSegment is where one segment of a run file lies and what it holds.
type runSegment struct {
	off, size int64 // of the segment's record: counts, then bytes
	n         int   // entries
	sum       uint32
}

// runFile is a run file being written, then read.
type runFile struct {
	name string
	f    *os.File
	w    *bufio.Writer
	off  int64
	segs []runSegment
	n    int // entries written
	// pending are the entries added since the last full segment: the
	// segments are cut where encodeSegments cuts graph.bin's, whatever
	// the batches, so a saved graph is the same bytes spilled or not.
	pending []Entry
}

// newRunFile creates a run file in dir.
func newRunFile(dir string) (*runFile, error) {
	f, err := os.CreateTemp(dir, ".graph-run-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("graphstore: creating a run file in %s: %w", dir, err)
	}
	return &runFile{name: f.Name(), f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// add appends es, written a full segment of spillPer entries at a
// time (done writes the last, short one).
func (r *runFile) add(es []Entry) error {
	r.pending = append(r.pending, es...)
	n := len(r.pending) / spillPer * spillPer
	if err := r.write(r.pending[:n]); err != nil {
		return err
	}
	had := len(r.pending)
	r.pending = append(r.pending[:0], r.pending[n:]...)
	clear(r.pending[len(r.pending):had]) // let go of the written entries' files
	return nil
}

// write encodes es and writes them, a segment of at most spillPer
// entries at a time, the segments encoded on every core.
func (r *runFile) write(es []Entry) error {
	k := (len(es) + spillPer - 1) / spillPer
	parts := make([][]byte, k)
	errs := make([]error, k)
	par.For(0, k, func(j int) {
		part := es[j*spillPer : min((j+1)*spillPer, len(es))]
		e := &encoder{strs: map[string]int{}}
		for i := range part {
			if err := e.value(reflect.ValueOf(&part[i]).Elem(), nil); err != nil {
				errs[j] = fmt.Errorf("graphstore: spilling %s: %w", part[i].Path, err)
				return
			}
		}
		parts[j] = e.buf
	})
	for j, data := range parts {
		if errs[j] != nil {
			return errs[j]
		}
		n := min((j+1)*spillPer, len(es)) - j*spillPer
		var head [2 * binary.MaxVarintLen64]byte
		h := binary.AppendUvarint(head[:0], uint64(n))
		h = binary.AppendUvarint(h, uint64(len(data)))
		sum := crc32.Update(crc32.Checksum(h, castagnoli), castagnoli, data)
		if _, err := r.w.Write(h); err != nil {
			return fmt.Errorf("graphstore: writing %s: %w", r.name, err)
		}
		if _, err := r.w.Write(data); err != nil {
			return fmt.Errorf("graphstore: writing %s: %w", r.name, err)
		}
		size := int64(len(h) + len(data))
		r.segs = append(r.segs, runSegment{off: r.off, size: size, n: n, sum: sum})
		r.off += size
		r.n += n
	}
	return nil
}

// done flushes what add wrote; the file is read from then on.
func (r *runFile) done() error {
	if r.w == nil {
		return nil
	}
	err := r.write(r.pending)
	r.pending = nil
	if err == nil {
		err = r.w.Flush()
	}
	r.w = nil
	if err != nil {
		return fmt.Errorf("graphstore: writing %s: %w", r.name, err)
	}
	return nil
}

// close removes the run file.
func (r *runFile) close() {
	r.f.Close()
	os.Remove(r.name)
}

// segment reads segment j and checks it against what add wrote.
func (r *runFile) segment(j int, buf []byte) ([]byte, error) {
	s := r.segs[j]
	if int64(cap(buf)) < s.size {
		buf = make([]byte, s.size)
	}
	buf = buf[:s.size]
	if _, err := r.f.ReadAt(buf, s.off); err != nil {
		return nil, fmt.Errorf("graphstore: reading run file %s, segment %d: %w", r.name, j, err)
	}
	if crc32.Checksum(buf, castagnoli) != s.sum {
		return nil, fmt.Errorf("graphstore: run file %s, segment %d: checksum mismatch", r.name, j)
	}
	return buf, nil
}

// entries reads every entry back, in the order added, decoding the
// segments on every core.
func (r *runFile) entries() ([]Entry, error) {
	p, err := planOf(reflect.TypeFor[Entry]())
	if err != nil {
		return nil, err
	}
	return r.entriesAs(p)
}

// slimFiles reads back the extractions of the entries that have one,
// in the order added, each decoded slim (see slimEntryPlan).
func (r *runFile) slimFiles() ([]extract.File, error) {
	p, err := slimEntryPlan()
	if err != nil {
		return nil, err
	}
	es, err := r.entriesAs(p)
	if err != nil {
		return nil, err
	}
	var out []extract.File
	for i := range es {
		if es[i].File != nil {
			out = append(out, *es[i].File)
		}
	}
	return out, nil
}

// entriesAs reads every entry back with plan ep, of an Entry.
func (r *runFile) entriesAs(ep *plan) ([]Entry, error) {
	if err := r.done(); err != nil {
		return nil, err
	}
	out := make([]Entry, r.n)
	at := make([]int, len(r.segs))
	for j := 1; j < len(r.segs); j++ {
		at[j] = at[j-1] + r.segs[j-1].n
	}
	errs := make([]error, len(r.segs))
	par.For(0, len(r.segs), func(j int) {
		buf, err := r.segment(j, nil)
		if err == nil {
			if err = decodeRunSegment(buf, out[at[j]:at[j]+r.segs[j].n], ep); err != nil {
				err = fmt.Errorf("graphstore: run file %s, segment %d: %w", r.name, j, err)
			}
		}
		errs[j] = err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeRunSegment decodes a segment record (counts, then entries) into
// out, which must be as long as the segment says it holds, with plan
// ep, of an Entry.
func decodeRunSegment(rec []byte, out []Entry, ep *plan) error {
	d := &decoder{buf: rec}
	m, err := d.uvarint()
	if err != nil {
		return err
	}
	size, err := d.uvarint()
	if err != nil {
		return err
	}
	if m != uint64(len(out)) || size != uint64(len(rec)-d.off) {
		return fmt.Errorf("%d entries in %d bytes, want %d entries in %d", m, size, len(out), len(rec)-d.off)
	}
	for i := range out {
		out[i] = Entry{}
		if err := d.decodeInto(ep, unsafe.Pointer(&out[i]), nil); err != nil {
			return fmt.Errorf("entry %d at byte %d: %w", i, d.off, err)
		}
	}
	if d.off != len(rec) {
		return fmt.Errorf("%d bytes left over", len(rec)-d.off)
	}
	return nil
}

// writeFiles writes graph.bin's Files field from the run file: the
// counts, then every segment as it is, each checked on the way.
func (r *runFile) writeFiles(w io.Writer) error {
	if err := r.done(); err != nil {
		return err
	}
	var head [2 * binary.MaxVarintLen64]byte
	h := binary.AppendUvarint(head[:0], uint64(r.n))
	h = binary.AppendUvarint(h, uint64(len(r.segs)))
	if _, err := w.Write(h); err != nil {
		return err
	}
	var buf []byte
	for j := range r.segs {
		var err error
		if buf, err = r.segment(j, buf); err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
