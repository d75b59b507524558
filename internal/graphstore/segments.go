package graphstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/fileinfo/fileinfo/internal/par"
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
	par.For(0, k, func(j int) {
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
	st, _, _, err := decodeStateSpans(payload, false)
	return st, err
}

// span is one segment of a segmented field: its elements lo to hi, and
// the payload's bytes start to end that hold them.
type span struct{ lo, hi, start, end int }

// decodeStateSpans is decodeState returning also the segments of
// State.Files, from which Extractions decodes one file again. With
// slim, each file's extraction is decoded bare (see Bare: slim without
// its symbols, which openState.slimFiles reads when the graph is
// restored), and the call graph's fields (deferred) are not decoded at
// all: their
// segments are checked to lie within payload, and graph is the span of
// payload that holds them, which decodeGraph reads when the graph is
// wanted. Nothing of payload is kept either way, all strings are copies.
func decodeStateSpans(payload []byte, slim bool) (st *State, files []span, graph graphPart, err error) {
	st = &State{}
	v := reflect.ValueOf(st).Elem()
	t := v.Type()
	off := 0
	graph = graphPart{start: -1, n: map[string]int{}}
	for _, i := range exported(t) {
		f := v.Field(i)
		name := t.Field(i).Name
		if _, ok := segmented[name]; !ok {
			d := &decoder{buf: payload, off: off}
			p, err := planOf(f.Type())
			if err != nil {
				return nil, nil, graphPart{}, err
			}
			if err := d.decodeInto(p, f.Addr().UnsafePointer(), nil); err != nil {
				return nil, nil, graphPart{}, fmt.Errorf("decode %s at byte %d: %w", name, d.off, err)
			}
			off = d.off
			continue
		}
		if slim && deferred[name] {
			n, end, err := skipSegments(payload, off)
			graph.n[name] = n
			if err != nil {
				return nil, nil, graphPart{}, fmt.Errorf("decode %s: %w", name, err)
			}
			if graph.start < 0 {
				graph.start = off
			}
			graph.end = end
			off = end
			continue
		}
		spans, end, err := decodeSegments(payload, off, f, slim && name == "Files")
		if err != nil {
			return nil, nil, graphPart{}, fmt.Errorf("decode %s: %w", name, err)
		}
		off = end
		if name == "Files" {
			files = spans
		}
	}
	if off != len(payload) {
		return nil, nil, graphPart{}, fmt.Errorf("%d bytes left over", len(payload)-off)
	}
	if graph.start < 0 {
		graph.start = 0
	}
	return st, files, graph, nil
}

// graphPart is where a slim decode left the deferred fields in the
// payload, bytes start to end, and how many elements each holds.
type graphPart struct {
	start, end int
	n          map[string]int
}

// deferred are the State fields a slim decode leaves in the payload (see
// decodeStateSpans): the call graph's edges and unresolved calls, which
// a server that answers lookups from the symbols index needs only when
// it restores the graph (on the Linux kernel 265 MB of heap once
// decoded). They follow every field decoded at once (a test checks), so
// that decodeGraph finds them at the start of the graph span.
var deferred = map[string]bool{"Edges": true, "Unresolved": true}

// decodeGraph decodes the deferred fields of a state from buf, the
// graph span of its payload (see decodeStateSpans), into st.
func decodeGraph(buf []byte, st *State) error {
	v := reflect.ValueOf(st).Elem()
	t := v.Type()
	off := 0
	for _, i := range exported(t) {
		name := t.Field(i).Name
		if !deferred[name] {
			continue
		}
		_, end, err := decodeSegments(buf, off, v.Field(i), false)
		if err != nil {
			return fmt.Errorf("decode %s: %w", name, err)
		}
		off = end
	}
	if off != len(buf) {
		return fmt.Errorf("%d bytes left over after the graph", len(buf)-off)
	}
	return nil
}

// skipSegments checks the segment headers of the segmented slice at
// payload[off:], as decodeSegments does, and returns its number of
// elements and the offset past it without decoding one.
func skipSegments(payload []byte, off int) (elems, end int, err error) {
	segs, end, err := segmentSpans(payload, off)
	if err != nil {
		return 0, 0, err
	}
	if len(segs) > 0 {
		elems = segs[len(segs)-1].hi
	}
	return elems, end, nil
}

// segmentSpans reads the segment headers of the segmented slice at
// payload[off:]: where each segment's elements and bytes lie, and the
// offset past the slice. Every count is checked against the bytes it
// must fit in before anything is allocated.
func segmentSpans(payload []byte, off int) ([]span, int, error) {
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
	return segs, d.off, nil
}

// decodeSegments decodes the segmented slice at payload[off:] into s and
// returns its segments and the offset past it; slim: s is State.Files,
// decoded slim. Every count is checked against the bytes it must fit in
// before anything is allocated.
func decodeSegments(payload []byte, off int, s reflect.Value, slim bool) ([]span, int, error) {
	segs, end, err := segmentSpans(payload, off)
	if err != nil {
		return nil, 0, err
	}
	n, k := 0, len(segs)
	if k > 0 {
		n = segs[k-1].hi
	}
	if n == 0 {
		return segs, end, nil
	}
	ep, err := planOf(s.Type().Elem())
	if slim {
		ep, err = bareEntryPlan()
	}
	if err != nil {
		return nil, 0, err
	}
	out := reflect.MakeSlice(s.Type(), int(n), int(n))
	base, size := out.UnsafePointer(), ep.typ.Size()
	errs := make([]error, k)
	par.For(0, int(k), func(j int) {
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
	return segs, end, nil
}
