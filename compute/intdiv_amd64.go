//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func floorDivI32AVX2(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int)

//go:noescape
func floorDivI64AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod, nt int, m31 uint64)

//go:noescape
func floorDivVVI32AVX2(dst, x, y unsafe.Pointer, n int, mod, nt int)

func init() {
	if Asm {
		floorDivI32Vec = floorDivI32AVX2
		floorDivI64Vec = floorDivI64AVX2
		floorDivVVI32Vec = floorDivVVI32AVX2
	}
}
