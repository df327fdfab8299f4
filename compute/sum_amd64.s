//go:build amd64 && !noasm

#include "textflag.h"

// func sumF32F64AVX2(x unsafe.Pointer, n int) float64
// The sum of n float32 values (n a multiple of 16), each converted to
// float64 and added into sixteen float64 partial sums (four vectors),
// combined at the end.
TEXT ·sumF32F64AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
loop:
	CMPQ CX, $16
	JLT done
	VCVTPS2PD 0(SI), Y0
	VCVTPS2PD 16(SI), Y1
	VCVTPS2PD 32(SI), Y2
	VCVTPS2PD 48(SI), Y3
	VADDPD Y0, Y4, Y4
	VADDPD Y1, Y5, Y5
	VADDPD Y2, Y6, Y6
	VADDPD Y3, Y7, Y7
	ADDQ $64, SI
	SUBQ $16, CX
	JMP loop
done:
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6
	VADDPD Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPD X5, X4, X4
	VUNPCKHPD X4, X4, X5
	VADDSD X5, X4, X4
	VMOVSD X4, ret+16(FP)
	VZEROUPPER
	RET

// func rowsF32F64AVX2(acc, x unsafe.Pointer, n, rows, stride int)
// acc[i] += float64(x[i]) + float64(x[stride+i]) + ... (float64
// accumulators, float32 values; rows rows, stride in bytes); n is a
// multiple of 8. The rows are taken eight at a time: for each block of 32
// lanes (then 16, then 8) the accumulators stay in registers while the eight rows'
// values are added one row after another (the order of the additions is
// that of a row-by-row loop), so the accumulator row is read and written
// once per eight rows and the eight rows stream in parallel.
TEXT ·rowsF32F64AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R10
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	TESTQ R8, R8
	JZ done
group:
	MOVQ R8, R12 // rows in this group: min(8, rows left)
	CMPQ R12, $8
	JLE sized
	MOVQ $8, R12
sized:
	MOVQ DI, AX  // accumulators of the lane block
	MOVQ SI, DX  // first row's values of the lane block
	MOVQ R10, CX // lanes left
block32: // blocks of 32 lanes: eight independent accumulators
	CMPQ CX, $32
	JLT block
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	VMOVUPD 64(AX), Y2
	VMOVUPD 96(AX), Y3
	VMOVUPD 128(AX), Y4
	VMOVUPD 160(AX), Y5
	VMOVUPD 192(AX), Y6
	VMOVUPD 224(AX), Y7
	MOVQ DX, BX
	MOVQ R12, R13
row32:
	VCVTPS2PD 0(BX), Y8
	VCVTPS2PD 16(BX), Y9
	VCVTPS2PD 32(BX), Y10
	VCVTPS2PD 48(BX), Y11
	VCVTPS2PD 64(BX), Y12
	VCVTPS2PD 80(BX), Y13
	VCVTPS2PD 96(BX), Y14
	VCVTPS2PD 112(BX), Y15
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	VADDPD Y12, Y4, Y4
	VADDPD Y13, Y5, Y5
	VADDPD Y14, Y6, Y6
	VADDPD Y15, Y7, Y7
	ADDQ R9, BX
	DECQ R13
	JNZ row32
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	VMOVUPD Y4, 128(AX)
	VMOVUPD Y5, 160(AX)
	VMOVUPD Y6, 192(AX)
	VMOVUPD Y7, 224(AX)
	ADDQ $256, AX
	ADDQ $128, DX
	SUBQ $32, CX
	JMP block32
block:
	CMPQ CX, $16
	JLT block8
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	VMOVUPD 64(AX), Y2
	VMOVUPD 96(AX), Y3
	MOVQ DX, BX
	MOVQ R12, R13
row:
	VCVTPS2PD 0(BX), Y4
	VCVTPS2PD 16(BX), Y5
	VCVTPS2PD 32(BX), Y6
	VCVTPS2PD 48(BX), Y7
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ R9, BX
	DECQ R13
	JNZ row
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	ADDQ $128, AX
	ADDQ $64, DX
	SUBQ $16, CX
block8: // a last block of eight lanes
	CMPQ CX, $8
	JLT nextgroup
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	MOVQ DX, BX
	MOVQ R12, R13
row8:
	VCVTPS2PD 0(BX), Y4
	VCVTPS2PD 16(BX), Y5
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	ADDQ R9, BX
	DECQ R13
	JNZ row8
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
nextgroup:
	MOVQ R9, AX // past the group's rows
	IMULQ R12, AX
	ADDQ AX, SI
	SUBQ R12, R8
	JNZ group
done:
	VZEROUPPER
	RET

// func sum2F64AVX2(x unsafe.Pointer, n int, out *[16]float64)
// TwoSum of n float64 values (n a positive multiple of 16) into eight
// lanes: out[0:8] the lanes' sums, out[8:16] their accumulated rounding
// errors. Lanes 0-3 take x[8k:8k+4], lanes 4-7 x[8k+4:8k+8], one TwoSum
// after another (Knuth's, with x - bb computed as -(bb - x), the same
// value, so that both reads of x are memory operands); the loop is
// unrolled twice with the sum and the new sum swapping registers, so it
// has no register moves.
TEXT ·sum2F64AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
	VXORPD Y0, Y0, Y0 // s, lanes 0-3
	VXORPD Y1, Y1, Y1 // c
	VXORPD Y8, Y8, Y8 // s, lanes 4-7
	VXORPD Y9, Y9, Y9 // c
loop:
	VADDPD 0(SI), Y0, Y3 // t = s + x
	VSUBPD Y0, Y3, Y4 // bb = t - s
	VSUBPD Y4, Y3, Y5 // t - bb
	VSUBPD Y5, Y0, Y5 // s - (t - bb)
	VSUBPD 0(SI), Y4, Y6 // bb - x
	VSUBPD Y6, Y5, Y5 // e = (s - (t - bb)) - (bb - x)
	VADDPD Y5, Y1, Y1 // c += e
	VADDPD 32(SI), Y8, Y11 // t = s + x
	VSUBPD Y8, Y11, Y4 // bb = t - s
	VSUBPD Y4, Y11, Y5 // t - bb
	VSUBPD Y5, Y8, Y5 // s - (t - bb)
	VSUBPD 32(SI), Y4, Y6 // bb - x
	VSUBPD Y6, Y5, Y5 // e = (s - (t - bb)) - (bb - x)
	VADDPD Y5, Y9, Y9 // c += e
	VADDPD 64(SI), Y3, Y0 // t = s + x
	VSUBPD Y3, Y0, Y4 // bb = t - s
	VSUBPD Y4, Y0, Y5 // t - bb
	VSUBPD Y5, Y3, Y5 // s - (t - bb)
	VSUBPD 64(SI), Y4, Y6 // bb - x
	VSUBPD Y6, Y5, Y5 // e = (s - (t - bb)) - (bb - x)
	VADDPD Y5, Y1, Y1 // c += e
	VADDPD 96(SI), Y11, Y8 // t = s + x
	VSUBPD Y11, Y8, Y4 // bb = t - s
	VSUBPD Y4, Y8, Y5 // t - bb
	VSUBPD Y5, Y11, Y5 // s - (t - bb)
	VSUBPD 96(SI), Y4, Y6 // bb - x
	VSUBPD Y6, Y5, Y5 // e = (s - (t - bb)) - (bb - x)
	VADDPD Y5, Y9, Y9 // c += e
	ADDQ $128, SI
	SUBQ $16, CX
	JNZ loop
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y8, 32(DI)
	VMOVUPD Y1, 64(DI)
	VMOVUPD Y9, 96(DI)
	VZEROUPPER
	RET

// func rows2F64AVX2(acc, comp, x unsafe.Pointer, n, rows, stride int)
// (acc[i], comp[i]) += x[i] + x[stride+i] + ... by TwoSum (float64; rows
// rows, stride in bytes); n is a multiple of 16. As rowsF32F64AVX2, the
// rows are taken eight at a time with a block of 16 lanes' accumulators
// and compensations in registers, added row after row (the arithmetic of
// the row-by-row Go loop, value for value).
TEXT ·rows2F64AVX2(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ comp+8(FP), R11
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), R10
	MOVQ rows+32(FP), R8
	MOVQ stride+40(FP), R9
	TESTQ R8, R8
	JZ done
group:
	MOVQ R8, R12 // rows in this group: min(8, rows left)
	CMPQ R12, $8
	JLE sized
	MOVQ $8, R12
sized:
	XORQ CX, CX  // byte offset of the lane block (acc, comp and x alike)
	MOVQ R10, R14 // lanes left
block:
	CMPQ R14, $16
	JLT nextgroup
	VMOVUPD 0(DI)(CX*1), Y0
	VMOVUPD 32(DI)(CX*1), Y1
	VMOVUPD 64(DI)(CX*1), Y2
	VMOVUPD 96(DI)(CX*1), Y3
	VMOVUPD 0(R11)(CX*1), Y4
	VMOVUPD 32(R11)(CX*1), Y5
	VMOVUPD 64(R11)(CX*1), Y6
	VMOVUPD 96(R11)(CX*1), Y7
	LEAQ (SI)(CX*1), BX
	MOVQ R12, R13
row:
	// lanes 0-7: t = s + x; bb = t - s; e = (s - (t - bb)) + (x - bb)
	VMOVUPD 0(BX), Y8
	VMOVUPD 32(BX), Y12
	VADDPD Y8, Y0, Y9
	VADDPD Y12, Y1, Y13
	VSUBPD Y0, Y9, Y10
	VSUBPD Y1, Y13, Y14
	VSUBPD Y10, Y9, Y11
	VSUBPD Y14, Y13, Y15
	VSUBPD Y11, Y0, Y11
	VSUBPD Y15, Y1, Y15
	VSUBPD Y10, Y8, Y10
	VSUBPD Y14, Y12, Y14
	VADDPD Y10, Y11, Y11
	VADDPD Y14, Y15, Y15
	VADDPD Y11, Y4, Y4
	VADDPD Y15, Y5, Y5
	VMOVAPD Y9, Y0
	VMOVAPD Y13, Y1
	// lanes 8-15
	VMOVUPD 64(BX), Y8
	VMOVUPD 96(BX), Y12
	VADDPD Y8, Y2, Y9
	VADDPD Y12, Y3, Y13
	VSUBPD Y2, Y9, Y10
	VSUBPD Y3, Y13, Y14
	VSUBPD Y10, Y9, Y11
	VSUBPD Y14, Y13, Y15
	VSUBPD Y11, Y2, Y11
	VSUBPD Y15, Y3, Y15
	VSUBPD Y10, Y8, Y10
	VSUBPD Y14, Y12, Y14
	VADDPD Y10, Y11, Y11
	VADDPD Y14, Y15, Y15
	VADDPD Y11, Y6, Y6
	VADDPD Y15, Y7, Y7
	VMOVAPD Y9, Y2
	VMOVAPD Y13, Y3
	ADDQ R9, BX
	DECQ R13
	JNZ row
	VMOVUPD Y0, 0(DI)(CX*1)
	VMOVUPD Y1, 32(DI)(CX*1)
	VMOVUPD Y2, 64(DI)(CX*1)
	VMOVUPD Y3, 96(DI)(CX*1)
	VMOVUPD Y4, 0(R11)(CX*1)
	VMOVUPD Y5, 32(R11)(CX*1)
	VMOVUPD Y6, 64(R11)(CX*1)
	VMOVUPD Y7, 96(R11)(CX*1)
	ADDQ $128, CX
	SUBQ $16, R14
	JMP block
nextgroup:
	MOVQ R9, AX // past the group's rows
	IMULQ R12, AX
	ADDQ AX, SI
	SUBQ R12, R8
	JNZ group
done:
	VZEROUPPER
	RET
