//go:build amd64 && !noasm

#include "textflag.h"

// func addRowsF32AVX2(acc, rows, gids, v unsafe.Pointer, n, w, groups int) int
// For each of n rows: rows[g]++, acc[g*w+j] += float64(v[j]) for j < w
// (v advancing by w), g = gids[i]; w is a positive multiple of 4, n > 0.
// It stops before a row whose g is outside [0, groups) and returns the
// rows done. Widths that are multiples of 16 take 16 elements a step.
TEXT ·addRowsF32AVX2(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), DI
	MOVQ rows+8(FP), BX
	MOVQ gids+16(FP), DX
	MOVQ v+24(FP), SI
	MOVQ n+32(FP), CX
	MOVQ w+40(FP), R13
	MOVQ groups+48(FP), R14
	MOVQ CX, R15 // rows left
	TESTQ $15, R13
	JNZ row4

row16:
	MOVLQSX (DX), R8
	CMPQ R8, R14
	JAE out
	INCQ (BX)(R8*8)
	IMULQ R13, R8
	LEAQ (DI)(R8*8), R9 // the group's accumulators
	MOVQ R13, R10
step16:
	VCVTPS2PD 0(SI), Y0
	VCVTPS2PD 16(SI), Y1
	VCVTPS2PD 32(SI), Y2
	VCVTPS2PD 48(SI), Y3
	VADDPD 0(R9), Y0, Y0
	VADDPD 32(R9), Y1, Y1
	VADDPD 64(R9), Y2, Y2
	VADDPD 96(R9), Y3, Y3
	VMOVUPD Y0, 0(R9)
	VMOVUPD Y1, 32(R9)
	VMOVUPD Y2, 64(R9)
	VMOVUPD Y3, 96(R9)
	ADDQ $64, SI
	ADDQ $128, R9
	SUBQ $16, R10
	JNZ step16
	ADDQ $4, DX
	DECQ R15
	JNZ row16
	JMP out

row4:
	MOVLQSX (DX), R8
	CMPQ R8, R14
	JAE out
	INCQ (BX)(R8*8)
	IMULQ R13, R8
	LEAQ (DI)(R8*8), R9
	MOVQ R13, R10
step4:
	VCVTPS2PD 0(SI), Y0
	VADDPD 0(R9), Y0, Y0
	VMOVUPD Y0, 0(R9)
	ADDQ $16, SI
	ADDQ $32, R9
	SUBQ $4, R10
	JNZ step4
	ADDQ $4, DX
	DECQ R15
	JNZ row4

out:
	VZEROUPPER
	SUBQ R15, CX
	MOVQ CX, ret+56(FP)
	RET
