//go:build !amd64 || noasm

package compute

import "unsafe"

// extremaAsm: this build has no assembly; the Go folds stay.
func extremaAsm() {}

// argF32Call and argF64Call: never called without the assembly (argF32 and
// argF64 stay nil).
func argF32Call(k int, p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) bool {
	panic("compute: no argF32 kernels in this build")
}

func argF64Call(k int, p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) bool {
	panic("compute: no argF64 kernels in this build")
}
