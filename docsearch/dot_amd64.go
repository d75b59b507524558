//go:build !purego

package docsearch

import "golang.org/x/sys/cpu"

// useAVX2 reports whether dotInt8 runs the AVX2 assembly: the CPU has
// AVX2 and the OS saves the YMM registers (cpu.X86.HasAVX2 checks both).
var useAVX2 = cpu.X86.HasAVX2

// dotInt8 returns the dot product of two int8 vectors of the same
// length. The AVX2 assembly does the multiples of 32 and dotInt8Generic
// the rest; integer sums, so the result is the same to the bit.
func dotInt8(a, b []int8) int32 {
	b = b[:len(a)]
	n := 0
	var s int32
	if useAVX2 {
		n = len(a) &^ 31
		if n > 0 {
			s = dotInt8AVX2(a[:n], b[:n])
		}
	}
	return s + dotInt8Generic(a[n:], b[n:])
}

// dotInt8AVX2 returns the dot product of a and b, whose length is a
// multiple of 32 and at least 32; b at least as long as a. It needs
// AVX2.
//
//go:noescape
func dotInt8AVX2(a, b []int8) int32

// useVPOPCNT reports whether sketchDist4 runs the AVX-512 assembly: the
// CPU counts bits of eight words at once (VPOPCNTQ) and the OS saves the
// ZMM registers (cpu.X86.HasAVX512F checks that).
var useVPOPCNT = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// sketchDist4 sets dist[i] to the bits in which row i of bits (4 words a
// row) differs from q, at most 255, for every row of dist. The AVX-512
// assembly does eight rows a step and sketchDist4Generic the rest.
func sketchDist4(bits []uint64, q *[4]uint64, dist []uint8) {
	n := 0
	if useVPOPCNT {
		n = len(dist) &^ 7
		if n > 0 {
			sketchDist4AVX512(bits[:4*n], q, dist[:n])
		}
	}
	sketchDist4Generic(bits[4*n:], q, dist[n:])
}

// sketchDist4AVX512 is sketchDist4 for a multiple of 8 rows, at least 8;
// bits holds 4 words for each. It needs AVX-512F and VPOPCNTDQ.
//
//go:noescape
func sketchDist4AVX512(bits []uint64, q *[4]uint64, dist []uint8)
