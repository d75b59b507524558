package docsearch

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestDotInt8 checks dotInt8, which on amd64 with AVX2 is the assembly
// and its tail, against dotInt8Generic and against the plain sum, on
// every length up to 300, every offset of 0-3 into the slices, and the
// extremes (-128·-128 in every lane).
func TestDotInt8(t *testing.T) {
	if !useAVX2 {
		t.Log("no AVX2 assembly here: dotInt8 is dotInt8Generic")
	}
	r := rand.New(rand.NewPCG(1, 2))
	a0, b0 := make([]int8, 304), make([]int8, 304)
	for i := range a0 {
		a0[i], b0[i] = int8(r.IntN(256)-128), int8(r.IntN(256)-128)
	}
	lo := make([]int8, 304)
	for i := range lo {
		lo[i] = -128
	}
	plain := func(a, b []int8) int32 {
		var s int32
		for i := range a {
			s += int32(a[i]) * int32(b[i])
		}
		return s
	}
	for n := 0; n <= 300; n++ {
		for off := range 4 {
			a, b := a0[off:off+n], b0[3-off:3-off+n]
			if got, want := dotInt8(a, b), plain(a, b); got != want || dotInt8Generic(a, b) != want {
				t.Fatalf("n %d offset %d: dotInt8 %d, generic %d, want %d", n, off, got, dotInt8Generic(a, b), want)
			}
			if got, want := dotInt8(lo[off:off+n], lo[:n]), int32(n)*128*128; got != want {
				t.Fatalf("n %d offset %d, all -128: %d, want %d", n, off, got, want)
			}
		}
	}
}

// FuzzDotInt8 checks dotInt8 against the plain sum on any bytes.
func FuzzDotInt8(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{4, 5, 6})
	f.Add(make([]byte, 64), make([]byte, 64))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		n := min(len(x), len(y))
		a, b := make([]int8, n), make([]int8, n)
		var want int32
		for i := range n {
			a[i], b[i] = int8(x[i]), int8(y[i])
			want += int32(a[i]) * int32(b[i])
		}
		if got := dotInt8(a, b); got != want {
			t.Fatalf("dotInt8 = %d, want %d", got, want)
		}
	})
}

// BenchmarkDotInt8 is one row of 256 dimensions against the query, as
// the vector search scores its shortlist.
func BenchmarkDotInt8(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]int8, 256), make([]int8, 256)
	for i := range x {
		x[i], y[i] = int8(r.IntN(256)-128), int8(r.IntN(256)-128)
	}
	for _, c := range []struct {
		name string
		dot  func(a, b []int8) int32
	}{{"generic", dotInt8Generic}, {"dispatch", dotInt8}} {
		b.Run(c.name, func(b *testing.B) {
			var s int32
			for b.Loop() {
				s += c.dot(x, y)
			}
			_ = s
		})
	}
}

// TestSketchDist4 checks sketchDist4, which on amd64 with AVX-512
// VPOPCNTDQ is the assembly and its tail, against the plain count on
// every row count up to 100, rows that differ from the query in every
// bit (256, counted 255) and in none, and histogram against a plain
// count.
func TestSketchDist4(t *testing.T) {
	if !useVPOPCNT {
		t.Log("no AVX-512 assembly here: sketchDist4 is sketchDist4Generic")
	}
	r := rand.New(rand.NewPCG(5, 6))
	q := [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	b := make([]uint64, 4*100)
	for i := range b {
		switch i / 4 % 7 {
		case 3:
			b[i] = ^q[i%4] // every bit differs
		case 5:
			b[i] = q[i%4]
		default:
			b[i] = r.Uint64() & r.Uint64() // skewed counts
		}
	}
	for n := 0; n <= 100; n++ {
		got := make([]uint8, n)
		sketchDist4(b, &q, got)
		var want [256]int
		for i := range n {
			d := 0
			for w := range 4 {
				d += bits.OnesCount64(b[4*i+w] ^ q[w])
			}
			if d = min(d, 255); int(got[i]) != d {
				t.Fatalf("%d rows: row %d at %d, want %d", n, i, got[i], d)
			}
			want[d]++
		}
		if h := histogram(got); h != want {
			t.Fatalf("%d rows: histogram %v, want %v", n, h, want)
		}
	}
}

// FuzzSketchDist4 checks sketchDist4 against sketchDist4Generic on any
// rows.
func FuzzSketchDist4(f *testing.F) {
	f.Add(make([]byte, 8*4*9), uint64(0))
	f.Add([]byte{0xff, 1, 2, 3}, uint64(1<<63|12345))
	f.Fuzz(func(t *testing.T, raw []byte, seed uint64) {
		n := len(raw) / 32
		b := make([]uint64, 4*n)
		for i := range b {
			b[i] = binary.LittleEndian.Uint64(raw[8*i:])
		}
		q := [4]uint64{seed, ^seed, seed * 0x9e3779b97f4a7c15, seed >> 7}
		got, want := make([]uint8, n), make([]uint8, n)
		sketchDist4(b, &q, got)
		sketchDist4Generic(b, &q, want)
		if !bytes.Equal(got, want) {
			t.Fatalf("sketchDist4 %v, generic %v", got, want)
		}
	})
}

// BenchmarkSketchDist4 counts the differing bits of 1,159,802 rows, the
// Linux kernel's chunks, as a vector search of its index does.
func BenchmarkSketchDist4(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	const n = 1159802
	rows := make([]uint64, 4*n)
	for i := range rows {
		rows[i] = r.Uint64()
	}
	q := [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	dist := make([]uint8, n)
	for _, c := range []struct {
		name string
		f    func([]uint64, *[4]uint64, []uint8)
	}{{"generic", sketchDist4Generic}, {"dispatch", sketchDist4}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(rows) * 8))
			for b.Loop() {
				c.f(rows, &q, dist)
				histogram(dist)
			}
		})
	}
}
