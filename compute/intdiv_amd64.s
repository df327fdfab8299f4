//go:build amd64 && !noasm

#include "textflag.h"

// func floorDivI32AVX2(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int)
// dst = x // c (mod != 0: x % c) for int32 x and a divisor c >= 2 whose
// constants are newUdiv31(c)'s (m < 2^32, l = ceil(log2 c)); n is a
// positive multiple of 8. nt != 0: streaming stores (VMOVNTDQ) to a
// 32-byte aligned dst. Per lane: s = x >> 31, u = x ^ s (< 2^31),
// q = ((m*u) >> (31+l)) ^ s, the 64-bit products of the even lanes shifted
// down into their low halves and those of the odd lanes by l-1 so that the
// quotient lands in their high halves; the remainder is x - q*c. Sixteen
// lanes a step, then eight.
#define DIV8(off, R) \
	VMOVDQU off(SI), Y0 \
	VPSRAD $31, Y0, Y1 \
	VPXOR Y1, Y0, Y2 \
	VPMULUDQ Y15, Y2, Y3 \
	VPSRLQ $32, Y2, Y4 \
	VPMULUDQ Y15, Y4, Y4 \
	VPSRLQ X14, Y3, Y3 \
	VPSRLQ X12, Y4, Y4 \
	VPBLENDD $0xAA, Y4, Y3, Y3 \
	VPXOR Y1, Y3, R

#define MOD8(off, R) \
	DIV8(off, Y5) \
	VPMULLD Y13, Y5, Y6 \
	VPSUBD Y6, Y0, R

// STEP16 is one step of sixteen lanes: the kernel K (DIV8 or MOD8) on two
// vectors, stored by STORE (VMOVDQU or VMOVNTDQ).
#define STEP16(K, STORE) \
	K(0, Y7) \
	K(32, Y8) \
	STORE Y7, 0(DI) \
	STORE Y8, 32(DI) \
	ADDQ $64, SI \
	ADDQ $64, DI \
	SUBQ $16, CX

TEXT ·floorDivI32AVX2(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTQ m+24(FP), Y15
	MOVQ l+32(FP), AX
	LEAQ 31(AX), BX
	VMOVQ BX, X14
	DECQ AX
	VMOVQ AX, X12
	VPBROADCASTD c+40(FP), Y13
	MOVQ mod+48(FP), R8
	MOVQ nt+56(FP), R9
	TESTQ R8, R8
	JNZ modsel
	TESTQ R9, R9
	JNZ divnt16
div16:
	CMPQ CX, $16
	JLT div8
	STEP16(DIV8, VMOVDQU)
	JMP div16
div8:
	TESTQ CX, CX
	JZ done
	DIV8(0, Y7)
	VMOVDQU Y7, 0(DI)
	JMP done
divnt16:
	CMPQ CX, $16
	JLT divnt8
	STEP16(DIV8, VMOVNTDQ)
	JMP divnt16
divnt8:
	TESTQ CX, CX
	JZ done
	DIV8(0, Y7)
	VMOVNTDQ Y7, 0(DI)
	JMP done
modsel:
	TESTQ R9, R9
	JNZ modnt16
mod16:
	CMPQ CX, $16
	JLT mod8
	STEP16(MOD8, VMOVDQU)
	JMP mod16
mod8:
	TESTQ CX, CX
	JZ done
	MOD8(0, Y7)
	VMOVDQU Y7, 0(DI)
	JMP done
modnt16:
	CMPQ CX, $16
	JLT modnt8
	STEP16(MOD8, VMOVNTDQ)
	JMP modnt16
modnt8:
	TESTQ CX, CX
	JZ done
	MOD8(0, Y7)
	VMOVNTDQ Y7, 0(DI)
	JMP done
done:
	VZEROUPPER
	RET

// func floorDivI64AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod, nt int, m31 uint64)
// floorDivI32AVX2 for int64 (constants from newUdiv(c, 64)); AVX2 has no
// 64-bit multiply-high, so mulhi(m, u) is put together from the four 32-bit
// products, and q*c for the remainder from three. n is a positive multiple
// of 4. m31 != 0 (c < 2^31, m31 = newUdiv31(c).m, whose l is sh+1): four
// lanes whose magnitudes are all below 2^31 (the common case of small
// values) take one 32-bit multiply, q = (m31*u) >> (32+sh), and the
// remainder one signed 32-bit multiply (|q| <= 2^31, c < 2^31).
#define SLOW64 \
	VPSRLQ $32, Y2, Y3 \
	VPMULUDQ Y15, Y2, Y4 \
	VPMULUDQ Y15, Y3, Y5 \
	VPMULUDQ Y14, Y2, Y6 \
	VPMULUDQ Y14, Y3, Y7 \
	VPSRLQ $32, Y4, Y4 \
	VPBLENDD $0xAA, Y10, Y5, Y8 \
	VPADDQ Y8, Y4, Y4 \
	VPBLENDD $0xAA, Y10, Y6, Y8 \
	VPADDQ Y8, Y4, Y4 \
	VPSRLQ $32, Y4, Y4 \
	VPSRLQ $32, Y5, Y5 \
	VPSRLQ $32, Y6, Y6 \
	VPADDQ Y5, Y7, Y7 \
	VPADDQ Y6, Y7, Y7 \
	VPADDQ Y4, Y7, Y7 \
	VPSUBQ Y7, Y2, Y5 \
	VPSRLQ $1, Y5, Y5 \
	VPADDQ Y7, Y5, Y5 \
	VPSRLQ X13, Y5, Y5 \
	VPXOR Y1, Y5, Y5

// REM64 turns the quotient q in Y5 into the remainder x - q*c (q*c from
// three 32-bit products); SLOWMOD64 is SLOW64 and REM64.
#define REM64 \
	VPMULUDQ Y12, Y5, Y6 \
	VPSRLQ $32, Y5, Y7 \
	VPMULUDQ Y12, Y7, Y7 \
	VPMULUDQ Y11, Y5, Y8 \
	VPADDQ Y8, Y7, Y7 \
	VPSLLQ $32, Y7, Y7 \
	VPADDQ Y7, Y6, Y6 \
	VPSUBQ Y6, Y0, Y5

#define SLOWMOD64 \
	SLOW64 \
	REM64

// LOAD64 loads four lanes, their sign masks (Y1) and magnitudes (Y2), and
// jumps to SLOW when a magnitude is 2^31 or more.
#define LOAD64(SLOW) \
	VMOVDQU 0(SI), Y0 \
	VPCMPGTQ Y0, Y10, Y1 \
	VPXOR Y1, Y0, Y2 \
	VPSRLQ $31, Y2, Y3 \
	VPTEST Y3, Y3 \
	JNZ SLOW

// FASTDIV64 is the quotient of magnitudes below 2^31 by one 32-bit
// multiply; FASTMOD64 the remainder after it (one signed multiply).
#define FASTDIV64 \
	VPMULUDQ Y9, Y2, Y5 \
	VPSRLQ $32, Y5, Y5 \
	VPSRLQ X13, Y5, Y5 \
	VPXOR Y1, Y5, Y5

#define FASTMOD64 \
	FASTDIV64 \
	VPMULDQ Y12, Y5, Y6 \
	VPSUBQ Y6, Y0, Y5

// NEXT4 stores the four lanes of Y5 by STORE and moves on (flags: the count).
#define NEXT4(STORE) \
	STORE Y5, 0(DI) \
	ADDQ $32, SI \
	ADDQ $32, DI \
	SUBQ $4, CX

TEXT ·floorDivI64AVX2(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTQ m+24(FP), Y15
	VPSRLQ $32, Y15, Y14
	MOVQ sh+32(FP), AX
	VMOVQ AX, X13
	VPBROADCASTQ c+40(FP), Y12
	VPSRLQ $32, Y12, Y11
	VPXOR Y10, Y10, Y10
	MOVQ mod+48(FP), R8
	MOVQ nt+56(FP), R9
	VPBROADCASTQ m31+64(FP), Y9
	MOVQ m31+64(FP), R10
	TESTQ R10, R10
	JNZ floop
loop:
	VMOVDQU 0(SI), Y0
	VPCMPGTQ Y0, Y10, Y1
	VPXOR Y1, Y0, Y2
	SLOW64
	TESTQ R8, R8
	JZ store
	REM64
store:
	TESTQ R9, R9
	JNZ ntstore
	VMOVDQU Y5, 0(DI)
	JMP next
ntstore:
	VMOVNTDQ Y5, 0(DI)
next:
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JNZ loop
	VZEROUPPER
	RET

floop:
	TESTQ R8, R8
	JNZ fmodsel
	TESTQ R9, R9
	JNZ fdivnt
fdiv:
	LOAD64(fdivslow)
	FASTDIV64
	NEXT4(VMOVDQU)
	JNZ fdiv
	JMP fdone
fdivslow:
	SLOW64
	NEXT4(VMOVDQU)
	JNZ fdiv
	JMP fdone
fdivnt:
	LOAD64(fdivntslow)
	FASTDIV64
	NEXT4(VMOVNTDQ)
	JNZ fdivnt
	JMP fdone
fdivntslow:
	SLOW64
	NEXT4(VMOVNTDQ)
	JNZ fdivnt
	JMP fdone
fmodsel:
	TESTQ R9, R9
	JNZ fmodnt
fmod:
	LOAD64(fmodslow)
	FASTMOD64
	NEXT4(VMOVDQU)
	JNZ fmod
	JMP fdone
fmodslow:
	SLOWMOD64
	NEXT4(VMOVDQU)
	JNZ fmod
	JMP fdone
fmodnt:
	LOAD64(fmodntslow)
	FASTMOD64
	NEXT4(VMOVNTDQ)
	JNZ fmodnt
	JMP fdone
fmodntslow:
	SLOWMOD64
	NEXT4(VMOVNTDQ)
	JNZ fmodnt
	JMP fdone
fdone:
	VZEROUPPER
	RET

// func floorDivVVI32AVX2(dst, x, y unsafe.Pointer, n int, mod, nt int)
// dst = x // y (mod != 0: x % y) element-wise for int32, with NumPy's
// results for a zero divisor (0) and MinInt32 // -1 (MinInt32, remainder 0);
// n is a positive multiple of 8. nt != 0: streaming stores (VMOVNTDQ) to a
// 32-byte aligned dst. Per half of 4 lanes: q = floor(float64(x) /
// float64(y)), exact for int32 operands (see floorDivVVI32 in intdiv.go);
// VCVTTPD2DQ turns the one quotient out of range (2^31, from MinInt32 / -1)
// and those of y = 0 (±Inf, NaN) into 0x80000000, the first of which is the
// wrapped result, and the zero divisors are cleared by a mask at the end.
// The remainder is x - q*y (wrapping).
TEXT ·floorDivVVI32AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ mod+32(FP), R8
	MOVQ nt+40(FP), R9
	VPXOR Y15, Y15, Y15
loopvv:
	VCVTDQ2PD 0(SI), Y0
	VCVTDQ2PD 16(SI), Y1
	VCVTDQ2PD 0(DX), Y2
	VCVTDQ2PD 16(DX), Y3
	VDIVPD Y2, Y0, Y0
	VDIVPD Y3, Y1, Y1
	VROUNDPD $9, Y0, Y0
	VROUNDPD $9, Y1, Y1
	VCVTTPD2DQY Y0, X0
	VCVTTPD2DQY Y1, X1
	VINSERTI128 $1, X1, Y0, Y0
	VMOVDQU 0(DX), Y2
	TESTQ R8, R8
	JZ zmaskvv
	VPMULLD Y2, Y0, Y0
	VMOVDQU 0(SI), Y1
	VPSUBD Y0, Y1, Y0
zmaskvv:
	VPCMPEQD Y15, Y2, Y2
	VPANDN Y0, Y2, Y0
	TESTQ R9, R9
	JNZ ntvv
	VMOVDQU Y0, 0(DI)
	JMP nextvv
ntvv:
	VMOVNTDQ Y0, 0(DI)
nextvv:
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loopvv
	VZEROUPPER
	RET

// func floorDivVVI64Z(dst, x, y unsafe.Pointer, n int, mod, nt int) int
// int64 floor division (mod: the remainder) of two vectors, 8 lanes a step
// (AVX-512 F and DQ) in float64 while both operands are below 2^52 in
// magnitude: q = floor(x/y rounded) is exact there (floorDivVVI64Vec), and
// r = x - q y by FMA is exact (|q y| < 2^53). y = 0 gives 0 (NumPy's). It
// stops at the first vector with an operand of 2^52 or more (or fewer than
// 8 left), returning how many it did. nt: streaming stores (dst 64-byte
// aligned).
TEXT ·floorDivVVI64Z(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ mod+32(FP), R8
	MOVQ nt+40(FP), R9
	XORQ R10, R10
	MOVQ $0x000fffffffffffff, AX // 2^52 - 1
	VPBROADCASTQ AX, Z10
	VPXORQ Z12, Z12, Z12
loopz:
	LEAQ 8(R10), R11
	CMPQ R11, CX
	JGT donez
	VMOVDQU64 (SI)(R10*8), Z0
	VMOVDQU64 (DX)(R10*8), Z1
	VPABSQ Z0, Z2
	VPABSQ Z1, Z3
	VPCMPUQ $2, Z10, Z2, K1 // |x| < 2^52
	VPCMPUQ $2, Z10, Z3, K2
	KANDB K1, K2, K1
	KORTESTB K1, K1
	JNC donez // not all eight lanes
	VCVTQQ2PD Z0, Z0 // exact
	VCVTQQ2PD Z1, Z1
	VDIVPD Z1, Z0, Z2
	VRNDSCALEPD $9, Z2, Z2 // q = floor(x/y rounded): floor(x/y)
	TESTQ R8, R8
	JZ quotz
	VFNMADD213PD Z0, Z1, Z2 // r = x - q y (exact)
quotz:
	VCVTPD2QQ Z2, Z2
	VPTESTMQ Z1, Z1, K5 // y != 0
	VMOVDQA64 Z12, Z6
	VMOVDQA64 Z2, K5, Z6
	TESTQ R9, R9
	JNZ ntz
	VMOVDQU64 Z6, (DI)(R10*8)
	JMP nextz
ntz:
	VMOVNTDQ Z6, (DI)(R10*8)
nextz:
	MOVQ R11, R10
	JMP loopz
donez:
	MOVQ R10, ret+48(FP)
	VZEROUPPER
	RET

// func floorDivI64Z(dst, x unsafe.Pointer, n int, sh uint64, c int64, mod, nt int, m31 uint64) int
// floorDivI64AVX2's path for magnitudes below 2^31, 8 lanes a step
// (AVX-512): s = x >> 63, u = x ^ s, q = ((m31*u) >> (32+sh)) ^ s, the
// remainder x - q*c (mod != 0; one signed 32-bit multiply, |q| and c below
// 2^31). It stops at the first vector of 8 with a magnitude of 2^31 or
// more and returns the elements done (a multiple of 8; n's last n%8 are
// left). nt != 0: streaming stores to a 64-byte aligned dst.
TEXT ·floorDivI64Z(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	ANDQ $-8, CX
	MOVQ sh+24(FP), AX
	ADDQ $32, AX
	VMOVQ AX, X13
	VPBROADCASTQ c+32(FP), Z12
	MOVQ mod+40(FP), R8
	MOVQ nt+48(FP), R9
	VPBROADCASTQ m31+56(FP), Z9
	XORQ R10, R10
zloop:
	CMPQ R10, CX
	JGE zdone
	VMOVDQU64 (SI)(R10*8), Z0
	VPSRAQ $63, Z0, Z1
	VPXORQ Z1, Z0, Z2
	VPSRLQ $31, Z2, Z3
	VPTESTMQ Z3, Z3, K1
	KORTESTB K1, K1
	JNZ zdone
	VPMULUDQ Z9, Z2, Z5
	VPSRLQ X13, Z5, Z5
	VPXORQ Z1, Z5, Z5
	TESTQ R8, R8
	JZ zstore
	VPMULDQ Z12, Z5, Z6
	VPSUBQ Z6, Z0, Z5
zstore:
	TESTQ R9, R9
	JNZ znt
	VMOVDQU64 Z5, (DI)(R10*8)
	ADDQ $8, R10
	JMP zloop
znt:
	VMOVNTDQ Z5, (DI)(R10*8)
	ADDQ $8, R10
	JMP zloop
zdone:
	MOVQ R10, ret+64(FP)
	VZEROUPPER
	RET

// func floorDivI32Z(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int)
// floorDivI32AVX2 sixteen lanes a vector (AVX-512), the odd lanes' products
// put in place by a masked blend (K7 = 0xAAAA); n is a multiple of 16.
// nt != 0: streaming stores to a 64-byte aligned dst. Thirty-two lanes a
// step, then sixteen.
#define DIV16Z(off, R) \
	VMOVDQU32 off(SI), Z0 \
	VPSRAD $31, Z0, Z1 \
	VPXORD Z1, Z0, Z2 \
	VPMULUDQ Z15, Z2, Z3 \
	VPSRLQ $32, Z2, Z4 \
	VPMULUDQ Z15, Z4, Z4 \
	VPSRLQ X14, Z3, Z3 \
	VPSRLQ X12, Z4, Z4 \
	VPBLENDMD Z4, Z3, K7, Z3 \
	VPXORD Z1, Z3, R

#define MOD16Z(off, R) \
	DIV16Z(off, Z5) \
	VPMULLD Z13, Z5, Z6 \
	VPSUBD Z6, Z0, R

#define STEP32Z(K, STORE) \
	K(0, Z7) \
	K(64, Z8) \
	STORE Z7, 0(DI) \
	STORE Z8, 64(DI) \
	ADDQ $128, SI \
	ADDQ $128, DI \
	SUBQ $32, CX

TEXT ·floorDivI32Z(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTQ m+24(FP), Z15
	MOVQ l+32(FP), AX
	LEAQ 31(AX), BX
	VMOVQ BX, X14
	DECQ AX
	VMOVQ AX, X12
	VPBROADCASTD c+40(FP), Z13
	MOVL $0xAAAA, AX
	KMOVW AX, K7
	MOVQ mod+48(FP), R8
	MOVQ nt+56(FP), R9
	TESTQ R8, R8
	JNZ zmodsel
	TESTQ R9, R9
	JNZ zdivnt32
zdiv32:
	CMPQ CX, $32
	JLT zdiv16
	STEP32Z(DIV16Z, VMOVDQU32)
	JMP zdiv32
zdiv16:
	TESTQ CX, CX
	JZ zdone32
	DIV16Z(0, Z7)
	VMOVDQU32 Z7, 0(DI)
	JMP zdone32
zdivnt32:
	CMPQ CX, $32
	JLT zdivnt16
	STEP32Z(DIV16Z, VMOVNTDQ)
	JMP zdivnt32
zdivnt16:
	TESTQ CX, CX
	JZ zdone32
	DIV16Z(0, Z7)
	VMOVNTDQ Z7, 0(DI)
	JMP zdone32
zmodsel:
	TESTQ R9, R9
	JNZ zmodnt32
zmod32:
	CMPQ CX, $32
	JLT zmod16
	STEP32Z(MOD16Z, VMOVDQU32)
	JMP zmod32
zmod16:
	TESTQ CX, CX
	JZ zdone32
	MOD16Z(0, Z7)
	VMOVDQU32 Z7, 0(DI)
	JMP zdone32
zmodnt32:
	CMPQ CX, $32
	JLT zmodnt16
	STEP32Z(MOD16Z, VMOVNTDQ)
	JMP zmodnt32
zmodnt16:
	TESTQ CX, CX
	JZ zdone32
	MOD16Z(0, Z7)
	VMOVNTDQ Z7, 0(DI)
	JMP zdone32
zdone32:
	VZEROUPPER
	RET
