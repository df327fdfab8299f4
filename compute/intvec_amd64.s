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
	MOVQ $0x8000000000000000, AX; \
	VMOVQ AX, X13; \
	VPBROADCASTQ X13, Y13; \
	VPCMPEQB Y10, Y10, Y10; \
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

#define MAXSB VPMAXSB Y1, Y0, Y2
#define MINSB VPMINSB Y1, Y0, Y2
#define MAXUB VPMAXUB Y1, Y0, Y2
#define MINUB VPMINUB Y1, Y0, Y2
#define MAXSW VPMAXSW Y1, Y0, Y2
#define MINSW VPMINSW Y1, Y0, Y2
#define MAXUW VPMAXUW Y1, Y0, Y2
#define MINUW VPMINUW Y1, Y0, Y2
#define MAXSD VPMAXSD Y1, Y0, Y2
#define MINSD VPMINSD Y1, Y0, Y2
#define MAXUD VPMAXUD Y1, Y0, Y2
#define MINUD VPMINUD Y1, Y0, Y2
// 64-bit lanes: a compare and a blend (x > y ? x : y for max), unsigned
// with the sign bits flipped (Y13) for the compare only
#define MAXSQ VPCMPGTQ Y1, Y0, Y3; VPBLENDVB Y3, Y0, Y1, Y2
#define MINSQ VPCMPGTQ Y1, Y0, Y3; VPBLENDVB Y3, Y1, Y0, Y2
#define MAXUQ VPXOR Y13, Y0, Y4; VPXOR Y13, Y1, Y5; VPCMPGTQ Y5, Y4, Y3; VPBLENDVB Y3, Y0, Y1, Y2
#define MINUQ VPXOR Y13, Y0, Y4; VPXOR Y13, Y1, Y5; VPCMPGTQ Y5, Y4, Y3; VPBLENDVB Y3, Y1, Y0, Y2
#define XOR8 VPXOR Y1, Y0, Y2
// sign of unsigned lanes: min(x, 1), the ones made from Y10 (all ones)
#define SIGNU8 VPABSB Y10, Y3; VPMINUB Y3, Y0, Y2
#define SIGNU16 VPABSW Y10, Y3; VPMINUW Y3, Y0, Y2
#define SIGNU32 VPABSD Y10, Y3; VPMINUD Y3, Y0, Y2
#define SIGNU64 VPCMPEQQ Y11, Y0, Y3; VPSRLQ $63, Y10, Y4; VPANDN Y4, Y3, Y2
#define NEG8 VPSUBB Y0, Y11, Y2
#define NEG16 VPSUBW Y0, Y11, Y2
#define NEG32 VPSUBD Y0, Y11, Y2
#define NEG64 VPSUBQ Y0, Y11, Y2
// sign of signed lanes: (0 > x) - (x > 0), the compares' masks being -1
#define SIGN8 VPCMPGTB Y11, Y0, Y3; VPCMPGTB Y0, Y11, Y4; VPSUBB Y3, Y4, Y2
#define SIGN16 VPCMPGTW Y11, Y0, Y3; VPCMPGTW Y0, Y11, Y4; VPSUBW Y3, Y4, Y2
#define SIGN32 VPCMPGTD Y11, Y0, Y3; VPCMPGTD Y0, Y11, Y4; VPSUBD Y3, Y4, Y2
#define SIGN64 VPCMPGTQ Y11, Y0, Y3; VPCMPGTQ Y0, Y11, Y4; VPSUBQ Y3, Y4, Y2

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

// func maxI8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MAXSB, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func maxI8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MAXSB, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func maxI8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MAXSB, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func minI8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MINSB, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func minI8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MINSB, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func minI8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MINSB, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func maxU8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MAXUB, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func maxU8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MAXUB, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func maxU8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MAXUB, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func minU8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MINUB, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func minU8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MINUB, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func minU8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(MINUB, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func maxI16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MAXSW, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func maxI16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MAXSW, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func maxI16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MAXSW, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func minI16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MINSW, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func minI16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MINSW, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func minI16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MINSW, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func maxU16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MAXUW, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func maxU16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MAXUW, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func maxU16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MAXUW, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func minU16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MINUW, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func minU16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MINUW, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func minU16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(MINUW, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func maxI32VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI32VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MAXSD, PREVV, LOADX, LOADY, VPBROADCASTD)
#undef SHIFT

// func maxI32VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI32VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MAXSD, PREVS, LOADX, NOLOAD, VPBROADCASTD)
#undef SHIFT

// func maxI32SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI32SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MAXSD, PRESV, NOLOAD, LOADY, VPBROADCASTD)
#undef SHIFT

// func minI32VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI32VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MINSD, PREVV, LOADX, LOADY, VPBROADCASTD)
#undef SHIFT

// func minI32VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI32VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MINSD, PREVS, LOADX, NOLOAD, VPBROADCASTD)
#undef SHIFT

// func minI32SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI32SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MINSD, PRESV, NOLOAD, LOADY, VPBROADCASTD)
#undef SHIFT

// func maxU32VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU32VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MAXUD, PREVV, LOADX, LOADY, VPBROADCASTD)
#undef SHIFT

// func maxU32VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU32VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MAXUD, PREVS, LOADX, NOLOAD, VPBROADCASTD)
#undef SHIFT

// func maxU32SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU32SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MAXUD, PRESV, NOLOAD, LOADY, VPBROADCASTD)
#undef SHIFT

// func minU32VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU32VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MINUD, PREVV, LOADX, LOADY, VPBROADCASTD)
#undef SHIFT

// func minU32VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU32VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MINUD, PREVS, LOADX, NOLOAD, VPBROADCASTD)
#undef SHIFT

// func minU32SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU32SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 2
	BIN(MINUD, PRESV, NOLOAD, LOADY, VPBROADCASTD)
#undef SHIFT

// func maxI64VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI64VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MAXSQ, PREVV, LOADX, LOADY, VPBROADCASTQ)
#undef SHIFT

// func maxI64VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI64VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MAXSQ, PREVS, LOADX, NOLOAD, VPBROADCASTQ)
#undef SHIFT

// func maxI64SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxI64SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MAXSQ, PRESV, NOLOAD, LOADY, VPBROADCASTQ)
#undef SHIFT

// func minI64VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI64VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MINSQ, PREVV, LOADX, LOADY, VPBROADCASTQ)
#undef SHIFT

// func minI64VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI64VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MINSQ, PREVS, LOADX, NOLOAD, VPBROADCASTQ)
#undef SHIFT

// func minI64SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minI64SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MINSQ, PRESV, NOLOAD, LOADY, VPBROADCASTQ)
#undef SHIFT

// func maxU64VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU64VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MAXUQ, PREVV, LOADX, LOADY, VPBROADCASTQ)
#undef SHIFT

// func maxU64VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU64VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MAXUQ, PREVS, LOADX, NOLOAD, VPBROADCASTQ)
#undef SHIFT

// func maxU64SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·maxU64SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MAXUQ, PRESV, NOLOAD, LOADY, VPBROADCASTQ)
#undef SHIFT

// func minU64VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU64VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MINUQ, PREVV, LOADX, LOADY, VPBROADCASTQ)
#undef SHIFT

// func minU64VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU64VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MINUQ, PREVS, LOADX, NOLOAD, VPBROADCASTQ)
#undef SHIFT

// func minU64SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·minU64SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 3
	BIN(MINUQ, PRESV, NOLOAD, LOADY, VPBROADCASTQ)
#undef SHIFT

// func neg8AVX2(d, x unsafe.Pointer, n int)
TEXT ·neg8AVX2(SB), NOSPLIT, $0-24
#define SHIFT 0
	UN(NEG8)
#undef SHIFT

// func neg16AVX2(d, x unsafe.Pointer, n int)
TEXT ·neg16AVX2(SB), NOSPLIT, $0-24
#define SHIFT 1
	UN(NEG16)
#undef SHIFT

// func neg32AVX2(d, x unsafe.Pointer, n int)
TEXT ·neg32AVX2(SB), NOSPLIT, $0-24
#define SHIFT 2
	UN(NEG32)
#undef SHIFT

// func neg64AVX2(d, x unsafe.Pointer, n int)
TEXT ·neg64AVX2(SB), NOSPLIT, $0-24
#define SHIFT 3
	UN(NEG64)
#undef SHIFT

// func sign8AVX2(d, x unsafe.Pointer, n int)
TEXT ·sign8AVX2(SB), NOSPLIT, $0-24
#define SHIFT 0
	UN(SIGN8)
#undef SHIFT

// func sign16AVX2(d, x unsafe.Pointer, n int)
TEXT ·sign16AVX2(SB), NOSPLIT, $0-24
#define SHIFT 1
	UN(SIGN16)
#undef SHIFT

// func sign32AVX2(d, x unsafe.Pointer, n int)
TEXT ·sign32AVX2(SB), NOSPLIT, $0-24
#define SHIFT 2
	UN(SIGN32)
#undef SHIFT

// func sign64AVX2(d, x unsafe.Pointer, n int)
TEXT ·sign64AVX2(SB), NOSPLIT, $0-24
#define SHIFT 3
	UN(SIGN64)
#undef SHIFT

// func xor8VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·xor8VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(XOR8, PREVV, LOADX, LOADY, VPBROADCASTB)
#undef SHIFT

// func xor8VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·xor8VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(XOR8, PREVS, LOADX, NOLOAD, VPBROADCASTB)
#undef SHIFT

// func xor8SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·xor8SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 0
	BIN(XOR8, PRESV, NOLOAD, LOADY, VPBROADCASTB)
#undef SHIFT

// func and16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·and16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(AND8, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func and16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·and16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(AND8, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func and16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·and16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(AND8, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func or16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·or16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(OR8, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func or16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·or16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(OR8, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func or16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·or16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(OR8, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func xor16VVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·xor16VVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(XOR8, PREVV, LOADX, LOADY, VPBROADCASTW)
#undef SHIFT

// func xor16VSAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·xor16VSAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(XOR8, PREVS, LOADX, NOLOAD, VPBROADCASTW)
#undef SHIFT

// func xor16SVAVX2(d, x, y unsafe.Pointer, n int)
TEXT ·xor16SVAVX2(SB), NOSPLIT, $0-32
#define SHIFT 1
	BIN(XOR8, PRESV, NOLOAD, LOADY, VPBROADCASTW)
#undef SHIFT

// func signU8AVX2(d, x unsafe.Pointer, n int)
TEXT ·signU8AVX2(SB), NOSPLIT, $0-24
#define SHIFT 0
	UN(SIGNU8)
#undef SHIFT

// func signU16AVX2(d, x unsafe.Pointer, n int)
TEXT ·signU16AVX2(SB), NOSPLIT, $0-24
#define SHIFT 1
	UN(SIGNU16)
#undef SHIFT

// func signU32AVX2(d, x unsafe.Pointer, n int)
TEXT ·signU32AVX2(SB), NOSPLIT, $0-24
#define SHIFT 2
	UN(SIGNU32)
#undef SHIFT

// func signU64AVX2(d, x unsafe.Pointer, n int)
TEXT ·signU64AVX2(SB), NOSPLIT, $0-24
#define SHIFT 3
	UN(SIGNU64)
#undef SHIFT
