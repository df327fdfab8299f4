//go:build !amd64 || noasm

package compute

// cmpMaskF64 fills len(mask) words from the 64*len(mask) values of x (the
// Go loop: this build has no assembly).
func cmpMaskF64(mask []uint64, x []float64, op MaskOp, lit float64) int {
	return compareMaskGo(mask, x, op, lit)
}

// cmpMaskF32 is cmpMaskF64 for float32.
func cmpMaskF32(mask []uint64, x []float32, op MaskOp, lit float32) int {
	return compareMaskGo(mask, x, op, lit)
}
