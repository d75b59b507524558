package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestEigenSym(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 12
	b := make([][]float64, n)
	for i := range b {
		b[i] = make([]float64, n)
		for j := range b[i] {
			b[i][j] = r.NormFloat64()
		}
	}
	a := make([][]float64, n) // a = bᵀb, symmetric positive semi-definite
	orig := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		orig[i] = make([]float64, n)
		for j := range a[i] {
			for k := range n {
				a[i][j] += b[k][i] * b[k][j]
			}
			orig[i][j] = a[i][j]
		}
	}
	vals, vecs := eigenSym(a)
	for c := range n {
		for i := range n { // (orig · v)_i = λ v_i
			var s float64
			for j := range n {
				s += orig[i][j] * vecs[j][c]
			}
			if math.Abs(s-vals[c]*vecs[i][c]) > 1e-9*(1+math.Abs(vals[c])) {
				t.Fatalf("eigenpair %d: (Av)_%d = %g, λv_%d = %g", c, i, s, i, vals[c]*vecs[i][c])
			}
		}
	}
}

func TestPCA(t *testing.T) {
	// Points along (1, 1, 0) with a little spread along (0, 0, 1): the
	// first axis is (1, 1, 0)/√2 and carries the spread.
	var xs [][]float64
	for i := range 10 {
		x := float64(i) - 4.5
		xs = append(xs, []float64{x + 3, x + 3, 0.01 * float64(i%2)})
	}
	ys := pca(xs, 1)
	for i, y := range ys {
		want := (float64(i) - 4.5) * math.Sqrt2
		if math.Abs(y[0]-want) > 1e-5 { // the small spread tilts the axis a little
			t.Errorf("point %d: %g, want %g", i, y[0], want)
		}
	}
}
