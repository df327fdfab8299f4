//go:build amd64 && !noasm

#include "textflag.h"

// Folds of integer max and min: four vectors of accumulators at acc
// (started by the caller from x's first block, foldint_amd64.go) take
// x's values 128 bytes a step (n a multiple of 128 bytes' elements, SHIFT
// the log2 of the element size), then are folded into one vector, stored
// back at acc's first 32 bytes; the caller folds its lanes.

#define FOLDINT(SHIFT, OP) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	VMOVDQU 0(DI), Y0; \
	VMOVDQU 32(DI), Y1; \
	VMOVDQU 64(DI), Y2; \
	VMOVDQU 96(DI), Y3; \
	XORQ DX, DX; \
loop: \
	OP 0(SI)(DX*1), Y0, Y0; \
	OP 32(SI)(DX*1), Y1, Y1; \
	OP 64(SI)(DX*1), Y2, Y2; \
	OP 96(SI)(DX*1), Y3, Y3; \
	ADDQ $128, DX; \
	CMPQ DX, CX; \
	JLT loop; \
	OP Y1, Y0, Y0; \
	OP Y3, Y2, Y2; \
	OP Y2, Y0, Y0; \
	VMOVDQU Y0, 0(DI); \
	VZEROUPPER; \
	RET

// 64-bit lanes have no max or min instruction: a compare and a blend
// (a = x > a ? x : a for max, a > x ? x : a for min). Unsigned values
// are compared with their sign bits flipped (BIAS; the accumulators are
// kept flipped and flipped back at the end).
#define QMAX(x, a, m) VPCMPGTQ a, x, m; VPBLENDVB m, x, a, a
#define QMIN(x, a, m) VPCMPGTQ x, a, m; VPBLENDVB m, x, a, a

#define FOLDQ(STEP, BIAS) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $3, CX; \
	MOVQ $BIAS, AX; \
	VMOVQ AX, X15; \
	VPBROADCASTQ X15, Y15; \
	VPXOR 0(DI), Y15, Y0; \
	VPXOR 32(DI), Y15, Y1; \
	VPXOR 64(DI), Y15, Y2; \
	VPXOR 96(DI), Y15, Y3; \
	XORQ DX, DX; \
loop: \
	VPXOR 0(SI)(DX*1), Y15, Y4; \
	VPXOR 32(SI)(DX*1), Y15, Y5; \
	VPXOR 64(SI)(DX*1), Y15, Y6; \
	VPXOR 96(SI)(DX*1), Y15, Y7; \
	STEP(Y4, Y0, Y8); \
	STEP(Y5, Y1, Y9); \
	STEP(Y6, Y2, Y10); \
	STEP(Y7, Y3, Y11); \
	ADDQ $128, DX; \
	CMPQ DX, CX; \
	JLT loop; \
	VPXOR Y15, Y0, Y0; \
	VPXOR Y15, Y1, Y1; \
	VPXOR Y15, Y2, Y2; \
	VPXOR Y15, Y3, Y3; \
	VMOVDQU Y0, 0(DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI); \
	VMOVDQU Y3, 96(DI); \
	VZEROUPPER; \
	RET

// ACCQ is the body of func(acc, x unsafe.Pointer, n int) for 64-bit max
// or min over outer axes: acc[i] = STEP(acc[i], x[i]), 64 bytes a step
// (n a multiple of 8), BIAS as in FOLDQ.
#define ACCQ(STEP, BIAS) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $3, CX; \
	MOVQ $BIAS, AX; \
	VMOVQ AX, X15; \
	VPBROADCASTQ X15, Y15; \
	XORQ DX, DX; \
accq: \
	VPXOR 0(DI)(DX*1), Y15, Y0; \
	VPXOR 32(DI)(DX*1), Y15, Y1; \
	VPXOR 0(SI)(DX*1), Y15, Y4; \
	VPXOR 32(SI)(DX*1), Y15, Y5; \
	STEP(Y4, Y0, Y8); \
	STEP(Y5, Y1, Y9); \
	VPXOR Y15, Y0, Y0; \
	VPXOR Y15, Y1, Y1; \
	VMOVDQU Y0, 0(DI)(DX*1); \
	VMOVDQU Y1, 32(DI)(DX*1); \
	ADDQ $64, DX; \
	CMPQ DX, CX; \
	JLT accq; \
	VZEROUPPER; \
	RET

// QMUL sets a to the low 64 bits of a * x lane by lane (AVX2 has no
// 64-bit multiply): al*xl + ((ah*xl + al*xh) << 32), with t and u scratch.
#define QMUL(x, a, t, u) \
	VPSRLQ $32, a, t; \
	VPMULUDQ x, t, t; \
	VPSRLQ $32, x, u; \
	VPMULUDQ a, u, u; \
	VPADDQ u, t, t; \
	VPSLLQ $32, t, t; \
	VPMULUDQ x, a, a; \
	VPADDQ t, a, a

// FOLDMULQ is the body of func(acc, x unsafe.Pointer, n int): the four
// vectors at acc take the product of x's int64 (or uint64) values, 128
// bytes a step (n a multiple of 16), wrapping.
#define FOLDMULQ \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $3, CX; \
	VMOVDQU 0(DI), Y0; \
	VMOVDQU 32(DI), Y1; \
	VMOVDQU 64(DI), Y2; \
	VMOVDQU 96(DI), Y3; \
	XORQ DX, DX; \
mulq: \
	VMOVDQU 0(SI)(DX*1), Y4; \
	VMOVDQU 32(SI)(DX*1), Y5; \
	VMOVDQU 64(SI)(DX*1), Y6; \
	VMOVDQU 96(SI)(DX*1), Y7; \
	QMUL(Y4, Y0, Y8, Y9); \
	QMUL(Y5, Y1, Y10, Y11); \
	QMUL(Y6, Y2, Y12, Y13); \
	QMUL(Y7, Y3, Y14, Y15); \
	ADDQ $128, DX; \
	CMPQ DX, CX; \
	JLT mulq; \
	VMOVDQU Y0, 0(DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI); \
	VMOVDQU Y3, 96(DI); \
	VZEROUPPER; \
	RET

// FIRSTEQ is the body of func(x unsafe.Pointer, n int, v unsafe.Pointer)
// int: the index of the first of n elements (a multiple of 32 bytes'
// worth) equal to the element at v (broadcast by BCAST), or -1.
#define FIRSTEQ(SHIFT, CMP, BCAST) \
	MOVQ x+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	SHLQ $SHIFT, CX; \
	MOVQ v+16(FP), R8; \
	BCAST 0(R8), Y1; \
	XORQ DX, DX; \
	MOVQ CX, R9; \
	ANDQ $-128, R9; \
feq4: \
	CMPQ DX, R9; \
	JGE feq; \
	CMP 0(SI)(DX*1), Y1, Y2; \
	CMP 32(SI)(DX*1), Y1, Y3; \
	CMP 64(SI)(DX*1), Y1, Y4; \
	CMP 96(SI)(DX*1), Y1, Y5; \
	VPOR Y2, Y3, Y2; \
	VPOR Y4, Y5, Y4; \
	VPOR Y2, Y4, Y2; \
	VPTEST Y2, Y2; \
	JNZ feq; \
	ADDQ $128, DX; \
	JMP feq4; \
feq: \
	CMPQ DX, CX; \
	JGE none; \
	CMP 0(SI)(DX*1), Y1, Y0; \
	VPMOVMSKB Y0, AX; \
	TESTL AX, AX; \
	JNZ found; \
	ADDQ $32, DX; \
	JMP feq; \
found: \
	BSFL AX, AX; \
	ADDQ DX, AX; \
	SHRQ $SHIFT, AX; \
	MOVQ AX, ret+24(FP); \
	VZEROUPPER; \
	RET; \
none: \
	MOVQ $-1, ret+24(FP); \
	VZEROUPPER; \
	RET

// func firstNonzero8AVX2(x unsafe.Pointer, n int) int: the index of the
// first nonzero byte of n (a multiple of 32) at x, or -1. Blocks of 128
// bytes are or-ed and tested; the block with a nonzero byte (and the
// last blocks of 32) are searched a vector at a time.
TEXT ·firstNonzero8AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VPXOR Y1, Y1, Y1
	XORQ DX, DX
	MOVQ CX, R9
	ANDQ $-128, R9
nz4:
	CMPQ DX, R9
	JGE nz1
	VMOVDQU 0(SI)(DX*1), Y2
	VMOVDQU 64(SI)(DX*1), Y3
	VPOR 32(SI)(DX*1), Y2, Y2
	VPOR 96(SI)(DX*1), Y3, Y3
	VPOR Y2, Y3, Y2
	VPTEST Y2, Y2
	JNZ nz1
	ADDQ $128, DX
	JMP nz4
nz1:
	CMPQ DX, CX
	JGE nznone
	VPCMPEQB 0(SI)(DX*1), Y1, Y0
	VPMOVMSKB Y0, AX
	NOTL AX
	TESTL AX, AX
	JNZ nzfound
	ADDQ $32, DX
	JMP nz1
nzfound:
	BSFL AX, AX
	ADDQ DX, AX
	MOVQ AX, ret+16(FP)
	VZEROUPPER
	RET
nznone:
	MOVQ $-1, ret+16(FP)
	VZEROUPPER
	RET

// func foldMaxU8AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxU8AVX2(SB), NOSPLIT, $0-24
	FOLDINT(0, VPMAXUB)

// func foldMinU8AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinU8AVX2(SB), NOSPLIT, $0-24
	FOLDINT(0, VPMINUB)

// func foldMaxI8AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxI8AVX2(SB), NOSPLIT, $0-24
	FOLDINT(0, VPMAXSB)

// func foldMinI8AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinI8AVX2(SB), NOSPLIT, $0-24
	FOLDINT(0, VPMINSB)

// func foldMaxU16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxU16AVX2(SB), NOSPLIT, $0-24
	FOLDINT(1, VPMAXUW)

// func foldMinU16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinU16AVX2(SB), NOSPLIT, $0-24
	FOLDINT(1, VPMINUW)

// func foldMaxI16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxI16AVX2(SB), NOSPLIT, $0-24
	FOLDINT(1, VPMAXSW)

// func foldMinI16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinI16AVX2(SB), NOSPLIT, $0-24
	FOLDINT(1, VPMINSW)

// func foldMaxU32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxU32AVX2(SB), NOSPLIT, $0-24
	FOLDINT(2, VPMAXUD)

// func foldMinU32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinU32AVX2(SB), NOSPLIT, $0-24
	FOLDINT(2, VPMINUD)

// func foldMaxI32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxI32AVX2(SB), NOSPLIT, $0-24
	FOLDINT(2, VPMAXSD)

// func foldMinI32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinI32AVX2(SB), NOSPLIT, $0-24
	FOLDINT(2, VPMINSD)

// func foldMaxI64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxI64AVX2(SB), NOSPLIT, $0-24
	FOLDQ(QMAX, 0)

// func foldMinI64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinI64AVX2(SB), NOSPLIT, $0-24
	FOLDQ(QMIN, 0)

// func foldMaxU64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMaxU64AVX2(SB), NOSPLIT, $0-24
	FOLDQ(QMAX, -9223372036854775808)

// func foldMinU64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMinU64AVX2(SB), NOSPLIT, $0-24
	FOLDQ(QMIN, -9223372036854775808)

// func firstEq8AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int
TEXT ·firstEq8AVX2(SB), NOSPLIT, $0-32
	FIRSTEQ(0, VPCMPEQB, VPBROADCASTB)

// func firstEq16AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int
TEXT ·firstEq16AVX2(SB), NOSPLIT, $0-32
	FIRSTEQ(1, VPCMPEQW, VPBROADCASTW)

// func firstEq32AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int
TEXT ·firstEq32AVX2(SB), NOSPLIT, $0-32
	FIRSTEQ(2, VPCMPEQD, VPBROADCASTD)

// func firstEq64AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int
TEXT ·firstEq64AVX2(SB), NOSPLIT, $0-32
	FIRSTEQ(3, VPCMPEQQ, VPBROADCASTQ)

// func accMaxI64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxI64AVX2(SB), NOSPLIT, $0-24
	ACCQ(QMAX, 0)

// func accMinI64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinI64AVX2(SB), NOSPLIT, $0-24
	ACCQ(QMIN, 0)

// func accMaxU64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxU64AVX2(SB), NOSPLIT, $0-24
	ACCQ(QMAX, -9223372036854775808)

// func accMinU64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinU64AVX2(SB), NOSPLIT, $0-24
	ACCQ(QMIN, -9223372036854775808)

// func foldMulI64AVX2(acc, x unsafe.Pointer, n int)
TEXT ·foldMulI64AVX2(SB), NOSPLIT, $0-24
	FOLDMULQ
