//go:build amd64 && !noasm

package compute

// The AVX2 comparisons of CompareMask, one kernel per operator: words
// words of mask from 64*words values of x, returning the bits set.

//go:noescape
func maskEqF64(mask *uint64, x *float64, words int, lit float64) int

//go:noescape
func maskNeF64(mask *uint64, x *float64, words int, lit float64) int

//go:noescape
func maskLtF64(mask *uint64, x *float64, words int, lit float64) int

//go:noescape
func maskLeF64(mask *uint64, x *float64, words int, lit float64) int

//go:noescape
func maskGtF64(mask *uint64, x *float64, words int, lit float64) int

//go:noescape
func maskGeF64(mask *uint64, x *float64, words int, lit float64) int

//go:noescape
func maskEqF32(mask *uint64, x *float32, words int, lit float32) int

//go:noescape
func maskNeF32(mask *uint64, x *float32, words int, lit float32) int

//go:noescape
func maskLtF32(mask *uint64, x *float32, words int, lit float32) int

//go:noescape
func maskLeF32(mask *uint64, x *float32, words int, lit float32) int

//go:noescape
func maskGtF32(mask *uint64, x *float32, words int, lit float32) int

//go:noescape
func maskGeF32(mask *uint64, x *float32, words int, lit float32) int

var (
	maskF64Asm = [...]func(*uint64, *float64, int, float64) int{maskEqF64, maskNeF64, maskLtF64, maskLeF64, maskGtF64, maskGeF64}
	maskF32Asm = [...]func(*uint64, *float32, int, float32) int{maskEqF32, maskNeF32, maskLtF32, maskLeF32, maskGtF32, maskGeF32}
)

// cmpMaskF64 fills len(mask) words from the 64*len(mask) values of x.
func cmpMaskF64(mask []uint64, x []float64, op MaskOp, lit float64) int {
	if !Asm || int(op) >= len(maskF64Asm) || len(mask) == 0 {
		return compareMaskGo(mask, x, op, lit)
	}
	_ = x[len(mask)*64-1]
	return maskF64Asm[op](&mask[0], &x[0], len(mask), lit)
}

// cmpMaskF32 fills len(mask) words from the 64*len(mask) values of x.
func cmpMaskF32(mask []uint64, x []float32, op MaskOp, lit float32) int {
	if !Asm || int(op) >= len(maskF32Asm) || len(mask) == 0 {
		return compareMaskGo(mask, x, op, lit)
	}
	_ = x[len(mask)*64-1]
	return maskF32Asm[op](&mask[0], &x[0], len(mask), lit)
}
