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
		floorDivSmallVec = floorDivSmall
	}
}

// floorDivSmall is floorDivSmallVec: blocks of up to 256 values widened
// into int32 on the stack (castvec_amd64.s), divided by floorDivI32AVX2
// and narrowed back by truncation (which wraps int8's -128 // -1 as the
// narrow division does).
func floorDivSmall(dst, x unsafe.Pointer, n, size int, unsigned bool, m, l uint64, c int64, mod int) int {
	var wide, out [256]int32
	w, o := unsafe.Pointer(&wide[0]), unsafe.Pointer(&out[0])
	done := 0
	for n-done >= 32 {
		k := min(len(wide), (n-done)&^31)
		src, d := unsafe.Add(x, done*size), unsafe.Add(dst, done*size)
		switch {
		case size == 1 && unsigned:
			castU8I32AVX2(w, src, k)
		case size == 1:
			castI8I32AVX2(w, src, k)
		case unsigned:
			castU16I32AVX2(w, src, k)
		default:
			castI16I32AVX2(w, src, k)
		}
		floorDivI32AVX2(o, w, k, m, l, c, mod, 0)
		if size == 1 {
			castN32to8AVX2(d, o, k)
		} else {
			castN32to16AVX2(d, o, k)
		}
		done += k
	}
	return done
}
