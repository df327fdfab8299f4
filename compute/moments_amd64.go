//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func sqDev4F32AVX2(acc, x, m unsafe.Pointer, n, stride int)

//go:noescape
func sqDev4F64AVX2(acc, x, m unsafe.Pointer, n, stride int)

// sqDev4 returns the four-row squared-deviation kernel for float32 (wide
// false) or float64 and its vector width, where the CPU has one.
func sqDev4(wide bool) (func(acc, x, m unsafe.Pointer, n, stride int), int) {
	switch {
	case !Asm:
		return nil, 0
	case wide:
		return sqDev4F64AVX2, 4
	}
	return sqDev4F32AVX2, 8
}
