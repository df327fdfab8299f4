//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func addRowSecondFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func addRowFirstFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func addRowSecondFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func addRowFirstFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func subRowSecondFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func subRowFirstFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func subRowSecondFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func subRowFirstFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func mulRowSecondFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func mulRowFirstFloat32AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func mulRowSecondFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

//go:noescape
func mulRowFirstFloat64AVX2(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

func init() {
	tableRow[Add][Float32] = [2]RowKernel{addRowSecondFloat32AVX2, addRowFirstFloat32AVX2}
	tableRow[Add][Float64] = [2]RowKernel{addRowSecondFloat64AVX2, addRowFirstFloat64AVX2}
	tableRow[Sub][Float32] = [2]RowKernel{subRowSecondFloat32AVX2, subRowFirstFloat32AVX2}
	tableRow[Sub][Float64] = [2]RowKernel{subRowSecondFloat64AVX2, subRowFirstFloat64AVX2}
	tableRow[Mul][Float32] = [2]RowKernel{mulRowSecondFloat32AVX2, mulRowFirstFloat32AVX2}
	tableRow[Mul][Float64] = [2]RowKernel{mulRowSecondFloat64AVX2, mulRowFirstFloat64AVX2}
}
