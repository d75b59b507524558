package main

import (
	"math"
	"slices"
)

// pca returns xs centred and projected onto their k principal axes, the
// eigenvectors of their covariance of the k largest eigenvalues, in order
// of decreasing eigenvalue. Each axis's sign makes its largest component
// positive, so the result is a function of xs.
func pca(xs [][]float64, k int) [][]float64 {
	n := len(xs[0])
	mean := make([]float64, n)
	for _, x := range xs {
		for j, v := range x {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(xs))
	}
	cov := make([][]float64, n)
	for i := range cov {
		cov[i] = make([]float64, n)
	}
	c := make([]float64, n)
	for _, x := range xs {
		for j := range c {
			c[j] = x[j] - mean[j]
		}
		for i := range n {
			row, ci := cov[i], c[i]
			for j := i; j < n; j++ {
				row[j] += ci * c[j]
			}
		}
	}
	for i := range n {
		for j := i; j < n; j++ {
			cov[i][j] /= float64(len(xs))
			cov[j][i] = cov[i][j]
		}
	}
	vals, vecs := eigenSym(cov)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	axes := make([][]float64, k) // axes[a][j]: component j of axis a
	for a := range k {
		col := order[a]
		ax := make([]float64, n)
		big := 0
		for j := range n {
			ax[j] = vecs[j][col]
			if math.Abs(ax[j]) > math.Abs(ax[big]) {
				big = j
			}
		}
		if ax[big] < 0 {
			for j := range ax {
				ax[j] = -ax[j]
			}
		}
		axes[a] = ax
	}
	out := make([][]float64, len(xs))
	for i, x := range xs {
		y := make([]float64, k)
		for a, ax := range axes {
			var s float64
			for j := range n {
				s += (x[j] - mean[j]) * ax[j]
			}
			y[a] = s
		}
		out[i] = y
	}
	return out
}

// eigenSym returns the eigenvalues of the symmetric matrix a and the
// eigenvectors as the columns of the second result, by cyclic Jacobi
// rotations until the off-diagonal part is negligible. It overwrites a.
func eigenSym(a [][]float64) ([]float64, [][]float64) {
	n := len(a)
	v := make([][]float64, n)
	for i := range v {
		v[i] = make([]float64, n)
		v[i][i] = 1
	}
	var total float64
	for i := range n {
		for j := range n {
			total += a[i][j] * a[i][j]
		}
	}
	for range 100 {
		var off float64
		for i := range n {
			for j := i + 1; j < n; j++ {
				off += a[i][j] * a[i][j]
			}
		}
		if off <= 1e-24*total {
			break
		}
		for p := range n {
			for q := p + 1; q < n; q++ {
				if math.Abs(a[p][q]) < 1e-300 {
					continue
				}
				// Choose the rotation that zeroes a[p][q]: t = tan φ is the
				// smaller root of t² + 2θt − 1 = 0.
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range n { // columns p and q
					akp, akq := a[k][p], a[k][q]
					a[k][p] = c*akp - s*akq
					a[k][q] = s*akp + c*akq
				}
				rp, rq := a[p], a[q] // rows p and q
				for k := range n {
					apk, aqk := rp[k], rq[k]
					rp[k] = c*apk - s*aqk
					rq[k] = s*apk + c*aqk
				}
				for k := range n {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p] = c*vkp - s*vkq
					v[k][q] = s*vkp + c*vkq
				}
			}
		}
	}
	vals := make([]float64, n)
	for i := range n {
		vals[i] = a[i][i]
	}
	return vals, v
}
