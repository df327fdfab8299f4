//go:build amd64 && !noasm

#include "textflag.h"

// Extrema of float vectors: VMAXPS/VMINPS into four accumulators, and an
// unordered compare ORed into a NaN flag (the instructions return their
// second operand when either is NaN, so NaN does not stick by itself).
// The caller decides what a zero result means (its sign is not chosen).

// func maxF32AVX2(x unsafe.Pointer, n, q int) (m float32, nan bool)
// n is a positive multiple of 32; q, the elements of one stream, is a
// multiple of 16 (or 0: one stream). While 4q elements are left they are
// read as 4 streams of q elements side by side (more loads from memory in
// flight than one stream gets from the prefetchers); what is left then is
// read as 4 shorter streams, and the last few vectors as one.
TEXT ·maxF32AVX2(SB), NOSPLIT, $0-29
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ q+16(FP), R10
	SHLQ $2, CX // bytes left
	SHLQ $2, R10 // bytes per stream
	VMOVUPS 0(SI), Y0
	VMOVUPS Y0, Y1
	VMOVUPS Y0, Y2
	VMOVUPS Y0, Y3
	VXORPS Y8, Y8, Y8
	TESTQ R10, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
block:
	CMPQ CX, R11
	JLT last
	LEAQ (SI)(R10*1), DI
	LEAQ (DI)(R10*1), R8
	LEAQ (R8)(R10*1), R9
	XORQ DX, DX
streams:
	VMOVUPS 0(SI)(DX*1), Y4
	VMOVUPS 32(SI)(DX*1), Y5
	VMOVUPS 0(DI)(DX*1), Y6
	VMOVUPS 32(DI)(DX*1), Y7
	VMAXPS Y4, Y0, Y0
	VMAXPS Y5, Y1, Y1
	VMAXPS Y6, Y2, Y2
	VMAXPS Y7, Y3, Y3
	VCMPPS $3, Y5, Y4, Y9
	VCMPPS $3, Y7, Y6, Y10
	VORPS Y9, Y8, Y8
	VORPS Y10, Y8, Y8
	VMOVUPS 0(R8)(DX*1), Y4
	VMOVUPS 32(R8)(DX*1), Y5
	VMOVUPS 0(R9)(DX*1), Y6
	VMOVUPS 32(R9)(DX*1), Y7
	VMAXPS Y4, Y0, Y0
	VMAXPS Y5, Y1, Y1
	VMAXPS Y6, Y2, Y2
	VMAXPS Y7, Y3, Y3
	VCMPPS $3, Y5, Y4, Y9
	VCMPPS $3, Y7, Y6, Y10
	VORPS Y9, Y8, Y8
	VORPS Y10, Y8, Y8
	ADDQ $64, DX
	CMPQ DX, R10
	JNE streams
	ADDQ R11, SI
	SUBQ R11, CX
	JMP block
last: // the rest as 4 streams of a multiple of 64 bytes
	MOVQ CX, R10
	SHRQ $2, R10
	ANDQ $~63, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
	JMP block
single:
	TESTQ CX, CX
	JZ done
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
	SUBQ $128, CX
	JNZ loop
done:
	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4E, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xB1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, m+24(FP)
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	SETNE nan+28(FP)
	VZEROUPPER
	RET

// func minF32AVX2(x unsafe.Pointer, n, q int) (m float32, nan bool)
// n is a positive multiple of 32; q, the elements of one stream, is a
// multiple of 16 (or 0: one stream). While 4q elements are left they are
// read as 4 streams of q elements side by side (more loads from memory in
// flight than one stream gets from the prefetchers); what is left then is
// read as 4 shorter streams, and the last few vectors as one.
TEXT ·minF32AVX2(SB), NOSPLIT, $0-29
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ q+16(FP), R10
	SHLQ $2, CX // bytes left
	SHLQ $2, R10 // bytes per stream
	VMOVUPS 0(SI), Y0
	VMOVUPS Y0, Y1
	VMOVUPS Y0, Y2
	VMOVUPS Y0, Y3
	VXORPS Y8, Y8, Y8
	TESTQ R10, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
block:
	CMPQ CX, R11
	JLT last
	LEAQ (SI)(R10*1), DI
	LEAQ (DI)(R10*1), R8
	LEAQ (R8)(R10*1), R9
	XORQ DX, DX
streams:
	VMOVUPS 0(SI)(DX*1), Y4
	VMOVUPS 32(SI)(DX*1), Y5
	VMOVUPS 0(DI)(DX*1), Y6
	VMOVUPS 32(DI)(DX*1), Y7
	VMINPS Y4, Y0, Y0
	VMINPS Y5, Y1, Y1
	VMINPS Y6, Y2, Y2
	VMINPS Y7, Y3, Y3
	VCMPPS $3, Y5, Y4, Y9
	VCMPPS $3, Y7, Y6, Y10
	VORPS Y9, Y8, Y8
	VORPS Y10, Y8, Y8
	VMOVUPS 0(R8)(DX*1), Y4
	VMOVUPS 32(R8)(DX*1), Y5
	VMOVUPS 0(R9)(DX*1), Y6
	VMOVUPS 32(R9)(DX*1), Y7
	VMINPS Y4, Y0, Y0
	VMINPS Y5, Y1, Y1
	VMINPS Y6, Y2, Y2
	VMINPS Y7, Y3, Y3
	VCMPPS $3, Y5, Y4, Y9
	VCMPPS $3, Y7, Y6, Y10
	VORPS Y9, Y8, Y8
	VORPS Y10, Y8, Y8
	ADDQ $64, DX
	CMPQ DX, R10
	JNE streams
	ADDQ R11, SI
	SUBQ R11, CX
	JMP block
last: // the rest as 4 streams of a multiple of 64 bytes
	MOVQ CX, R10
	SHRQ $2, R10
	ANDQ $~63, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
	JMP block
single:
	TESTQ CX, CX
	JZ done
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
	SUBQ $128, CX
	JNZ loop
done:
	VMINPS Y1, Y0, Y0
	VMINPS Y3, Y2, Y2
	VMINPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPS X1, X0, X0
	VPERMILPS $0x4E, X0, X1
	VMINPS X1, X0, X0
	VPERMILPS $0xB1, X0, X1
	VMINPS X1, X0, X0
	VMOVSS X0, m+24(FP)
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	SETNE nan+28(FP)
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

// func maxF64AVX2(x unsafe.Pointer, n, q int) (m float64, nan bool)
// n is a positive multiple of 32; q, the elements of one stream, is a
// multiple of 8 (or 0: one stream). While 4q elements are left they are
// read as 4 streams of q elements side by side (more loads from memory in
// flight than one stream gets from the prefetchers); what is left then is
// read as 4 shorter streams, and the last few vectors as one.
TEXT ·maxF64AVX2(SB), NOSPLIT, $0-33
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ q+16(FP), R10
	SHLQ $3, CX // bytes left
	SHLQ $3, R10 // bytes per stream
	VMOVUPD 0(SI), Y0
	VMOVUPD Y0, Y1
	VMOVUPD Y0, Y2
	VMOVUPD Y0, Y3
	VXORPD Y8, Y8, Y8
	TESTQ R10, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
block:
	CMPQ CX, R11
	JLT last
	LEAQ (SI)(R10*1), DI
	LEAQ (DI)(R10*1), R8
	LEAQ (R8)(R10*1), R9
	XORQ DX, DX
streams:
	VMOVUPD 0(SI)(DX*1), Y4
	VMOVUPD 32(SI)(DX*1), Y5
	VMOVUPD 0(DI)(DX*1), Y6
	VMOVUPD 32(DI)(DX*1), Y7
	VMAXPD Y4, Y0, Y0
	VMAXPD Y5, Y1, Y1
	VMAXPD Y6, Y2, Y2
	VMAXPD Y7, Y3, Y3
	VCMPPD $3, Y5, Y4, Y9
	VCMPPD $3, Y7, Y6, Y10
	VORPD Y9, Y8, Y8
	VORPD Y10, Y8, Y8
	VMOVUPD 0(R8)(DX*1), Y4
	VMOVUPD 32(R8)(DX*1), Y5
	VMOVUPD 0(R9)(DX*1), Y6
	VMOVUPD 32(R9)(DX*1), Y7
	VMAXPD Y4, Y0, Y0
	VMAXPD Y5, Y1, Y1
	VMAXPD Y6, Y2, Y2
	VMAXPD Y7, Y3, Y3
	VCMPPD $3, Y5, Y4, Y9
	VCMPPD $3, Y7, Y6, Y10
	VORPD Y9, Y8, Y8
	VORPD Y10, Y8, Y8
	ADDQ $64, DX
	CMPQ DX, R10
	JNE streams
	ADDQ R11, SI
	SUBQ R11, CX
	JMP block
last: // the rest as 4 streams of a multiple of 64 bytes
	MOVQ CX, R10
	SHRQ $2, R10
	ANDQ $~63, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
	JMP block
single:
	TESTQ CX, CX
	JZ done
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
	SUBQ $128, CX
	JNZ loop
done:
	VMAXPD Y1, Y0, Y0
	VMAXPD Y3, Y2, Y2
	VMAXPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMAXPD X1, X0, X0
	VMOVSD X0, m+24(FP)
	VMOVMSKPD Y8, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

// func minF64AVX2(x unsafe.Pointer, n, q int) (m float64, nan bool)
// n is a positive multiple of 32; q, the elements of one stream, is a
// multiple of 8 (or 0: one stream). While 4q elements are left they are
// read as 4 streams of q elements side by side (more loads from memory in
// flight than one stream gets from the prefetchers); what is left then is
// read as 4 shorter streams, and the last few vectors as one.
TEXT ·minF64AVX2(SB), NOSPLIT, $0-33
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ q+16(FP), R10
	SHLQ $3, CX // bytes left
	SHLQ $3, R10 // bytes per stream
	VMOVUPD 0(SI), Y0
	VMOVUPD Y0, Y1
	VMOVUPD Y0, Y2
	VMOVUPD Y0, Y3
	VXORPD Y8, Y8, Y8
	TESTQ R10, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
block:
	CMPQ CX, R11
	JLT last
	LEAQ (SI)(R10*1), DI
	LEAQ (DI)(R10*1), R8
	LEAQ (R8)(R10*1), R9
	XORQ DX, DX
streams:
	VMOVUPD 0(SI)(DX*1), Y4
	VMOVUPD 32(SI)(DX*1), Y5
	VMOVUPD 0(DI)(DX*1), Y6
	VMOVUPD 32(DI)(DX*1), Y7
	VMINPD Y4, Y0, Y0
	VMINPD Y5, Y1, Y1
	VMINPD Y6, Y2, Y2
	VMINPD Y7, Y3, Y3
	VCMPPD $3, Y5, Y4, Y9
	VCMPPD $3, Y7, Y6, Y10
	VORPD Y9, Y8, Y8
	VORPD Y10, Y8, Y8
	VMOVUPD 0(R8)(DX*1), Y4
	VMOVUPD 32(R8)(DX*1), Y5
	VMOVUPD 0(R9)(DX*1), Y6
	VMOVUPD 32(R9)(DX*1), Y7
	VMINPD Y4, Y0, Y0
	VMINPD Y5, Y1, Y1
	VMINPD Y6, Y2, Y2
	VMINPD Y7, Y3, Y3
	VCMPPD $3, Y5, Y4, Y9
	VCMPPD $3, Y7, Y6, Y10
	VORPD Y9, Y8, Y8
	VORPD Y10, Y8, Y8
	ADDQ $64, DX
	CMPQ DX, R10
	JNE streams
	ADDQ R11, SI
	SUBQ R11, CX
	JMP block
last: // the rest as 4 streams of a multiple of 64 bytes
	MOVQ CX, R10
	SHRQ $2, R10
	ANDQ $~63, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // 4 streams: one block
	JMP block
single:
	TESTQ CX, CX
	JZ done
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
	SUBQ $128, CX
	JNZ loop
done:
	VMINPD Y1, Y0, Y0
	VMINPD Y3, Y2, Y2
	VMINPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMINPD X1, X0, X0
	VMOVSD X0, m+24(FP)
	VMOVMSKPD Y8, AX
	TESTL AX, AX
	SETNE nan+32(FP)
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
// func argmaxF32x4(p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) (nan bool)
// The argmax of four streams of q float32 values each (q a positive
// multiple of 8) starting at p[0..3], read side by side, by lanes: lane l
// of stream k keeps the greatest value it has seen (best[8k+l]) and the
// vector of its stream it was first seen in (idx[8k+l]: element
// 8*idx + l of the stream), replaced only when strictly beaten, so that
// each lane keeps its first occurrence. nan reports a NaN among the values
// (the lanes' results are then meaningless: the caller looks for the first
// NaN).
TEXT ·argmaxF32x4(SB), NOSPLIT, $0-33
	MOVQ p+0(FP), AX
	MOVQ 0(AX), SI
	MOVQ 8(AX), DI
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ q+8(FP), R10
	SHLQ $2, R10 // bytes per stream
	VMOVUPS 0(SI), Y0
	VMOVUPS 0(DI), Y1
	VMOVUPS 0(R8), Y2
	VMOVUPS 0(R9), Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8 // the vector's number in its stream
	VPXOR Y9, Y9, Y9 // NaN flag
	MOVL $1, AX
	VMOVQ AX, X10
	VPBROADCASTD X10, Y10 // 1 in every lane
	XORQ DX, DX
loop:
	VMOVUPS 0(SI)(DX*1), Y11
	VMOVUPS 0(DI)(DX*1), Y12
	VMOVUPS 0(R8)(DX*1), Y13
	VMOVUPS 0(R9)(DX*1), Y14
	VCMPPS $3, Y12, Y11, Y15
	VORPS Y15, Y9, Y9
	VCMPPS $3, Y14, Y13, Y15
	VORPS Y15, Y9, Y9
	VCMPPS $1, Y11, Y0, Y15
	VBLENDVPS Y15, Y11, Y0, Y0
	VBLENDVPS Y15, Y8, Y4, Y4
	VCMPPS $1, Y12, Y1, Y15
	VBLENDVPS Y15, Y12, Y1, Y1
	VBLENDVPS Y15, Y8, Y5, Y5
	VCMPPS $1, Y13, Y2, Y15
	VBLENDVPS Y15, Y13, Y2, Y2
	VBLENDVPS Y15, Y8, Y6, Y6
	VCMPPS $1, Y14, Y3, Y15
	VBLENDVPS Y15, Y14, Y3, Y3
	VBLENDVPS Y15, Y8, Y7, Y7
	VPADDD Y10, Y8, Y8
	ADDQ $32, DX
	CMPQ DX, R10
	JNE loop
	MOVQ best+16(FP), AX
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 64(AX)
	VMOVUPS Y3, 96(AX)
	MOVQ idx+24(FP), AX
	VMOVDQU Y4, 0(AX)
	VMOVDQU Y5, 32(AX)
	VMOVDQU Y6, 64(AX)
	VMOVDQU Y7, 96(AX)
	VMOVMSKPS Y9, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

// func argminF32x4(p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) (nan bool)
// The argmin of four streams of q float32 values each (q a positive
// multiple of 8) starting at p[0..3], read side by side, by lanes: lane l
// of stream k keeps the least value it has seen (best[8k+l]) and the
// vector of its stream it was first seen in (idx[8k+l]: element
// 8*idx + l of the stream), replaced only when strictly beaten, so that
// each lane keeps its first occurrence. nan reports a NaN among the values
// (the lanes' results are then meaningless: the caller looks for the first
// NaN).
TEXT ·argminF32x4(SB), NOSPLIT, $0-33
	MOVQ p+0(FP), AX
	MOVQ 0(AX), SI
	MOVQ 8(AX), DI
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ q+8(FP), R10
	SHLQ $2, R10 // bytes per stream
	VMOVUPS 0(SI), Y0
	VMOVUPS 0(DI), Y1
	VMOVUPS 0(R8), Y2
	VMOVUPS 0(R9), Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8 // the vector's number in its stream
	VPXOR Y9, Y9, Y9 // NaN flag
	MOVL $1, AX
	VMOVQ AX, X10
	VPBROADCASTD X10, Y10 // 1 in every lane
	XORQ DX, DX
loop:
	VMOVUPS 0(SI)(DX*1), Y11
	VMOVUPS 0(DI)(DX*1), Y12
	VMOVUPS 0(R8)(DX*1), Y13
	VMOVUPS 0(R9)(DX*1), Y14
	VCMPPS $3, Y12, Y11, Y15
	VORPS Y15, Y9, Y9
	VCMPPS $3, Y14, Y13, Y15
	VORPS Y15, Y9, Y9
	VCMPPS $14, Y11, Y0, Y15
	VBLENDVPS Y15, Y11, Y0, Y0
	VBLENDVPS Y15, Y8, Y4, Y4
	VCMPPS $14, Y12, Y1, Y15
	VBLENDVPS Y15, Y12, Y1, Y1
	VBLENDVPS Y15, Y8, Y5, Y5
	VCMPPS $14, Y13, Y2, Y15
	VBLENDVPS Y15, Y13, Y2, Y2
	VBLENDVPS Y15, Y8, Y6, Y6
	VCMPPS $14, Y14, Y3, Y15
	VBLENDVPS Y15, Y14, Y3, Y3
	VBLENDVPS Y15, Y8, Y7, Y7
	VPADDD Y10, Y8, Y8
	ADDQ $32, DX
	CMPQ DX, R10
	JNE loop
	MOVQ best+16(FP), AX
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 64(AX)
	VMOVUPS Y3, 96(AX)
	MOVQ idx+24(FP), AX
	VMOVDQU Y4, 0(AX)
	VMOVDQU Y5, 32(AX)
	VMOVDQU Y6, 64(AX)
	VMOVDQU Y7, 96(AX)
	VMOVMSKPS Y9, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

// func argmaxF64x4(p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) (nan bool)
// The argmax of four streams of q float64 values each (q a positive
// multiple of 4) starting at p[0..3], read side by side, by lanes: lane l
// of stream k keeps the greatest value it has seen (best[4k+l]) and the
// vector of its stream it was first seen in (idx[4k+l]: element
// 4*idx + l of the stream), replaced only when strictly beaten, so that
// each lane keeps its first occurrence. nan reports a NaN among the values
// (the lanes' results are then meaningless: the caller looks for the first
// NaN).
TEXT ·argmaxF64x4(SB), NOSPLIT, $0-33
	MOVQ p+0(FP), AX
	MOVQ 0(AX), SI
	MOVQ 8(AX), DI
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ q+8(FP), R10
	SHLQ $3, R10 // bytes per stream
	VMOVUPD 0(SI), Y0
	VMOVUPD 0(DI), Y1
	VMOVUPD 0(R8), Y2
	VMOVUPD 0(R9), Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8 // the vector's number in its stream
	VPXOR Y9, Y9, Y9 // NaN flag
	MOVQ $1, AX
	VMOVQ AX, X10
	VPBROADCASTQ X10, Y10 // 1 in every lane
	XORQ DX, DX
loop:
	VMOVUPD 0(SI)(DX*1), Y11
	VMOVUPD 0(DI)(DX*1), Y12
	VMOVUPD 0(R8)(DX*1), Y13
	VMOVUPD 0(R9)(DX*1), Y14
	VCMPPD $3, Y12, Y11, Y15
	VORPD Y15, Y9, Y9
	VCMPPD $3, Y14, Y13, Y15
	VORPD Y15, Y9, Y9
	VCMPPD $1, Y11, Y0, Y15
	VBLENDVPD Y15, Y11, Y0, Y0
	VBLENDVPD Y15, Y8, Y4, Y4
	VCMPPD $1, Y12, Y1, Y15
	VBLENDVPD Y15, Y12, Y1, Y1
	VBLENDVPD Y15, Y8, Y5, Y5
	VCMPPD $1, Y13, Y2, Y15
	VBLENDVPD Y15, Y13, Y2, Y2
	VBLENDVPD Y15, Y8, Y6, Y6
	VCMPPD $1, Y14, Y3, Y15
	VBLENDVPD Y15, Y14, Y3, Y3
	VBLENDVPD Y15, Y8, Y7, Y7
	VPADDQ Y10, Y8, Y8
	ADDQ $32, DX
	CMPQ DX, R10
	JNE loop
	MOVQ best+16(FP), AX
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	MOVQ idx+24(FP), AX
	VMOVDQU Y4, 0(AX)
	VMOVDQU Y5, 32(AX)
	VMOVDQU Y6, 64(AX)
	VMOVDQU Y7, 96(AX)
	VMOVMSKPD Y9, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

// func argminF64x4(p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) (nan bool)
// The argmin of four streams of q float64 values each (q a positive
// multiple of 4) starting at p[0..3], read side by side, by lanes: lane l
// of stream k keeps the least value it has seen (best[4k+l]) and the
// vector of its stream it was first seen in (idx[4k+l]: element
// 4*idx + l of the stream), replaced only when strictly beaten, so that
// each lane keeps its first occurrence. nan reports a NaN among the values
// (the lanes' results are then meaningless: the caller looks for the first
// NaN).
TEXT ·argminF64x4(SB), NOSPLIT, $0-33
	MOVQ p+0(FP), AX
	MOVQ 0(AX), SI
	MOVQ 8(AX), DI
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ q+8(FP), R10
	SHLQ $3, R10 // bytes per stream
	VMOVUPD 0(SI), Y0
	VMOVUPD 0(DI), Y1
	VMOVUPD 0(R8), Y2
	VMOVUPD 0(R9), Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8 // the vector's number in its stream
	VPXOR Y9, Y9, Y9 // NaN flag
	MOVQ $1, AX
	VMOVQ AX, X10
	VPBROADCASTQ X10, Y10 // 1 in every lane
	XORQ DX, DX
loop:
	VMOVUPD 0(SI)(DX*1), Y11
	VMOVUPD 0(DI)(DX*1), Y12
	VMOVUPD 0(R8)(DX*1), Y13
	VMOVUPD 0(R9)(DX*1), Y14
	VCMPPD $3, Y12, Y11, Y15
	VORPD Y15, Y9, Y9
	VCMPPD $3, Y14, Y13, Y15
	VORPD Y15, Y9, Y9
	VCMPPD $14, Y11, Y0, Y15
	VBLENDVPD Y15, Y11, Y0, Y0
	VBLENDVPD Y15, Y8, Y4, Y4
	VCMPPD $14, Y12, Y1, Y15
	VBLENDVPD Y15, Y12, Y1, Y1
	VBLENDVPD Y15, Y8, Y5, Y5
	VCMPPD $14, Y13, Y2, Y15
	VBLENDVPD Y15, Y13, Y2, Y2
	VBLENDVPD Y15, Y8, Y6, Y6
	VCMPPD $14, Y14, Y3, Y15
	VBLENDVPD Y15, Y14, Y3, Y3
	VBLENDVPD Y15, Y8, Y7, Y7
	VPADDQ Y10, Y8, Y8
	ADDQ $32, DX
	CMPQ DX, R10
	JNE loop
	MOVQ best+16(FP), AX
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	MOVQ idx+24(FP), AX
	VMOVDQU Y4, 0(AX)
	VMOVDQU Y5, 32(AX)
	VMOVDQU Y6, 64(AX)
	VMOVDQU Y7, 96(AX)
	VMOVMSKPD Y9, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

