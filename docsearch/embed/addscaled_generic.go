package embed

// addScaledGeneric adds c·v to acc, acc[i] += c*float32(v[i]) for each i
// of v, eight elements a step. acc must be at least as long as v.
//
// It is addScaled on every architecture without an assembly version, on
// amd64 without AVX2 or under -tags purego, and the tail (len(v) mod 8) of
// the AVX2 version. The AVX2 version must match it bit for bit: multiply
// rounded to float32, then add rounded to float32, no fused multiply-add
// (the Go compiler fuses none at the default GOAMD64=v1).
func addScaledGeneric(acc []float32, c float32, v []int8) {
	acc = acc[:len(v)]
	j := 0
	for ; j+8 <= len(v); j += 8 {
		a, w := acc[j:j+8:j+8], v[j:j+8:j+8]
		a[0] += float32(c * float32(w[0]))
		a[1] += float32(c * float32(w[1]))
		a[2] += float32(c * float32(w[2]))
		a[3] += float32(c * float32(w[3]))
		a[4] += float32(c * float32(w[4]))
		a[5] += float32(c * float32(w[5]))
		a[6] += float32(c * float32(w[6]))
		a[7] += float32(c * float32(w[7]))
	}
	for ; j < len(v); j++ {
		acc[j] += float32(c * float32(v[j]))
	}
}
