//go:build amd64 && !noasm

#include "textflag.h"

// TakeBits' prefetching kernels, one per element width. A step gathers 4
// elements; before them it prefetches (PREFETCHT0) the source lines of the
// 4 indices takeAhead places further on (read through ahead), so that many cache misses are in flight
// at once without filling the reorder buffer with loads waiting on them.
// A prefetch never faults, whatever the address (negative and
// out-of-range indices included). Every index is checked before its load:
// i outside [0, n) (unsigned) becomes i+n, which is inside [0, n) exactly
// when -n <= i < 0. The first index outside [-n, n) stops the kernel, which
// returns its position; nothing at or after it is written.
//
// func takeNPrefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int
// ahead is &idx[takeAhead]; m is a multiple of 4, and ahead holds m
// readable indices.
// Registers: DI dst, BX src, DX n, SI idx, R11 ahead, R10 m, CX k, AX index.

// prefetch the source of the index at byte offset off of the step ahead
#define PF(off, scale) \
	MOVQ off(R11)(CX*8), R8; \
	PREFETCHT0 (BX)(R8*scale)

// the index at byte offset off of the step into AX, wrapped when negative;
// out of range: jump to bad
#define IDX(off, bad) \
	MOVQ off(SI)(CX*8), AX; \
	LEAQ (AX)(DX*1), R8; \
	CMPQ AX, DX; \
	CMOVQCC R8, AX; \
	CMPQ AX, DX; \
	JCC bad

#define HEAD \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), BX; \
	MOVQ n+16(FP), DX; \
	MOVQ idx+24(FP), SI; \
	MOVQ ahead+32(FP), R11; \
	MOVQ m+40(FP), R10; \
	XORQ CX, CX

// func take1Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int
TEXT ·take1Prefetch(SB), NOSPLIT, $0-56
	HEAD
loop:
	CMPQ CX, R10
	JGE done
	PF(0, 1); PF(8, 1); PF(16, 1); PF(24, 1)
	IDX(0, bad0)
	MOVBLZX (BX)(AX*1), R9
	MOVB R9, 0(DI)(CX*1)
	IDX(8, bad1)
	MOVBLZX (BX)(AX*1), R9
	MOVB R9, 1(DI)(CX*1)
	IDX(16, bad2)
	MOVBLZX (BX)(AX*1), R9
	MOVB R9, 2(DI)(CX*1)
	IDX(24, bad3)
	MOVBLZX (BX)(AX*1), R9
	MOVB R9, 3(DI)(CX*1)
	ADDQ $4, CX
	JMP loop
bad3:
	INCQ CX
bad2:
	INCQ CX
bad1:
	INCQ CX
bad0:
done:
	MOVQ CX, ret+48(FP)
	RET

// func take2Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int
TEXT ·take2Prefetch(SB), NOSPLIT, $0-56
	HEAD
loop:
	CMPQ CX, R10
	JGE done
	PF(0, 2); PF(8, 2); PF(16, 2); PF(24, 2)
	IDX(0, bad0)
	MOVWLZX (BX)(AX*2), R9
	MOVW R9, 0(DI)(CX*2)
	IDX(8, bad1)
	MOVWLZX (BX)(AX*2), R9
	MOVW R9, 2(DI)(CX*2)
	IDX(16, bad2)
	MOVWLZX (BX)(AX*2), R9
	MOVW R9, 4(DI)(CX*2)
	IDX(24, bad3)
	MOVWLZX (BX)(AX*2), R9
	MOVW R9, 6(DI)(CX*2)
	ADDQ $4, CX
	JMP loop
bad3:
	INCQ CX
bad2:
	INCQ CX
bad1:
	INCQ CX
bad0:
done:
	MOVQ CX, ret+48(FP)
	RET

// func take4Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int
TEXT ·take4Prefetch(SB), NOSPLIT, $0-56
	HEAD
loop:
	CMPQ CX, R10
	JGE done
	PF(0, 4); PF(8, 4); PF(16, 4); PF(24, 4)
	IDX(0, bad0)
	MOVL (BX)(AX*4), R9
	MOVL R9, 0(DI)(CX*4)
	IDX(8, bad1)
	MOVL (BX)(AX*4), R9
	MOVL R9, 4(DI)(CX*4)
	IDX(16, bad2)
	MOVL (BX)(AX*4), R9
	MOVL R9, 8(DI)(CX*4)
	IDX(24, bad3)
	MOVL (BX)(AX*4), R9
	MOVL R9, 12(DI)(CX*4)
	ADDQ $4, CX
	JMP loop
bad3:
	INCQ CX
bad2:
	INCQ CX
bad1:
	INCQ CX
bad0:
done:
	MOVQ CX, ret+48(FP)
	RET

// func take8Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int
TEXT ·take8Prefetch(SB), NOSPLIT, $0-56
	HEAD
loop:
	CMPQ CX, R10
	JGE done
	PF(0, 8); PF(8, 8); PF(16, 8); PF(24, 8)
	IDX(0, bad0)
	MOVQ (BX)(AX*8), R9
	MOVQ R9, 0(DI)(CX*8)
	IDX(8, bad1)
	MOVQ (BX)(AX*8), R9
	MOVQ R9, 8(DI)(CX*8)
	IDX(16, bad2)
	MOVQ (BX)(AX*8), R9
	MOVQ R9, 16(DI)(CX*8)
	IDX(24, bad3)
	MOVQ (BX)(AX*8), R9
	MOVQ R9, 24(DI)(CX*8)
	ADDQ $4, CX
	JMP loop
bad3:
	INCQ CX
bad2:
	INCQ CX
bad1:
	INCQ CX
bad0:
done:
	MOVQ CX, ret+48(FP)
	RET
