package graphstore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/internal/par"
)

// Saving streams: the payload goes to the file as it is encoded, a few
// segments at a time, and its length and checksum are written into the
// header last. The whole payload was built in memory before (with its
// segments twice, once encoded and once joined): on the Linux kernel a
// 314 MB file, 0.6 GB of heap at the graph's build, the largest point.

// saveFrom is where saveState takes the fields of a State that a
// caller has elsewhere than in it.
type saveFrom struct {
	// files, when set, holds State.Files (st.Files is then ignored).
	files *runFile
	// graph, when set, gives State.Unresolved, file by file.
	graph *callgraph.Graph
}

// Save writes st to file atomically.
func Save(file string, st *State) error { return saveState(file, st, saveFrom{}) }

// saveState writes st, with the fields from gives, to file atomically,
// in the format of Encode.
func saveState(file string, st *State, from saveFrom) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("save %s: %w", file, err)
		}
	}()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return writeStreamed(file, ".graph-*.tmp", func(f *os.File) error { return writeState(f, st, from) })
}

// payloadWriter counts and sums what goes through it.
type payloadWriter struct {
	w   *bufio.Writer
	n   uint64
	sum uint32
}

func (p *payloadWriter) Write(b []byte) (int, error) {
	p.n += uint64(len(b))
	p.sum = crc32.Update(p.sum, castagnoli, b)
	return p.w.Write(b)
}

// writeState writes the header and payload of st to f, which is empty.
func writeState(f *os.File, st *State, from saveFrom) error {
	var head [headerSize]byte
	if _, err := f.Write(head[:]); err != nil { // its counts and sum come last
		return err
	}
	pw := &payloadWriter{w: bufio.NewWriterSize(f, 1<<20)}
	v := reflect.ValueOf(st).Elem()
	t := v.Type()
	for _, i := range exported(t) {
		fv, name := v.Field(i), t.Field(i).Name
		var err error
		switch per, seg := segmented[name]; {
		case name == "Files" && from.files != nil:
			err = from.files.writeFiles(pw)
		case name == "Unresolved" && from.graph != nil:
			err = writeUnresolved(pw, from.graph, per)
		case seg:
			err = writeSegments(pw, fv, per)
		default:
			e := &encoder{strs: map[string]int{}}
			if err = e.value(fv, nil); err == nil {
				_, err = pw.Write(e.buf)
			}
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	if err := pw.w.Flush(); err != nil {
		return err
	}
	h := append(head[:0], magic...)
	h = binary.LittleEndian.AppendUint32(h, formatVersion)
	h = binary.LittleEndian.AppendUint64(h, stateSchema)
	h = binary.LittleEndian.AppendUint64(h, pw.n)
	h = binary.LittleEndian.AppendUint32(h, pw.sum)
	_, err := f.WriteAt(h, 0)
	return err
}

// writeSegments writes slice s as encodeSegments lays it out, encoding
// a core's worth of segments at a time.
func writeSegments(w io.Writer, s reflect.Value, per int) error {
	n := s.Len()
	k := (n + per - 1) / per
	if err := writeCounts(w, n, k); err != nil {
		return err
	}
	step := runtime.GOMAXPROCS(0)
	parts := make([][]byte, step)
	errs := make([]error, step)
	for lo := 0; lo < k; lo += step {
		m := min(step, k-lo)
		par.For(0, m, func(j int) {
			seg := lo + j
			e := &encoder{buf: parts[j][:0], strs: map[string]int{}}
			errs[j] = nil
			for i := seg * per; i < min((seg+1)*per, n) && errs[j] == nil; i++ {
				errs[j] = e.value(s.Index(i), nil)
			}
			parts[j] = e.buf
		})
		if err := errors.Join(errs[:m]...); err != nil {
			return err
		}
		for j := range m {
			seg := lo + j
			if err := writeSegment(w, min((seg+1)*per, n)-seg*per, parts[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeUnresolved writes g's unresolved calls as a segmented
// []callgraph.Unresolved, gathered a file at a time: the list Save
// returns, without holding it (on the Linux kernel, millions of records).
func writeUnresolved(w io.Writer, g *callgraph.Graph, per int) error {
	n := g.NumUnresolved()
	k := (n + per - 1) / per
	if err := writeCounts(w, n, k); err != nil {
		return err
	}
	var pending []callgraph.Unresolved
	written, segs := 0, 0
	flush := func(m int) error {
		e := &encoder{strs: map[string]int{}}
		for i := range m {
			if err := e.value(reflect.ValueOf(&pending[i]).Elem(), nil); err != nil {
				return err
			}
		}
		pending = append(pending[:0], pending[m:]...)
		written += m
		segs++
		return writeSegment(w, m, e.buf)
	}
	for _, p := range g.Files() {
		pending = append(pending, g.UnresolvedIn(p)...)
		for len(pending) >= per {
			if err := flush(per); err != nil {
				return err
			}
		}
	}
	if len(pending) > 0 {
		if err := flush(len(pending)); err != nil {
			return err
		}
	}
	if written != n || segs != k {
		return fmt.Errorf("the graph counts %d unresolved calls, its files hold %d", n, written)
	}
	return nil
}

func writeCounts(w io.Writer, n, k int) error {
	var b [2 * binary.MaxVarintLen64]byte
	h := binary.AppendUvarint(b[:0], uint64(n))
	h = binary.AppendUvarint(h, uint64(k))
	_, err := w.Write(h)
	return err
}

// writeSegment writes one segment of m elements encoded as data.
func writeSegment(w io.Writer, m int, data []byte) error {
	if err := writeCounts(w, m, len(data)); err != nil {
		return err
	}
	_, err := w.Write(data)
	return err
}
