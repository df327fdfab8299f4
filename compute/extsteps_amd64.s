//go:build amd64 && !noasm

#include "textflag.h"

// The steps of max, min, nanmax and nanmin reductions, acc = ext(acc, x)
// lane by lane with a reduction's rule: -0 below +0 whatever the order
// (so that the result does not depend on how the elements are split
// between passes and workers), and NaN when either operand is (max, min)
// or only when both are (nanmax, nanmin). VMAXPS alone gives its second
// operand (x) on a NaN or a tie of zeros: the ordered-equal lanes take
// acc AND x (max: +0 if either is; OR for min: -0 if either is), and then
// the lanes where NAN is NaN take acc: NAN is acc for max and min (a NaN
// in acc is put back; one in x came through VMAXPS), x for nanmax and
// nanmin (a NaN in x leaves acc; one in acc gave way to x).
//
// EXTSTEP(a, x, m, t, b, NAN) leaves the step's result in a; m, t and b
// are scratch.
#define EXTSTEP(EXT, CMP, BITS, BLEND, a, x, m, t, b, NAN) \
	EXT x, a, m; \
	CMP $0, x, a, t; \
	BITS x, a, b; \
	BLEND t, b, m, m; \
	CMP $3, NAN, NAN, t; \
	BLEND t, a, m, a

// ACCEXT is the body of func(acc, x unsafe.Pointer, n int): acc[i] =
// ext(acc[i], x[i]) for i < n, n a multiple of the lanes (32 bytes a step).
#define ACCEXT(SHIFT, MOV, EXT, CMP, BITS, BLEND, NAN) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	XORQ DX, DX; \
loop: \
	CMPQ DX, CX; \
	JGE done; \
	MOV (DI)(DX*1), Y0; \
	MOV (SI)(DX*1), Y1; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y1, Y2, Y3, Y4, NAN); \
	MOV Y0, (DI)(DX*1); \
	ADDQ $32, DX; \
	JMP loop; \
done: \
	VZEROUPPER; \
	RET

// FOLDEXT is the body of func(acc, x unsafe.Pointer, n int): the four
// vectors at acc take x in turn, four vectors a step (n a multiple of four
// vectors' lanes), and are stored back.
#define FOLDEXT(SHIFT, MOV, EXT, CMP, BITS, BLEND) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	MOV 0(DI), Y0; \
	MOV 32(DI), Y1; \
	MOV 64(DI), Y2; \
	MOV 96(DI), Y3; \
	XORQ DX, DX; \
loop: \
	CMPQ DX, CX; \
	JGE done; \
	MOV 0(SI)(DX*1), Y4; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y4, Y5, Y6, Y7, Y4); \
	MOV 32(SI)(DX*1), Y4; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y1, Y4, Y5, Y6, Y7, Y4); \
	MOV 64(SI)(DX*1), Y4; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y2, Y4, Y5, Y6, Y7, Y4); \
	MOV 96(SI)(DX*1), Y4; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y3, Y4, Y5, Y6, Y7, Y4); \
	ADDQ $128, DX; \
	JMP loop; \
done: \
	MOV Y0, 0(DI); \
	MOV Y1, 32(DI); \
	MOV Y2, 64(DI); \
	MOV Y3, 96(DI); \
	VZEROUPPER; \
	RET

// ACCROWS is the body of func(acc, x unsafe.Pointer, n, rows, stride int):
// acc[i] = ext(...ext(ext(acc[i], x[i]), x[stride+i])..., x[(rows-1)·stride+i])
// for i < n (n a multiple of the lanes, stride in bytes): the rows in the
// order of one step a row, so the same results, but four rows at a time
// read side by side (four streams from memory instead of one, and acc
// loaded and stored once per four rows), then one at a time. NAN as in
// EXTSTEP: Y0 (acc) for max and min, Y1 (x) for nanmax and nanmin.
#define ACCROWS(SHIFT, MOV, EXT, CMP, BITS, BLEND, NAN) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	MOVQ rows+24(FP), R8; \
	MOVQ stride+32(FP), R9; \
	LEAQ (R9)(R9*2), R11; \
rows4: \
	CMPQ R8, $4; \
	JLT rows1; \
	XORQ DX, DX; \
loop4: \
	CMPQ DX, CX; \
	JGE next4; \
	MOV (DI)(DX*1), Y0; \
	LEAQ (SI)(DX*1), BX; \
	MOV (BX), Y1; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y1, Y2, Y3, Y4, NAN); \
	MOV (BX)(R9*1), Y1; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y1, Y2, Y3, Y4, NAN); \
	MOV (BX)(R9*2), Y1; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y1, Y2, Y3, Y4, NAN); \
	MOV (BX)(R11*1), Y1; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y1, Y2, Y3, Y4, NAN); \
	MOV Y0, (DI)(DX*1); \
	ADDQ $32, DX; \
	JMP loop4; \
next4: \
	LEAQ (SI)(R9*4), SI; \
	SUBQ $4, R8; \
	JMP rows4; \
rows1: \
	TESTQ R8, R8; \
	JZ done; \
	XORQ DX, DX; \
loop1: \
	CMPQ DX, CX; \
	JGE next1; \
	MOV (DI)(DX*1), Y0; \
	MOV (SI)(DX*1), Y1; \
	EXTSTEP(EXT, CMP, BITS, BLEND, Y0, Y1, Y2, Y3, Y4, NAN); \
	MOV Y0, (DI)(DX*1); \
	ADDQ $32, DX; \
	JMP loop1; \
next1: \
	ADDQ R9, SI; \
	DECQ R8; \
	JMP rows1; \
done: \
	VZEROUPPER; \
	RET

// INTROWS is ACCROWS for the integer max and min (OP a VPMAX or VPMIN, n
// a multiple of 32 bytes' lanes): four rows a step, two chains of two,
// then one row at a time. The order does not matter here: an integer
// max or min is exact, commutative and associative.
#define INTROWS(SHIFT, OP) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	MOVQ rows+24(FP), R8; \
	MOVQ stride+32(FP), R9; \
	LEAQ (R9)(R9*2), R11; \
rows4: \
	CMPQ R8, $4; \
	JLT rows1; \
	XORQ DX, DX; \
loop4: \
	CMPQ DX, CX; \
	JGE next4; \
	LEAQ (SI)(DX*1), BX; \
	VMOVDQU (DI)(DX*1), Y0; \
	VMOVDQU (BX), Y1; \
	OP (BX)(R9*1), Y0, Y0; \
	OP (BX)(R9*2), Y1, Y1; \
	OP (BX)(R11*1), Y0, Y0; \
	OP Y1, Y0, Y0; \
	VMOVDQU Y0, (DI)(DX*1); \
	ADDQ $32, DX; \
	JMP loop4; \
next4: \
	LEAQ (SI)(R9*4), SI; \
	SUBQ $4, R8; \
	JMP rows4; \
rows1: \
	TESTQ R8, R8; \
	JZ done; \
	XORQ DX, DX; \
loop1: \
	CMPQ DX, CX; \
	JGE next1; \
	VMOVDQU (DI)(DX*1), Y0; \
	OP (SI)(DX*1), Y0, Y0; \
	VMOVDQU Y0, (DI)(DX*1); \
	ADDQ $32, DX; \
	JMP loop1; \
next1: \
	ADDQ R9, SI; \
	DECQ R8; \
	JMP rows1; \
done: \
	VZEROUPPER; \
	RET

// max and min over outer axes
TEXT ·accMaxF32AVX2(SB), NOSPLIT, $0-24
	ACCEXT(2, VMOVUPS, VMAXPS, VCMPPS, VANDPS, VBLENDVPS, Y0)

TEXT ·accMinF32AVX2(SB), NOSPLIT, $0-24
	ACCEXT(2, VMOVUPS, VMINPS, VCMPPS, VORPS, VBLENDVPS, Y0)

TEXT ·accMaxF64AVX2(SB), NOSPLIT, $0-24
	ACCEXT(3, VMOVUPD, VMAXPD, VCMPPD, VANDPD, VBLENDVPD, Y0)

TEXT ·accMinF64AVX2(SB), NOSPLIT, $0-24
	ACCEXT(3, VMOVUPD, VMINPD, VCMPPD, VORPD, VBLENDVPD, Y0)

// nanmax and nanmin over outer axes
TEXT ·accFmaxF32AVX2(SB), NOSPLIT, $0-24
	ACCEXT(2, VMOVUPS, VMAXPS, VCMPPS, VANDPS, VBLENDVPS, Y1)

TEXT ·accFminF32AVX2(SB), NOSPLIT, $0-24
	ACCEXT(2, VMOVUPS, VMINPS, VCMPPS, VORPS, VBLENDVPS, Y1)

TEXT ·accFmaxF64AVX2(SB), NOSPLIT, $0-24
	ACCEXT(3, VMOVUPD, VMAXPD, VCMPPD, VANDPD, VBLENDVPD, Y1)

TEXT ·accFminF64AVX2(SB), NOSPLIT, $0-24
	ACCEXT(3, VMOVUPD, VMINPD, VCMPPD, VORPD, VBLENDVPD, Y1)

// nanmax and nanmin of whole arrays (foldNanExtreme)
TEXT ·foldFmaxF32AVX2(SB), NOSPLIT, $0-24
	FOLDEXT(2, VMOVUPS, VMAXPS, VCMPPS, VANDPS, VBLENDVPS)

TEXT ·foldFminF32AVX2(SB), NOSPLIT, $0-24
	FOLDEXT(2, VMOVUPS, VMINPS, VCMPPS, VORPS, VBLENDVPS)

TEXT ·foldFmaxF64AVX2(SB), NOSPLIT, $0-24
	FOLDEXT(3, VMOVUPD, VMAXPD, VCMPPD, VANDPD, VBLENDVPD)

TEXT ·foldFminF64AVX2(SB), NOSPLIT, $0-24
	FOLDEXT(3, VMOVUPD, VMINPD, VCMPPD, VORPD, VBLENDVPD)

// max and min over outer axes, several rows a call
TEXT ·accRowsMaxF32AVX2(SB), NOSPLIT, $0-40
	ACCROWS(2, VMOVUPS, VMAXPS, VCMPPS, VANDPS, VBLENDVPS, Y0)

TEXT ·accRowsMinF32AVX2(SB), NOSPLIT, $0-40
	ACCROWS(2, VMOVUPS, VMINPS, VCMPPS, VORPS, VBLENDVPS, Y0)

TEXT ·accRowsMaxF64AVX2(SB), NOSPLIT, $0-40
	ACCROWS(3, VMOVUPD, VMAXPD, VCMPPD, VANDPD, VBLENDVPD, Y0)

TEXT ·accRowsMinF64AVX2(SB), NOSPLIT, $0-40
	ACCROWS(3, VMOVUPD, VMINPD, VCMPPD, VORPD, VBLENDVPD, Y0)

// nanmax and nanmin over outer axes, several rows a call
TEXT ·accRowsFmaxF32AVX2(SB), NOSPLIT, $0-40
	ACCROWS(2, VMOVUPS, VMAXPS, VCMPPS, VANDPS, VBLENDVPS, Y1)

TEXT ·accRowsFminF32AVX2(SB), NOSPLIT, $0-40
	ACCROWS(2, VMOVUPS, VMINPS, VCMPPS, VORPS, VBLENDVPS, Y1)

TEXT ·accRowsFmaxF64AVX2(SB), NOSPLIT, $0-40
	ACCROWS(3, VMOVUPD, VMAXPD, VCMPPD, VANDPD, VBLENDVPD, Y1)

TEXT ·accRowsFminF64AVX2(SB), NOSPLIT, $0-40
	ACCROWS(3, VMOVUPD, VMINPD, VCMPPD, VORPD, VBLENDVPD, Y1)

// integer max and min over outer axes, several rows a call (uint8 also
// bool)

TEXT ·accRowsMaxU8AVX2(SB), NOSPLIT, $0-40
	INTROWS(0, VPMAXUB)

TEXT ·accRowsMinU8AVX2(SB), NOSPLIT, $0-40
	INTROWS(0, VPMINUB)

TEXT ·accRowsMaxI8AVX2(SB), NOSPLIT, $0-40
	INTROWS(0, VPMAXSB)

TEXT ·accRowsMinI8AVX2(SB), NOSPLIT, $0-40
	INTROWS(0, VPMINSB)

TEXT ·accRowsMaxU16AVX2(SB), NOSPLIT, $0-40
	INTROWS(1, VPMAXUW)

TEXT ·accRowsMinU16AVX2(SB), NOSPLIT, $0-40
	INTROWS(1, VPMINUW)

TEXT ·accRowsMaxI16AVX2(SB), NOSPLIT, $0-40
	INTROWS(1, VPMAXSW)

TEXT ·accRowsMinI16AVX2(SB), NOSPLIT, $0-40
	INTROWS(1, VPMINSW)

TEXT ·accRowsMaxU32AVX2(SB), NOSPLIT, $0-40
	INTROWS(2, VPMAXUD)

TEXT ·accRowsMinU32AVX2(SB), NOSPLIT, $0-40
	INTROWS(2, VPMINUD)

TEXT ·accRowsMaxI32AVX2(SB), NOSPLIT, $0-40
	INTROWS(2, VPMAXSD)

TEXT ·accRowsMinI32AVX2(SB), NOSPLIT, $0-40
	INTROWS(2, VPMINSD)
