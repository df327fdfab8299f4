//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func maxF32AVX2(x unsafe.Pointer, n, q int) (m float32, nan bool)

//go:noescape
func minF32AVX2(x unsafe.Pointer, n, q int) (m float32, nan bool)

//go:noescape
func maxF64AVX2(x unsafe.Pointer, n, q int) (m float64, nan bool)

//go:noescape
func minF64AVX2(x unsafe.Pointer, n, q int) (m float64, nan bool)

//go:noescape
func firstGEF32AVX2(x unsafe.Pointer, n int, v float32) int

//go:noescape
func firstLEF32AVX2(x unsafe.Pointer, n int, v float32) int

//go:noescape
func firstGEF64AVX2(x unsafe.Pointer, n int, v float64) int

//go:noescape
func firstLEF64AVX2(x unsafe.Pointer, n int, v float64) int

//go:noescape
func anyGTF32AVX2(x unsafe.Pointer, n int, c float32) bool

//go:noescape
func anyGEF32AVX2(x unsafe.Pointer, n int, c float32) bool

//go:noescape
func anyLTF32AVX2(x unsafe.Pointer, n int, c float32) bool

//go:noescape
func anyLEF32AVX2(x unsafe.Pointer, n int, c float32) bool

//go:noescape
func anyEQF32AVX2(x unsafe.Pointer, n int, c float32) bool

//go:noescape
func anyNEF32AVX2(x unsafe.Pointer, n int, c float32) bool

//go:noescape
func anyGTF64AVX2(x unsafe.Pointer, n int, c float64) bool

//go:noescape
func anyGEF64AVX2(x unsafe.Pointer, n int, c float64) bool

//go:noescape
func anyLTF64AVX2(x unsafe.Pointer, n int, c float64) bool

//go:noescape
func anyLEF64AVX2(x unsafe.Pointer, n int, c float64) bool

//go:noescape
func anyEQF64AVX2(x unsafe.Pointer, n int, c float64) bool

//go:noescape
func anyNEF64AVX2(x unsafe.Pointer, n int, c float64) bool

//go:noescape
func argmaxF32x4(p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) (nan bool)

//go:noescape
func argminF32x4(p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) (nan bool)

//go:noescape
func argmaxF64x4(p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) (nan bool)

//go:noescape
func argminF64x4(p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) (nan bool)

// extremaAsm installs the AVX2 extrema of float vectors (see extrema.go).
func extremaAsm() {
	if !Asm {
		return
	}
	extF32 = [2]func(unsafe.Pointer, int, int) (float32, bool){minF32AVX2, maxF32AVX2}
	extF64 = [2]func(unsafe.Pointer, int, int) (float64, bool){minF64AVX2, maxF64AVX2}
	argF32 = [2]func(*[4]unsafe.Pointer, int, *[32]float32, *[32]int32) bool{argminF32x4, argmaxF32x4}
	argF64 = [2]func(*[4]unsafe.Pointer, int, *[16]float64, *[16]int64) bool{argminF64x4, argmaxF64x4}
	firstF32 = [2]func(unsafe.Pointer, int, float32) int{firstLEF32AVX2, firstGEF32AVX2}
	firstF64 = [2]func(unsafe.Pointer, int, float64) int{firstLEF64AVX2, firstGEF64AVX2}
	anyCmpF32 = [numCmp]func(unsafe.Pointer, int, float32) bool{anyGTF32AVX2, anyGEF32AVX2, anyLTF32AVX2, anyLEF32AVX2, anyEQF32AVX2, anyNEF32AVX2}
	anyCmpF64 = [numCmp]func(unsafe.Pointer, int, float64) bool{anyGTF64AVX2, anyGEF64AVX2, anyLTF64AVX2, anyLEF64AVX2, anyEQF64AVX2, anyNEF64AVX2}
}

// argF32Call and argF64Call call argF32/argF64's kernel k (0 min, 1 max)
// statically: through the table's func value, the caller's best and idx
// arrays (and p) escaped to the heap, an allocation per run (per row of
// an argmax along rows). Only with the table installed.
func argF32Call(k int, p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) bool {
	if k == 0 {
		return argminF32x4(p, q, best, idx)
	}
	return argmaxF32x4(p, q, best, idx)
}

func argF64Call(k int, p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) bool {
	if k == 0 {
		return argminF64x4(p, q, best, idx)
	}
	return argmaxF64x4(p, q, best, idx)
}
