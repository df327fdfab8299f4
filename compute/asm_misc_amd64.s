//go:build amd64 && !noasm

#include "textflag.h"

// func copyNTAVX2(dst, src unsafe.Pointer, n int)
// n is a multiple of 32 and dst is 32-byte aligned: 128 bytes a step, then
// 32.
TEXT ·copyNTAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	CMPQ CX, $128
	JLT loop32
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
loop32:
	CMPQ CX, $32
	JLT done
	VMOVDQU 0(SI), Y0
	VMOVNTDQ Y0, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP loop32
done:
	VZEROUPPER
	RET

// func copyNT4(dst, src unsafe.Pointer, n int)
// n is a multiple of 4 and dst is 4-byte aligned: four bytes a store
// (MOVNTI), for the pieces of a non-temporal copy before and after its
// 32-byte aligned body, so that a line the body of the next row completes
// is written by non-temporal stores only.
TEXT ·copyNT4(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
loop4:
	CMPQ CX, $4
	JLT done4
	MOVL 0(SI), AX
	MOVNTIL AX, 0(DI)
	ADDQ $4, SI
	ADDQ $4, DI
	SUBQ $4, CX
	JMP loop4
done4:
	RET

// func sfence()
TEXT ·sfence(SB), NOSPLIT, $0-0
	SFENCE
	RET

// func accRowsF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)
// acc[i] += x[i] + x[stride+i] + ... (float32; rows rows, stride in bytes), row
// after row, so that consecutive rows are read as one sequential stream; n
// is a multiple of 8.
TEXT ·accRowsF32AVX2(SB), NOSPLIT, $0-40
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
block4:
	CMPQ CX, $32
	JLT block1
	VMOVUPS 0(BX), Y0
	VMOVUPS 32(BX), Y1
	VMOVUPS 64(BX), Y2
	VMOVUPS 96(BX), Y3
	VADDPS 0(AX), Y0, Y0
	VADDPS 32(AX), Y1, Y1
	VADDPS 64(AX), Y2, Y2
	VADDPS 96(AX), Y3, Y3
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 64(AX)
	VMOVUPS Y3, 96(AX)
	ADDQ $128, AX
	ADDQ $128, BX
	SUBQ $32, CX
	JMP block4
block1:
	CMPQ CX, $8
	JLT next
	VMOVUPS 0(BX), Y0
	VADDPS 0(AX), Y0, Y0
	VMOVUPS Y0, 0(AX)
	ADDQ $32, AX
	ADDQ $32, BX
	SUBQ $8, CX
	JMP block1
next:
	ADDQ R9, SI
	DECQ R8
	JNZ row
done:
	VZEROUPPER
	RET

// func accRowsF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)
// acc[i] += x[i] + x[stride+i] + ... (float64; rows rows, stride in bytes), row
// after row, so that consecutive rows are read as one sequential stream; n
// is a multiple of 4.
TEXT ·accRowsF64AVX2(SB), NOSPLIT, $0-40
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
block4:
	CMPQ CX, $16
	JLT block1
	VMOVUPD 0(BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD 64(BX), Y2
	VMOVUPD 96(BX), Y3
	VADDPD 0(AX), Y0, Y0
	VADDPD 32(AX), Y1, Y1
	VADDPD 64(AX), Y2, Y2
	VADDPD 96(AX), Y3, Y3
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	ADDQ $128, AX
	ADDQ $128, BX
	SUBQ $16, CX
	JMP block4
block1:
	CMPQ CX, $4
	JLT next
	VMOVUPD 0(BX), Y0
	VADDPD 0(AX), Y0, Y0
	VMOVUPD Y0, 0(AX)
	ADDQ $32, AX
	ADDQ $32, BX
	SUBQ $4, CX
	JMP block1
next:
	ADDQ R9, SI
	DECQ R8
	JNZ row
done:
	VZEROUPPER
	RET


// func prefetchAVX2(p unsafe.Pointer, n int)
// PREFETCHT0 on every 64-byte line of [p, p+n).
TEXT ·prefetchAVX2(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
loop:
	CMPQ CX, $0
	JLE done
	PREFETCHT0 (SI)
	ADDQ $64, SI
	SUBQ $64, CX
	JMP loop
done:
	RET
