//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func compress64AVX2(dst, src unsafe.Pointer, mask *uint64, words, room int, tab *[16][8]uint32) (k, done int)

//go:noescape
func compress32AVX2(dst, src unsafe.Pointer, mask *uint64, words, room int, tab *[256][8]uint32) (k, done int)

// compressTab64[m] lists, as dword indices of a 4 x 64-bit vector, the
// lanes set in the 4 bits of m, first; compressTab32[m] the lanes set in
// the 8 bits of m of an 8 x 32-bit vector.
var (
	compressTab64 [16][8]uint32
	compressTab32 [256][8]uint32
)

func init() {
	for m := range compressTab64 {
		k := 0
		for i := 0; i < 4; i++ {
			if m>>i&1 != 0 {
				compressTab64[m][2*k], compressTab64[m][2*k+1] = uint32(2*i), uint32(2*i+1)
				k++
			}
		}
	}
	for m := range compressTab32 {
		k := 0
		for i := 0; i < 8; i++ {
			if m>>i&1 != 0 {
				compressTab32[m][k] = uint32(i)
				k++
			}
		}
	}
}

// compress64 moves the selected values of the words of mask while dst
// has room for a whole word's vector stores (which write up to 3 values
// past the last selected one), and returns the values moved and the words
// done; the Go loop does the rest.
func compress64(dst, src unsafe.Pointer, mask []uint64, room int) (k, words int) {
	if !Asm || len(mask) == 0 {
		return 0, 0
	}
	return compress64AVX2(dst, src, &mask[0], len(mask), room, &compressTab64)
}

// compress32 is compress64 for 4-byte values (8 to a vector).
func compress32(dst, src unsafe.Pointer, mask []uint64, room int) (k, words int) {
	if !Asm || len(mask) == 0 {
		return 0, 0
	}
	return compress32AVX2(dst, src, &mask[0], len(mask), room, &compressTab32)
}
