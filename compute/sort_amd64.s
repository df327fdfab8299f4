//go:build amd64 && !noasm

#include "textflag.h"

// The write-combining radix scatters (sort_amd64.go). a points to a
// wcArgs:
//   0 dst (virtual base: element 0 on a 64-byte boundary)  8 src  16 n
//   24 off (*uint32, next place per bucket)  32 start (*uint32, each
//   bucket's first place)  40 buf (64 bytes per bucket, 64-byte aligned)
//   48 shift  56 mask  64 preX  72 preM  80 preC  88 postX  96 postM
//   104 postC
// Each element x: k = x ^ (((sar(x) ^ preX) & preM) | preC); bucket
// b = (k >> shift) & mask; its stored value v = k ^ (((sar(k) ^ postX) &
// postM) | postC) goes to the line buffer of b at its place's position in
// a 64-byte line; a line that fills is written to dst with non-temporal
// stores (element by element when it starts before the bucket). The
// caller writes the lines left partly filled and fences.

// func scatterWC32(a *wcArgs)
TEXT ·scatterWC32(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ 8(DI), SI
	MOVQ 16(DI), R13
	SHLQ $2, R13
	ADDQ SI, R13
	MOVQ 48(DI), CX
	MOVQ 24(DI), R12
	MOVQ 40(DI), R11
	MOVQ 0(DI), R10
	MOVQ 72(DI), AX
	ORQ 80(DI), AX
	ORQ 96(DI), AX
	ORQ 104(DI), AX
	JZ plain32
loop32:
	CMPQ SI, R13
	JAE done32
	MOVL (SI), AX
	ADDQ $4, SI
	MOVL AX, BX
	SARL $31, BX
	XORL 64(DI), BX
	ANDL 72(DI), BX
	ORL 80(DI), BX
	XORL BX, AX
	MOVL AX, DX
	SHRL CX, DX
	ANDL 56(DI), DX
	MOVL AX, BX
	SARL $31, BX
	XORL 88(DI), BX
	ANDL 96(DI), BX
	ORL 104(DI), BX
	XORL AX, BX
	MOVL (R12)(DX*4), R8
	MOVL R8, R9
	ANDL $15, R9
	MOVQ DX, AX
	SHLQ $6, AX
	ADDQ R11, AX
	MOVL BX, (AX)(R9*4)
	INCL R8
	MOVL R8, (R12)(DX*4)
	TESTL $15, R8
	JNZ loop32
	LEAL -16(R8), R9
	MOVQ 32(DI), BX
	MOVL (BX)(DX*4), BX
	CMPL R9, BX
	JB part32
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y1
	LEAQ (R10)(R9*4), BX
	VMOVNTDQ Y0, (BX)
	VMOVNTDQ Y1, 32(BX)
	JMP loop32
part32:
	MOVL BX, R9
	ANDL $15, R9
	MOVL (AX)(R9*4), R9
	MOVL R9, (R10)(BX*4)
	INCL BX
	CMPL BX, R8
	JB part32
	JMP loop32
plain32:
	CMPQ SI, R13
	JAE done32
	MOVL (SI), BX
	ADDQ $4, SI
	MOVL BX, DX
	SHRL CX, DX
	ANDL 56(DI), DX
	MOVL (R12)(DX*4), R8
	MOVL R8, R9
	ANDL $15, R9
	MOVQ DX, AX
	SHLQ $6, AX
	ADDQ R11, AX
	MOVL BX, (AX)(R9*4)
	INCL R8
	MOVL R8, (R12)(DX*4)
	TESTL $15, R8
	JNZ plain32
	LEAL -16(R8), R9
	MOVQ 32(DI), BX
	MOVL (BX)(DX*4), BX
	CMPL R9, BX
	JB ppart32
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y1
	LEAQ (R10)(R9*4), BX
	VMOVNTDQ Y0, (BX)
	VMOVNTDQ Y1, 32(BX)
	JMP plain32
ppart32:
	MOVL BX, R9
	ANDL $15, R9
	MOVL (AX)(R9*4), R9
	MOVL R9, (R10)(BX*4)
	INCL BX
	CMPL BX, R8
	JB ppart32
	JMP plain32
done32:
	SFENCE
	VZEROUPPER
	RET

// func scatterWC64(a *wcArgs)
TEXT ·scatterWC64(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ 8(DI), SI
	MOVQ 16(DI), R13
	SHLQ $3, R13
	ADDQ SI, R13
	MOVQ 48(DI), CX
	MOVQ 24(DI), R12
	MOVQ 40(DI), R11
	MOVQ 0(DI), R10
	MOVQ 72(DI), AX
	ORQ 80(DI), AX
	ORQ 96(DI), AX
	ORQ 104(DI), AX
	JZ plain64
loop64:
	CMPQ SI, R13
	JAE done64
	MOVQ (SI), AX
	ADDQ $8, SI
	MOVQ AX, BX
	SARQ $63, BX
	XORQ 64(DI), BX
	ANDQ 72(DI), BX
	ORQ 80(DI), BX
	XORQ BX, AX
	MOVQ AX, DX
	SHRQ CX, DX
	ANDQ 56(DI), DX
	MOVQ AX, BX
	SARQ $63, BX
	XORQ 88(DI), BX
	ANDQ 96(DI), BX
	ORQ 104(DI), BX
	XORQ AX, BX
	MOVL (R12)(DX*4), R8
	MOVL R8, R9
	ANDL $7, R9
	MOVQ DX, AX
	SHLQ $6, AX
	ADDQ R11, AX
	MOVQ BX, (AX)(R9*8)
	INCL R8
	MOVL R8, (R12)(DX*4)
	TESTL $7, R8
	JNZ loop64
	LEAL -8(R8), R9
	MOVQ 32(DI), BX
	MOVL (BX)(DX*4), BX
	CMPL R9, BX
	JB part64
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y1
	LEAQ (R10)(R9*8), BX
	VMOVNTDQ Y0, (BX)
	VMOVNTDQ Y1, 32(BX)
	JMP loop64
part64:
	MOVL BX, R9
	ANDL $7, R9
	MOVQ (AX)(R9*8), R9
	MOVQ R9, (R10)(BX*8)
	INCL BX
	CMPL BX, R8
	JB part64
	JMP loop64
plain64:
	CMPQ SI, R13
	JAE done64
	MOVQ (SI), BX
	ADDQ $8, SI
	MOVQ BX, DX
	SHRQ CX, DX
	ANDQ 56(DI), DX
	MOVL (R12)(DX*4), R8
	MOVL R8, R9
	ANDL $7, R9
	MOVQ DX, AX
	SHLQ $6, AX
	ADDQ R11, AX
	MOVQ BX, (AX)(R9*8)
	INCL R8
	MOVL R8, (R12)(DX*4)
	TESTL $7, R8
	JNZ plain64
	LEAL -8(R8), R9
	MOVQ 32(DI), BX
	MOVL (BX)(DX*4), BX
	CMPL R9, BX
	JB ppart64
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y1
	LEAQ (R10)(R9*8), BX
	VMOVNTDQ Y0, (BX)
	VMOVNTDQ Y1, 32(BX)
	JMP plain64
ppart64:
	MOVL BX, R9
	ANDL $7, R9
	MOVQ (AX)(R9*8), R9
	MOVQ R9, (R10)(BX*8)
	INCL BX
	CMPL BX, R8
	JB ppart64
	JMP plain64
done64:
	SFENCE
	VZEROUPPER
	RET
