//go:build amd64 && !noasm

#include "textflag.h"

// CompareMask's AVX2 kernels: x OP lit for 64 values per mask word. The
// predicate is applied as lit OP' x (x read from memory), OP' the operator
// with its operands swapped: x < lit is lit > x (GT_OS, 0x0E), x <= lit is
// lit >= x (GE_OS, 0x0D), x > lit is lit < x (LT_OS, 0x01), x >= lit is
// lit <= x (LE_OS, 0x02); == is EQ_OQ (0x00) and != is NEQ_UQ (0x04, true
// of NaN), so NaN compares as in Go. Each kernel returns the bits set.

// one ymm of 4 float64 (8 float32) at byte offset 32*k into bits
// SHIFT*k.. of R8 (Y0: lit broadcast)
#define STEP64(k, imm) \
	VCMPPD imm, (32*k)(SI), Y0, Y1; \
	VMOVMSKPD Y1, R9; \
	SHLQ $(4*k), R9; \
	ORQ R9, R8

#define STEP32(k, imm) \
	VCMPPS imm, (32*k)(SI), Y0, Y1; \
	VMOVMSKPS Y1, R9; \
	SHLQ $(8*k), R9; \
	ORQ R9, R8

#define KERNEL64(name, imm) \
TEXT name(SB), NOSPLIT, $0-40; \
	MOVQ mask+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ words+16(FP), CX; \
	VBROADCASTSD lit+24(FP), Y0; \
	XORQ AX, AX; \
word: \
	XORQ R8, R8; \
	STEP64(0, imm); STEP64(1, imm); STEP64(2, imm); STEP64(3, imm); \
	STEP64(4, imm); STEP64(5, imm); STEP64(6, imm); STEP64(7, imm); \
	STEP64(8, imm); STEP64(9, imm); STEP64(10, imm); STEP64(11, imm); \
	STEP64(12, imm); STEP64(13, imm); STEP64(14, imm); STEP64(15, imm); \
	MOVQ R8, (DI); \
	POPCNTQ R8, R9; \
	ADDQ R9, AX; \
	ADDQ $8, DI; \
	ADDQ $512, SI; \
	DECQ CX; \
	JNZ word; \
	VZEROUPPER; \
	MOVQ AX, ret+32(FP); \
	RET

#define KERNEL32(name, imm) \
TEXT name(SB), NOSPLIT, $0-40; \
	MOVQ mask+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ words+16(FP), CX; \
	VBROADCASTSS lit+24(FP), Y0; \
	XORQ AX, AX; \
word: \
	XORQ R8, R8; \
	STEP32(0, imm); STEP32(1, imm); STEP32(2, imm); STEP32(3, imm); \
	STEP32(4, imm); STEP32(5, imm); STEP32(6, imm); STEP32(7, imm); \
	MOVQ R8, (DI); \
	POPCNTQ R8, R9; \
	ADDQ R9, AX; \
	ADDQ $8, DI; \
	ADDQ $256, SI; \
	DECQ CX; \
	JNZ word; \
	VZEROUPPER; \
	MOVQ AX, ret+32(FP); \
	RET

// func maskEqF64(mask *uint64, x *float64, words int, lit float64) int
KERNEL64(·maskEqF64, $0x00)

// func maskNeF64(mask *uint64, x *float64, words int, lit float64) int
KERNEL64(·maskNeF64, $0x04)

// func maskLtF64(mask *uint64, x *float64, words int, lit float64) int
KERNEL64(·maskLtF64, $0x0E)

// func maskLeF64(mask *uint64, x *float64, words int, lit float64) int
KERNEL64(·maskLeF64, $0x0D)

// func maskGtF64(mask *uint64, x *float64, words int, lit float64) int
KERNEL64(·maskGtF64, $0x01)

// func maskGeF64(mask *uint64, x *float64, words int, lit float64) int
KERNEL64(·maskGeF64, $0x02)

// func maskEqF32(mask *uint64, x *float32, words int, lit float32) int
KERNEL32(·maskEqF32, $0x00)

// func maskNeF32(mask *uint64, x *float32, words int, lit float32) int
KERNEL32(·maskNeF32, $0x04)

// func maskLtF32(mask *uint64, x *float32, words int, lit float32) int
KERNEL32(·maskLtF32, $0x0E)

// func maskLeF32(mask *uint64, x *float32, words int, lit float32) int
KERNEL32(·maskLeF32, $0x0D)

// func maskGtF32(mask *uint64, x *float32, words int, lit float32) int
KERNEL32(·maskGtF32, $0x01)

// func maskGeF32(mask *uint64, x *float32, words int, lit float32) int
KERNEL32(·maskGeF32, $0x02)
