package compute

import (
	"math/bits"
	"unsafe"
)

// CompressMask copies the values of src at the set bits of mask (bit i%64
// of mask[i/64] selects src[i]) to dst, in order, and returns how many it
// copied. Bits past len(src) select nothing; dst should hold every
// selected value: as copy does, it stops when dst is full, and nothing
// past the values copied is written. 4- and 8-byte values
// are moved 8 or 4 at a time with AVX2 where the build has it (Asm): a
// permutation from a table picks the selected lanes of each vector.
func CompressMask[T ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64](dst, src []T, mask []uint64) int {
	k, w := 0, 0
	if full := min(len(mask), len(src)/64); full > 0 && len(dst) > 0 {
		switch unsafe.Sizeof(src[0]) {
		case 8:
			k, w = compress64(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), mask[:full], len(dst))
		case 4:
			k, w = compress32(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), mask[:full], len(dst))
		}
	}
	return k + compressGo(dst[k:], src[min(len(src), w*64):], mask[w:])
}

// compressGo is CompressMask's Go loop: each set bit's position by its
// trailing zeros, whole words copied.
// A word past src selects nothing, bits past len(src) are ignored, and
// it stops when dst is full.
func compressGo[T any](dst, src []T, mask []uint64) int {
	k := 0
	for w, m := range mask {
		base := w * 64
		if base >= len(src) {
			break
		}
		if rem := len(src) - base; rem < 64 {
			m &= 1<<rem - 1
		}
		if m == ^uint64(0) && len(dst)-k >= 64 {
			k += copy(dst[k:k+64], src[base:base+64])
			continue
		}
		for m != 0 {
			if k >= len(dst) {
				return k
			}
			dst[k] = src[base+bits.TrailingZeros64(m)]
			k++
			m &= m - 1
		}
	}
	return k
}
