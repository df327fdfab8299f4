//go:build amd64 && !noasm

#include "textflag.h"

// Elementwise integer and bool kernels that AVX2 has no generated form
// of: multiplication of 8- and 16-bit lanes, absolute values, and bool
// add (or) and multiply (and). A binary kernel is func(d, x, y
// unsafe.Pointer, n int) in the VV, VS or SV form (a scalar broadcast
// once by PRE), a unary one func(d, x unsafe.Pointer, n int); n is a
// positive multiple of 32 bytes' elements. BODY computes Y2 from x in Y0
// (and y in Y1), with Y3 and Y4 as scratch and the constants of SETUPK.

#define SETUPK \
	MOVQ $0x00ff00ff00ff00ff, AX; \
	VMOVQ AX, X12; \
	VPBROADCASTQ X12, Y12; \
	VPXOR Y11, Y11, Y11

#define LOADX(off) VMOVDQU off(SI), Y0
#define LOADY(off) VMOVDQU off(DX), Y1
#define NOLOAD(off)
#define PREVV(BCAST)
#define PREVS(BCAST) BCAST 0(DX), Y1
#define PRESV(BCAST) BCAST 0(SI), Y0

// products of 8-bit lanes: the even bytes are the low bytes of the 16-bit
// products; the odd ones the high bytes of (x >> 8) * (y & 0xff00).
#define MUL8 \
	VPMULLW Y1, Y0, Y2; \
	VPAND Y12, Y2, Y2; \
	VPSRLW $8, Y0, Y3; \
	VPANDN Y1, Y12, Y4; \
	VPMULLW Y4, Y3, Y3; \
	VPOR Y3, Y2, Y2
#define MUL16 VPMULLW Y1, Y0, Y2
#define OR8 VPOR Y1, Y0, Y2
#define AND8 VPAND Y1, Y0, Y2
#define ABS8 VPABSB Y0, Y2
#define ABS16 VPABSW Y0, Y2
#define ABS32 VPABSD Y0, Y2
// |x| = (x ^ s) - s with s = 0 > x (all ones for negative lanes)
#define ABS64 \
	VPCMPGTQ Y0, Y11, Y3; \
	VPXOR Y3, Y0, Y2; \
	VPSUBQ Y3, Y2, Y2

#define BIN(BODY, PRE, LX, LY, BCAST) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ y+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	SHLQ $SHIFT, CX; \
	SETUPK; \
	PRE(BCAST); \
	XORQ BX, BX; \
loop: \
	LX(0); \
	LY(0); \
	BODY; \
	VMOVDQU Y2, 0(DI); \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	ADDQ $32, DI; \
	ADDQ $32, BX; \
	CMPQ BX, CX; \
	JLT loop; \
	VZEROUPPER; \
	RET

#define UN(BODY) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	SETUPK; \
	XORQ BX, BX; \
loop: \
	LOADX(0); \
	BODY; \
	VMOVDQU Y2, 0(DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	ADDQ $32, BX; \
	CMPQ BX, CX; \
	JLT loop; \
	VZEROUPPER; \
	RET

// func mul8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·mul8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MUL8, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func mul8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·mul8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MUL8, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func mul8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·mul8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MUL8, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func mul16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·mul16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MUL16, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func mul16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·mul16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MUL16, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func mul16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·mul16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MUL16, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func or8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·or8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(OR8, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func or8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·or8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(OR8, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func or8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·or8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(OR8, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func and8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·and8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(AND8, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func and8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·and8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(AND8, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func and8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·and8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(AND8, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func abs8AVX2(d, x unsafe.Pointer, n int)
TEXT ·abs8AVX2(SB), NOSPLIT, $0-24
#define SHIFT 0
	UN(ABS8)
#undef SHIFT

// func abs16AVX2(d, x unsafe.Pointer, n int)
TEXT ·abs16AVX2(SB), NOSPLIT, $0-24
#define SHIFT 1
	UN(ABS16)
#undef SHIFT

// func abs32AVX2(d, x unsafe.Pointer, n int)
TEXT ·abs32AVX2(SB), NOSPLIT, $0-24
#define SHIFT 2
	UN(ABS32)
#undef SHIFT

// func abs64AVX2(d, x unsafe.Pointer, n int)
TEXT ·abs64AVX2(SB), NOSPLIT, $0-24
#define SHIFT 3
	UN(ABS64)
#undef SHIFT
