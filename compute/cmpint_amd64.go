//go:build amd64 && !noasm

package compute

import "unsafe"

// The integer comparisons of cmpint_amd64.s.

// cmpKernel is an integer comparison kernel (see cmpint_amd64.s).
type cmpKernel func(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq8VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq8VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq8SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY8VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY8VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY8SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX8VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX8VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX8SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq16VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq16VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq16SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY16VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY16VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY16SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX16VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX16VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX16SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq32VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq32VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq32SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY32VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY32VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY32SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX32VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX32VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX32SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq64VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq64VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpEq64SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY64VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY64VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtXY64SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX64VVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX64VSAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

//go:noescape
func cmpGtYX64SVAVX2(d, x, y unsafe.Pointer, n int, bias, neg uint64)

// intCmp builds the comparison kernel of one form over the vector kernel
// k: whole blocks in k, the rest in the Go loop tail.
func intCmp(k cmpKernel, tail BinaryFunc, size int, bias, neg uint64, form Form) BinaryFunc {
	block := 32 // elements a step: 32 to 128 bytes of operands, 32 results
	if size == 8 {
		block = 8 // 64 bytes, 8 results
	}
	xe, ye := size, size // element steps of the tail's operands
	switch form {
	case VS:
		ye = 0
	case SV:
		xe = 0
	}
	return func(d, x, y unsafe.Pointer, n int) {
		m := n &^ (block - 1)
		if m > 0 {
			k(d, x, y, m, bias, neg)
		}
		if m < n {
			tail(unsafe.Add(d, m), unsafe.Add(x, m*xe), unsafe.Add(y, m*ye), n-m)
		}
	}
}

// registerCmpInt installs the vector comparisons of every integer type
// in the VV, VS and SV forms.
func registerCmpInt() {
	if !Asm {
		return
	}
	// by element size: eq, x > y, y > x; each VV, VS, SV
	kernels := map[int][3][3]cmpKernel{
		1: {{cmpEq8VVAVX2, cmpEq8VSAVX2, cmpEq8SVAVX2}, {cmpGtXY8VVAVX2, cmpGtXY8VSAVX2, cmpGtXY8SVAVX2}, {cmpGtYX8VVAVX2, cmpGtYX8VSAVX2, cmpGtYX8SVAVX2}},
		2: {{cmpEq16VVAVX2, cmpEq16VSAVX2, cmpEq16SVAVX2}, {cmpGtXY16VVAVX2, cmpGtXY16VSAVX2, cmpGtXY16SVAVX2}, {cmpGtYX16VVAVX2, cmpGtYX16VSAVX2, cmpGtYX16SVAVX2}},
		4: {{cmpEq32VVAVX2, cmpEq32VSAVX2, cmpEq32SVAVX2}, {cmpGtXY32VVAVX2, cmpGtXY32VSAVX2, cmpGtXY32SVAVX2}, {cmpGtYX32VVAVX2, cmpGtYX32VSAVX2, cmpGtYX32SVAVX2}},
		8: {{cmpEq64VVAVX2, cmpEq64VSAVX2, cmpEq64SVAVX2}, {cmpGtXY64VVAVX2, cmpGtXY64VSAVX2, cmpGtXY64SVAVX2}, {cmpGtYX64VVAVX2, cmpGtYX64VSAVX2, cmpGtYX64SVAVX2}},
	}
	for _, c := range []struct {
		t    Type
		bias uint64 // the lanes' sign bits for unsigned types
	}{
		{Int8, 0}, {Int16, 0}, {Int32, 0}, {Int64, 0},
		{Uint8, 0x8080808080808080}, {Uint16, 0x8000800080008000}, {Uint32, 0x8000000080000000}, {Uint64, 1 << 63},
	} {
		size := c.t.Size()
		k := kernels[size]
		for _, p := range []struct {
			op   Op
			pred int
			neg  uint64
		}{
			{Equal, 0, 0}, {NotEqual, 0, ^uint64(0)},
			{Greater, 1, 0}, {LessEqual, 1, ^uint64(0)},
			{Less, 2, 0}, {GreaterEqual, 2, ^uint64(0)},
		} {
			for f, form := range []Form{VV, VS, SV} {
				if tail := binTable[p.op][c.t][form]; tail != nil {
					binTable[p.op][c.t][form] = intCmp(k[p.pred][f], tail, size, c.bias, p.neg, form)
				}
			}
		}
	}
}
