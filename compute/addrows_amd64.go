//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func addRowsF32AVX2(acc, rows, gids, v unsafe.Pointer, n, w, groups int) int

// addRowsAsm reports whether AddRowsF32 has its kernel.
var addRowsAsm = Asm

// addRowsF32 runs the kernel (v long enough, acc and rows holding groups
// groups), which stops at the first group id outside [0, groups).
func addRowsF32(acc []float64, rows []int64, gids []int32, v []float32, w, groups int) int {
	return addRowsF32AVX2(unsafe.Pointer(&acc[0]), unsafe.Pointer(&rows[0]), unsafe.Pointer(&gids[0]), unsafe.Pointer(&v[0]), len(gids), w, groups)
}
