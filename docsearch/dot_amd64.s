//go:build !purego

#include "textflag.h"

// func dotInt8AVX2(a, b []int8) int32
//
// 32 elements a step: VPMOVSXBW widens 16 int8s of each vector to int16,
// VPMADDWD multiplies them to int32 and adds neighbouring pairs (at most
// 2·128·128, no overflow), VPADDD sums into two accumulators of eight
// int32 each; the sum of the sixteen lanes is returned. The length is a
// multiple of 32, not zero.
TEXT ·dotInt8AVX2(SB), NOSPLIT, $0-52
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	SHRQ $5, CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

loop:
	VPMOVSXBW (SI), Y2
	VPMOVSXBW (DI), Y3
	VPMADDWD  Y3, Y2, Y2
	VPADDD    Y2, Y0, Y0
	VPMOVSXBW 16(SI), Y4
	VPMOVSXBW 16(DI), Y5
	VPMADDWD  Y5, Y4, Y4
	VPADDD    Y4, Y1, Y1
	ADDQ      $32, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       loop

	VPADDD       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xb1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, AX
	VZEROUPPER
	MOVL         AX, ret+48(FP)
	RET

// permRows puts the row sums sketchDist4AVX512 adds up, which come out
// in the order 0 2 1 3 4 6 5 7, back in row order (VPERMQ's indexes).
DATA permRows<>+0(SB)/8, $0
DATA permRows<>+8(SB)/8, $2
DATA permRows<>+16(SB)/8, $1
DATA permRows<>+24(SB)/8, $3
DATA permRows<>+32(SB)/8, $4
DATA permRows<>+40(SB)/8, $6
DATA permRows<>+48(SB)/8, $5
DATA permRows<>+56(SB)/8, $7
GLOBL permRows<>(SB), RODATA|NOPTR, $64

// func sketchDist4AVX512(bits []uint64, q *[4]uint64, dist []uint8)
//
// Eight rows of four words a step, in four ZMM registers of two rows
// each: XOR with the query (its four words twice), VPOPCNTQ counts each
// word's bits, and three rounds of adds within and across 128-bit lanes
// leave each row's sum in a word: VPUNPCKLQDQ/VPUNPCKHQDQ add the words
// 0+1 and 2+3 of each row, VSHUFI64X2 brings the two halves of a row
// together, VPERMQ puts the rows in order, and VPMOVUSQB stores each sum
// as a byte, 256 saturated to 255.
TEXT ·sketchDist4AVX512(SB), NOSPLIT, $0-56
	MOVQ bits_base+0(FP), SI
	MOVQ q+24(FP), AX
	MOVQ dist_base+32(FP), DI
	MOVQ dist_len+40(FP), CX
	SHRQ $3, CX
	VBROADCASTI64X4 (AX), Z8
	VMOVDQU64       permRows<>(SB), Z9

loop:
	VPXORQ      (SI), Z8, Z0
	VPXORQ      64(SI), Z8, Z1
	VPXORQ      128(SI), Z8, Z2
	VPXORQ      192(SI), Z8, Z3
	VPOPCNTQ    Z0, Z0
	VPOPCNTQ    Z1, Z1
	VPOPCNTQ    Z2, Z2
	VPOPCNTQ    Z3, Z3
	VPUNPCKLQDQ Z1, Z0, Z4
	VPUNPCKHQDQ Z1, Z0, Z5
	VPADDQ      Z5, Z4, Z4
	VPUNPCKLQDQ Z3, Z2, Z6
	VPUNPCKHQDQ Z3, Z2, Z7
	VPADDQ      Z7, Z6, Z6
	VSHUFI64X2  $0x88, Z6, Z4, Z0
	VSHUFI64X2  $0xdd, Z6, Z4, Z1
	VPADDQ      Z1, Z0, Z0
	VPERMQ      Z0, Z9, Z0
	VPMOVUSQB   Z0, (DI)
	ADDQ        $256, SI
	ADDQ        $8, DI
	DECQ        CX
	JNZ         loop

	VZEROUPPER
	RET
