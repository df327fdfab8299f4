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
// accumulators, float32 values; rows rows, stride in bytes), row after row;
// n is a multiple of 16.
TEXT ·rowsF32F64AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R10
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	TESTQ R8, R8
	JZ done
row:
	MOVQ DI, AX
	MOVQ SI, BX
	MOVQ R10, CX
block:
	CMPQ CX, $16
	JLT next
	VCVTPS2PD 0(BX), Y0
	VCVTPS2PD 16(BX), Y1
	VCVTPS2PD 32(BX), Y2
	VCVTPS2PD 48(BX), Y3
	VADDPD 0(AX), Y0, Y0
	VADDPD 32(AX), Y1, Y1
	VADDPD 64(AX), Y2, Y2
	VADDPD 96(AX), Y3, Y3
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	ADDQ $128, AX
	ADDQ $64, BX
	SUBQ $16, CX
	JMP block
next:
	ADDQ R9, SI
	DECQ R8
	JNZ row
done:
	VZEROUPPER
	RET

// func sum2F64AVX2(x unsafe.Pointer, n int, out *[16]float64)
// TwoSum of n float64 values (n a multiple of 8) into eight lanes: out[0:8]
// the lanes' sums, out[8:16] their accumulated rounding errors.
TEXT ·sum2F64AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
	VXORPD Y0, Y0, Y0 // s, lanes 0-3
	VXORPD Y1, Y1, Y1 // c
	VXORPD Y8, Y8, Y8 // s, lanes 4-7
	VXORPD Y9, Y9, Y9 // c
loop:
	CMPQ CX, $8
	JLT done
	VMOVUPD 0(SI), Y2
	VMOVUPD 32(SI), Y10
	VADDPD Y2, Y0, Y3   // t = s + x
	VADDPD Y10, Y8, Y11
	VSUBPD Y0, Y3, Y4   // b = t - s
	VSUBPD Y8, Y11, Y12
	VSUBPD Y4, Y3, Y5   // t - b
	VSUBPD Y12, Y11, Y13
	VSUBPD Y5, Y0, Y5   // s - (t - b)
	VSUBPD Y13, Y8, Y13
	VSUBPD Y4, Y2, Y4   // x - b
	VSUBPD Y12, Y10, Y12
	VADDPD Y4, Y5, Y5   // e
	VADDPD Y12, Y13, Y13
	VADDPD Y5, Y1, Y1   // c += e
	VADDPD Y13, Y9, Y9
	VMOVAPD Y3, Y0      // s = t
	VMOVAPD Y11, Y8
	ADDQ $64, SI
	SUBQ $8, CX
	JMP loop
done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y8, 32(DI)
	VMOVUPD Y1, 64(DI)
	VMOVUPD Y9, 96(DI)
	VZEROUPPER
	RET

// func rows2F64AVX2(acc, comp, x unsafe.Pointer, n, rows, stride int)
// (acc[i], comp[i]) += x[i] + x[stride+i] + ... by TwoSum (float64; rows
// rows, stride in bytes), row after row; n is a multiple of 8.
TEXT ·rows2F64AVX2(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ comp+8(FP), DX
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), R10
	MOVQ rows+32(FP), R8
	MOVQ stride+40(FP), R9
	TESTQ R8, R8
	JZ done
row:
	MOVQ DI, AX
	MOVQ DX, R11
	MOVQ SI, BX
	MOVQ R10, CX
block:
	CMPQ CX, $8
	JLT next
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y8
	VMOVUPD 0(BX), Y2
	VMOVUPD 32(BX), Y10
	VADDPD Y2, Y0, Y3
	VADDPD Y10, Y8, Y11
	VSUBPD Y0, Y3, Y4
	VSUBPD Y8, Y11, Y12
	VSUBPD Y4, Y3, Y5
	VSUBPD Y12, Y11, Y13
	VSUBPD Y5, Y0, Y5
	VSUBPD Y13, Y8, Y13
	VSUBPD Y4, Y2, Y4
	VSUBPD Y12, Y10, Y12
	VADDPD Y4, Y5, Y5
	VADDPD Y12, Y13, Y13
	VADDPD 0(R11), Y5, Y5
	VADDPD 32(R11), Y13, Y13
	VMOVUPD Y3, 0(AX)
	VMOVUPD Y11, 32(AX)
	VMOVUPD Y5, 0(R11)
	VMOVUPD Y13, 32(R11)
	ADDQ $64, AX
	ADDQ $64, R11
	ADDQ $64, BX
	SUBQ $8, CX
	JMP block
next:
	ADDQ R9, SI
	DECQ R8
	JNZ row
done:
	VZEROUPPER
	RET
