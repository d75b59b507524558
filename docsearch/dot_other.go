//go:build !amd64 || purego

package docsearch

// useAVX2 reports whether dotInt8 runs the AVX2 assembly; never here.
const useAVX2 = false

// dotInt8 returns the dot product of two int8 vectors of the same
// length.
func dotInt8(a, b []int8) int32 { return dotInt8Generic(a, b) }

// useVPOPCNT reports whether sketchDist4 runs the AVX-512 assembly; never
// here.
const useVPOPCNT = false

// sketchDist4 sets dist[i] to the bits in which row i of bits (4 words a
// row) differs from q, at most 255, for every row of dist.
func sketchDist4(bits []uint64, q *[4]uint64, dist []uint8) { sketchDist4Generic(bits, q, dist) }
