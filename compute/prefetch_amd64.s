//go:build amd64 && !noasm

#include "textflag.h"

// func prefetchAt(base unsafe.Pointer, size int, idx []uint64)
// PREFETCHT0 on base + idx[k]*size for every k.
TEXT ·prefetchAt(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), SI
	MOVQ size+8(FP), DX
	MOVQ idx_base+16(FP), DI
	MOVQ idx_len+24(FP), CX
	TESTQ CX, CX
	JLE done
loop:
	MOVQ (DI), AX
	IMULQ DX, AX
	PREFETCHT0 (SI)(AX*1)
	ADDQ $8, DI
	DECQ CX
	JNZ loop
done:
	RET
