//go:build amd64 && !noasm

#include "textflag.h"

// Widening integer casts (sign or zero extension to twice the width) and
// wrapping add/sub of 8- and 16-bit vectors, 32 source bytes per step.

// func castI8I16AVX2(d, s unsafe.Pointer, n int)
// n is a positive multiple of 32.
TEXT ·castI8I16AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	VPMOVSXBW 0(SI), Y0
	VPMOVSXBW 16(SI), Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JNZ loop
	VZEROUPPER
	RET

// func castU8I16AVX2(d, s unsafe.Pointer, n int)
// n is a positive multiple of 32.
TEXT ·castU8I16AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	VPMOVZXBW 0(SI), Y0
	VPMOVZXBW 16(SI), Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JNZ loop
	VZEROUPPER
	RET

// func castI16I32AVX2(d, s unsafe.Pointer, n int)
// n is a positive multiple of 16.
TEXT ·castI16I32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	VPMOVSXWD 0(SI), Y0
	VPMOVSXWD 16(SI), Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ loop
	VZEROUPPER
	RET

// func castU16I32AVX2(d, s unsafe.Pointer, n int)
// n is a positive multiple of 16.
TEXT ·castU16I32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	VPMOVZXWD 0(SI), Y0
	VPMOVZXWD 16(SI), Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ loop
	VZEROUPPER
	RET

// func castI32I64AVX2(d, s unsafe.Pointer, n int)
// n is a positive multiple of 8.
TEXT ·castI32I64AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	VPMOVSXDQ 0(SI), Y0
	VPMOVSXDQ 16(SI), Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func castU32I64AVX2(d, s unsafe.Pointer, n int)
// n is a positive multiple of 8.
TEXT ·castU32I64AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	VPMOVZXDQ 0(SI), Y0
	VPMOVZXDQ 16(SI), Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func addI8AVX2(d, x, y unsafe.Pointer, n int)
// d = x op y, wrapping; n is a positive multiple of 64.
TEXT ·addI8AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
loop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPADDB 0(DX), Y0, Y0
	VPADDB 32(DX), Y1, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $64, CX
	JNZ loop
	VZEROUPPER
	RET

// func subI8AVX2(d, x, y unsafe.Pointer, n int)
// d = x op y, wrapping; n is a positive multiple of 64.
TEXT ·subI8AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
loop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPSUBB 0(DX), Y0, Y0
	VPSUBB 32(DX), Y1, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $64, CX
	JNZ loop
	VZEROUPPER
	RET

// func addI16AVX2(d, x, y unsafe.Pointer, n int)
// d = x op y, wrapping; n is a positive multiple of 32.
TEXT ·addI16AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
loop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPADDW 0(DX), Y0, Y0
	VPADDW 32(DX), Y1, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $32, CX
	JNZ loop
	VZEROUPPER
	RET

// func subI16AVX2(d, x, y unsafe.Pointer, n int)
// d = x op y, wrapping; n is a positive multiple of 32.
TEXT ·subI16AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
loop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPSUBW 0(DX), Y0, Y0
	VPSUBW 32(DX), Y1, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $32, CX
	JNZ loop
	VZEROUPPER
	RET
