//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func floorDivI32AVX2(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int)

//go:noescape
func floorDivI64AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod, nt int, m31 uint64)

//go:noescape
func floorDivVVI32AVX2(dst, x, y unsafe.Pointer, n int, mod, nt int)

//go:noescape
func floorDivVVI64Z(dst, x, y unsafe.Pointer, n int, mod, nt int) int

func init() {
	if Asm {
		floorDivI32Vec = floorDivI32AVX2
		floorDivI64Vec = floorDivI64AVX2
		floorDivVVI32Vec = floorDivVVI32AVX2
		floorDivSmallVec = floorDivSmall
		if hasVmath512 {
			floorDivVVI64Vec = floorDivVVI64Z
		}
	}
}

//go:noescape
func floorDivI16AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)

//go:noescape
func floorDivU16AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)

//go:noescape
func floorDivI8AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)

//go:noescape
func floorDivU8AVX2(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod int)

// floorDivSmall is floorDivSmallVec: the whole blocks of 32 in 16-bit
// lanes (intdiv16_amd64.s), bytes widened in registers and narrowed back
// by truncation. l is ceil(log2 c) (c >= 2, below 2^15 for signed values);
// the kernels' multipliers are the round-up method's for N = 15 (signed
// magnitudes and bytes, all below 2^15) and, for uint16, N = 16 with the
// fix-up add. m (newUdiv31's) is not used.
func floorDivSmall(dst, x unsafe.Pointer, n, size int, unsigned bool, m, l uint64, c int64, mod int) int {
	k := n &^ 31
	if k == 0 {
		return 0
	}
	D := uint64(c)
	m15 := uint64(1)<<(15+l)/D + 1
	switch {
	case size == 2 && unsigned:
		floorDivU16AVX2(dst, x, k, (uint64(1)<<l-D)<<16/D+1, l-1, c, mod)
	case size == 2:
		floorDivI16AVX2(dst, x, k, m15, l-1, c, mod)
	case unsigned:
		floorDivU8AVX2(dst, x, k, m15, l-1, c, mod)
	default:
		floorDivI8AVX2(dst, x, k, m15, l-1, c, mod)
	}
	return k
}
