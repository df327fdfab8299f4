//go:build amd64 && !noasm

#include "textflag.h"

// func copyNTAVX2(dst, src unsafe.Pointer, n int)
// n is a multiple of 128 and dst is 32-byte aligned.
TEXT ·copyNTAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	CMPQ CX, $128
	JLT done
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVNTDQ Y0, 0(DI)
	VMOVNTDQ Y1, 32(DI)
	VMOVNTDQ Y2, 64(DI)
	VMOVNTDQ Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $128, CX
	JMP loop
done:
	VZEROUPPER
	RET

// func sfence()
TEXT ·sfence(SB), NOSPLIT, $0-0
	SFENCE
	RET

// func accRowsF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)
// acc[i] += x[i] + x[stride+i] + ... (rows rows, stride in bytes), in row
// order, for n a multiple of 8.
TEXT ·accRowsF32AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
block32:
	CMPQ CX, $32
	JLT block8
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	MOVQ SI, AX
	MOVQ R8, DX
rows32:
	VADDPS 0(AX), Y0, Y0
	VADDPS 32(AX), Y1, Y1
	VADDPS 64(AX), Y2, Y2
	VADDPS 96(AX), Y3, Y3
	ADDQ R9, AX
	DECQ DX
	JNZ rows32
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	SUBQ $32, CX
	JMP block32
block8:
	CMPQ CX, $8
	JLT done
	VMOVUPS 0(DI), Y0
	MOVQ SI, AX
	MOVQ R8, DX
rows8:
	VADDPS 0(AX), Y0, Y0
	ADDQ R9, AX
	DECQ DX
	JNZ rows8
	VMOVUPS Y0, 0(DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JMP block8
done:
	VZEROUPPER
	RET

// func accRowsF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)
// As accRowsF32AVX2 for float64, n a multiple of 4.
TEXT ·accRowsF64AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
block16:
	CMPQ CX, $16
	JLT block4
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	MOVQ SI, AX
	MOVQ R8, DX
rows16:
	VADDPD 0(AX), Y0, Y0
	VADDPD 32(AX), Y1, Y1
	VADDPD 64(AX), Y2, Y2
	VADDPD 96(AX), Y3, Y3
	ADDQ R9, AX
	DECQ DX
	JNZ rows16
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	SUBQ $16, CX
	JMP block16
block4:
	CMPQ CX, $4
	JLT done
	VMOVUPD 0(DI), Y0
	MOVQ SI, AX
	MOVQ R8, DX
rows4:
	VADDPD 0(AX), Y0, Y0
	ADDQ R9, AX
	DECQ DX
	JNZ rows4
	VMOVUPD Y0, 0(DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $4, CX
	JMP block4
done:
	VZEROUPPER
	RET
