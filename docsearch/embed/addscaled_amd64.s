//go:build !purego

#include "textflag.h"

// func addScaledAVX2(acc []float32, c float32, v []int8)
//
// 32 elements a step in four YMM registers, then 8 a step; the caller does
// the last len(v) mod 8. Each group of 8: VPMOVSXBD widens the int8s to
// int32, VCVTDQ2PS makes them float32 (exactly: |v| <= 128), VMULPS by c
// rounds the product, VADDPS rounds the sum. The operand order is the one
// the compiler gives addScaledGeneric in a default build (w*c, then
// product+acc), so even the payload of NaN+NaN comes out the same.
TEXT ·addScaledAVX2(SB), NOSPLIT, $0-56
	MOVQ         acc_base+0(FP), DI
	MOVQ         v_base+32(FP), SI
	MOVQ         v_len+40(FP), CX
	VBROADCASTSS c+24(FP), Y0
	SHRQ         $3, CX            // CX = groups of 8 left
	JZ           done

loop32:
	CMPQ      CX, $4
	JB        loop8
	VPMOVSXBD (SI), Y1
	VPMOVSXBD 8(SI), Y2
	VPMOVSXBD 16(SI), Y3
	VPMOVSXBD 24(SI), Y4
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VCVTDQ2PS Y4, Y4
	VMULPS    Y0, Y1, Y1
	VMULPS    Y0, Y2, Y2
	VMULPS    Y0, Y3, Y3
	VMULPS    Y0, Y4, Y4
	VADDPS    (DI), Y1, Y1
	VADDPS    32(DI), Y2, Y2
	VADDPS    64(DI), Y3, Y3
	VADDPS    96(DI), Y4, Y4
	VMOVUPS   Y1, (DI)
	VMOVUPS   Y2, 32(DI)
	VMOVUPS   Y3, 64(DI)
	VMOVUPS   Y4, 96(DI)
	ADDQ      $32, SI
	ADDQ      $128, DI
	SUBQ      $4, CX
	JMP       loop32

loop8:
	TESTQ     CX, CX
	JZ        done
	VPMOVSXBD (SI), Y1
	VCVTDQ2PS Y1, Y1
	VMULPS    Y0, Y1, Y1
	VADDPS    (DI), Y1, Y1
	VMOVUPS   Y1, (DI)
	ADDQ      $8, SI
	ADDQ      $32, DI
	DECQ      CX
	JMP       loop8

done:
	VZEROUPPER
	RET
