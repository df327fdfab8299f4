//go:build amd64 && !noasm

#include "textflag.h"

// Float classification into bool bytes: a compare per vector, its sign
// bits (VMOVMSKPS/PD, eight per step) looked up in tab (256 uint64 of
// 0/1 bytes) and stored as eight bytes.

// func isnanF32AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// n is a positive multiple of 8.
TEXT ·isnanF32AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
loop:
	VMOVUPS 0(SI), Y0
	VCMPPS $3, Y0, Y0, Y0
	VMOVMSKPS Y0, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isinfF32AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// n is a positive multiple of 8.
TEXT ·isinfF32AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
	MOVL $0x7fffffff, AX
	VMOVQ AX, X14
	VPBROADCASTD X14, Y14
	MOVL $0x7f800000, AX
	VMOVQ AX, X15
	VPBROADCASTD X15, Y15
loop:
	VMOVUPS 0(SI), Y0
	VANDPS Y14, Y0, Y0
	VCMPPS $0, Y15, Y0, Y0
	VMOVMSKPS Y0, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isfiniteF32AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// n is a positive multiple of 8.
TEXT ·isfiniteF32AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
	MOVL $0x7fffffff, AX
	VMOVQ AX, X14
	VPBROADCASTD X14, Y14
	MOVL $0x7f800000, AX
	VMOVQ AX, X15
	VPBROADCASTD X15, Y15
loop:
	VMOVUPS 0(SI), Y0
	VANDPS Y14, Y0, Y0
	VCMPPS $1, Y15, Y0, Y0
	VMOVMSKPS Y0, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isnanF64AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// n is a positive multiple of 8.
TEXT ·isnanF64AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
loop:
	VMOVUPD 0(SI), Y0
	VCMPPD $3, Y0, Y0, Y0
	VMOVUPD 32(SI), Y1
	VCMPPD $3, Y1, Y1, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, BX
	SHLL $4, BX
	ORL BX, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isinfF64AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// n is a positive multiple of 8.
TEXT ·isinfF64AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
	MOVQ $0x7fffffffffffffff, AX
	VMOVQ AX, X14
	VPBROADCASTQ X14, Y14
	MOVQ $0x7ff0000000000000, AX
	VMOVQ AX, X15
	VPBROADCASTQ X15, Y15
loop:
	VMOVUPD 0(SI), Y0
	VANDPD Y14, Y0, Y0
	VCMPPD $0, Y15, Y0, Y0
	VMOVUPD 32(SI), Y1
	VANDPD Y14, Y1, Y1
	VCMPPD $0, Y15, Y1, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, BX
	SHLL $4, BX
	ORL BX, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isfiniteF64AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// n is a positive multiple of 8.
TEXT ·isfiniteF64AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
	MOVQ $0x7fffffffffffffff, AX
	VMOVQ AX, X14
	VPBROADCASTQ X14, Y14
	MOVQ $0x7ff0000000000000, AX
	VMOVQ AX, X15
	VPBROADCASTQ X15, Y15
loop:
	VMOVUPD 0(SI), Y0
	VANDPD Y14, Y0, Y0
	VCMPPD $1, Y15, Y0, Y0
	VMOVUPD 32(SI), Y1
	VANDPD Y14, Y1, Y1
	VCMPPD $1, Y15, Y1, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, BX
	SHLL $4, BX
	ORL BX, AX
	MOVQ (R8)(AX*8), BX
	MOVQ BX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isnanF32NTAVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// isnanF32AVX2 with streaming stores (MOVNTI, 8 bytes at a time: dst needs
// no alignment beyond a byte). n is a positive multiple of 8.
TEXT ·isnanF32NTAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
loop:
	VMOVUPS 0(SI), Y0
	VCMPPS $3, Y0, Y0, Y0
	VMOVMSKPS Y0, AX
	MOVQ (R8)(AX*8), BX
	MOVNTIQ BX, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func isnanF64NTAVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)
// isnanF64AVX2 with streaming stores (MOVNTI). n is a positive multiple
// of 8.
TEXT ·isnanF64NTAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), R8
loop:
	VMOVUPD 0(SI), Y0
	VCMPPD $3, Y0, Y0, Y0
	VMOVUPD 32(SI), Y1
	VCMPPD $3, Y1, Y1, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, BX
	SHLL $4, BX
	ORL BX, AX
	MOVQ (R8)(AX*8), BX
	MOVNTIQ BX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET
