//go:build amd64 && !noasm

#include "textflag.h"

// func floorDivI32AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)
// dst = x // c (mod != 0: x % c) for int32 x and a divisor c >= 2 whose
// constants (m, sh) are newUdiv(c, 32)'s; n is a positive multiple of 8.
// Per lane: s = x >> 31, u = x ^ s, t = mulhi(m, u),
// q = ((t + ((u - t) >> 1)) >> sh) ^ s; the remainder is x - q*c.
TEXT ·floorDivI32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD m+24(FP), Y15
	MOVQ sh+32(FP), AX
	VMOVQ AX, X14
	VPBROADCASTD c+40(FP), Y13
	MOVQ mod+48(FP), R8
	TESTQ R8, R8
	JNZ modloop
loop:
	VMOVDQU 0(SI), Y0
	VPSRAD $31, Y0, Y1
	VPXOR Y1, Y0, Y2
	VPMULUDQ Y15, Y2, Y3
	VPSRLQ $32, Y3, Y3
	VPSRLQ $32, Y2, Y4
	VPMULUDQ Y15, Y4, Y4
	VPBLENDD $0xAA, Y4, Y3, Y3
	VPSUBD Y3, Y2, Y5
	VPSRLD $1, Y5, Y5
	VPADDD Y3, Y5, Y5
	VPSRLD X14, Y5, Y5
	VPXOR Y1, Y5, Y5
	VMOVDQU Y5, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET
modloop:
	VMOVDQU 0(SI), Y0
	VPSRAD $31, Y0, Y1
	VPXOR Y1, Y0, Y2
	VPMULUDQ Y15, Y2, Y3
	VPSRLQ $32, Y3, Y3
	VPSRLQ $32, Y2, Y4
	VPMULUDQ Y15, Y4, Y4
	VPBLENDD $0xAA, Y4, Y3, Y3
	VPSUBD Y3, Y2, Y5
	VPSRLD $1, Y5, Y5
	VPADDD Y3, Y5, Y5
	VPSRLD X14, Y5, Y5
	VPXOR Y1, Y5, Y5
	VPMULLD Y13, Y5, Y6
	VPSUBD Y6, Y0, Y5
	VMOVDQU Y5, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ modloop
	VZEROUPPER
	RET
