//go:build amd64 && !noasm

#include "textflag.h"

// Floor division and remainder of 8- and 16-bit integers by one divisor
// c >= 2 in 16-bit lanes (intdiv16_amd64.go): bytes are widened to words
// in registers and narrowed back by truncation. Y15 holds the multiplier m
// in every word, X14 the shift l-1 (l = ceil(log2 c)), Y13 c, Y12 0x00ff.

// QS is the quotient of signed words X (and of nonnegative ones): s = X >>
// 15, u = X ^ s (< 2^15), Q = (mulhi(m, u) >> (l-1)) ^ s, with m =
// floor(2^(15+l)/c) + 1 (the round-up method with N = 15).
#define QS(X, S, T, Q) \
	VPSRAW $15, X, S; \
	VPXOR S, X, T; \
	VPMULHUW Y15, T, T; \
	VPSRLW X14, T, T; \
	VPXOR S, T, Q

// QU is the quotient of unsigned words X (< 2^16): t = mulhi(m, X), Q =
// (t + (X - t) >> 1) >> (l-1), with m = floor((2^l - c) 2^16 / c) + 1.
#define QU(X, S, T, Q) \
	VPMULHUW Y15, X, T; \
	VPSUBW T, X, S; \
	VPSRLW $1, S, S; \
	VPADDW T, S, S; \
	VPSRLW X14, S, Q

// REM turns the quotient Q of X into the remainder X - Q*c (mod 2^16).
#define REM(X, Q, T) \
	VPMULLW Y13, Q, T; \
	VPSUBW T, X, Q

// SETUP loads the arguments (dst, x unsafe.Pointer, n int, m, sh uint64,
// c int64, mod int) and the constants.
#define SETUP \
	MOVQ dst+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VPBROADCASTW m+24(FP), Y15; \
	MOVQ sh+32(FP), AX; \
	VMOVQ AX, X14; \
	VPBROADCASTW c+40(FP), Y13; \
	MOVQ $0x00ff00ff00ff00ff, AX; \
	VMOVQ AX, X12; \
	VPBROADCASTQ X12, Y12; \
	MOVQ mod+48(FP), R8

// WORDS is the loop over n (a multiple of 32) words: two vectors a step,
// quotient Q (QS or QU), remainders when MODE is REM (else NOREM).
#define WORDS(LBL, Q, MODE) \
LBL: \
	VMOVDQU 0(SI), Y0; \
	VMOVDQU 32(SI), Y4; \
	Q(Y0, Y1, Y2, Y3); \
	Q(Y4, Y5, Y6, Y7); \
	MODE(Y0, Y3, Y2); \
	MODE(Y4, Y7, Y6); \
	VMOVDQU Y3, 0(DI); \
	VMOVDQU Y7, 32(DI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $32, CX; \
	JNZ LBL

// BYTES is WORDS for n (a multiple of 32) bytes widened by WIDEN
// (VPMOVSXBW or VPMOVZXBW) and narrowed back by truncation.
#define BYTES(LBL, WIDEN, MODE) \
LBL: \
	WIDEN 0(SI), Y0; \
	WIDEN 16(SI), Y4; \
	QS(Y0, Y1, Y2, Y3); \
	QS(Y4, Y5, Y6, Y7); \
	MODE(Y0, Y3, Y2); \
	MODE(Y4, Y7, Y6); \
	VPAND Y12, Y3, Y3; \
	VPAND Y12, Y7, Y7; \
	VPACKUSWB Y7, Y3, Y3; \
	VPERMQ $0xd8, Y3, Y3; \
	VMOVDQU Y3, 0(DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $32, CX; \
	JNZ LBL

#define NOREM(X, Q, T)

// func floorDivI16AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)
TEXT ·floorDivI16AVX2(SB), NOSPLIT, $0-56
	SETUP
	TESTQ R8, R8
	JNZ i16mod
	WORDS(i16div, QS, NOREM)
	VZEROUPPER
	RET
i16mod:
	WORDS(i16rem, QS, REM)
	VZEROUPPER
	RET

// func floorDivU16AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)
TEXT ·floorDivU16AVX2(SB), NOSPLIT, $0-56
	SETUP
	TESTQ R8, R8
	JNZ u16mod
	WORDS(u16div, QU, NOREM)
	VZEROUPPER
	RET
u16mod:
	WORDS(u16rem, QU, REM)
	VZEROUPPER
	RET

// func floorDivI8AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)
TEXT ·floorDivI8AVX2(SB), NOSPLIT, $0-56
	SETUP
	TESTQ R8, R8
	JNZ i8mod
	BYTES(i8div, VPMOVSXBW, NOREM)
	VZEROUPPER
	RET
i8mod:
	BYTES(i8rem, VPMOVSXBW, REM)
	VZEROUPPER
	RET

// func floorDivU8AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)
TEXT ·floorDivU8AVX2(SB), NOSPLIT, $0-56
	SETUP
	TESTQ R8, R8
	JNZ u8mod
	BYTES(u8div, VPMOVZXBW, NOREM)
	VZEROUPPER
	RET
u8mod:
	BYTES(u8rem, VPMOVZXBW, REM)
	VZEROUPPER
	RET
