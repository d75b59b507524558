package graphstore

import (
	"container/list"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"reflect"
	"sort"
	"sync"
	"unsafe"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/par"
)

// openState is a graph.bin kept open after its load, with where each
// segment of State.Files lies in it and the CRC-32 of each, taken from
// the payload whose whole checksum the load verified.
type openState struct {
	f     *os.File
	name  string
	base  int64 // the payload's offset in the file
	spans []span
	sums  []uint32
	// graph is where the state's deferred fields lie (see
	// decodeStateSpans), left undecoded by the load, and graphSum their
	// CRC-32.
	graph    graphPart
	graphSum uint32
}

// loadGraph decodes the deferred fields (the graph's edges and
// unresolved calls) into st from the file, through a mapping released
// after, once their bytes match the checksum taken at load: damage since
// is an error, never a graph.
func (sf *openState) loadGraph(st *State) error {
	n := int64(sf.graph.end - sf.graph.start)
	if n == 0 {
		return decodeGraph(nil, st)
	}
	return sf.readGraph(func(buf []byte) error { return decodeGraph(buf, st) })
}

// readGraph maps the deferred graph fields of sf's file and, once their
// bytes match the checksum taken at load, calls f with them; f's error,
// or a fault reading the mapping, is returned naming the file.
func (sf *openState) readGraph(f func(buf []byte) error) error {
	end := sf.base + int64(sf.graph.end)
	data, release, err := sf.mapTo(end, "graph")
	if err != nil {
		return err
	}
	defer release()
	return faults(func() error {
		buf := data[sf.base+int64(sf.graph.start) : end]
		if crc32.Checksum(buf, castagnoli) != sf.graphSum {
			return fmt.Errorf("graphstore: the graph of %s changed since it was loaded", sf.name)
		}
		if err := f(buf); err != nil {
			return fmt.Errorf("graphstore: %s: %w", sf.name, err)
		}
		return nil
	})
}

// Extractions reads the extraction of a file saved in graph.bin when
// asked, from the file as Sync loaded it: the file stays open, and a
// later save replaces graph.bin by a rename, which leaves the open one
// as it was. A read decodes the one segment holding the file (128 files,
// see segmented) up to it, after checking the segment's bytes against
// the checksum taken at load: damage since is an error, never an
// extraction. The last ExtractionsCached files read are kept.
//
// An Extractions is safe for concurrent use.
type Extractions struct {
	saved *openState
	at    map[string]int // path → index in State.Files

	mu    sync.Mutex
	lru   *list.List // of *cached, most recent first
	byKey map[string]*list.Element
}

// ExtractionsCached is how many decoded files an Extractions keeps: a
// few hundred of the Linux kernel's are a few megabytes.
const ExtractionsCached = 256

type cached struct {
	path string
	file *extract.File
}

// newExtractions reads files from sf, whose State.Files are entries.
func newExtractions(sf *openState, entries []Entry) *Extractions {
	at := make(map[string]int, len(entries))
	for i := range entries {
		if entries[i].File != nil {
			at[entries[i].Path] = i
		}
	}
	return &Extractions{saved: sf, at: at, lru: list.New(), byKey: map[string]*list.Element{}}
}

// Close closes the file. Reads after it fail.
func (x *Extractions) Close() error { return x.saved.f.Close() }

// Has reports whether path's extraction is saved.
func (x *Extractions) Has(path string) bool {
	_, ok := x.at[path]
	return ok
}

// File returns the saved extraction of path, decoded anew or from the
// cache; the caller must not change it.
func (x *Extractions) File(path string) (*extract.File, error) {
	x.mu.Lock()
	if e := x.byKey[path]; e != nil {
		x.lru.MoveToFront(e)
		f := e.Value.(*cached).file
		x.mu.Unlock()
		return f, nil
	}
	x.mu.Unlock()
	i, ok := x.at[path]
	if !ok {
		return nil, fmt.Errorf("graphstore: %s: no saved extraction", path)
	}
	var f *extract.File
	err := x.decode(x.segmentOf(i), i, func(j int, e *Entry) {
		if j == i {
			f = e.File
		}
	})
	if err != nil {
		return nil, err
	}
	if f == nil || f.Path != path {
		return nil, fmt.Errorf("graphstore: %s: entry %d of %s is another file", path, i, x.saved.name)
	}
	x.remember(path, f)
	return f, nil
}

// remember puts f in the cache, dropping the least recently read file
// past ExtractionsCached.
func (x *Extractions) remember(path string, f *extract.File) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if e := x.byKey[path]; e != nil {
		x.lru.MoveToFront(e)
		return
	}
	x.byKey[path] = x.lru.PushFront(&cached{path, f})
	for x.lru.Len() > ExtractionsCached {
		last := x.lru.Back()
		delete(x.byKey, last.Value.(*cached).path)
		x.lru.Remove(last)
	}
}

// Files calls fn with the saved extraction of each of paths that has
// one, reading each segment once, in the file's order; the cache is
// neither read nor filled (a bulk read would flush it). It stops at the
// first error.
func (x *Extractions) Files(paths []string, fn func(*extract.File)) error {
	bySeg := map[int]map[int]bool{}
	for _, p := range paths {
		if i, ok := x.at[p]; ok {
			j := x.segmentOf(i)
			if bySeg[j] == nil {
				bySeg[j] = map[int]bool{}
			}
			bySeg[j][i] = true
		}
	}
	segs := make([]int, 0, len(bySeg))
	for j := range bySeg {
		segs = append(segs, j)
	}
	sort.Ints(segs)
	for _, j := range segs {
		want := bySeg[j]
		last := 0
		for i := range want {
			last = max(last, i)
		}
		err := x.decode(j, last, func(i int, e *Entry) {
			if want[i] && e.File != nil {
				fn(e.File)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// All returns every saved extraction, decoding the segments in parallel.
func (x *Extractions) All() ([]extract.File, error) {
	spans := x.saved.spans
	per := make([][]extract.File, len(spans))
	errs := make([]error, len(spans))
	par.For(0, len(spans), func(j int) {
		errs[j] = x.decode(j, spans[j].hi-1, func(_ int, e *Entry) {
			if e.File != nil {
				per[j] = append(per[j], *e.File)
			}
		})
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var out []extract.File
	for _, fs := range per {
		out = append(out, fs...)
	}
	return out, nil
}

// segmentOf returns the segment holding entry i.
func (x *Extractions) segmentOf(i int) int {
	spans := x.saved.spans
	return sort.Search(len(spans), func(j int) bool { return spans[j].hi > i })
}

// decode reads segment j, checks it, and decodes its entries up to entry
// last, calling fn with each.
func (x *Extractions) decode(j, last int, fn func(i int, e *Entry)) error {
	sf := x.saved
	if j >= len(sf.spans) {
		return fmt.Errorf("graphstore: %s: no segment %d", sf.name, j)
	}
	sp := sf.spans[j]
	buf := make([]byte, sp.end-sp.start)
	if _, err := sf.f.ReadAt(buf, sf.base+int64(sp.start)); err != nil {
		return fmt.Errorf("graphstore: reading segment %d of %s: %w", j, sf.name, err)
	}
	if crc32.Checksum(buf, castagnoli) != sf.sums[j] {
		return fmt.Errorf("graphstore: segment %d of %s changed since it was loaded", j, sf.name)
	}
	p, err := planOf(reflect.TypeFor[Entry]())
	if err != nil {
		return err
	}
	d := &decoder{buf: buf}
	for i := sp.lo; i <= min(last, sp.hi-1); i++ {
		var e Entry
		if err := d.decodeInto(p, unsafe.Pointer(&e), nil); err != nil {
			return fmt.Errorf("graphstore: segment %d of %s at byte %d: %w", j, sf.name, d.off, err)
		}
		fn(i, &e)
	}
	return nil
}

// slimFiles decodes every saved file slim (see slimEntryPlan), in
// State.Files order, leaving out entries without an extraction, as the
// load did: from the file, through a mapping released after, each
// segment checked against the checksum taken at load.
func (sf *openState) slimFiles() ([]extract.File, error) {
	p, err := slimEntryPlan()
	if err != nil {
		return nil, err
	}
	return sf.filesKeeping(p)
}

// filesKeeping is slimFiles with each entry decoded by p.
func (sf *openState) filesKeeping(p *plan) ([]extract.File, error) {
	if len(sf.spans) == 0 {
		return nil, nil
	}
	data, release, err := sf.mapTo(sf.base+int64(sf.spans[len(sf.spans)-1].end), "files")
	if err != nil {
		return nil, err
	}
	defer release()
	n := sf.spans[len(sf.spans)-1].hi
	entries := make([]Entry, n)
	errs := make([]error, len(sf.spans))
	par.For(0, len(sf.spans), func(j int) {
		errs[j] = faults(func() error {
			sp := sf.spans[j]
			buf := data[sf.base+int64(sp.start) : sf.base+int64(sp.end)]
			if crc32.Checksum(buf, castagnoli) != sf.sums[j] {
				return fmt.Errorf("graphstore: segment %d of %s changed since it was loaded", j, sf.name)
			}
			d := &decoder{buf: buf}
			for i := sp.lo; i < sp.hi; i++ {
				if err := d.decodeInto(p, unsafe.Pointer(&entries[i]), nil); err != nil {
					return fmt.Errorf("graphstore: segment %d of %s at byte %d: %w", j, sf.name, d.off, err)
				}
			}
			return nil
		})
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	files := make([]extract.File, 0, n)
	for i := range entries {
		if f := entries[i].File; f != nil {
			files = append(files, *f)
		}
	}
	return files, nil
}

// mapTo maps sf's file up to end, having checked that it was not
// truncated since the load; what ("files", "graph") names the part read
// in errors. release unmaps it.
func (sf *openState) mapTo(end int64, what string) (data []byte, release func(), err error) {
	info, err := sf.f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("graphstore: reading the %s of %s: %w", what, sf.name, err)
	}
	if info.Size() < end {
		return nil, nil, fmt.Errorf("graphstore: %s was truncated since it was loaded", sf.name)
	}
	data, release, _, err = mapFile(sf.f, end)
	if err != nil {
		return nil, nil, fmt.Errorf("graphstore: reading the %s of %s: %w", what, sf.name, err)
	}
	return data, release, nil
}
