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

//go:noescape
func floorDivI32Z(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int)

//go:noescape
func floorDivI64Z(dst, x unsafe.Pointer, n int, sh uint64, c int64, mod, nt int, m31 uint64) int

func init() {
	if Asm {
		floorDivI32Vec = floorDivI32AVX2
		floorDivI64Vec = floorDivI64AVX2
		floorDivVVI32Vec = floorDivVVI32AVX2
		floorDivSmallVec = floorDivSmall
		if hasVmath512 {
			floorDivVVI64Vec = floorDivVVI64Z
			floorDivI64Vec = floorDivI64Wide
			floorDivI32Vec = floorDivI32Wide
		}
	}
}

// floorDivI32Wide is floorDivI32AVX2 sixteen lanes a vector
// (floorDivI32Z, AVX-512) over the whole blocks of 16 (n is a multiple of
// 8); the AVX2 kernel does a last 8, and a first 8 that brings a
// streaming dst to a 64-byte boundary.
func floorDivI32Wide(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int) {
	done := 0 // (pointers are formed only below n: one past the end fails checkptr)
	if nt != 0 && uintptr(dst)&63 != 0 {
		floorDivI32AVX2(dst, x, 8, m, l, c, mod, nt)
		done = 8
	}
	if w := (n - done) &^ 15; w > 0 {
		floorDivI32Z(unsafe.Add(dst, 4*done), unsafe.Add(x, 4*done), w, m, l, c, mod, nt)
		done += w
	}
	if done < n {
		floorDivI32AVX2(unsafe.Add(dst, 4*done), unsafe.Add(x, 4*done), n-done, m, l, c, mod, nt)
	}
}

// floorDivI64Wide is floorDivI64AVX2 with its path for magnitudes below
// 2^31 eight lanes a step (floorDivI64Z, AVX-512): from a vector that
// kernel stops at, the AVX2 kernel does the next 256 elements (n and each
// count a multiple of 4). A 64-byte boundary for streaming stores is
// reached by the AVX2 kernel's first 4.
func floorDivI64Wide(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod, nt int, m31 uint64) {
	if m31 == 0 {
		floorDivI64AVX2(dst, x, n, m, sh, c, mod, nt, m31)
		return
	}
	done := 0
	if nt != 0 && uintptr(dst)&63 != 0 {
		floorDivI64AVX2(dst, x, 4, m, sh, c, mod, nt, m31)
		done = 4
	}
	for done < n {
		done += floorDivI64Z(unsafe.Add(dst, 8*done), unsafe.Add(x, 8*done), n-done, sh, c, mod, nt, m31)
		if done < n {
			k := min(256, n-done)
			floorDivI64AVX2(unsafe.Add(dst, 8*done), unsafe.Add(x, 8*done), k, m, sh, c, mod, nt, m31)
			done += k
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
