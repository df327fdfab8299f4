//go:build amd64 && !noasm

#include "textflag.h"

// Float classification into bool bytes, 32 elements (32 result bytes) a
// step: each vector's compare gives 0/-1 lanes, which saturating packs
// (dword->word->byte, in-lane) narrow to bytes; VPERMD puts the 4-byte
// groups back in element order, VPABSB turns -1 into 1, and one 32-byte
// store writes them. float64 first packs two vectors of qword masks into
// one of dwords (VPACKSSDW, then VPERMQ $0xD8 to undo the lane interleave)
// and then proceeds as float32. Every kernel is one of two bodies
// (CLASS32 / CLASS64), parameterized by the compare and by the store
// (VMOVDQU, or VMOVNTDQ for the streaming variants, whose dst the Go side
// aligns to 32 bytes).

// classPerm is the VPERMD index that undoes the lane interleave of two
// levels of in-lane packs: dword j of the result comes from dword perm[j].
DATA classPerm<>+0(SB)/4, $0
DATA classPerm<>+4(SB)/4, $4
DATA classPerm<>+8(SB)/4, $1
DATA classPerm<>+12(SB)/4, $5
DATA classPerm<>+16(SB)/4, $2
DATA classPerm<>+20(SB)/4, $6
DATA classPerm<>+24(SB)/4, $3
DATA classPerm<>+28(SB)/4, $7
GLOBL classPerm<>(SB), RODATA|NOPTR, $32

// Compares: r becomes all ones in the lanes where the predicate holds.
// isinf/isfinite use Y14 (abs mask) and Y15 (+Inf bits), set by *CONST.
#define NANPS(r) VCMPPS $3, r, r, r
#define INFPS(r) VANDPS Y14, r, r; VCMPPS $0, Y15, r, r
#define FINPS(r) VANDPS Y14, r, r; VCMPPS $1, Y15, r, r
#define NANPD(r) VCMPPD $3, r, r, r
#define INFPD(r) VANDPD Y14, r, r; VCMPPD $0, Y15, r, r
#define FINPD(r) VANDPD Y14, r, r; VCMPPD $1, Y15, r, r

#define NOCONST
#define F32CONST \
	MOVL $0x7fffffff, AX; VMOVQ AX, X14; VPBROADCASTD X14, Y14; \
	MOVL $0x7f800000, AX; VMOVQ AX, X15; VPBROADCASTD X15, Y15
#define F64CONST \
	MOVQ $0x7fffffffffffffff, AX; VMOVQ AX, X14; VPBROADCASTQ X14, Y14; \
	MOVQ $0x7ff0000000000000, AX; VMOVQ AX, X15; VPBROADCASTQ X15, Y15

// PACKSTORE narrows four vectors of dword masks Y0..Y3 (elements 0-7,
// 8-15, 16-23, 24-31) to 32 bytes of 0/1 in element order and stores them
// at (DI) with STORE.
#define PACKSTORE(STORE) \
	VPACKSSDW Y1, Y0, Y0; \
	VPACKSSDW Y3, Y2, Y2; \
	VPACKSSWB Y2, Y0, Y0; \
	VPERMD Y0, Y13, Y0; \
	VPABSB Y0, Y0; \
	STORE Y0, (DI)

// CLASS32 is the body of a float32 kernel: CONST sets its constants, CMP
// compares a vector in place, STORE writes 32 result bytes.
// func(d, x unsafe.Pointer, n int), n a positive multiple of 32.
#define CLASS32(CONST, CMP, STORE) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VMOVDQU classPerm<>(SB), Y13; \
	CONST; \
loop: \
	VMOVUPS 0(SI), Y0; \
	VMOVUPS 32(SI), Y1; \
	VMOVUPS 64(SI), Y2; \
	VMOVUPS 96(SI), Y3; \
	CMP(Y0); CMP(Y1); CMP(Y2); CMP(Y3); \
	PACKSTORE(STORE); \
	ADDQ $128, SI; \
	ADDQ $32, DI; \
	SUBQ $32, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// CLASS64 is CLASS32 for float64: eight vectors of four lanes a step.
#define CLASS64(CONST, CMP, STORE) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VMOVDQU classPerm<>(SB), Y13; \
	CONST; \
loop: \
	VMOVUPD 0(SI), Y0; \
	VMOVUPD 32(SI), Y4; \
	VMOVUPD 64(SI), Y1; \
	VMOVUPD 96(SI), Y5; \
	VMOVUPD 128(SI), Y2; \
	VMOVUPD 160(SI), Y6; \
	VMOVUPD 192(SI), Y3; \
	VMOVUPD 224(SI), Y7; \
	CMP(Y0); CMP(Y4); CMP(Y1); CMP(Y5); \
	CMP(Y2); CMP(Y6); CMP(Y3); CMP(Y7); \
	VPACKSSDW Y4, Y0, Y0; \
	VPACKSSDW Y5, Y1, Y1; \
	VPACKSSDW Y6, Y2, Y2; \
	VPACKSSDW Y7, Y3, Y3; \
	VPERMQ $0xD8, Y0, Y0; \
	VPERMQ $0xD8, Y1, Y1; \
	VPERMQ $0xD8, Y2, Y2; \
	VPERMQ $0xD8, Y3, Y3; \
	PACKSTORE(STORE); \
	ADDQ $256, SI; \
	ADDQ $32, DI; \
	SUBQ $32, CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// func isnanF32AVX2(d, x unsafe.Pointer, n int)
TEXT ·isnanF32AVX2(SB), NOSPLIT, $0-24
	CLASS32(NOCONST, NANPS, VMOVDQU)

// func isinfF32AVX2(d, x unsafe.Pointer, n int)
TEXT ·isinfF32AVX2(SB), NOSPLIT, $0-24
	CLASS32(F32CONST, INFPS, VMOVDQU)

// func isfiniteF32AVX2(d, x unsafe.Pointer, n int)
TEXT ·isfiniteF32AVX2(SB), NOSPLIT, $0-24
	CLASS32(F32CONST, FINPS, VMOVDQU)

// func isnanF64AVX2(d, x unsafe.Pointer, n int)
TEXT ·isnanF64AVX2(SB), NOSPLIT, $0-24
	CLASS64(NOCONST, NANPD, VMOVDQU)

// func isinfF64AVX2(d, x unsafe.Pointer, n int)
TEXT ·isinfF64AVX2(SB), NOSPLIT, $0-24
	CLASS64(F64CONST, INFPD, VMOVDQU)

// func isfiniteF64AVX2(d, x unsafe.Pointer, n int)
TEXT ·isfiniteF64AVX2(SB), NOSPLIT, $0-24
	CLASS64(F64CONST, FINPD, VMOVDQU)

// func isnanF32NTAVX2(d, x unsafe.Pointer, n int), d 32-byte aligned
TEXT ·isnanF32NTAVX2(SB), NOSPLIT, $0-24
	CLASS32(NOCONST, NANPS, VMOVNTDQ)

// func isnanF64NTAVX2(d, x unsafe.Pointer, n int), d 32-byte aligned
TEXT ·isnanF64NTAVX2(SB), NOSPLIT, $0-24
	CLASS64(NOCONST, NANPD, VMOVNTDQ)
