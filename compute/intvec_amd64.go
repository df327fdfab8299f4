//go:build amd64 && !noasm

package compute

import "unsafe"

// The elementwise integer and bool kernels of intvec_amd64.s.

//go:noescape
func mul8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func mul8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func mul8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func mul16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func mul16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func mul16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func or8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func or8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func or8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func and8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func and8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func and8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func abs8AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func abs16AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func abs32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func abs64AVX2(d, x unsafe.Pointer, n int)

// registerIntVec installs the AVX2 products of 8- and 16-bit integers,
// bool add (or) and multiply (and) in every form, and the absolute
// values of signed integers; the absolute value of a bool or unsigned
// integer is a copy.
func registerIntVec() {
	if !Asm {
		return
	}
	for _, c := range []struct {
		op Op
		t  Type
		k  [3]func(d, x, y unsafe.Pointer, n int) // VV, VS, SV
	}{
		{Mul, Int8, [3]func(d, x, y unsafe.Pointer, n int){mul8VVAVX2, mul8VSAVX2, mul8SVAVX2}},
		{Mul, Uint8, [3]func(d, x, y unsafe.Pointer, n int){mul8VVAVX2, mul8VSAVX2, mul8SVAVX2}},
		{Mul, Int16, [3]func(d, x, y unsafe.Pointer, n int){mul16VVAVX2, mul16VSAVX2, mul16SVAVX2}},
		{Mul, Uint16, [3]func(d, x, y unsafe.Pointer, n int){mul16VVAVX2, mul16VSAVX2, mul16SVAVX2}},
		{Add, Bool, [3]func(d, x, y unsafe.Pointer, n int){or8VVAVX2, or8VSAVX2, or8SVAVX2}},
		{Mul, Bool, [3]func(d, x, y unsafe.Pointer, n int){and8VVAVX2, and8VSAVX2, and8SVAVX2}},
	} {
		size := c.t.Size()
		for f, form := range []string{"vv", "vs", "sv"} {
			if tail := binTable[c.op][c.t][f]; tail != nil {
				binTable[c.op][c.t][f] = asmBinary(c.k[f], tail, size, 32/size, form)
			}
		}
	}
	for _, c := range []struct {
		t Type
		k func(d, x unsafe.Pointer, n int)
	}{
		{Int8, abs8AVX2}, {Int16, abs16AVX2}, {Int32, abs32AVX2}, {Int64, abs64AVX2},
	} {
		size := c.t.Size()
		unTable[Abs][c.t] = asmUnary(c.k, unTable[Abs][c.t], size, 32/size)
	}
	for _, t := range []Type{Bool, Uint8, Uint16, Uint32, Uint64} {
		unTable[Abs][t] = copyKernel(t.Size())
	}
}
