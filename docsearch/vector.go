package docsearch

import (
	"container/heap"
	"slices"
)

// vectors holds one unit vector per chunk, row after row, and searches
// them exactly: a scan of dot products. Exact search needs no training,
// no tuning and no approximation error. The scan is not what bounds
// query time at the scale of a workspace's docs; see BenchmarkVectorSearch
// for the float32 and int8 figures.
//
// Rows are stored in blocks of blockRows, so that an index growing
// through many commits never copies the rows it has: a single slice
// reallocated as it grew copied, and faulted in, hundreds of megabytes
// while indexing a large docs set.
type vectors struct {
	dim    int
	blocks [][]float32 // blockRows rows each; the last may be shorter when it aliases a loaded file
	n      int         // rows; a dead or unembedded chunk's row is zero
	q      []int8      // int8 copy of the rows when quantized; nil otherwise
	qs     []float32   // per-row scale of q
	sk     sketches    // sign sketches of large float32 indexes; see sketch.go
}

// blockRows is the number of rows of a block: 1 MB at 256 dimensions.
const blockRows = 1024

// row returns chunk i's vector.
func (v *vectors) row(i uint32) []float32 {
	o := int(i%blockRows) * v.dim
	return v.blocks[i/blockRows][o : o+v.dim : o+v.dim]
}

// chunks returns the number of rows.
func (v *vectors) chunks() int { return v.n }

// setRows makes data, n rows of v.dim floats one after another, v's rows.
// The blocks alias data, which is not copied.
func (v *vectors) setRows(data []float32) {
	v.blocks, v.n = v.blocks[:0], 0
	if v.dim == 0 {
		return
	}
	v.n = len(data) / v.dim
	size := blockRows * v.dim
	for len(data) > 0 {
		k := min(size, len(data))
		v.blocks = append(v.blocks, data[:k:k])
		data = data[k:]
	}
}

// growTo makes room for n rows, with zero rows for chunks without a
// vector. A new block is zero; a short last block, aliasing a loaded file,
// is copied into a full one first.
func (v *vectors) growTo(n int) {
	if v.dim == 0 {
		return
	}
	size := blockRows * v.dim
	for v.n < n {
		k := v.n / blockRows
		switch {
		case k == len(v.blocks):
			v.blocks = append(v.blocks, make([]float32, size))
		case len(v.blocks[k]) < size:
			full := make([]float32, size)
			copy(full, v.blocks[k])
			v.blocks[k] = full
		}
		v.n = min(n, (k+1)*blockRows)
	}
}

// scored is a chunk and its score.
type scored struct {
	chunk uint32
	score float32
}

// topK keeps the k highest scores seen.
type topK struct {
	k int
	h minHeap
}

func (t *topK) push(c uint32, s float32) {
	if len(t.h) < t.k {
		heap.Push(&t.h, scored{c, s})
		return
	}
	if s > t.h[0].score || s == t.h[0].score && c < t.h[0].chunk {
		t.h[0] = scored{c, s}
		heap.Fix(&t.h, 0)
	}
}

// sorted returns the kept scores, best first, ties by chunk ID.
func (t *topK) sorted() []scored {
	out := make([]scored, len(t.h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&t.h).(scored)
	}
	return out
}

type minHeap []scored

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].chunk > h[j].chunk
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// search returns the k chunks most similar to q among those keep accepts.
func (v *vectors) search(q []float32, k int, keep func(uint32) bool) []scored {
	if v.q != nil {
		t := topK{k: k}
		qq, qs := quantize(q)
		nq := len(v.qs) // rows added since the last settle have no int8 copy yet
		for i := range v.chunks() {
			if !keep(uint32(i)) {
				continue
			}
			if i < nq {
				t.push(uint32(i), float32(dotInt8(qq, v.q[i*v.dim:(i+1)*v.dim]))*qs*v.qs[i])
			} else {
				t.push(uint32(i), dot(q, v.row(uint32(i))))
			}
		}
		return t.sorted()
	}
	if v.sk.rows() > 0 {
		return v.searchSketched(q, k, keep)
	}
	return v.searchExact(q, k, keep)
}

// searchExact scores every row.
func (v *vectors) searchExact(q []float32, k int, keep func(uint32) bool) []scored {
	t := topK{k: k}
	for i := range v.chunks() {
		if !keep(uint32(i)) {
			continue
		}
		t.push(uint32(i), dot(q, v.row(uint32(i))))
	}
	return t.sorted()
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

func dotInt8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// quantize maps v to int8 with a scale: v[i] ≈ q[i] * scale.
func quantize(v []float32) ([]int8, float32) {
	q := make([]int8, len(v))
	return q, quantizeTo(q, v)
}

// quantizeTo writes v as int8 into q, which has v's length, and returns
// the scale.
func quantizeTo(q []int8, v []float32) float32 {
	var m float32
	for _, x := range v {
		m = max(m, x, -x)
	}
	if m == 0 {
		clear(q)
		return 0
	}
	scale := m / 127
	for i, x := range v {
		q[i] = int8(x / scale)
	}
	return scale
}

// quantizeAll fills the int8 copy of every row.
func (v *vectors) quantizeAll() {
	v.q, v.qs = nil, nil
	v.extendQuant()
}

// extendQuant fills the int8 copy of the rows added since the last call.
func (v *vectors) extendQuant() {
	from, n := len(v.qs), v.chunks()
	if n <= from || v.dim == 0 {
		return
	}
	v.q = slices.Grow(v.q, (n-from)*v.dim)[:n*v.dim]
	v.qs = slices.Grow(v.qs, n-from)[:n]
	for i := from; i < n; i++ {
		v.qs[i] = quantizeTo(v.q[i*v.dim:(i+1)*v.dim], v.row(uint32(i)))
	}
}
