//go:build amd64 && !noasm

#include "textflag.h"

// Extrema of float vectors: VMAXPS/VMINPS into four accumulators, and an
// unordered compare ORed into a NaN flag (the instructions return their
// second operand when either is NaN, so NaN does not stick by itself).
// The caller decides what a zero result means (its sign is not chosen).

// func maxF32AVX2(x unsafe.Pointer, n int) (m float32, nan bool)
// n is a positive multiple of 32.
TEXT ·maxF32AVX2(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VMOVUPS 0(SI), Y0
	VMOVUPS Y0, Y1
	VMOVUPS Y0, Y2
	VMOVUPS Y0, Y3
	VXORPS Y8, Y8, Y8
loop:
	VMOVUPS 0(SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VMAXPS Y4, Y0, Y0
	VMAXPS Y5, Y1, Y1
	VMAXPS Y6, Y2, Y2
	VMAXPS Y7, Y3, Y3
	VCMPPS $3, Y5, Y4, Y9
	VCMPPS $3, Y7, Y6, Y10
	VORPS Y9, Y8, Y8
	VORPS Y10, Y8, Y8
	ADDQ $128, SI
	SUBQ $32, CX
	JNZ loop
	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4E, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xB1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, m+16(FP)
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	SETNE nan+20(FP)
	VZEROUPPER
	RET

// func minF32AVX2(x unsafe.Pointer, n int) (m float32, nan bool)
// n is a positive multiple of 32.
TEXT ·minF32AVX2(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VMOVUPS 0(SI), Y0
	VMOVUPS Y0, Y1
	VMOVUPS Y0, Y2
	VMOVUPS Y0, Y3
	VXORPS Y8, Y8, Y8
loop:
	VMOVUPS 0(SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VMINPS Y4, Y0, Y0
	VMINPS Y5, Y1, Y1
	VMINPS Y6, Y2, Y2
	VMINPS Y7, Y3, Y3
	VCMPPS $3, Y5, Y4, Y9
	VCMPPS $3, Y7, Y6, Y10
	VORPS Y9, Y8, Y8
	VORPS Y10, Y8, Y8
	ADDQ $128, SI
	SUBQ $32, CX
	JNZ loop
	VMINPS Y1, Y0, Y0
	VMINPS Y3, Y2, Y2
	VMINPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPS X1, X0, X0
	VPERMILPS $0x4E, X0, X1
	VMINPS X1, X0, X0
	VPERMILPS $0xB1, X0, X1
	VMINPS X1, X0, X0
	VMOVSS X0, m+16(FP)
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	SETNE nan+20(FP)
	VZEROUPPER
	RET

// func firstGEF32AVX2(x unsafe.Pointer, n int, v float32) int
// The first index i with x[i] >= v (ordered), or -1; n is a multiple of 8.
TEXT ·firstGEF32AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS v+16(FP), Y1
	XORQ DX, DX
loop:
	CMPQ DX, CX
	JGE none
	VMOVUPS 0(SI)(DX*4), Y2
	VCMPPS $13, Y1, Y2, Y0
	VMOVMSKPS Y0, AX
	TESTL AX, AX
	JNZ found
	ADDQ $8, DX
	JMP loop
found:
	BSFL AX, AX
	ADDQ AX, DX
	MOVQ DX, ret+24(FP)
	VZEROUPPER
	RET
none:
	MOVQ $-1, ret+24(FP)
	VZEROUPPER
	RET

// func firstLEF32AVX2(x unsafe.Pointer, n int, v float32) int
// The first index i with x[i] <= v (ordered), or -1; n is a multiple of 8.
TEXT ·firstLEF32AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS v+16(FP), Y1
	XORQ DX, DX
loop:
	CMPQ DX, CX
	JGE none
	VMOVUPS 0(SI)(DX*4), Y2
	VCMPPS $2, Y1, Y2, Y0
	VMOVMSKPS Y0, AX
	TESTL AX, AX
	JNZ found
	ADDQ $8, DX
	JMP loop
found:
	BSFL AX, AX
	ADDQ AX, DX
	MOVQ DX, ret+24(FP)
	VZEROUPPER
	RET
none:
	MOVQ $-1, ret+24(FP)
	VZEROUPPER
	RET

// func maxF64AVX2(x unsafe.Pointer, n int) (m float64, nan bool)
// n is a positive multiple of 16.
TEXT ·maxF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VMOVUPD 0(SI), Y0
	VMOVUPD Y0, Y1
	VMOVUPD Y0, Y2
	VMOVUPD Y0, Y3
	VXORPD Y8, Y8, Y8
loop:
	VMOVUPD 0(SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y6
	VMOVUPD 96(SI), Y7
	VMAXPD Y4, Y0, Y0
	VMAXPD Y5, Y1, Y1
	VMAXPD Y6, Y2, Y2
	VMAXPD Y7, Y3, Y3
	VCMPPD $3, Y5, Y4, Y9
	VCMPPD $3, Y7, Y6, Y10
	VORPD Y9, Y8, Y8
	VORPD Y10, Y8, Y8
	ADDQ $128, SI
	SUBQ $16, CX
	JNZ loop
	VMAXPD Y1, Y0, Y0
	VMAXPD Y3, Y2, Y2
	VMAXPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMAXPD X1, X0, X0
	VMOVSD X0, m+16(FP)
	VMOVMSKPD Y8, AX
	TESTL AX, AX
	SETNE nan+24(FP)
	VZEROUPPER
	RET

// func minF64AVX2(x unsafe.Pointer, n int) (m float64, nan bool)
// n is a positive multiple of 16.
TEXT ·minF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VMOVUPD 0(SI), Y0
	VMOVUPD Y0, Y1
	VMOVUPD Y0, Y2
	VMOVUPD Y0, Y3
	VXORPD Y8, Y8, Y8
loop:
	VMOVUPD 0(SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y6
	VMOVUPD 96(SI), Y7
	VMINPD Y4, Y0, Y0
	VMINPD Y5, Y1, Y1
	VMINPD Y6, Y2, Y2
	VMINPD Y7, Y3, Y3
	VCMPPD $3, Y5, Y4, Y9
	VCMPPD $3, Y7, Y6, Y10
	VORPD Y9, Y8, Y8
	VORPD Y10, Y8, Y8
	ADDQ $128, SI
	SUBQ $16, CX
	JNZ loop
	VMINPD Y1, Y0, Y0
	VMINPD Y3, Y2, Y2
	VMINPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMINPD X1, X0, X0
	VMOVSD X0, m+16(FP)
	VMOVMSKPD Y8, AX
	TESTL AX, AX
	SETNE nan+24(FP)
	VZEROUPPER
	RET

// func firstGEF64AVX2(x unsafe.Pointer, n int, v float64) int
// The first index i with x[i] >= v (ordered), or -1; n is a multiple of 4.
TEXT ·firstGEF64AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD v+16(FP), Y1
	XORQ DX, DX
loop:
	CMPQ DX, CX
	JGE none
	VMOVUPD 0(SI)(DX*8), Y2
	VCMPPD $13, Y1, Y2, Y0
	VMOVMSKPD Y0, AX
	TESTL AX, AX
	JNZ found
	ADDQ $4, DX
	JMP loop
found:
	BSFL AX, AX
	ADDQ AX, DX
	MOVQ DX, ret+24(FP)
	VZEROUPPER
	RET
none:
	MOVQ $-1, ret+24(FP)
	VZEROUPPER
	RET

// func firstLEF64AVX2(x unsafe.Pointer, n int, v float64) int
// The first index i with x[i] <= v (ordered), or -1; n is a multiple of 4.
TEXT ·firstLEF64AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD v+16(FP), Y1
	XORQ DX, DX
loop:
	CMPQ DX, CX
	JGE none
	VMOVUPD 0(SI)(DX*8), Y2
	VCMPPD $2, Y1, Y2, Y0
	VMOVMSKPD Y0, AX
	TESTL AX, AX
	JNZ found
	ADDQ $4, DX
	JMP loop
found:
	BSFL AX, AX
	ADDQ AX, DX
	MOVQ DX, ret+24(FP)
	VZEROUPPER
	RET
none:
	MOVQ $-1, ret+24(FP)
	VZEROUPPER
	RET

// Fused any(x op c) of float vectors: a compare of four vectors against the
// broadcast constant (as c op' x, the constant being the register operand), ORed, tested every 128 bytes, returning at the first
// true element's block (no bool array is written). The predicates are the
// ordered ones (false for NaN) except NE, unordered (true for NaN), as Go's
// operators. n is a multiple of 32 (float32) or 16 (float64).

// func anyGTF32AVX2(x unsafe.Pointer, n int, c float32) bool
// Whether x > c for some x[i], i < n.
TEXT ·anyGTF32AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPS $0x11, 0(SI), Y15, Y0
	VCMPPS $0x11, 32(SI), Y15, Y1
	VCMPPS $0x11, 64(SI), Y15, Y2
	VCMPPS $0x11, 96(SI), Y15, Y3
	VORPS Y1, Y0, Y0
	VORPS Y3, Y2, Y2
	VORPS Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $32, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyGEF32AVX2(x unsafe.Pointer, n int, c float32) bool
// Whether x >= c for some x[i], i < n.
TEXT ·anyGEF32AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPS $0x12, 0(SI), Y15, Y0
	VCMPPS $0x12, 32(SI), Y15, Y1
	VCMPPS $0x12, 64(SI), Y15, Y2
	VCMPPS $0x12, 96(SI), Y15, Y3
	VORPS Y1, Y0, Y0
	VORPS Y3, Y2, Y2
	VORPS Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $32, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyLTF32AVX2(x unsafe.Pointer, n int, c float32) bool
// Whether x < c for some x[i], i < n.
TEXT ·anyLTF32AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPS $0x1e, 0(SI), Y15, Y0
	VCMPPS $0x1e, 32(SI), Y15, Y1
	VCMPPS $0x1e, 64(SI), Y15, Y2
	VCMPPS $0x1e, 96(SI), Y15, Y3
	VORPS Y1, Y0, Y0
	VORPS Y3, Y2, Y2
	VORPS Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $32, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyLEF32AVX2(x unsafe.Pointer, n int, c float32) bool
// Whether x <= c for some x[i], i < n.
TEXT ·anyLEF32AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPS $0x1d, 0(SI), Y15, Y0
	VCMPPS $0x1d, 32(SI), Y15, Y1
	VCMPPS $0x1d, 64(SI), Y15, Y2
	VCMPPS $0x1d, 96(SI), Y15, Y3
	VORPS Y1, Y0, Y0
	VORPS Y3, Y2, Y2
	VORPS Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $32, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyEQF32AVX2(x unsafe.Pointer, n int, c float32) bool
// Whether x == c for some x[i], i < n.
TEXT ·anyEQF32AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPS $0x0, 0(SI), Y15, Y0
	VCMPPS $0x0, 32(SI), Y15, Y1
	VCMPPS $0x0, 64(SI), Y15, Y2
	VCMPPS $0x0, 96(SI), Y15, Y3
	VORPS Y1, Y0, Y0
	VORPS Y3, Y2, Y2
	VORPS Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $32, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyNEF32AVX2(x unsafe.Pointer, n int, c float32) bool
// Whether x != c (true for NaN) for some x[i], i < n.
TEXT ·anyNEF32AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPS $0x4, 0(SI), Y15, Y0
	VCMPPS $0x4, 32(SI), Y15, Y1
	VCMPPS $0x4, 64(SI), Y15, Y2
	VCMPPS $0x4, 96(SI), Y15, Y3
	VORPS Y1, Y0, Y0
	VORPS Y3, Y2, Y2
	VORPS Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $32, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyGTF64AVX2(x unsafe.Pointer, n int, c float64) bool
// Whether x > c for some x[i], i < n.
TEXT ·anyGTF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPD $0x11, 0(SI), Y15, Y0
	VCMPPD $0x11, 32(SI), Y15, Y1
	VCMPPD $0x11, 64(SI), Y15, Y2
	VCMPPD $0x11, 96(SI), Y15, Y3
	VORPD Y1, Y0, Y0
	VORPD Y3, Y2, Y2
	VORPD Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $16, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyGEF64AVX2(x unsafe.Pointer, n int, c float64) bool
// Whether x >= c for some x[i], i < n.
TEXT ·anyGEF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPD $0x12, 0(SI), Y15, Y0
	VCMPPD $0x12, 32(SI), Y15, Y1
	VCMPPD $0x12, 64(SI), Y15, Y2
	VCMPPD $0x12, 96(SI), Y15, Y3
	VORPD Y1, Y0, Y0
	VORPD Y3, Y2, Y2
	VORPD Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $16, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyLTF64AVX2(x unsafe.Pointer, n int, c float64) bool
// Whether x < c for some x[i], i < n.
TEXT ·anyLTF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPD $0x1e, 0(SI), Y15, Y0
	VCMPPD $0x1e, 32(SI), Y15, Y1
	VCMPPD $0x1e, 64(SI), Y15, Y2
	VCMPPD $0x1e, 96(SI), Y15, Y3
	VORPD Y1, Y0, Y0
	VORPD Y3, Y2, Y2
	VORPD Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $16, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyLEF64AVX2(x unsafe.Pointer, n int, c float64) bool
// Whether x <= c for some x[i], i < n.
TEXT ·anyLEF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPD $0x1d, 0(SI), Y15, Y0
	VCMPPD $0x1d, 32(SI), Y15, Y1
	VCMPPD $0x1d, 64(SI), Y15, Y2
	VCMPPD $0x1d, 96(SI), Y15, Y3
	VORPD Y1, Y0, Y0
	VORPD Y3, Y2, Y2
	VORPD Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $16, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyEQF64AVX2(x unsafe.Pointer, n int, c float64) bool
// Whether x == c for some x[i], i < n.
TEXT ·anyEQF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPD $0x0, 0(SI), Y15, Y0
	VCMPPD $0x0, 32(SI), Y15, Y1
	VCMPPD $0x0, 64(SI), Y15, Y2
	VCMPPD $0x0, 96(SI), Y15, Y3
	VORPD Y1, Y0, Y0
	VORPD Y3, Y2, Y2
	VORPD Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $16, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET

// func anyNEF64AVX2(x unsafe.Pointer, n int, c float64) bool
// Whether x != c (true for NaN) for some x[i], i < n.
TEXT ·anyNEF64AVX2(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD c+16(FP), Y15
	XORL AX, AX
loop:
	TESTQ CX, CX
	JZ done
	VCMPPD $0x4, 0(SI), Y15, Y0
	VCMPPD $0x4, 32(SI), Y15, Y1
	VCMPPD $0x4, 64(SI), Y15, Y2
	VCMPPD $0x4, 96(SI), Y15, Y3
	VORPD Y1, Y0, Y0
	VORPD Y3, Y2, Y2
	VORPD Y2, Y0, Y0
	ADDQ $128, SI
	SUBQ $16, CX
	VPTEST Y0, Y0
	JZ loop
	MOVL $1, AX
done:
	MOVB AX, ret+24(FP)
	VZEROUPPER
	RET
