package docsearch

import (
	"math/rand/v2"
	"testing"
)

// clustered returns n unit vectors of dim dimensions around 300 random
// centres, as embeddings of related texts lie.
func clustered(r *rand.Rand, n, dim int) vectors {
	centres := make([][]float32, 300)
	for c := range centres {
		centres[c] = make([]float32, dim)
		for j := range centres[c] {
			centres[c][j] = float32(r.NormFloat64())
		}
	}
	data := make([]float32, n*dim)
	for i := range n {
		row, c := data[i*dim:(i+1)*dim], centres[r.IntN(len(centres))]
		for j := range row {
			row[j] = c[j] + 0.7*float32(r.NormFloat64())
		}
		normalize(row)
	}
	return rowsOf(dim, data)
}

// overlap counts the chunks of got that want holds too, and got's length.
func overlap(want, got []scored) (same, total int) {
	in := map[uint32]bool{}
	for _, s := range want {
		in[s.chunk] = true
	}
	for _, s := range got {
		if in[s.chunk] {
			same++
		}
	}
	return same, len(got)
}

// TestSketchRecall checks that the sketched search finds nearly the
// neighbours the exact scan finds, for both widths of sketch.
func TestSketchRecall(t *testing.T) {
	all := func(uint32) bool { return true }
	for _, dim := range []int{256, 100} {
		r := rand.New(rand.NewPCG(7, uint64(dim)))
		v := clustered(r, sketchMin+5000, dim)
		v.resketch()
		if v.sk.rows() != v.chunks() {
			t.Fatalf("dim %d: %d of %d rows sketched", dim, v.sk.rows(), v.chunks())
		}
		same, total := 0, 0
		for qi := range 50 {
			q := rowFloats(&v, uint32(qi*401))
			for j := range q {
				q[j] += 0.3 * float32(r.NormFloat64())
			}
			normalize(q)
			s, n := overlap(v.searchExact(q, 10, all), v.search(q, 10, all))
			same, total = same+s, total+n
		}
		if recall := float64(same) / float64(total); recall < 0.9 {
			t.Errorf("dim %d: sketched recall@10 = %.3f, want >= 0.9", dim, recall)
		}
	}
}

// TestSketchFollowsChanges checks that rows added or rewritten after the
// sketches were made are found, and that a narrow filter is honoured.
func TestSketchFollowsChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	v := clustered(r, sketchMin, 64)
	v.resketch()
	q := make([]float32, 64)
	for j := range q {
		q[j] = float32(r.NormFloat64())
	}
	normalize(q)
	all := func(uint32) bool { return true }

	// A new row equal to the query, before and after it is sketched.
	n := uint32(v.chunks())
	v.growTo(int(n) + 1)
	v.set(n, q)
	if got := v.search(q, 5, all); got[0].chunk != n {
		t.Errorf("unsketched new row not first: %+v", got)
	}
	v.extendSketch()
	if v.sk.rows() != int(n) {
		t.Errorf("%d rows sketched after extendSketch of one new row, want %d (left to the exact scan)", v.sk.rows(), n)
	}
	if got := v.search(q, 5, all); got[0].chunk != n {
		t.Errorf("new row left unsketched not first: %+v", got)
	}
	v.completeSketch()
	if v.sk.rows() != v.chunks() {
		t.Errorf("%d of %d rows sketched after completeSketch", v.sk.rows(), v.chunks())
	}
	if got := v.search(q, 5, all); got[0].chunk != n {
		t.Errorf("sketched new row not first: %+v", got)
	}

	// An old row rewritten in place to the query.
	v.set(3, q)
	v.sketchRow(3)
	if got := v.search(q, 5, all); got[0].chunk != 3 && got[1].chunk != 3 {
		t.Errorf("rewritten row not among the first two: %+v", got)
	}

	// A filter that keeps 1 row in 1,000: the same as the exact scan.
	keep := func(c uint32) bool { return c%1000 == 7 }
	got, want := v.search(q, 5, keep), v.searchExact(q, 5, keep)
	if len(got) != len(want) {
		t.Fatalf("filtered: %d results, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].chunk != want[i].chunk || got[i].chunk%1000 != 7 {
			t.Errorf("filtered result %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// BenchmarkVectorSearchSketched scans 100,000 rows of 256 dimensions by
// sketch, against the exact scan.
func BenchmarkVectorSearchSketched(b *testing.B) {
	r := rand.New(rand.NewPCG(10, 11))
	v := clustered(r, 100000, 256)
	q := rowFloats(&v, 7)
	all := func(uint32) bool { return true }
	b.Run("exact", func(b *testing.B) {
		for b.Loop() {
			v.searchExact(q, candidates, all)
		}
	})
	v.resketch()
	b.Run("sketched", func(b *testing.B) {
		for b.Loop() {
			v.search(q, candidates, all)
		}
	})
}

// TestExtendSketchLeavesFewRows: extendSketch leaves up to unsketchedMax
// new rows to the exact scan, without copying the sketches (mapped from
// the file on a loaded index), and sketches them all past it.
func TestExtendSketchLeavesFewRows(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	v := clustered(r, sketchMin, 64)
	v.resketch()
	base := v.sk.rows()
	bits := &v.sk.bits[0]
	few := unsketchedMax(base)
	v.growTo(base + few)
	v.extendSketch()
	if v.sk.rows() != base || &v.sk.bits[0] != bits {
		t.Fatalf("%d new rows: %d rows sketched (want %d), sketches copied: %v", few, v.sk.rows(), base, &v.sk.bits[0] != bits)
	}
	v.growTo(base + few + 1)
	v.extendSketch()
	if v.sk.rows() != v.chunks() {
		t.Errorf("%d new rows: %d of %d rows sketched", few+1, v.sk.rows(), v.chunks())
	}
}
