// Code written by hand (not asmgen.go): row-looped binary kernels whose repeated
// operand row is held in registers. See rowreg_amd64.go.

//go:build amd64 && !noasm

#include "textflag.h"

// func addRowSecondFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = x op y (VADDPS) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·addRowSecondFloat32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMOVUPS 0(R12), Y0
	VMOVUPS 32(R12), Y1
	VMOVUPS 64(R12), Y2
	VMOVUPS 96(R12), Y3
	VMOVUPS 128(R12), Y4
	VMOVUPS 160(R12), Y5
	VMOVUPS 192(R12), Y6
	VMOVUPS 224(R12), Y7
	VADDPS Y8, Y0, Y0
	VADDPS Y9, Y1, Y1
	VADDPS Y10, Y2, Y2
	VADDPS Y11, Y3, Y3
	VADDPS Y12, Y4, Y4
	VADDPS Y13, Y5, Y5
	VADDPS Y14, Y6, Y6
	VADDPS Y15, Y7, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func addRowFirstFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = y op x (VADDPS) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·addRowFirstFloat32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VADDPS 0(R12), Y8, Y0
	VADDPS 32(R12), Y9, Y1
	VADDPS 64(R12), Y10, Y2
	VADDPS 96(R12), Y11, Y3
	VADDPS 128(R12), Y12, Y4
	VADDPS 160(R12), Y13, Y5
	VADDPS 192(R12), Y14, Y6
	VADDPS 224(R12), Y15, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func addRowSecondFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = x op y (VADDPD) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·addRowSecondFloat64AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMOVUPS 0(R12), Y0
	VMOVUPS 32(R12), Y1
	VMOVUPS 64(R12), Y2
	VMOVUPS 96(R12), Y3
	VMOVUPS 128(R12), Y4
	VMOVUPS 160(R12), Y5
	VMOVUPS 192(R12), Y6
	VMOVUPS 224(R12), Y7
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	VADDPD Y12, Y4, Y4
	VADDPD Y13, Y5, Y5
	VADDPD Y14, Y6, Y6
	VADDPD Y15, Y7, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func addRowFirstFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = y op x (VADDPD) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·addRowFirstFloat64AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VADDPD 0(R12), Y8, Y0
	VADDPD 32(R12), Y9, Y1
	VADDPD 64(R12), Y10, Y2
	VADDPD 96(R12), Y11, Y3
	VADDPD 128(R12), Y12, Y4
	VADDPD 160(R12), Y13, Y5
	VADDPD 192(R12), Y14, Y6
	VADDPD 224(R12), Y15, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func subRowSecondFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = x op y (VSUBPS) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·subRowSecondFloat32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMOVUPS 0(R12), Y0
	VMOVUPS 32(R12), Y1
	VMOVUPS 64(R12), Y2
	VMOVUPS 96(R12), Y3
	VMOVUPS 128(R12), Y4
	VMOVUPS 160(R12), Y5
	VMOVUPS 192(R12), Y6
	VMOVUPS 224(R12), Y7
	VSUBPS Y8, Y0, Y0
	VSUBPS Y9, Y1, Y1
	VSUBPS Y10, Y2, Y2
	VSUBPS Y11, Y3, Y3
	VSUBPS Y12, Y4, Y4
	VSUBPS Y13, Y5, Y5
	VSUBPS Y14, Y6, Y6
	VSUBPS Y15, Y7, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func subRowFirstFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = y op x (VSUBPS) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·subRowFirstFloat32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VSUBPS 0(R12), Y8, Y0
	VSUBPS 32(R12), Y9, Y1
	VSUBPS 64(R12), Y10, Y2
	VSUBPS 96(R12), Y11, Y3
	VSUBPS 128(R12), Y12, Y4
	VSUBPS 160(R12), Y13, Y5
	VSUBPS 192(R12), Y14, Y6
	VSUBPS 224(R12), Y15, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func subRowSecondFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = x op y (VSUBPD) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·subRowSecondFloat64AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMOVUPS 0(R12), Y0
	VMOVUPS 32(R12), Y1
	VMOVUPS 64(R12), Y2
	VMOVUPS 96(R12), Y3
	VMOVUPS 128(R12), Y4
	VMOVUPS 160(R12), Y5
	VMOVUPS 192(R12), Y6
	VMOVUPS 224(R12), Y7
	VSUBPD Y8, Y0, Y0
	VSUBPD Y9, Y1, Y1
	VSUBPD Y10, Y2, Y2
	VSUBPD Y11, Y3, Y3
	VSUBPD Y12, Y4, Y4
	VSUBPD Y13, Y5, Y5
	VSUBPD Y14, Y6, Y6
	VSUBPD Y15, Y7, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func subRowFirstFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = y op x (VSUBPD) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·subRowFirstFloat64AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VSUBPD 0(R12), Y8, Y0
	VSUBPD 32(R12), Y9, Y1
	VSUBPD 64(R12), Y10, Y2
	VSUBPD 96(R12), Y11, Y3
	VSUBPD 128(R12), Y12, Y4
	VSUBPD 160(R12), Y13, Y5
	VSUBPD 192(R12), Y14, Y6
	VSUBPD 224(R12), Y15, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func mulRowSecondFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = x op y (VMULPS) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·mulRowSecondFloat32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMOVUPS 0(R12), Y0
	VMOVUPS 32(R12), Y1
	VMOVUPS 64(R12), Y2
	VMOVUPS 96(R12), Y3
	VMOVUPS 128(R12), Y4
	VMOVUPS 160(R12), Y5
	VMOVUPS 192(R12), Y6
	VMOVUPS 224(R12), Y7
	VMULPS Y8, Y0, Y0
	VMULPS Y9, Y1, Y1
	VMULPS Y10, Y2, Y2
	VMULPS Y11, Y3, Y3
	VMULPS Y12, Y4, Y4
	VMULPS Y13, Y5, Y5
	VMULPS Y14, Y6, Y6
	VMULPS Y15, Y7, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func mulRowFirstFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = y op x (VMULPS) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·mulRowFirstFloat32AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMULPS 0(R12), Y8, Y0
	VMULPS 32(R12), Y9, Y1
	VMULPS 64(R12), Y10, Y2
	VMULPS 96(R12), Y11, Y3
	VMULPS 128(R12), Y12, Y4
	VMULPS 160(R12), Y13, Y5
	VMULPS 192(R12), Y14, Y6
	VMULPS 224(R12), Y15, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func mulRowSecondFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = x op y (VMULPD) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·mulRowSecondFloat64AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMOVUPS 0(R12), Y0
	VMOVUPS 32(R12), Y1
	VMOVUPS 64(R12), Y2
	VMOVUPS 96(R12), Y3
	VMOVUPS 128(R12), Y4
	VMOVUPS 160(R12), Y5
	VMOVUPS 192(R12), Y6
	VMOVUPS 224(R12), Y7
	VMULPD Y8, Y0, Y0
	VMULPD Y9, Y1, Y1
	VMULPD Y10, Y2, Y2
	VMULPD Y11, Y3, Y3
	VMULPD Y12, Y4, Y4
	VMULPD Y13, Y5, Y5
	VMULPD Y14, Y6, Y6
	VMULPD Y15, Y7, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET

// func mulRowFirstFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)
// dst = y op x (VMULPD) for rows rows of nbytes bytes, nbytes a multiple of 256;
// y is one row, read 256 bytes at a time into Y8-Y15 and kept there while
// the rows of x and dst (ds and xs bytes apart) go by.
TEXT ·mulRowFirstFloat64AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ nbytes+24(FP), CX
	MOVQ rows+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ xs+48(FP), R10
	TESTQ R8, R8
	JZ done
	XORQ AX, AX
chunk:
	CMPQ AX, CX
	JGE done
	VMOVUPS 0(DX)(AX*1), Y8
	VMOVUPS 32(DX)(AX*1), Y9
	VMOVUPS 64(DX)(AX*1), Y10
	VMOVUPS 96(DX)(AX*1), Y11
	VMOVUPS 128(DX)(AX*1), Y12
	VMOVUPS 160(DX)(AX*1), Y13
	VMOVUPS 192(DX)(AX*1), Y14
	VMOVUPS 224(DX)(AX*1), Y15
	LEAQ (DI)(AX*1), R11
	LEAQ (SI)(AX*1), R12
	MOVQ R8, R13
row:
	VMULPD 0(R12), Y8, Y0
	VMULPD 32(R12), Y9, Y1
	VMULPD 64(R12), Y10, Y2
	VMULPD 96(R12), Y11, Y3
	VMULPD 128(R12), Y12, Y4
	VMULPD 160(R12), Y13, Y5
	VMULPD 192(R12), Y14, Y6
	VMULPD 224(R12), Y15, Y7
	VMOVUPS Y0, 0(R11)
	VMOVUPS Y1, 32(R11)
	VMOVUPS Y2, 64(R11)
	VMOVUPS Y3, 96(R11)
	VMOVUPS Y4, 128(R11)
	VMOVUPS Y5, 160(R11)
	VMOVUPS Y6, 192(R11)
	VMOVUPS Y7, 224(R11)
	ADDQ R9, R11
	ADDQ R10, R12
	DECQ R13
	JNZ row
	ADDQ $256, AX
	JMP chunk
done:
	VZEROUPPER
	RET
