//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func maxF32AVX2(x unsafe.Pointer, n int) (m float32, nan bool)

//go:noescape
func minF32AVX2(x unsafe.Pointer, n int) (m float32, nan bool)

//go:noescape
func maxF64AVX2(x unsafe.Pointer, n int) (m float64, nan bool)

//go:noescape
func minF64AVX2(x unsafe.Pointer, n int) (m float64, nan bool)

//go:noescape
func firstGEF32AVX2(x unsafe.Pointer, n int, v float32) int

//go:noescape
func firstLEF32AVX2(x unsafe.Pointer, n int, v float32) int

//go:noescape
func firstGEF64AVX2(x unsafe.Pointer, n int, v float64) int

//go:noescape
func firstLEF64AVX2(x unsafe.Pointer, n int, v float64) int

// extremaAsm installs the AVX2 extrema of float vectors (see extrema.go).
func extremaAsm() {
	if !Asm {
		return
	}
	extF32 = [2]func(unsafe.Pointer, int) (float32, bool){minF32AVX2, maxF32AVX2}
	extF64 = [2]func(unsafe.Pointer, int) (float64, bool){minF64AVX2, maxF64AVX2}
	firstF32 = [2]func(unsafe.Pointer, int, float32) int{firstLEF32AVX2, firstGEF32AVX2}
	firstF64 = [2]func(unsafe.Pointer, int, float64) int{firstLEF64AVX2, firstGEF64AVX2}
}
