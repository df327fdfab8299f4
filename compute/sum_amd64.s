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

// func sum2F64AVX2(x unsafe.Pointer, n, q int, out *[32]float64)
// TwoSum of n float64 values (n a positive multiple of 16) into sixteen
// lanes: out[0:16] the lanes' sums, out[16:32] their accumulated rounding
// errors. As the extrema kernels, while 4q values are left (q a multiple
// of 8, or 0) they are read as four streams of q values side by side, each
// into its own four lanes, then what is left as four shorter streams, then
// the last vectors as one stream (vector k of each 128 bytes into lanes
// 4k..4k+3). Each TwoSum is Knuth's, with x - bb computed as -(bb - x), the
// same value, so that both reads of x are memory operands; the error is
// added to its lane's compensation by an FMA (e*1 + c, the same rounding as
// the add) so that one of the seven operations runs on the multiply pipes.
TEXT ·sum2F64AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ q+16(FP), R10
	SHLQ $3, CX // bytes left
	SHLQ $3, R10 // bytes per stream
	MOVQ $0x3FF0000000000000, AX
	MOVQ AX, X15
	VBROADCASTSD X15, Y15 // 1.0
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ R10, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11 // one block: four streams
block:
	CMPQ CX, R11
	JLT last
	LEAQ (SI)(R10*1), DI
	LEAQ (DI)(R10*1), R8
	LEAQ (R8)(R10*1), R9
	XORQ DX, DX
streams:
	VADDPD 0(SI)(DX*1), Y0, Y8 // t = s + x
	VSUBPD Y0, Y8, Y13 // bb = t - s
	VSUBPD 0(SI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y8, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y0, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y4 // c += e (e*1 + c)
	VADDPD 0(DI)(DX*1), Y1, Y9 // t = s + x
	VSUBPD Y1, Y9, Y13 // bb = t - s
	VSUBPD 0(DI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y9, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y1, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y5 // c += e (e*1 + c)
	VADDPD 0(R8)(DX*1), Y2, Y10 // t = s + x
	VSUBPD Y2, Y10, Y13 // bb = t - s
	VSUBPD 0(R8)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y10, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y2, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y6 // c += e (e*1 + c)
	VADDPD 0(R9)(DX*1), Y3, Y11 // t = s + x
	VSUBPD Y3, Y11, Y13 // bb = t - s
	VSUBPD 0(R9)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y11, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y3, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y7 // c += e (e*1 + c)
	VADDPD 32(SI)(DX*1), Y8, Y0 // t = s + x
	VSUBPD Y8, Y0, Y13 // bb = t - s
	VSUBPD 32(SI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y0, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y8, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y4 // c += e (e*1 + c)
	VADDPD 32(DI)(DX*1), Y9, Y1 // t = s + x
	VSUBPD Y9, Y1, Y13 // bb = t - s
	VSUBPD 32(DI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y1, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y9, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y5 // c += e (e*1 + c)
	VADDPD 32(R8)(DX*1), Y10, Y2 // t = s + x
	VSUBPD Y10, Y2, Y13 // bb = t - s
	VSUBPD 32(R8)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y2, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y10, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y6 // c += e (e*1 + c)
	VADDPD 32(R9)(DX*1), Y11, Y3 // t = s + x
	VSUBPD Y11, Y3, Y13 // bb = t - s
	VSUBPD 32(R9)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y3, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y11, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y7 // c += e (e*1 + c)
	ADDQ $64, DX
	CMPQ DX, R10
	JNE streams
	ADDQ R11, SI
	SUBQ R11, CX
	JMP block
last: // the rest as four streams of a multiple of 64 bytes
	MOVQ CX, R10
	SHRQ $2, R10
	ANDQ $~63, R10
	JZ single
	MOVQ R10, R11
	SHLQ $2, R11
	JMP block
single:
	TESTQ CX, CX
	JZ done
loop:
	VADDPD 0(SI), Y0, Y8 // t = s + x
	VSUBPD Y0, Y8, Y13 // bb = t - s
	VSUBPD 0(SI), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y8, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y0, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y4 // c += e (e*1 + c)
	VADDPD 32(SI), Y1, Y9 // t = s + x
	VSUBPD Y1, Y9, Y13 // bb = t - s
	VSUBPD 32(SI), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y9, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y1, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y5 // c += e (e*1 + c)
	VADDPD 64(SI), Y2, Y10 // t = s + x
	VSUBPD Y2, Y10, Y13 // bb = t - s
	VSUBPD 64(SI), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y10, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y2, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y6 // c += e (e*1 + c)
	VADDPD 96(SI), Y3, Y11 // t = s + x
	VSUBPD Y3, Y11, Y13 // bb = t - s
	VSUBPD 96(SI), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y11, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y3, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y7 // c += e (e*1 + c)
	VMOVAPD Y8, Y0
	VMOVAPD Y9, Y1
	VMOVAPD Y10, Y2
	VMOVAPD Y11, Y3
	ADDQ $128, SI
	SUBQ $128, CX
	JNZ loop
done:
	MOVQ out+24(FP), DI
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func rows2F64AVX2(acc, comp, x unsafe.Pointer, n, rows, stride int)
// (acc[i], comp[i]) += x[i] + x[stride+i] + ... by TwoSum (float64; rows
// rows, stride in bytes); n is a multiple of 16. As rowsF32F64AVX2, the
// rows are taken eight at a time with a block of 16 lanes' accumulators
// and compensations in registers, added row after row (the arithmetic of
// the row-by-row Go loop, value for value).
TEXT ·rows2F64AVX2(SB), NOSPLIT, $0-48
	MOVQ $0x3FF0000000000000, AX
	MOVQ AX, X15
	VBROADCASTSD X15, Y15 // 1.0
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
	VADDPD 0(BX), Y0, Y8 // t = s + x
	VSUBPD Y0, Y8, Y12 // bb = t - s
	VSUBPD 0(BX), Y12, Y13 // bb - x
	VFMSUB231PD Y15, Y8, Y12 // t - bb (t*1 - bb)
	VFNMADD213PD Y0, Y15, Y12 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y13, Y12, Y13 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y13, Y4 // c += e (e*1 + c)
	VADDPD 32(BX), Y1, Y9 // t = s + x
	VSUBPD Y1, Y9, Y12 // bb = t - s
	VSUBPD 32(BX), Y12, Y13 // bb - x
	VFMSUB231PD Y15, Y9, Y12 // t - bb (t*1 - bb)
	VFNMADD213PD Y1, Y15, Y12 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y13, Y12, Y13 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y13, Y5 // c += e (e*1 + c)
	VADDPD 64(BX), Y2, Y10 // t = s + x
	VSUBPD Y2, Y10, Y12 // bb = t - s
	VSUBPD 64(BX), Y12, Y13 // bb - x
	VFMSUB231PD Y15, Y10, Y12 // t - bb (t*1 - bb)
	VFNMADD213PD Y2, Y15, Y12 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y13, Y12, Y13 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y13, Y6 // c += e (e*1 + c)
	VADDPD 96(BX), Y3, Y11 // t = s + x
	VSUBPD Y3, Y11, Y12 // bb = t - s
	VSUBPD 96(BX), Y12, Y13 // bb - x
	VFMSUB231PD Y15, Y11, Y12 // t - bb (t*1 - bb)
	VFNMADD213PD Y3, Y15, Y12 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y13, Y12, Y13 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y13, Y7 // c += e (e*1 + c)
	VMOVAPD Y8, Y0
	VMOVAPD Y9, Y1
	VMOVAPD Y10, Y2
	VMOVAPD Y11, Y3
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

// func sum4F64AVX2(p *[4]unsafe.Pointer, q int, out *[32]float64)
// TwoSum of four runs of q float64 values each (q a positive multiple of
// 8) starting at p[0..3], read side by side, each into its own four lanes:
// out[4k:4k+4] the sums of run k's lanes, out[16+4k:16+4k+4] their
// accumulated rounding errors (the arithmetic of sum2F64AVX2's streams).
TEXT ·sum4F64AVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ 0(AX), SI
	MOVQ 8(AX), DI
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ q+8(FP), R10
	SHLQ $3, R10 // bytes per run
	MOVQ $0x3FF0000000000000, AX
	MOVQ AX, X15
	VBROADCASTSD X15, Y15 // 1.0
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ DX, DX
loop:
	VADDPD 0(SI)(DX*1), Y0, Y8 // t = s + x
	VSUBPD Y0, Y8, Y13 // bb = t - s
	VSUBPD 0(SI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y8, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y0, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y4 // c += e (e*1 + c)
	VADDPD 0(DI)(DX*1), Y1, Y9 // t = s + x
	VSUBPD Y1, Y9, Y13 // bb = t - s
	VSUBPD 0(DI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y9, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y1, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y5 // c += e (e*1 + c)
	VADDPD 0(R8)(DX*1), Y2, Y10 // t = s + x
	VSUBPD Y2, Y10, Y13 // bb = t - s
	VSUBPD 0(R8)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y10, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y2, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y6 // c += e (e*1 + c)
	VADDPD 0(R9)(DX*1), Y3, Y11 // t = s + x
	VSUBPD Y3, Y11, Y13 // bb = t - s
	VSUBPD 0(R9)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y11, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y3, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y7 // c += e (e*1 + c)
	VADDPD 32(SI)(DX*1), Y8, Y0 // t = s + x
	VSUBPD Y8, Y0, Y13 // bb = t - s
	VSUBPD 32(SI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y0, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y8, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y4 // c += e (e*1 + c)
	VADDPD 32(DI)(DX*1), Y9, Y1 // t = s + x
	VSUBPD Y9, Y1, Y13 // bb = t - s
	VSUBPD 32(DI)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y1, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y9, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y5 // c += e (e*1 + c)
	VADDPD 32(R8)(DX*1), Y10, Y2 // t = s + x
	VSUBPD Y10, Y2, Y13 // bb = t - s
	VSUBPD 32(R8)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y2, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y10, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y6 // c += e (e*1 + c)
	VADDPD 32(R9)(DX*1), Y11, Y3 // t = s + x
	VSUBPD Y11, Y3, Y13 // bb = t - s
	VSUBPD 32(R9)(DX*1), Y13, Y14 // bb - x
	VFMSUB231PD Y15, Y3, Y13 // t - bb (t*1 - bb)
	VFNMADD213PD Y11, Y15, Y13 // s - (t - bb) (-(u*1) + s)
	VSUBPD Y14, Y13, Y14 // e = (s - (t - bb)) - (bb - x)
	VFMADD231PD Y15, Y14, Y7 // c += e (e*1 + c)
	ADDQ $64, DX
	CMPQ DX, R10
	JNE loop
	MOVQ out+16(FP), DI
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func rowsF32F64Z(acc, x unsafe.Pointer, n, rows, stride int)
// rowsF32F64AVX2 a row at a time (n a multiple of 8, stride in bytes):
// each row is read as one sequential run and added into the n float64
// accumulators, which stay in L1 (n <= 2048: 16 KB), 32 lanes a step
// (four Z vectors), then 8. The same additions in the same order per
// lane, so the same bits; rows of a few KB are read at the memory's
// speed, where eight rows side by side (rowsF32F64AVX2) make eight short
// streams the prefetchers follow poorly.
TEXT ·rowsF32F64Z(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R10
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	TESTQ R8, R8
	JZ zdone
zrow:
	MOVQ DI, AX
	MOVQ SI, DX
	MOVQ R10, CX
zblock32:
	CMPQ CX, $32
	JLT zblock8
	VCVTPS2PD 0(DX), Z0
	VCVTPS2PD 32(DX), Z1
	VCVTPS2PD 64(DX), Z2
	VCVTPS2PD 96(DX), Z3
	VADDPD 0(AX), Z0, Z0
	VADDPD 64(AX), Z1, Z1
	VADDPD 128(AX), Z2, Z2
	VADDPD 192(AX), Z3, Z3
	VMOVUPD Z0, 0(AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	ADDQ $256, AX
	ADDQ $128, DX
	SUBQ $32, CX
	JMP zblock32
zblock8:
	TESTQ CX, CX
	JZ znext
	VCVTPS2PD 0(DX), Z0
	VADDPD 0(AX), Z0, Z0
	VMOVUPD Z0, 0(AX)
	ADDQ $64, AX
	ADDQ $32, DX
	SUBQ $8, CX
	JMP zblock8
znext:
	ADDQ R9, SI
	DECQ R8
	JNZ zrow
zdone:
	VZEROUPPER
	RET

// func rowsF32F64Y(acc, x unsafe.Pointer, n, rows, stride int)
// rowsF32F64Z with AVX2 (CPUs without AVX-512): 16 lanes a step, then 8.
TEXT ·rowsF32F64Y(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R10
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	TESTQ R8, R8
	JZ ydone
yrow:
	MOVQ DI, AX
	MOVQ SI, DX
	MOVQ R10, CX
yblock16:
	CMPQ CX, $16
	JLT yblock8
	VCVTPS2PD 0(DX), Y0
	VCVTPS2PD 16(DX), Y1
	VCVTPS2PD 32(DX), Y2
	VCVTPS2PD 48(DX), Y3
	VADDPD 0(AX), Y0, Y0
	VADDPD 32(AX), Y1, Y1
	VADDPD 64(AX), Y2, Y2
	VADDPD 96(AX), Y3, Y3
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	ADDQ $128, AX
	ADDQ $64, DX
	SUBQ $16, CX
	JMP yblock16
yblock8:
	TESTQ CX, CX
	JZ ynext
	VCVTPS2PD 0(DX), Y0
	VCVTPS2PD 16(DX), Y1
	VADDPD 0(AX), Y0, Y0
	VADDPD 32(AX), Y1, Y1
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
ynext:
	ADDQ R9, SI
	DECQ R8
	JNZ yrow
ydone:
	VZEROUPPER
	RET
