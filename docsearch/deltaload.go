package docsearch

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// deltaRead is a delta decoded and checked, not yet applied.
type deltaRead struct {
	dim    int
	docs   []*doc
	chunks []chunkRec
	gone   []uint32
	restat map[uint32][2]int64
	copies map[uint32]uint32
	names  map[string]bool
	terms  []string
	posts  [][]posting // by term, chunks numbered from 0 over the delta's
	rows   []int8      // dim per chunk
	scales []float32
}

// applyDelta reads the delta b of the index file data into the overlay
// of the index just loaded from it. Nothing is applied unless all of b
// is sound.
func (ix *Index) applyDelta(b, data []byte) error {
	dr, err := ix.readDelta(b, data)
	if err != nil {
		return err
	}
	t, lex := ix.tab, ix.lex
	o := lex.overlay()
	for _, id := range dr.gone {
		ix.goneDoc(id)
		f := &t.docs[id]
		for c := f.first; c < f.first+f.count && int(c) < len(t.chunks); c++ {
			lex.remove(c)
		}
		ix.killChunks(f.first, f.count)
		ix.holes++
	}
	ix.docs, ix.chunks = dr.docs, dr.chunks
	ix.byPath = make(map[string]uint32, len(dr.docs))
	for i, d := range dr.docs {
		ix.byPath[d.path] = uint32(len(t.docs) + i)
	}
	lens := make([]uint32, len(dr.chunks))
	for i, term := range dr.terms {
		tid, ok := t.findTerm(term)
		if !ok {
			tid = o.base + uint32(len(o.terms))
			o.terms = append(o.terms, term)
			o.ids[term] = tid
		}
		ps := dr.posts[i]
		for j := range ps {
			lens[ps[j].chunk] += ps[j].tf
			ps[j].chunk += o.cbase
		}
		o.post[tid] = ps
	}
	o.lens = lens
	for _, n := range lens {
		lex.total += uint64(n)
	}
	lex.live += len(lens)
	o.order = nil
	if len(dr.restat) > 0 {
		ix.restat = dr.restat
	}
	if len(dr.copies) > 0 {
		ix.copies = dr.copies
	}
	ix.names = dr.names
	if dr.dim > 0 {
		ix.growVectors(ix.nchunks())
		for i := range dr.chunks {
			r, _ := ix.vec.row(o.cbase + uint32(i))
			for j := range r {
				r[j] = dr.rows[i*dr.dim+j]
			}
			c := o.cbase + uint32(i)
			ix.vec.scales[c/blockRows][c%blockRows] = dr.scales[i]
		}
		ix.vec.extendSketch()
	}
	return nil
}

// readDelta decodes and checks the delta b of the index file data
// against the index just loaded from it.
func (ix *Index) readDelta(b, data []byte) (*deltaRead, error) {
	r, err := checkDelta(b, data)
	if err != nil {
		return nil, err
	}
	t := ix.tab
	dr := &deltaRead{restat: map[uint32][2]int64{}, copies: map[uint32]uint32{}, names: map[string]bool{}}
	dim := r.uv("dim")
	if dim != 0 && dim != uint64(ix.vec.dim) {
		r.fail("dim")
	}
	dr.dim = int(dim)
	an := newAnalyzer()
	seen := map[string]bool{}
	const chunkMin = 1 + 1 + 1 + 1 + 8 + 8 + 1 // a chunk's least bytes
	nd := r.count("docs", 6)
	for i := range nd {
		d := &doc{prose: &prose{}}
		d.path, d.scope = strings.Clone(r.str("path")), strings.Clone(r.str("scope"))
		flags, f := r.byte1("flags"), r.byte1("format")
		size, mtime, stamp := r.uv("size"), r.uv("mtime"), r.uv("stamp")
		count := r.count("chunks", chunkMin)
		rec := []byte(r.str("record"))
		if r.err != nil {
			break
		}
		if flags&^knownFlags != 0 || f > uint8(formatRST) || (stamp != 0) != (flags&flagStamp != 0) ||
			size > math.MaxInt64 || mtime > math.MaxInt64 || !ix.scopes.has(d.scope) || seen[d.path] {
			r.fail("document")
			break
		}
		seen[d.path] = true
		if err := decodeRecord(d, rec, flags&flagNote != 0); err != nil {
			return nil, err
		}
		d.size, d.mtime, d.stamp, d.format = int64(size), int64(mtime), stamp, format(f)
		d.generated = flags&flagGenerated != 0
		if d.put = flags&flagPut != 0; d.put {
			d.text = strings.Clone(r.str("text"))
		}
		d.first, d.count = uint32(len(t.chunks)+len(dr.chunks)), uint32(count)
		if d.scope != ScopeCode && d.scope != ScopeArtifacts {
			d.page = pageOf(an, d)
		}
		d.prose = proseOr(d.prose)
		for range count {
			c := chunkRec{doc: uint32(len(t.docs) + i), title: strings.Clone(r.str("title"))}
			line, end := r.uv("line"), r.uv("end")
			ct := r.byte1("content type")
			copy(c.hash[:], r.bytes(8, "hash"))
			c.template = binary.LittleEndian.Uint64(r.bytes(8, "template"))
			copies := r.uv("copies")
			if line > math.MaxUint32 || end > math.MaxUint32 || int(ct) >= len(ctypeCodes) || copies == 0 || copies > math.MaxUint32 {
				r.fail("chunk")
				break
			}
			c.line, c.end, c.ctype, c.copies = uint32(line), uint32(end), ctypeCodes[ct], uint32(copies)
			dr.chunks = append(dr.chunks, c)
		}
		dr.docs = append(dr.docs, d)
		if len(dr.chunks) > math.MaxUint32-len(t.chunks) || len(dr.docs) > math.MaxUint32-len(t.docs) {
			r.fail("counts")
		}
	}
	// ids reads a count and that many increasing IDs under n.
	ids := func(what string, n int, each func(id uint32)) {
		k := r.count(what, 1)
		var prev uint64
		for i := range k {
			x := r.uv(what)
			if i > 0 && x == 0 || x >= uint64(n)-prev || r.err != nil {
				r.fail(what)
				return
			}
			prev += x
			if each != nil {
				each(uint32(prev))
			}
		}
	}
	ids("gone", len(t.docs), func(id uint32) { dr.gone = append(dr.gone, id) })
	ids("restat", len(t.docs), func(id uint32) {
		size, mtime := r.uv("restat size"), r.uv("restat mtime")
		if size > math.MaxInt64 || mtime > math.MaxInt64 {
			r.fail("restat")
		}
		dr.restat[id] = [2]int64{int64(size), int64(mtime)}
	})
	ids("copies", len(t.chunks), func(c uint32) {
		n := r.uv("copies")
		if n == 0 || n > math.MaxUint32 {
			r.fail("copies")
		}
		dr.copies[c] = uint32(n)
	})
	nn := r.count("names", 2)
	prev := ""
	for i := range nn {
		name := r.str("name")
		if name == "" || i > 0 && name <= prev {
			r.fail("name")
			break
		}
		dr.names[strings.Clone(name)], prev = true, name
	}
	nt := r.count("terms", 3)
	prev = ""
	for i := range nt {
		term := r.str("term")
		np := r.count("postings", 2)
		if term == "" || i > 0 && term <= prev || np == 0 {
			r.fail("term")
			break
		}
		prev = term
		ps := make([]posting, np)
		var c uint64
		for j := range ps {
			x, tf := r.uv("posting"), r.uv("tf")
			if j > 0 && x == 0 || x >= uint64(len(dr.chunks))-c || tf == 0 || tf > 1<<24 || r.err != nil {
				r.fail("posting")
				break
			}
			if j == 0 {
				c = x
			} else {
				c += x
			}
			ps[j] = posting{uint32(c), uint32(tf)}
		}
		dr.terms = append(dr.terms, strings.Clone(term))
		dr.posts = append(dr.posts, ps)
	}
	if dim > 0 && r.err == nil {
		n := len(dr.chunks)
		if uint64(len(r.b)) != uint64(n)*(4+dim) {
			r.fail("vectors")
		} else {
			dr.rows, dr.scales = make([]int8, n*int(dim)), make([]float32, n)
			for i := range n {
				s := math.Float32frombits(binary.LittleEndian.Uint32(r.bytes(4, "scale")))
				if !(s >= 0 && s < 1) {
					r.fail("scale")
					break
				}
				dr.scales[i] = s
				for j, x := range r.bytes(int(dim), "vector") {
					dr.rows[i*int(dim)+j] = int8(x)
				}
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("delta length")
	}
	if r.err != nil {
		return nil, r.err
	}
	// A document of the delta replaces the table's at its path, which
	// must then be gone.
	for _, d := range dr.docs {
		if id, ok := t.find(d.path); ok && !inSorted(dr.gone, id) {
			return nil, fmt.Errorf("%w: delta document %s is in the index file too", errCorrupt, d.path)
		}
	}
	return dr, nil
}

// inSorted reports whether id is in the increasing ids.
func inSorted(ids []uint32, id uint32) bool {
	lo, hi := 0, len(ids)
	for lo < hi {
		m := (lo + hi) / 2
		if ids[m] < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(ids) && ids[lo] == id
}
