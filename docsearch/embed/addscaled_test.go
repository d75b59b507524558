package embed

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scaleFactors are the c the addScaled tests use: zeros, ordinary values,
// a subnormal, ones whose products overflow, infinities and NaNs (a
// signalling one, whose payload the hardware quiets).
var scaleFactors = []float32{
	0, float32(math.Copysign(0, -1)), 1, -1, 0.37, -2.5, 1e-30, 1e-40,
	3e38, -3e38, float32(math.Inf(1)), float32(math.Inf(-1)),
	math.Float32frombits(0x7fc00123), math.Float32frombits(0xffa00001),
}

// randAcc returns n accumulator values: mostly ordinary, with some zeros,
// subnormals, infinities and NaNs, so rounding, overflow, Inf-Inf and NaN
// propagation all happen.
func randAcc(r *rand.Rand, n int) []float32 {
	a := make([]float32, n)
	for i := range a {
		switch r.IntN(40) {
		case 0:
			a[i] = float32(math.Copysign(0, -1))
		case 1:
			a[i] = 1e-41
		case 2:
			a[i] = float32(math.Inf(1 - 2*r.IntN(2)))
		case 3:
			a[i] = math.Float32frombits(0x7fc00000 | r.Uint32()&0x3fffff | r.Uint32()&0x80000000)
		case 4:
			a[i] = float32(r.NormFloat64()) * 3e38
		default:
			a[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(13)-6)))
		}
	}
	return a
}

func randRow(r *rand.Rand, n int) []int8 {
	v := make([]int8, n)
	for i := range v {
		v[i] = int8(r.Uint32())
	}
	return v
}

// TestAddScaled checks addScaled, which on amd64 with AVX2 is the
// assembly, against addScaledGeneric bit for bit (index files and golden
// tests depend on identical vectors): every length 0..300, so every tail
// length after the 32- and 8-wide steps, slices starting off any 32-byte
// boundary, and the special values of scaleFactors and randAcc. The
// padding around each slice must come out untouched.
func TestAddScaled(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 assembly here: addScaled is addScaledGeneric")
	}
	const pad = 40
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 301 {
		acc0 := randAcc(r, n+2*pad)
		v0 := randRow(r, n+2*pad)
		got := make([]float32, len(acc0))
		want := make([]float32, len(acc0))
		for _, c := range scaleFactors {
			for off := range 8 {
				ao, vo := pad-off%4, pad-off
				copy(got, acc0)
				copy(want, acc0)
				addScaled(got[ao:ao+n], c, v0[vo:vo+n])
				addScaledGeneric(want[ao:ao+n], c, v0[vo:vo+n])
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !bothNaN(acc0[i], got[i], want[i]) {
						t.Fatalf("n=%d c=%g acc offset %d, v offset %d: element %d is %#08x, want %#08x (acc %g, v %d)",
							n, c, ao, vo, i-ao, math.Float32bits(got[i]), math.Float32bits(want[i]), acc0[i], v0[i-ao+vo])
					}
				}
			}
		}
	}
}

// bothNaN reports whether a NaN sum of a NaN acc and a NaN product may
// differ in payload: which operand's the hardware keeps depends on the
// operand order, and that is the compiler's choice (the -race build of
// addScaledGeneric puts acc first, the default build the product, as the
// assembly does). Go does not define NaN payloads; everything else must
// match bit for bit.
func bothNaN(acc, got, want float32) bool {
	isNaN := func(x float32) bool { return x != x }
	return isNaN(acc) && isNaN(got) && isNaN(want)
}

// TestAddScaledGeneric checks the Go loop against IEEE single precision
// done in float64: the product of a float32 and an int8 is exact there,
// and float64 is wide enough that rounding the sum to float32 afterwards
// rounds it correctly. A compiler that fused the multiply and the add
// (arm64 does, without the float32 conversion in the loop) would fail.
func TestAddScaledGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 70 {
		v := randRow(r, n)
		acc := randAcc(r, n)
		for _, c := range scaleFactors {
			got := append([]float32(nil), acc...)
			addScaledGeneric(got, c, v)
			for i, w := range v {
				p := float32(float64(c) * float64(w))
				want := float32(float64(acc[i]) + float64(p))
				nan := math.IsNaN(float64(want)) && math.IsNaN(float64(got[i]))
				if math.Float32bits(got[i]) != math.Float32bits(want) && !nan {
					t.Fatalf("n=%d c=%g: element %d is %g, want %g (acc %g, v %d)", n, c, i, got[i], want, acc[i], w)
				}
			}
		}
	}
}

// BenchmarkAddScaled measures one row of the default model's width, the
// call Embed makes per distinct word of a text, on both paths.
func BenchmarkAddScaled(b *testing.B) {
	const dim = 256
	r := rand.New(rand.NewPCG(5, 6))
	v := randRow(r, dim)
	for _, p := range []struct {
		name string
		f    func([]float32, float32, []int8)
		ok   bool
	}{
		{"generic", addScaledGeneric, true},
		{"avx2", addScaled, useAVX2},
	} {
		b.Run(p.name, func(b *testing.B) {
			if !p.ok {
				b.Skip("no AVX2 assembly here")
			}
			acc := make([]float32, dim)
			c := float32(0.37)
			b.SetBytes(dim)
			b.ReportAllocs()
			for b.Loop() {
				p.f(acc, c, v)
				c = -c // keep acc bounded
			}
		})
	}
}
