//go:build amd64 && !noasm

#include "textflag.h"

// func sqDev4F32AVX2(acc, x, m unsafe.Pointer, n, stride int)
// acc[i] += (x0[i]-m[i])^2 + (x1[i]-m[i])^2 + (x2[i]-m[i])^2 + (x3[i]-m[i])^2
// for four rows xk = x + k*stride bytes; n is a multiple of 8.
TEXT ·sqDev4F32AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), R8
	LEAQ (SI)(R8*2), R9
loop:
	CMPQ CX, $8
	JLT done
	VMOVUPS (DX), Y0
	VMOVUPS (DI), Y1
	VMOVUPS (SI), Y2
	VSUBPS Y0, Y2, Y2
	VMULPS Y2, Y2, Y2
	VADDPS Y2, Y1, Y1
	VMOVUPS (SI)(R8*1), Y3
	VSUBPS Y0, Y3, Y3
	VMULPS Y3, Y3, Y3
	VADDPS Y3, Y1, Y1
	VMOVUPS (R9), Y4
	VSUBPS Y0, Y4, Y4
	VMULPS Y4, Y4, Y4
	VADDPS Y4, Y1, Y1
	VMOVUPS (R9)(R8*1), Y5
	VSUBPS Y0, Y5, Y5
	VMULPS Y5, Y5, Y5
	VADDPS Y5, Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ $32, SI
	ADDQ $32, R9
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP loop
done:
	VZEROUPPER
	RET

// func sqDev4F64AVX2(acc, x, m unsafe.Pointer, n, stride int)
// sqDev4F32AVX2 for float64; n is a multiple of 4.
TEXT ·sqDev4F64AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), R8
	LEAQ (SI)(R8*2), R9
loop:
	CMPQ CX, $4
	JLT done
	VMOVUPD (DX), Y0
	VMOVUPD (DI), Y1
	VMOVUPD (SI), Y2
	VSUBPD Y0, Y2, Y2
	VMULPD Y2, Y2, Y2
	VADDPD Y2, Y1, Y1
	VMOVUPD (SI)(R8*1), Y3
	VSUBPD Y0, Y3, Y3
	VMULPD Y3, Y3, Y3
	VADDPD Y3, Y1, Y1
	VMOVUPD (R9), Y4
	VSUBPD Y0, Y4, Y4
	VMULPD Y4, Y4, Y4
	VADDPD Y4, Y1, Y1
	VMOVUPD (R9)(R8*1), Y5
	VSUBPD Y0, Y5, Y5
	VMULPD Y5, Y5, Y5
	VADDPD Y5, Y1, Y1
	VMOVUPD Y1, (DI)
	ADDQ $32, SI
	ADDQ $32, R9
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $4, CX
	JMP loop
done:
	VZEROUPPER
	RET
