//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func isnanF32AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isinfF32AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isfiniteF32AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isnanF64AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isinfF64AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isfiniteF64AVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isnanF32NTAVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

//go:noescape
func isnanF64NTAVX2(d, x unsafe.Pointer, n int, tab *[256]uint64)

// bitBytes[m] holds bit i of m in byte i.
var bitBytes [256]uint64

// registerClassify installs the AVX2 isnan, isinf and isfinite of float32
// and float64 over the Go loops (which do the tails).
func registerClassify() {
	if !Asm {
		return
	}
	for m := range bitBytes {
		for i := 0; i < 8; i++ {
			bitBytes[m] |= uint64(m>>i&1) << (8 * i)
		}
	}
	for _, c := range []struct {
		op   Op
		t    Type
		k    func(d, x unsafe.Pointer, n int, tab *[256]uint64)
		size int
	}{
		{IsNaN, Float32, isnanF32AVX2, 4}, {IsInf, Float32, isinfF32AVX2, 4}, {IsFinite, Float32, isfiniteF32AVX2, 4},
		{IsNaN, Float64, isnanF64AVX2, 8}, {IsInf, Float64, isinfF64AVX2, 8}, {IsFinite, Float64, isfiniteF64AVX2, 8},
	} {
		unTable[c.op][c.t] = classifyKernel(c.k, unTable[c.op][c.t], c.size)
	}
	// isnan with streaming stores, for results far larger than the cache
	unNTTable[IsNaN][Float32] = classifyKernel(isnanF32NTAVX2, unTable[IsNaN][Float32], 4)
	unNTTable[IsNaN][Float64] = classifyKernel(isnanF64NTAVX2, unTable[IsNaN][Float64], 8)
}

// classifyKernel runs k over the whole groups of 8 elements (of size sz)
// and g over the rest.
func classifyKernel(k func(d, x unsafe.Pointer, n int, tab *[256]uint64), g UnaryFunc, sz int) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		m := n &^ 7
		if m > 0 {
			k(d, x, m, &bitBytes)
		}
		if m < n {
			g(unsafe.Add(d, m), unsafe.Add(x, m*sz), n-m)
		}
	}
}
