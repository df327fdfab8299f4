//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func castI8I16AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU8I16AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI16I32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU16I32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI32I64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU32I64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func addI8AVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func subI8AVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func addI16AVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func subI16AVX2(d, x, y unsafe.Pointer, n int)

// registerWiden installs AVX2 widening casts (the mixed-width integer
// promotions: int8 + uint8 -> int16 casts both operands) and 8/16-bit
// vector add/sub, the Go kernels doing the tails.
func registerWiden() {
	if !Asm {
		return
	}
	for _, c := range []struct {
		from, to Type
		k        func(d, s unsafe.Pointer, n int)
		block    int
	}{
		{Int8, Int16, castI8I16AVX2, 32}, {Uint8, Int16, castU8I16AVX2, 32}, {Uint8, Uint16, castU8I16AVX2, 32},
		{Bool, Int16, castU8I16AVX2, 32}, {Bool, Uint16, castU8I16AVX2, 32},
		{Int16, Int32, castI16I32AVX2, 16}, {Uint16, Int32, castU16I32AVX2, 16}, {Uint16, Uint32, castU16I32AVX2, 16},
		{Int32, Int64, castI32I64AVX2, 8}, {Uint32, Int64, castU32I64AVX2, 8}, {Uint32, Uint64, castU32I64AVX2, 8},
	} {
		castTable[c.from][c.to] = widenHeadTail(c.k, castTable[c.from][c.to], c.block, c.from.Size(), c.to.Size())
	}
	for _, c := range []struct {
		op    Op
		t     Type
		k     BinaryFunc
		block int
	}{
		{Add, Int8, addI8AVX2, 64}, {Add, Uint8, addI8AVX2, 64}, {Sub, Int8, subI8AVX2, 64}, {Sub, Uint8, subI8AVX2, 64},
		{Add, Int16, addI16AVX2, 32}, {Add, Uint16, addI16AVX2, 32}, {Sub, Int16, subI16AVX2, 32}, {Sub, Uint16, subI16AVX2, 32},
	} {
		k, g, b, sz := c.k, binTable[c.op][c.t][VV], c.block, c.t.Size()
		binTable[c.op][c.t][VV] = func(d, x, y unsafe.Pointer, n int) {
			m := n &^ (b - 1)
			if m > 0 {
				k(d, x, y, m)
			}
			if m < n {
				g(unsafe.Add(d, m*sz), unsafe.Add(x, m*sz), unsafe.Add(y, m*sz), n-m)
			}
		}
	}
}

func widenHeadTail(k func(d, s unsafe.Pointer, n int), g UnaryFunc, block, ss, ds int) UnaryFunc {
	return func(d, s unsafe.Pointer, n int) {
		m := n &^ (block - 1)
		if m > 0 {
			k(d, s, m)
		}
		if m < n {
			g(unsafe.Add(d, m*ds), unsafe.Add(s, m*ss), n-m)
		}
	}
}
