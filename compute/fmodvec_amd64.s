//go:build amd64 && !noasm

#include "textflag.h"

// Python's float32 remainder (NumPy's: r = fmod(x, y), then r + y where
// r and y differ in sign, and a zero takes y's sign), eight lanes a step
// in float64: the quotient trunc(x/y) is exact there while |x/y| < 2^24
// (x/y of two float32s is never within half a float64 ulp of an integer
// it is not), q*y is exact (24 + 24 bits) and so is x - q*y, an exact
// float32; the adjustment r + y rounds in float32, as NumPy's does. A
// step with a lane outside that range (|q| >= 2^24, NaN, x infinite, y
// zero, infinite or NaN) stops the kernel, which returns the elements it
// did: the Go loop takes that block (fmodvec_amd64.go).
//
// func remF32VVAVX2(d, x, y unsafe.Pointer, n int) int
// func remF32VSAVX2(d, x, y unsafe.Pointer, n int) int
// n a multiple of 8.

#define LOADBV \
	VMOVUPS 0(DX), Y12; \
	VCVTPS2PD 0(DX), Y15; \
	VCVTPS2PD 16(DX), Y7; \
	ADDQ $32, DX

#define LOADBS

#define REMF32(PRE, LOADB) \
	MOVQ d+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ y+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	MOVQ $0x7fffffffffffffff, AX; \
	VMOVQ AX, X14; \
	VPBROADCASTQ X14, Y14; \
	MOVQ $0x4170000000000000, AX; \
	VMOVQ AX, X13; \
	VPBROADCASTQ X13, Y13; \
	MOVL $0x80000000, AX; \
	VMOVD AX, X11; \
	VPBROADCASTD X11, Y11; \
	MOVL $0x7f800000, AX; \
	VMOVD AX, X8; \
	VPBROADCASTD X8, Y8; \
	VXORPS Y9, Y9, Y9; \
	PRE; \
	XORQ BX, BX; \
loop: \
	CMPQ BX, CX; \
	JGE done; \
	LOADB; \
	VCVTPS2PD 0(SI), Y0; \
	VCVTPS2PD 16(SI), Y1; \
	VDIVPD Y15, Y0, Y2; \
	VDIVPD Y7, Y1, Y3; \
	VROUNDPD $3, Y2, Y2; \
	VROUNDPD $3, Y3, Y3; \
	VANDPD Y14, Y2, Y4; \
	VANDPD Y14, Y3, Y5; \
	VCMPPD $1, Y13, Y4, Y4; \
	VCMPPD $1, Y13, Y5, Y5; \
	VANDPD Y5, Y4, Y4; \
	VMOVMSKPD Y4, AX; \
	CMPL AX, $15; \
	JNE done; \
	VANDNPS Y12, Y11, Y6; \
	VCMPPS $1, Y8, Y6, Y6; \
	VMOVMSKPS Y6, AX; \
	CMPL AX, $255; \
	JNE done; \
	VMULPD Y15, Y2, Y2; \
	VMULPD Y7, Y3, Y3; \
	VSUBPD Y2, Y0, Y0; \
	VSUBPD Y3, Y1, Y1; \
	VCVTPD2PSY Y0, X0; \
	VCVTPD2PSY Y1, X1; \
	VINSERTF128 $1, X1, Y0, Y0; \
	VADDPS Y12, Y0, Y2; \
	VXORPS Y12, Y0, Y3; \
	VBLENDVPS Y3, Y2, Y0, Y2; \
	VCMPPS $0, Y9, Y0, Y3; \
	VANDPS Y11, Y12, Y4; \
	VBLENDVPS Y3, Y4, Y2, Y2; \
	VMOVUPS Y2, 0(DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	ADDQ $8, BX; \
	JMP loop; \
done: \
	MOVQ BX, ret+32(FP); \
	VZEROUPPER; \
	RET

#define PREV

#define PRES \
	VBROADCASTSS 0(DX), Y12; \
	VCVTPS2PD X12, Y15; \
	VMOVAPD Y15, Y7

TEXT ·remF32VVAVX2(SB), NOSPLIT, $0-40
	REMF32(PREV, LOADBV)

TEXT ·remF32VSAVX2(SB), NOSPLIT, $0-40
	REMF32(PRES, LOADBS)
