package graphstore

// One file's unresolved calls, read from graph.bin's deferred graph
// (see decodeStateSpans) without decoding the rest: a server that
// answers file_info from the saved lookup index (symbols.idx) reads
// these instead of restoring the graph, which on the Linux kernel takes
// seconds and a gigabyte (docs/bigrepos.md).
//
// State.Unresolved is saved in the order of the graph's files, which is
// by path (callgraph.Graph.Save and writeUnresolved both go through
// Graph.Files), and so a file's calls are one run: its segments are
// found by a binary search over the first call of each segment.

import (
	"fmt"
	"reflect"
	"sort"
	"unsafe"

	"github.com/fileinfo/fileinfo/callgraph"
)

// UnresolvedIn returns the saved graph's unresolved calls made in file,
// in line order, as the restored graph's UnresolvedIn returns them;
// nil when it has none. It does not restore the graph: while the graph's
// fields are still in graph.bin it reads the segments holding file's
// calls, once the deferred bytes match the checksum taken at load
// (damage since is an error, never an answer). The calls returned must
// not be modified.
func (s *Snapshot) UnresolvedIn(file string) ([]callgraph.Unresolved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.built != nil:
		return s.built.UnresolvedIn(file), nil
	case s.deferred != nil:
		if us, ok := s.unresolved[file]; ok {
			return us, nil
		}
		us, err := s.deferred.unresolvedIn(file)
		if err != nil {
			return nil, err
		}
		// A file_info reads its file's calls two to four times (the
		// prompt, the artifact, the digests); each read sums the whole
		// deferred part (tens of megabytes on the Linux kernel). What
		// was read from checked bytes stays the answer.
		if len(s.unresolved) >= unresolvedCached {
			clear(s.unresolved)
		}
		if s.unresolved == nil {
			s.unresolved = map[string][]callgraph.Unresolved{}
		}
		s.unresolved[file] = us
		return us, nil
	}
	var out []callgraph.Unresolved
	for _, u := range s.saved.Unresolved {
		if u.File == file {
			out = append(out, u)
		}
	}
	return out, nil
}

// unresolvedCached is how many files' unresolved calls a Snapshot keeps
// while its graph is deferred.
const unresolvedCached = 64

// unresolvedIn reads the unresolved calls of file from the deferred
// graph fields (see UnresolvedIn), through a mapping released after.
func (sf *openState) unresolvedIn(file string) ([]callgraph.Unresolved, error) {
	if sf.graph.end == sf.graph.start {
		return nil, nil
	}
	var out []callgraph.Unresolved
	err := sf.readGraph(func(buf []byte) error {
		var err error
		out, err = unresolvedOfFile(buf, file)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// unresolvedOfFile returns the unresolved calls of file from buf, the
// deferred graph fields (as decodeGraph reads them), decoding only the
// segments of State.Unresolved that may hold them.
func unresolvedOfFile(buf []byte, file string) ([]callgraph.Unresolved, error) {
	t := reflect.TypeFor[State]()
	off := 0
	for _, i := range exported(t) {
		name := t.Field(i).Name
		if !deferred[name] {
			continue
		}
		if name != "Unresolved" {
			_, end, err := skipSegments(buf, off)
			if err != nil {
				return nil, fmt.Errorf("decode %s: %w", name, err)
			}
			off = end
			continue
		}
		segs, _, err := segmentSpans(buf, off)
		if err != nil {
			return nil, fmt.Errorf("decode %s: %w", name, err)
		}
		return unresolvedInSegments(buf, segs, file)
	}
	return nil, nil
}

// unresolvedInSegments returns the calls of file among the segments
// segs of buf, whose calls are in file order.
func unresolvedInSegments(buf []byte, segs []span, file string) ([]callgraph.Unresolved, error) {
	p, err := planOf(reflect.TypeFor[callgraph.Unresolved]())
	if err != nil {
		return nil, err
	}
	var decodeErr error
	first := func(j int) string {
		var u callgraph.Unresolved
		d := &decoder{buf: buf[:segs[j].end], off: segs[j].start}
		if err := d.decodeInto(p, unsafe.Pointer(&u), nil); err != nil && decodeErr == nil {
			decodeErr = fmt.Errorf("segment %d at byte %d: %w", j, d.off, err)
		}
		return u.File
	}
	// The first segment whose first call is file's or after it: file's
	// calls begin in the segment before it, or in it.
	j := sort.Search(len(segs), func(j int) bool { return first(j) >= file })
	if decodeErr != nil {
		return nil, decodeErr
	}
	var out []callgraph.Unresolved
	for j = max(j-1, 0); j < len(segs); j++ {
		sg := segs[j]
		d := &decoder{buf: buf[:sg.end], off: sg.start}
		for i := sg.lo; i < sg.hi; i++ {
			var u callgraph.Unresolved
			if err := d.decodeInto(p, unsafe.Pointer(&u), nil); err != nil {
				return nil, fmt.Errorf("segment %d at byte %d: %w", j, d.off, err)
			}
			switch {
			case u.File == file:
				out = append(out, u)
			case u.File > file:
				return out, nil
			}
		}
	}
	return out, nil
}
