//go:build amd64 && !noasm

#include "textflag.h"

// Shifts of 8- and 16-bit integers by one count: func(d, x
// unsafe.Pointer, n int, s, m1, m2 uint64), n a multiple of 32 bytes'
// elements, s the count (the caller clamps it: the width for a shift
// that empties the lane, the width less one for an arithmetic shift that
// fills it with the sign), m1 and m2 byte patterns (see each body).
// BODY shifts Y0 into Y0 by X15, with Y14 = m1 and Y13 = m2.

#define SHIFTK(BODY) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	MOVQ s+24(FP), AX; \
	VMOVQ AX, X15; \
	MOVQ m1+32(FP), AX; \
	VMOVQ AX, X14; \
	VPBROADCASTQ X14, Y14; \
	MOVQ m2+40(FP), AX; \
	VMOVQ AX, X13; \
	VPBROADCASTQ X13, Y13; \
	XORQ BX, BX; \
loop: \
	VMOVDQU 0(SI)(BX*1), Y0; \
	BODY; \
	VMOVDQU Y0, 0(DI)(BX*1); \
	ADDQ $32, BX; \
	CMPQ BX, CX; \
	JLT loop; \
	VZEROUPPER; \
	RET

#define SHL16 VPSLLW X15, Y0, Y0
#define SHR16 VPSRLW X15, Y0, Y0
#define SAR16 VPSRAW X15, Y0, Y0
// bytes: the word shift, then m1 keeps each byte's own bits
#define SHL8 VPSLLW X15, Y0, Y0; VPAND Y14, Y0, Y0
#define SHR8 VPSRLW X15, Y0, Y0; VPAND Y14, Y0, Y0
// signed bytes: ((x ^ 0x80) >> s, masked) - (0x80 >> s), m2 = 0x80 >> s
#define SAR8 VPXOR ·signBytes(SB), Y0, Y0; VPSRLW X15, Y0, Y0; VPAND Y14, Y0, Y0; VPSUBB Y13, Y0, Y0

TEXT ·shl16AVX2(SB), NOSPLIT, $0-48
#define SHIFT 1
	SHIFTK(SHL16)
#undef SHIFT

TEXT ·shr16AVX2(SB), NOSPLIT, $0-48
#define SHIFT 1
	SHIFTK(SHR16)
#undef SHIFT

TEXT ·sar16AVX2(SB), NOSPLIT, $0-48
#define SHIFT 1
	SHIFTK(SAR16)
#undef SHIFT

TEXT ·shl8AVX2(SB), NOSPLIT, $0-48
#define SHIFT 0
	SHIFTK(SHL8)
#undef SHIFT

TEXT ·shr8AVX2(SB), NOSPLIT, $0-48
#define SHIFT 0
	SHIFTK(SHR8)
#undef SHIFT

TEXT ·sar8AVX2(SB), NOSPLIT, $0-48
#define SHIFT 0
	SHIFTK(SAR8)
#undef SHIFT
