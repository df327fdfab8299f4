//go:build amd64 && !noasm

#include "textflag.h"

// Reversed copies (a gather at stride -1): dst[i] = the element i places
// below src. Four 32-byte vectors a step, loaded from below src and
// reversed in the register (VPERMPD $0x1B for 8-byte elements, VPERMD with
// a reversing index for 4-byte ones); loads and stores unaligned.

// revIdx32 is the VPERMD index that reverses eight dwords.
DATA revIdx32<>+0(SB)/4, $7
DATA revIdx32<>+4(SB)/4, $6
DATA revIdx32<>+8(SB)/4, $5
DATA revIdx32<>+12(SB)/4, $4
DATA revIdx32<>+16(SB)/4, $3
DATA revIdx32<>+20(SB)/4, $2
DATA revIdx32<>+24(SB)/4, $1
DATA revIdx32<>+28(SB)/4, $0
GLOBL revIdx32<>(SB), RODATA|NOPTR, $32

// REV8 is the loop of 8-byte elements, REV4 of 4-byte ones; STORE is the
// 32-byte store (VMOVUPD/VMOVDQU, or VMOVNTPD/VMOVNTDQ into an aligned dst).
#define REV8(STORE) \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ n+16(FP), CX; \
loop: \
	VMOVUPD -24(SI), Y0; \
	VMOVUPD -56(SI), Y1; \
	VMOVUPD -88(SI), Y2; \
	VMOVUPD -120(SI), Y3; \
	VPERMPD $0x1B, Y0, Y0; \
	VPERMPD $0x1B, Y1, Y1; \
	VPERMPD $0x1B, Y2, Y2; \
	VPERMPD $0x1B, Y3, Y3; \
	STORE Y0, 0(DI); \
	STORE Y1, 32(DI); \
	STORE Y2, 64(DI); \
	STORE Y3, 96(DI); \
	SUBQ $128, SI; \
	ADDQ $128, DI; \
	SUBQ $16, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

#define REV4(STORE) \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VMOVDQU revIdx32<>(SB), Y8; \
loop: \
	VPERMD -28(SI), Y8, Y0; \
	VPERMD -60(SI), Y8, Y1; \
	VPERMD -92(SI), Y8, Y2; \
	VPERMD -124(SI), Y8, Y3; \
	STORE Y0, 0(DI); \
	STORE Y1, 32(DI); \
	STORE Y2, 64(DI); \
	STORE Y3, 96(DI); \
	SUBQ $128, SI; \
	ADDQ $128, DI; \
	SUBQ $32, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// func reverse8AVX2(dst, src unsafe.Pointer, n int)
// n is a positive multiple of 16; reads the n elements ending at src.
TEXT ·reverse8AVX2(SB), NOSPLIT, $0-24
	REV8(VMOVUPD)

// func reverse4AVX2(dst, src unsafe.Pointer, n int)
// n is a positive multiple of 32; reads the n elements ending at src.
TEXT ·reverse4AVX2(SB), NOSPLIT, $0-24
	REV4(VMOVDQU)

// func reverse8NTAVX2(dst, src unsafe.Pointer, n int)
// reverse8AVX2 with non-temporal stores: dst is 32-byte aligned.
TEXT ·reverse8NTAVX2(SB), NOSPLIT, $0-24
	REV8(VMOVNTPD)

// func reverse4NTAVX2(dst, src unsafe.Pointer, n int)
// reverse4AVX2 with non-temporal stores: dst is 32-byte aligned.
TEXT ·reverse4NTAVX2(SB), NOSPLIT, $0-24
	REV4(VMOVNTDQ)
