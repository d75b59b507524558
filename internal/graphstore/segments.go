package graphstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"unsafe"
)

// A payload is State's fields in order, each encoded on its own; a
// slice field whose elements are many (the files, edges and unresolved
// calls) is cut into segments, each with its own string
// table, so that segments encode and decode in parallel:
//
//	field        a value as encodeValue writes it (own string table), or
//	segmented    uvarint elements, uvarint segments, then per segment:
//	             uvarint elements, uvarint bytes, and those bytes: the
//	             elements with a string table of their own
//
// Which fields are segmented is fixed (segmented below), as is the rest
// of the layout: the schema hash covers State's fields, and the format
// version this layout.

// segmented lists the State fields cut into segments, with how many
// elements a segment holds: a file's extraction is thousands of values,
// an edge a handful.
var segmented = map[string]int{"Files": 128, "Edges": 16384, "Unresolved": 8192}

// encodeState appends st's payload to buf.
func encodeState(buf []byte, st *State) ([]byte, error) {
	v := reflect.ValueOf(st).Elem()
	t := v.Type()
	for _, i := range exported(t) {
		f := v.Field(i)
		per, ok := segmented[t.Field(i).Name]
		if !ok {
			e := &encoder{buf: buf, strs: map[string]int{}}
			if err := e.value(f, nil); err != nil {
				return nil, err
			}
			buf = e.buf
			continue
		}
		var err error
		if buf, err = encodeSegments(buf, f, per); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// encodeSegments appends slice s cut into segments of per elements,
// encoded in parallel.
func encodeSegments(buf []byte, s reflect.Value, per int) ([]byte, error) {
	n := s.Len()
	k := (n + per - 1) / per
	parts := make([][]byte, k)
	errs := make([]error, k)
	parallel(k, func(j int) {
		lo, hi := j*per, min((j+1)*per, n)
		e := &encoder{strs: map[string]int{}}
		for i := lo; i < hi && errs[j] == nil; i++ {
			errs[j] = e.value(s.Index(i), nil)
		}
		parts[j] = e.buf
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	buf = binary.AppendUvarint(buf, uint64(n))
	buf = binary.AppendUvarint(buf, uint64(k))
	for j, p := range parts {
		buf = binary.AppendUvarint(buf, uint64(min((j+1)*per, n)-j*per))
		buf = binary.AppendUvarint(buf, uint64(len(p)))
		buf = append(buf, p...)
	}
	return buf, nil
}

// decodeState decodes a payload written by encodeState.
func decodeState(payload []byte) (*State, error) {
	st, _, err := decodeStateSpans(payload, false)
	return st, err
}

// span is one segment of a segmented field: its elements lo to hi, and
// the payload's bytes start to end that hold them.
type span struct{ lo, hi, start, end int }

// decodeStateSpans is decodeState returning also the segments of
// State.Files, from which Extractions decodes one file again. With
// slim, each file's extraction is decoded slim (see slimEntryPlan):
// nothing of payload is kept either way, all strings are copies.
func decodeStateSpans(payload []byte, slim bool) (*State, []span, error) {
	st := &State{}
	var files []span
	v := reflect.ValueOf(st).Elem()
	t := v.Type()
	off := 0
	for _, i := range exported(t) {
		f := v.Field(i)
		name := t.Field(i).Name
		if _, ok := segmented[name]; !ok {
			d := &decoder{buf: payload, off: off}
			p, err := planOf(f.Type())
			if err != nil {
				return nil, nil, err
			}
			if err := d.decodeInto(p, f.Addr().UnsafePointer(), nil); err != nil {
				return nil, nil, fmt.Errorf("decode %s at byte %d: %w", name, d.off, err)
			}
			off = d.off
			continue
		}
		spans, end, err := decodeSegments(payload, off, f, slim && name == "Files")
		if err != nil {
			return nil, nil, fmt.Errorf("decode %s: %w", name, err)
		}
		off = end
		if name == "Files" {
			files = spans
		}
	}
	if off != len(payload) {
		return nil, nil, fmt.Errorf("%d bytes left over", len(payload)-off)
	}
	return st, files, nil
}

// decodeSegments decodes the segmented slice at payload[off:] into s and
// returns its segments and the offset past it; slim: s is State.Files,
// decoded slim. Every count is checked against the bytes it must fit in
// before anything is allocated.
func decodeSegments(payload []byte, off int, s reflect.Value, slim bool) ([]span, int, error) {
	d := &decoder{buf: payload, off: off}
	n, err := d.uvarint()
	if err != nil {
		return nil, 0, err
	}
	k, err := d.uvarint()
	if err != nil {
		return nil, 0, err
	}
	left := uint64(len(payload) - d.off)
	if n > left || k > left || k > n {
		return nil, 0, fmt.Errorf("%d elements in %d segments, %d bytes left", n, k, left)
	}
	segs := make([]span, k)
	at := 0
	for j := range segs {
		m, err := d.uvarint()
		if err != nil {
			return nil, 0, err
		}
		size, err := d.uvarint()
		if err != nil {
			return nil, 0, err
		}
		if m > n-uint64(at) || m > size || size > uint64(len(payload)-d.off) {
			return nil, 0, fmt.Errorf("segment %d: %d elements in %d bytes", j, m, size)
		}
		segs[j] = span{at, at + int(m), d.off, d.off + int(size)}
		at += int(m)
		d.off += int(size)
	}
	if at != int(n) {
		return nil, 0, fmt.Errorf("segments hold %d elements, not %d", at, n)
	}
	if n == 0 {
		return segs, d.off, nil
	}
	ep, err := planOf(s.Type().Elem())
	if slim {
		ep, err = slimEntryPlan()
	}
	if err != nil {
		return nil, 0, err
	}
	out := reflect.MakeSlice(s.Type(), int(n), int(n))
	base, size := out.UnsafePointer(), ep.typ.Size()
	errs := make([]error, k)
	parallel(int(k), func(j int) {
		errs[j] = faults(func() error {
			sg := segs[j]
			sd := &decoder{buf: payload[:sg.end], off: sg.start}
			for i := sg.lo; i < sg.hi; i++ {
				if err := sd.decodeInto(ep, unsafe.Add(base, uintptr(i)*size), nil); err != nil {
					return fmt.Errorf("segment %d at byte %d: %w", j, sd.off, err)
				}
			}
			if sd.off != sg.end {
				return fmt.Errorf("segment %d: %d bytes left over", j, sg.end-sd.off)
			}
			return nil
		})
	})
	if err := errors.Join(errs...); err != nil {
		return nil, 0, err
	}
	s.Set(out)
	return segs, d.off, nil
}

// parallel runs f(0..k-1) on up to GOMAXPROCS goroutines.
func parallel(k int, f func(j int)) { parallelOn(runtime.GOMAXPROCS(0), k, f) }

// parallelOn runs f(0..k-1) on up to n goroutines, each taking the next
// j when done with one: more than the cores for work that waits on the
// file system (a stat per file).
func parallelOn(n, k int, f func(j int)) {
	workers := min(k, n)
	if workers <= 1 {
		for j := range k {
			f(j)
		}
		return
	}
	var next sync.Mutex
	j := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				next.Lock()
				mine := j
				j++
				next.Unlock()
				if mine >= k {
					return
				}
				f(mine)
			}
		})
	}
	wg.Wait()
}
