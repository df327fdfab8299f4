//go:build amd64 && !noasm

#include "textflag.h"

// CompressMask's AVX2 kernels. Per step a vector of src is permuted
// (VPERMD) by the table entry of its lanes' mask bits, so the selected
// lanes come first, and stored whole at dst+k; k grows by the bits set.
// A word is started only while k+72 <= room, so that the stores (at most
// 64 values and 7 past them) stay inside dst.

// 4 values of 8 bytes: the word's next 4 bits in R8 select lanes of
// 32*step(SI)
#define STEP64(step) \
	MOVQ R8, R9; \
	ANDQ $15, R9; \
	MOVQ R9, R10; \
	SHLQ $5, R10; \
	VMOVDQU (R12)(R10*1), Y1; \
	VPERMD (32*step)(SI), Y1, Y2; \
	VMOVDQU Y2, (DI)(R11*8); \
	POPCNTQ R9, R9; \
	ADDQ R9, R11; \
	SHRQ $4, R8

// 8 values of 4 bytes: the word's next 8 bits
#define STEP32(step) \
	MOVQ R8, R9; \
	ANDQ $255, R9; \
	MOVQ R9, R10; \
	SHLQ $5, R10; \
	VMOVDQU (R12)(R10*1), Y1; \
	VPERMD (32*step)(SI), Y1, Y2; \
	VMOVDQU Y2, (DI)(R11*4); \
	POPCNTQ R9, R9; \
	ADDQ R9, R11; \
	SHRQ $8, R8

// func compress64AVX2(dst, src unsafe.Pointer, mask *uint64, words, room int, tab *[16][8]uint32) (k, done int)
TEXT ·compress64AVX2(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ mask+16(FP), DX
	MOVQ words+24(FP), CX
	MOVQ room+32(FP), R13
	MOVQ tab+40(FP), R12
	XORQ R11, R11 // k
	XORQ AX, AX   // words done
word64:
	CMPQ AX, CX
	JAE end64
	LEAQ 72(R11), R9
	CMPQ R9, R13
	JA end64
	MOVQ (DX)(AX*8), R8
	TESTQ R8, R8
	JZ next64
	STEP64(0); STEP64(1); STEP64(2); STEP64(3)
	STEP64(4); STEP64(5); STEP64(6); STEP64(7)
	STEP64(8); STEP64(9); STEP64(10); STEP64(11)
	STEP64(12); STEP64(13); STEP64(14); STEP64(15)
next64:
	ADDQ $512, SI
	INCQ AX
	JMP word64
end64:
	VZEROUPPER
	MOVQ R11, k+48(FP)
	MOVQ AX, done+56(FP)
	RET

// func compress32AVX2(dst, src unsafe.Pointer, mask *uint64, words, room int, tab *[256][8]uint32) (k, done int)
TEXT ·compress32AVX2(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ mask+16(FP), DX
	MOVQ words+24(FP), CX
	MOVQ room+32(FP), R13
	MOVQ tab+40(FP), R12
	XORQ R11, R11
	XORQ AX, AX
word32:
	CMPQ AX, CX
	JAE end32
	LEAQ 72(R11), R9
	CMPQ R9, R13
	JA end32
	MOVQ (DX)(AX*8), R8
	TESTQ R8, R8
	JZ next32
	STEP32(0); STEP32(1); STEP32(2); STEP32(3)
	STEP32(4); STEP32(5); STEP32(6); STEP32(7)
next32:
	ADDQ $256, SI
	INCQ AX
	JMP word32
end32:
	VZEROUPPER
	MOVQ R11, k+48(FP)
	MOVQ AX, done+56(FP)
	RET
