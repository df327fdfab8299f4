//go:build amd64 && !noasm

#include "textflag.h"

// Casts between float widths, to bool and from narrow integers to 64-bit
// ones, a block of elements a step; and the integer and bool steps of
// reductions over outer axes. Every kernel takes n, a positive multiple
// of its block, and leaves the rest to the Go loop it stands in for
// (castvec_amd64.go).

// CVT4 is the body of func(d, s unsafe.Pointer, n int) for a conversion
// LOAD from INB source bytes into a vector of OUTB bytes (STORE), four a
// step: BLOCK elements.
#define CVT4(LOAD, STORE, INB, OUTB, BLOCK) \
	MOVQ d+0(FP), DI; \
	MOVQ s+8(FP), SI; \
	MOVQ n+16(FP), CX; \
loop: \
	LOAD (0*INB)(SI), Y0; \
	LOAD (1*INB)(SI), Y1; \
	LOAD (2*INB)(SI), Y2; \
	LOAD (3*INB)(SI), Y3; \
	STORE Y0, (0*OUTB)(DI); \
	STORE Y1, (1*OUTB)(DI); \
	STORE Y2, (2*OUTB)(DI); \
	STORE Y3, (3*OUTB)(DI); \
	ADDQ $(4*INB), SI; \
	ADDQ $(4*OUTB), DI; \
	SUBQ $BLOCK, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// CVT2 is CVT4 for a conversion in two instructions: LOAD from INB
// source bytes into a vector, then CONV on it, stored as 32 bytes.
#define CVT2(LOAD, CONV, INB, BLOCK) \
	MOVQ d+0(FP), DI; \
	MOVQ s+8(FP), SI; \
	MOVQ n+16(FP), CX; \
loop: \
	LOAD (0*INB)(SI), Y0; \
	LOAD (1*INB)(SI), Y1; \
	LOAD (2*INB)(SI), Y2; \
	LOAD (3*INB)(SI), Y3; \
	CONV Y0, Y0; \
	CONV Y1, Y1; \
	CONV Y2, Y2; \
	CONV Y3, Y3; \
	VMOVUPS Y0, 0(DI); \
	VMOVUPS Y1, 32(DI); \
	VMOVUPS Y2, 64(DI); \
	VMOVUPS Y3, 96(DI); \
	ADDQ $(4*INB), SI; \
	ADDQ $128, DI; \
	SUBQ $BLOCK, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// CVT2X is CVT2 for a conversion whose first step fills an XMM register
// (16 source bytes or fewer) and whose second widens it into a YMM one.
#define CVT2X(LOAD, CONV, INB, BLOCK) \
	MOVQ d+0(FP), DI; \
	MOVQ s+8(FP), SI; \
	MOVQ n+16(FP), CX; \
loop: \
	LOAD (0*INB)(SI), X0; \
	LOAD (1*INB)(SI), X1; \
	LOAD (2*INB)(SI), X2; \
	LOAD (3*INB)(SI), X3; \
	CONV X0, Y0; \
	CONV X1, Y1; \
	CONV X2, Y2; \
	CONV X3, Y3; \
	VMOVUPD Y0, 0(DI); \
	VMOVUPD Y1, 32(DI); \
	VMOVUPD Y2, 64(DI); \
	VMOVUPD Y3, 96(DI); \
	ADDQ $(4*INB), SI; \
	ADDQ $128, DI; \
	SUBQ $BLOCK, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// NARROW is the body of func(d, s unsafe.Pointer, n int) for truncating
// casts to half the width: two vectors a step masked to the low half of
// each lane (so the unsigned-saturating pack PACK keeps those bits), the
// pack's lane order restored by VPERMQ; 32 bytes out. MASK is the
// 64-bit pattern of the mask, INE the elements a step.
#define NARROW(MASK, PACK, INE) \
	MOVQ d+0(FP), DI; \
	MOVQ s+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ $MASK, AX; \
	VMOVQ AX, X7; \
	VPBROADCASTQ X7, Y7; \
narrow: \
	VPAND 0(SI), Y7, Y0; \
	VPAND 32(SI), Y7, Y1; \
	PACK Y1, Y0, Y0; \
	VPERMQ $0xd8, Y0, Y0; \
	VMOVDQU Y0, 0(DI); \
	ADDQ $64, SI; \
	ADDQ $32, DI; \
	SUBQ $INE, CX; \
	JNZ narrow; \
	VZEROUPPER; \
	RET

// ACCOP is the body of func(acc, x unsafe.Pointer, n int): acc[i] =
// OP(x[i], acc[i]), 64 bytes a step (n a multiple of 64 bytes' elements,
// SHIFT the log2 of the element size).
#define ACCOP(SHIFT, OP) \
	MOVQ acc+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $SHIFT, CX; \
	XORQ DX, DX; \
accop: \
	VMOVDQU 0(DI)(DX*1), Y0; \
	VMOVDQU 32(DI)(DX*1), Y1; \
	OP 0(SI)(DX*1), Y0, Y0; \
	OP 32(SI)(DX*1), Y1, Y1; \
	VMOVDQU Y0, 0(DI)(DX*1); \
	VMOVDQU Y1, 32(DI)(DX*1); \
	ADDQ $64, DX; \
	CMPQ DX, CX; \
	JLT accop; \
	VZEROUPPER; \
	RET

// func castF32F64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castF32F64AVX2(SB), NOSPLIT, $0-24
	CVT4(VCVTPS2PD, VMOVUPD, 16, 32, 16)

// func castI32F64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castI32F64AVX2(SB), NOSPLIT, $0-24
	CVT4(VCVTDQ2PD, VMOVUPD, 16, 32, 16)

// func castF16F32F16C(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castF16F32F16C(SB), NOSPLIT, $0-24
	CVT4(VCVTPH2PS, VMOVUPS, 16, 32, 32)

// func castF16F64F16C(d, s unsafe.Pointer, n int) (nan bool); n a multiple
// of 16: four float16s a conversion to float32 (exact), then to float64;
// nan reports whether any was a NaN (F16C quiets a signalling NaN, which
// the caller puts back).
TEXT ·castF16F64F16C(SB), NOSPLIT, $0-25
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS X8, X8, X8
f16f64:
	VCVTPH2PS 0(SI), X0
	VCVTPH2PS 8(SI), X1
	VCVTPH2PS 16(SI), X2
	VCVTPH2PS 24(SI), X3
	VCMPPS $3, X0, X0, X4
	VCMPPS $3, X1, X1, X5
	VCMPPS $3, X2, X2, X6
	VCMPPS $3, X3, X3, X7
	VORPS X4, X5, X4
	VORPS X6, X7, X6
	VORPS X4, X8, X8
	VORPS X6, X8, X8
	VCVTPS2PD X0, Y0
	VCVTPS2PD X1, Y1
	VCVTPS2PD X2, Y2
	VCVTPS2PD X3, Y3
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JNZ f16f64
	VPTEST X8, X8
	SETNE nan+24(FP)
	VZEROUPPER
	RET

// func accMulF64F32AVX2(acc, x unsafe.Pointer, n int); n a multiple of 8:
// acc[i] = acc[i] * float64(x[i]), the accumulator the multiply's first
// operand (as vek's Mul_Inplace, for the NaN it returns of two).
TEXT ·accMulF64F32AVX2(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
accmulw:
	VCVTPS2PD 0(SI), Y0
	VCVTPS2PD 16(SI), Y1
	VMOVUPD 0(DI), Y2
	VMOVUPD 32(DI), Y3
	VMULPD Y0, Y2, Y2
	VMULPD Y1, Y3, Y3
	VMOVUPD Y2, 0(DI)
	VMOVUPD Y3, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ accmulw
	VZEROUPPER
	RET

// func castU8I64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castU8I64AVX2(SB), NOSPLIT, $0-24
	CVT4(VPMOVZXBQ, VMOVDQU, 4, 32, 16)

// func castI8I64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castI8I64AVX2(SB), NOSPLIT, $0-24
	CVT4(VPMOVSXBQ, VMOVDQU, 4, 32, 16)

// func castU16I64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castU16I64AVX2(SB), NOSPLIT, $0-24
	CVT4(VPMOVZXWQ, VMOVDQU, 8, 32, 16)

// func castI16I64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castI16I64AVX2(SB), NOSPLIT, $0-24
	CVT4(VPMOVSXWQ, VMOVDQU, 8, 32, 16)

// func castU8I32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castU8I32AVX2(SB), NOSPLIT, $0-24
	CVT4(VPMOVZXBD, VMOVDQU, 8, 32, 32)

// func castI8I32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castI8I32AVX2(SB), NOSPLIT, $0-24
	CVT4(VPMOVSXBD, VMOVDQU, 8, 32, 32)

// func castI32F32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castI32F32AVX2(SB), NOSPLIT, $0-24
	CVT4(VCVTDQ2PS, VMOVUPS, 32, 32, 32)

// func castI8F32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castI8F32AVX2(SB), NOSPLIT, $0-24
	CVT2(VPMOVSXBD, VCVTDQ2PS, 8, 32)

// func castU8F32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castU8F32AVX2(SB), NOSPLIT, $0-24
	CVT2(VPMOVZXBD, VCVTDQ2PS, 8, 32)

// func castI16F32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castI16F32AVX2(SB), NOSPLIT, $0-24
	CVT2(VPMOVSXWD, VCVTDQ2PS, 16, 32)

// func castU16F32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castU16F32AVX2(SB), NOSPLIT, $0-24
	CVT2(VPMOVZXWD, VCVTDQ2PS, 16, 32)

// func castI8F64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castI8F64AVX2(SB), NOSPLIT, $0-24
	CVT2X(VPMOVSXBD, VCVTDQ2PD, 4, 16)

// func castU8F64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castU8F64AVX2(SB), NOSPLIT, $0-24
	CVT2X(VPMOVZXBD, VCVTDQ2PD, 4, 16)

// func castI16F64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castI16F64AVX2(SB), NOSPLIT, $0-24
	CVT2X(VPMOVSXWD, VCVTDQ2PD, 8, 16)

// func castU16F64AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castU16F64AVX2(SB), NOSPLIT, $0-24
	CVT2X(VPMOVZXWD, VCVTDQ2PD, 8, 16)

// func castF64F32AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castF64F32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
f64f32:
	VCVTPD2PSY 0(SI), X0
	VCVTPD2PSY 32(SI), X1
	VCVTPD2PSY 64(SI), X2
	VCVTPD2PSY 96(SI), X3
	VMOVUPS X0, 0(DI)
	VMOVUPS X1, 16(DI)
	VMOVUPS X2, 32(DI)
	VMOVUPS X3, 48(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ f64f32
	VZEROUPPER
	RET

// func castF32F16F16C(d, s unsafe.Pointer, n int); n a multiple of 32.
// Rounds to nearest even (immediate 0), whatever MXCSR holds.
TEXT ·castF32F16F16C(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
f32f16:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VCVTPS2PH $0, Y0, 0(DI)
	VCVTPS2PH $0, Y1, 16(DI)
	VCVTPS2PH $0, Y2, 32(DI)
	VCVTPS2PH $0, Y3, 48(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JNZ f32f16
	VZEROUPPER
	RET

// func castF32BoolAVX2(d, s unsafe.Pointer, n int); n a multiple of 8.
// x != 0 (unordered: NaN is true) gives a lane mask; its 8 bits index
// boolBytes, the 8 bytes of 0 and 1 it stands for.
TEXT ·castF32BoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ ·boolBytes(SB), R8
	VXORPS Y7, Y7, Y7
f32bool:
	VCMPPS $4, 0(SI), Y7, Y0
	VMOVMSKPS Y0, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, 0(DI)
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ f32bool
	VZEROUPPER
	RET

// func castF64BoolAVX2(d, s unsafe.Pointer, n int); n a multiple of 8
TEXT ·castF64BoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ ·boolBytes(SB), R8
	VXORPD Y7, Y7, Y7
f64bool:
	VCMPPD $4, 0(SI), Y7, Y0
	VCMPPD $4, 32(SI), Y7, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, DX
	SHLQ $4, DX
	ORQ DX, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, 0(DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ f64bool
	VZEROUPPER
	RET

// func accMaxU8AVX2(acc, x unsafe.Pointer, n int) (also bool: or)
TEXT ·accMaxU8AVX2(SB), NOSPLIT, $0-24
	ACCOP(0, VPMAXUB)

// func accMinU8AVX2(acc, x unsafe.Pointer, n int) (also bool: and)
TEXT ·accMinU8AVX2(SB), NOSPLIT, $0-24
	ACCOP(0, VPMINUB)

// func accMaxI8AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxI8AVX2(SB), NOSPLIT, $0-24
	ACCOP(0, VPMAXSB)

// func accMinI8AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinI8AVX2(SB), NOSPLIT, $0-24
	ACCOP(0, VPMINSB)

// func accMaxU16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxU16AVX2(SB), NOSPLIT, $0-24
	ACCOP(1, VPMAXUW)

// func accMinU16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinU16AVX2(SB), NOSPLIT, $0-24
	ACCOP(1, VPMINUW)

// func accMaxI16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxI16AVX2(SB), NOSPLIT, $0-24
	ACCOP(1, VPMAXSW)

// func accMinI16AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinI16AVX2(SB), NOSPLIT, $0-24
	ACCOP(1, VPMINSW)

// func accMaxU32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxU32AVX2(SB), NOSPLIT, $0-24
	ACCOP(2, VPMAXUD)

// func accMinU32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinU32AVX2(SB), NOSPLIT, $0-24
	ACCOP(2, VPMINUD)

// func accMaxI32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMaxI32AVX2(SB), NOSPLIT, $0-24
	ACCOP(2, VPMAXSD)

// func accMinI32AVX2(acc, x unsafe.Pointer, n int)
TEXT ·accMinI32AVX2(SB), NOSPLIT, $0-24
	ACCOP(2, VPMINSD)

// func accAddI64AVX2(acc, x unsafe.Pointer, n int) (wrapping: also uint64)
TEXT ·accAddI64AVX2(SB), NOSPLIT, $0-24
	ACCOP(3, VPADDQ)

// func accAddI32AVX2(acc, x unsafe.Pointer, n int) (wrapping: also uint32)
TEXT ·accAddI32AVX2(SB), NOSPLIT, $0-24
	ACCOP(2, VPADDD)

// func foldAddI64AVX2(acc, x unsafe.Pointer, n int): *acc += x[0] + ...
// + x[n-1], wrapping (also uint64); n a multiple of 16.
TEXT ·foldAddI64AVX2(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	XORQ DX, DX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
foldadd:
	VPADDQ 0(SI)(DX*1), Y0, Y0
	VPADDQ 32(SI)(DX*1), Y1, Y1
	VPADDQ 64(SI)(DX*1), Y2, Y2
	VPADDQ 96(SI)(DX*1), Y3, Y3
	ADDQ $128, DX
	CMPQ DX, CX
	JLT foldadd
	VPADDQ Y1, Y0, Y0
	VPADDQ Y3, Y2, Y2
	VPADDQ Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	ADDQ AX, 0(DI)
	VZEROUPPER
	RET

// func notBoolAVX2(d, x unsafe.Pointer, n int): d[i] = x[i] ^ 1 (bools
// hold 0 or 1); n a multiple of 64.
TEXT ·notBoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $0x0101010101010101, AX
	VMOVQ AX, X7
	VPBROADCASTQ X7, Y7
notb:
	VPXOR 0(SI), Y7, Y0
	VPXOR 32(SI), Y7, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JNZ notb
	VZEROUPPER
	RET

// func hasF16C() bool: CPUID leaf 1, ECX bit 29.
TEXT ·hasF16C(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $29, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

// func castI8BoolAVX2(d, s unsafe.Pointer, n int); n a multiple of 64:
// d[i] = s[i] != 0 for bytes (also uint8).
TEXT ·castI8BoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $0x0101010101010101, AX
	VMOVQ AX, X7
	VPBROADCASTQ X7, Y7
	VPXOR Y6, Y6, Y6
i8bool:
	VPCMPEQB 0(SI), Y6, Y0
	VPCMPEQB 32(SI), Y6, Y1
	VPANDN Y7, Y0, Y0
	VPANDN Y7, Y1, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JNZ i8bool
	VZEROUPPER
	RET

// func castI16BoolAVX2(d, s unsafe.Pointer, n int); n a multiple of 32:
// the word compares packed to bytes (lane order restored by VPERMQ).
TEXT ·castI16BoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $0x0101010101010101, AX
	VMOVQ AX, X7
	VPBROADCASTQ X7, Y7
	VPXOR Y6, Y6, Y6
i16bool:
	VPCMPEQW 0(SI), Y6, Y0
	VPCMPEQW 32(SI), Y6, Y1
	VPACKSSWB Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VPANDN Y7, Y0, Y0
	VMOVDQU Y0, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JNZ i16bool
	VZEROUPPER
	RET

// func castI32BoolAVX2(d, s unsafe.Pointer, n int); n a multiple of 8:
// the lanes equal to zero, inverted, index boolBytes.
TEXT ·castI32BoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ ·boolBytes(SB), R8
	VPXOR Y6, Y6, Y6
i32bool:
	VPCMPEQD 0(SI), Y6, Y0
	VMOVMSKPS Y0, AX
	XORQ $0xff, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, 0(DI)
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ i32bool
	VZEROUPPER
	RET

// func castI64BoolAVX2(d, s unsafe.Pointer, n int); n a multiple of 8
TEXT ·castI64BoolAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ ·boolBytes(SB), R8
	VPXOR Y6, Y6, Y6
i64bool:
	VPCMPEQQ 0(SI), Y6, Y0
	VPCMPEQQ 32(SI), Y6, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, DX
	SHLQ $4, DX
	ORQ DX, AX
	XORQ $0xff, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, 0(DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ i64bool
	VZEROUPPER
	RET

// func castN16to8AVX2(d, s unsafe.Pointer, n int); n a multiple of 32
TEXT ·castN16to8AVX2(SB), NOSPLIT, $0-24
	NARROW(0x00ff00ff00ff00ff, VPACKUSWB, 32)

// func castN32to16AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castN32to16AVX2(SB), NOSPLIT, $0-24
	NARROW(0x0000ffff0000ffff, VPACKUSDW, 16)

// func castN32to8AVX2(d, s unsafe.Pointer, n int); n a multiple of 32:
// four vectors of dwords masked to their low bytes, packed to words and
// then bytes; VPERMD (permIdx) restores the order.
TEXT ·castN32to8AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $0x000000ff000000ff, AX
	VMOVQ AX, X7
	VPBROADCASTQ X7, Y7
	VMOVDQU ·permIdx(SB), Y6
n32to8:
	VPAND 0(SI), Y7, Y0
	VPAND 32(SI), Y7, Y1
	VPAND 64(SI), Y7, Y2
	VPAND 96(SI), Y7, Y3
	VPACKUSDW Y1, Y0, Y0
	VPACKUSDW Y3, Y2, Y2
	VPACKUSWB Y2, Y0, Y0
	VPERMD Y0, Y6, Y0
	VMOVDQU Y0, 0(DI)
	ADDQ $128, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JNZ n32to8
	VZEROUPPER
	RET

// func castN64to32AVX2(d, s unsafe.Pointer, n int); n a multiple of 8:
// the low dwords of two vectors of qwords (VSHUFPS), in order by VPERMQ.
TEXT ·castN64to32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
n64to32:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VPERMQ $0xd8, Y2, Y2
	VMOVDQU Y2, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ n64to32
	VZEROUPPER
	RET

// func castF32I32AVX2(d, s unsafe.Pointer, n int); n a multiple of 32:
// truncation; NaN and out-of-range values give 0x80000000, as Go's
// conversion does on amd64.
TEXT ·castF32I32AVX2(SB), NOSPLIT, $0-24
	CVT4(VCVTTPS2DQ, VMOVDQU, 32, 32, 32)

// func castF64I32AVX2(d, s unsafe.Pointer, n int); n a multiple of 16
TEXT ·castF64I32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
f64i32:
	VCVTTPD2DQY 0(SI), X0
	VCVTTPD2DQY 32(SI), X1
	VCVTTPD2DQY 64(SI), X2
	VCVTTPD2DQY 96(SI), X3
	VMOVDQU X0, 0(DI)
	VMOVDQU X1, 16(DI)
	VMOVDQU X2, 32(DI)
	VMOVDQU X3, 48(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ f64i32
	VZEROUPPER
	RET
