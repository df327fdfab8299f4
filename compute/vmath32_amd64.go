//go:build amd64 && !noasm

package compute

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasVmath512 selects the 16-lane kernels of vmath32_amd64.s (AVX-512 F
// and DQ: VBLENDMPS, VPMOVD2M, VANDPS on Z registers).
var hasVmath512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// registerVmath32 installs the float32 kernels of vmath32_amd64.s
// (vmath32gen.go), computed in float32 arithmetic 8 or 16 lanes at a
// time, over the routines registered before (called after registerVmath).
func registerVmath32() {
	if !Asm || !cpu.X86.HasFMA {
		return
	}
	un := func(avx2, avx512 func(d, x unsafe.Pointer, n int)) UnaryFunc {
		if hasVmath512 {
			return vm32Unary(avx512, 16)
		}
		return vm32Unary(avx2, 8)
	}
	bin := func(avx2, avx512 func(d, x, y unsafe.Pointer, n int)) BinaryFunc {
		if hasVmath512 {
			return vm32Binary(avx512, 16)
		}
		return vm32Binary(avx2, 8)
	}
	// the streaming forms, 8 or 16 lanes like the plain ones, between a
	// head and a tail of the plain kernel (the same results:
	// TestVmath32Widths)
	unNT := func(op Op, avx2, avx512 func(d, x unsafe.Pointer, n int)) {
		if hasVmath512 {
			unNTTable[op][Float32] = ntSplit(unTable[op][Float32], vm32Unary(avx512, 16), 16)
			return
		}
		unNTTable[op][Float32] = ntSplit(unTable[op][Float32], vm32Unary(avx2, 8), 8)
	}
	unTable[Arctan][Float32] = un(atanF32V8, atanF32V16)
	unNT(Arctan, atanF32V8NT, atanF32V16NT)
	unTable[Expm1][Float32] = un(expm1F32V8, expm1F32V16)
	unNT(Expm1, expm1F32V8NT, expm1F32V16NT)
	unTable[Log1p][Float32] = un(log1pF32V8, log1pF32V16)
	unNT(Log1p, log1pF32V8NT, log1pF32V16NT)
	unTable[Arcsin][Float32] = un(asinF32V8, asinF32V16)
	unNT(Arcsin, asinF32V8NT, asinF32V16NT)
	// tan in float64 arithmetic, 8 or 16 lanes a step (|x| <= 2^20; the rest
	// in the Go loop)
	tan := wrapUnary(tan_f[float32])
	tanK, tanNT := vmKernel(tanF32D8), vmKernel(tanF32D8NT)
	if hasVmath512 { // 16 lanes a step, the same bits (TestVmath32Widths)
		tanK, tanNT = vmWide(tanF32D16, tanF32D8, 4, 16, 0), vmWide(tanF32D16NT, tanF32D8NT, 4, 16, 64)
	}
	unTable[Tan][Float32] = asmMathF32(tanK, tan)
	unNTTable[Tan][Float32] = ntSplit(unTable[Tan][Float32], asmMathF32(tanNT, tan), 8)
	// tanh: 16 lanes a step in two interleaved halves, over asmgen's
	// tanhF32AVX2 (the same formulas, one vector a step).
	// tanhF32V8/V16 (expm1Body, 8 or 16 lanes) measured no faster than
	// asmgen's (19.8 ms against 22.0 ms of CPU time on 16M elements): not
	// installed; TestVmath32Widths keeps it right.
	unTable[Tanh][Float32] = vm32Unary(tanhF32T8, 8)
	unNTTable[Tanh][Float32] = ntSplit(unTable[Tanh][Float32], vm32Unary(tanhF32T8NT, 8), 8)
	binTable[Arctan2][Float32][VV] = bin(atan2F32V8, atan2F32V16)
	if hasVmath512 {
		ntTable[Arctan2][Float32][VV] = ntSplit2(binTable[Arctan2][Float32][VV], vm32Binary(atan2F32V16NT, 16), 16)
	} else {
		ntTable[Arctan2][Float32][VV] = ntSplit2(binTable[Arctan2][Float32][VV], vm32Binary(atan2F32V8NT, 8), 8)
	}
	// hypot of two vectors in float64 (the scalar forms keep the Go loops)
	binTable[Hypot][Float32][VV] = vm32Binary(hypotF32D8, 8)
	ntTable[Hypot][Float32][VV] = ntSplit2(binTable[Hypot][Float32][VV], vm32Binary(hypotF32D8NT, 8), 8)
	pow, pow25 := binTable[Power][Float32][VS], un(pow25F32V8, pow25F32V16)
	binTable[Power][Float32][VS] = func(d, x, y unsafe.Pointer, n int) {
		if *(*float32)(y) == 2.5 {
			pow25(d, x, n)
			return
		}
		pow(d, x, y, n)
	}
}

// vm32Unary runs k (which handles every input) on the whole vectors of x
// and on a padded copy of the tail, so that every element gets the same
// result whatever its position.
func vm32Unary(k func(d, x unsafe.Pointer, n int), lanes int) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			k(d, x, m)
		}
		if m < n {
			var bx, bd [16]float32
			c := n - m
			copy(bx[:c], unsafe.Slice((*float32)(unsafe.Add(x, 4*m)), c))
			k(unsafe.Pointer(&bd[0]), unsafe.Pointer(&bx[0]), lanes)
			copy(unsafe.Slice((*float32)(unsafe.Add(d, 4*m)), c), bd[:c])
		}
	}
}

// vm32Binary is vm32Unary for two vectors.
func vm32Binary(k func(d, x, y unsafe.Pointer, n int), lanes int) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			k(d, x, y, m)
		}
		if m < n {
			var bx, by, bd [16]float32
			c := n - m
			copy(bx[:c], unsafe.Slice((*float32)(unsafe.Add(x, 4*m)), c))
			copy(by[:c], unsafe.Slice((*float32)(unsafe.Add(y, 4*m)), c))
			k(unsafe.Pointer(&bd[0]), unsafe.Pointer(&bx[0]), unsafe.Pointer(&by[0]), lanes)
			copy(unsafe.Slice((*float32)(unsafe.Add(d, 4*m)), c), bd[:c])
		}
	}
}

// ntSplit runs nt, a kernel with streaming stores to a dst aligned to
// its vector of lanes float32 (8: 32 bytes, 16: 64 bytes) that takes
// whole vectors, on the aligned middle of d, and plain (which computes
// the same values) on the head before it and the tail after it. A dst
// not 4-byte aligned goes to plain whole.
func ntSplit(plain, nt UnaryFunc, lanes int) UnaryFunc {
	align := 4 * lanes
	return func(d, x unsafe.Pointer, n int) {
		h := 0
		if a := int(uintptr(d) & uintptr(align-1)); a != 0 {
			if a%4 != 0 {
				plain(d, x, n)
				return
			}
			h = min(n, (align-a)/4)
			plain(d, x, h)
		}
		m := (n - h) / lanes * lanes
		if m > 0 {
			nt(unsafe.Add(d, 4*h), unsafe.Add(x, 4*h), m)
		}
		if h+m < n {
			plain(unsafe.Add(d, 4*(h+m)), unsafe.Add(x, 4*(h+m)), n-h-m)
		}
	}
}

// ntSplit2 is ntSplit for two vectors.
func ntSplit2(plain, nt BinaryFunc, lanes int) BinaryFunc {
	align := 4 * lanes
	return func(d, x, y unsafe.Pointer, n int) {
		h := 0
		if a := int(uintptr(d) & uintptr(align-1)); a != 0 {
			if a%4 != 0 {
				plain(d, x, y, n)
				return
			}
			h = min(n, (align-a)/4)
			plain(d, x, y, h)
		}
		m := (n - h) / lanes * lanes
		if m > 0 {
			nt(unsafe.Add(d, 4*h), unsafe.Add(x, 4*h), unsafe.Add(y, 4*h), m)
		}
		if h+m < n {
			plain(unsafe.Add(d, 4*(h+m)), unsafe.Add(x, 4*(h+m)), unsafe.Add(y, 4*(h+m)), n-h-m)
		}
	}
}
