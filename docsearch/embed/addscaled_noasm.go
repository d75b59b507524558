//go:build !amd64 || purego

package embed

// useAVX2 reports whether addScaled runs the AVX2 assembly; never here.
const useAVX2 = false

// addScaled adds c·v to acc: the loop that most of Embed's time goes to.
func addScaled(acc []float32, c float32, v []int8) {
	addScaledGeneric(acc, c, v)
}
