//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func isnanF32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isinfF32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isfiniteF32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isnanF64AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isinfF64AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isfiniteF64AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isnanF32NTAVX2(d, x unsafe.Pointer, n int)

//go:noescape
func signF32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func signF64AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func isnanF64NTAVX2(d, x unsafe.Pointer, n int)

// classifyStep is the number of elements (and result bytes) the classify
// kernels handle a step.
const classifyStep = 32

// registerClassify installs the AVX2 isnan, isinf, isfinite and sign of
// float32 and float64 over the Go loops (which do the tails).
func registerClassify() {
	if !Asm {
		return
	}
	for _, c := range []struct {
		op   Op
		t    Type
		k    func(d, x unsafe.Pointer, n int)
		size int
	}{
		{IsNaN, Float32, isnanF32AVX2, 4}, {IsInf, Float32, isinfF32AVX2, 4}, {IsFinite, Float32, isfiniteF32AVX2, 4},
		{IsNaN, Float64, isnanF64AVX2, 8}, {IsInf, Float64, isinfF64AVX2, 8}, {IsFinite, Float64, isfiniteF64AVX2, 8},
	} {
		unTable[c.op][c.t] = classifyKernel(c.k, unTable[c.op][c.t], c.size, false)
	}
	// sign, two vectors a step (signF32AVX2)
	unTable[Sign][Float32] = asmUnary(signF32AVX2, unTable[Sign][Float32], 4, 16)
	unTable[Sign][Float64] = asmUnary(signF64AVX2, unTable[Sign][Float64], 8, 8)
	// isnan with streaming stores, for results far larger than the cache
	unNTTable[IsNaN][Float32] = classifyKernel(isnanF32NTAVX2, unTable[IsNaN][Float32], 4, true)
	unNTTable[IsNaN][Float64] = classifyKernel(isnanF64NTAVX2, unTable[IsNaN][Float64], 8, true)
}

// classifyKernel runs k over the whole steps of classifyStep elements (of
// size sz) and g over the rest. With align, g first runs up to the first
// 32-byte boundary of d (k's streaming stores need it).
func classifyKernel(k func(d, x unsafe.Pointer, n int), g UnaryFunc, sz int, align bool) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		h := 0
		if a := int(uintptr(d) & 31); align && a != 0 {
			h = min(n, 32-a)
			g(d, x, h)
		}
		m := (n - h) &^ (classifyStep - 1)
		if m > 0 {
			k(unsafe.Add(d, h), unsafe.Add(x, h*sz), m)
		}
		if h+m < n {
			g(unsafe.Add(d, h+m), unsafe.Add(x, (h+m)*sz), n-h-m)
		}
	}
}
