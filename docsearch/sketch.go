package docsearch

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
)

// Sign sketches make vector search sublinear in practice on large
// indexes. A row's sketch holds one bit per dimension: whether the row
// lies above the mean of all rows there. The fraction of bits two
// sketches differ in estimates the angle between the rows (random
// hyperplane hashing, as in SimHash), so a search counts differing bits
// over every row, a few machine words each, keeps the rows nearest by
// that count and scores only those exactly. Below sketchMin rows the
// exact scan is fast enough and nothing is sketched.
const (
	sketchMin = 20000
	// shortlistPer is how many rows are scored exactly per row asked
	// for; shortlistMin is the least.
	shortlistPer = 10
	shortlistMin = 2000
)

// sketches are the sign sketches of a vectors' first rows.
type sketches struct {
	mean  []float32
	words int      // uint64s per row
	bits  []uint64 // words per row, for rows [0, len(bits)/words)
	base  int      // rows when mean was computed
}

func (s *sketches) rows() int {
	if s.words == 0 {
		return 0
	}
	return len(s.bits) / s.words
}

// resketch computes the mean and the sketch of every row, or drops the
// sketches below sketchMin rows.
func (v *vectors) resketch() {
	n := v.chunks()
	if n < sketchMin || v.dim == 0 {
		v.sk = sketches{}
		return
	}
	mean := make([]float32, v.dim)
	for i := range n {
		v.addTo(mean, uint32(i))
	}
	for j := range mean {
		mean[j] /= float32(n)
	}
	words := (v.dim + 63) / 64
	v.sk = sketches{mean: mean, words: words, base: n, bits: make([]uint64, n*words)}
	// Rows in parallel: at load, this is most of the time left after
	// mapping the file.
	var wg sync.WaitGroup
	parts := runtime.GOMAXPROCS(0)
	for p := range parts {
		wg.Go(func() {
			for i := p * n / parts; i < (p+1)*n/parts; i++ {
				v.sketchRow(uint32(i))
			}
		})
	}
	wg.Wait()
}

// extendSketch sketches the rows added since the last call once there
// are more than unsketchedMax of them, and computes everything again
// once the rows have doubled since the mean was taken.
// Until then search scores those rows exactly, so it is never needed for
// correct results, only for fast ones. An update calls it once, when it
// ends, rather than per committed batch: extending the sketches as every
// batch entered reallocated them each time, 1 CPU-s of building a 127 MB
// docs set, all of it while holding the index's lock.
func (v *vectors) extendSketch() { v.sketchAdded(false) }

// completeSketch sketches every row added since the last call: a save
// writes the sketches only when they cover every row, and a load without
// them computes them all again.
func (v *vectors) completeSketch() { v.sketchAdded(true) }

// unsketchedMax is how many rows added since the sketches were made
// extendSketch leaves unsketched, to be scored exactly by search.
// Extending the sketches copies them, and on a loaded index they are
// mapped from its file: a delta of a few hundred chunks loaded on the
// Linux kernel copied 38 MB of sketches at every CLI search (0.33 s).
func unsketchedMax(rows int) int { return max(4096, rows/64) }

func (v *vectors) sketchAdded(all bool) {
	n := v.chunks()
	if v.sk.words == 0 || n >= 2*v.sk.base {
		if n >= sketchMin {
			v.resketch()
		}
		return
	}
	from := v.sk.rows()
	if n <= from || !all && n-from <= unsketchedMax(from) {
		return
	}
	v.sk.bits = append(v.sk.bits, make([]uint64, (n-from)*v.sk.words)...)
	for i := from; i < n; i++ {
		v.sketchRow(uint32(i))
	}
}

// sketchRow computes row i's sketch again, after the row changed.
func (v *vectors) sketchRow(i uint32) {
	if int(i) >= v.sk.rows() {
		return
	}
	r, scale := v.row(i)
	signBitsInt8(r, scale, v.sk.mean, v.sk.bits[int(i)*v.sk.words:int(i+1)*v.sk.words])
}

// signBitsInt8 is signBits of a quantised row, r times scale.
func signBitsInt8(r []int8, scale float32, mean []float32, out []uint64) {
	mean = mean[:len(r)]
	for w := range out {
		lo, hi := w*64, min(w*64+64, len(r))
		var word uint64
		for j := lo; j < hi; j++ {
			word |= uint64(math.Float32bits(mean[j]-float32(r[j])*scale)>>31) << (j - lo)
		}
		out[w] = word
	}
}

// signBits sets out's bit j when x[j] is above mean[j], else clears it:
// the sign bit of mean[j]-x[j], without a branch.
func signBits(x, mean []float32, out []uint64) {
	mean = mean[:len(x)]
	for w := range out {
		lo, hi := w*64, min(w*64+64, len(x))
		var word uint64
		for j := lo; j < hi; j++ {
			word |= uint64(math.Float32bits(mean[j]-x[j])>>31) << (j - lo)
		}
		out[w] = word
	}
}

// distPool holds searchSketched's arrays of distances.
var distPool sync.Pool

// searchSketched is search over a sketched vectors: the rows nearest q by
// sketch, shortlistPer*k of them, are scored exactly if keep takes them,
// and so are the rows added since the sketches were made. When keep
// turns most of the shortlist down (a narrow scope), every row keep takes
// is scored instead.
func (v *vectors) searchSketched(q []float32, k int, keep func(uint32) bool) []scored {
	sk := &v.sk
	qb := make([]uint64, sk.words)
	signBits(q, sk.mean, qb)
	m := sk.rows()
	// Differing bits, at most 255 counted: a byte a row, a megabyte on
	// the Linux kernel, kept for the next search.
	dp, _ := distPool.Get().(*[]uint8)
	if dp == nil {
		dp = new([]uint8)
	}
	defer distPool.Put(dp)
	if cap(*dp) < m {
		*dp = make([]uint8, m)
	}
	dist := (*dp)[:m]
	var hist [256]int
	if sk.words == 4 { // 256 dimensions, the embedded model's
		sketchDist4(sk.bits, (*[4]uint64)(qb), dist)
		hist = histogram(dist)
	} else {
		for i := range m {
			d := 0
			for w, b := range sk.bits[i*sk.words : (i+1)*sk.words] {
				d += bits.OnesCount64(b ^ qb[w])
			}
			d = min(d, 255)
			dist[i] = uint8(d)
			hist[d]++
		}
	}
	// The largest distance that keeps at least the shortlist's length;
	// fewer bits than 256 tell rows apart less well and need a longer
	// one.
	want, cut, total := max(shortlistPer*k, shortlistMin), 0, 0
	if v.dim < 256 {
		want = want * 256 / v.dim
	}
	for ; cut < len(hist)-1; cut++ {
		if total += hist[cut]; total >= want {
			break
		}
	}
	t := topK{k: k}
	qq := newQuery(q)
	kept := 0
	for i, d := range dist {
		if int(d) <= cut && keep(uint32(i)) {
			t.push(uint32(i), v.score(qq, uint32(i)))
			kept++
		}
	}
	if kept < min(want, m)/2 {
		return v.searchExact(q, k, keep)
	}
	for i := m; i < v.chunks(); i++ {
		if keep(uint32(i)) {
			t.push(uint32(i), v.score(qq, uint32(i)))
		}
	}
	return t.sorted()
}

// sketchDist4Generic is sketchDist4 in Go: where there is no assembly,
// and its tail.
func sketchDist4Generic(b []uint64, q *[4]uint64, dist []uint8) {
	q0, q1, q2, q3 := q[0], q[1], q[2], q[3]
	for i := range dist {
		r := b[4*i : 4*i+4 : 4*i+4]
		dist[i] = uint8(min(bits.OnesCount64(r[0]^q0)+bits.OnesCount64(r[1]^q1)+bits.OnesCount64(r[2]^q2)+bits.OnesCount64(r[3]^q3), 255))
	}
}

// histogram counts the rows at each distance, in four tables so that
// neighbouring rows at the same distance do not wait on each other's
// count.
func histogram(dist []uint8) [256]int {
	var h [4][256]int32
	i := 0
	for ; i+4 <= len(dist); i += 4 {
		d := dist[i : i+4 : i+4]
		h[0][d[0]]++
		h[1][d[1]]++
		h[2][d[2]]++
		h[3][d[3]]++
	}
	for ; i < len(dist); i++ {
		h[0][dist[i]]++
	}
	var out [256]int
	for d := range out {
		out[d] = int(h[0][d]) + int(h[1][d]) + int(h[2][d]) + int(h[3][d])
	}
	return out
}
