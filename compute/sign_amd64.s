//go:build amd64 && !noasm

#include "textflag.h"

// sign of floats: (x's sign bit | 1.0) where x is a nonzero number, +0
// where x is ±0, x itself where it is NaN (signF's rule, NumPy's).

// SIGNSTEP computes the sign of the vector at off(SI)(DX*1) into
// off(DI)(DX*1): Y14 is the sign mask, Y15 1.0; x, r and m are scratch.
#define SIGNSTEP(MOV, AND, OR, XOR, CMP, BLEND, off, x, r, m) \
	MOV off(SI)(DX*1), x; \
	AND Y14, x, r; \
	OR Y15, r, r; \
	XOR m, m, m; \
	CMP $12, m, x, m; \
	AND m, r, r; \
	CMP $3, x, x, m; \
	BLEND m, x, r, r; \
	MOV r, off(DI)(DX*1)

// SIGN is the body of func(d, x unsafe.Pointer, n int), two vectors a
// step (n a multiple of two vectors' lanes); SIGNBITS and ONE are the
// sign mask and 1.0 of the element type, set with MOVX and broadcast with
// BCAST.
#define SIGN(SHIFT, MOVX, SIGNBITS, ONE, BCAST, MOV, AND, OR, XOR, CMP, BLEND) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	MOVX SIGNBITS, AX; \
	VMOVQ AX, X14; \
	BCAST X14, Y14; \
	MOVX ONE, AX; \
	VMOVQ AX, X15; \
	BCAST X15, Y15; \
	XORQ DX, DX; \
loop: \
	CMPQ DX, CX; \
	JGE done; \
	SIGNSTEP(MOV, AND, OR, XOR, CMP, BLEND, 0, Y0, Y1, Y2); \
	SIGNSTEP(MOV, AND, OR, XOR, CMP, BLEND, 32, Y3, Y4, Y5); \
	ADDQ $64, DX; \
	JMP loop; \
done: \
	VZEROUPPER; \
	RET

// func signF32AVX2(d, x unsafe.Pointer, n int)
TEXT ·signF32AVX2(SB), NOSPLIT, $0-24
	SIGN(2, MOVL, $0x80000000, $0x3f800000, VPBROADCASTD, VMOVUPS, VANDPS, VORPS, VXORPS, VCMPPS, VBLENDVPS)

// func signF64AVX2(d, x unsafe.Pointer, n int)
TEXT ·signF64AVX2(SB), NOSPLIT, $0-24
	SIGN(3, MOVQ, $0x8000000000000000, $0x3ff0000000000000, VPBROADCASTQ, VMOVUPD, VANDPD, VORPD, VXORPD, VCMPPD, VBLENDVPD)
