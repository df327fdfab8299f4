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

//go:noescape
func maxI8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI32VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI32VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI32SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI32VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI32VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI32SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU32VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU32VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU32SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU32VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU32VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU32SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI64VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI64VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxI64SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI64VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI64VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minI64SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU64VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU64VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func maxU64SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU64VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU64VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func minU64SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func neg8AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func neg16AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func neg32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func neg64AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func sign8AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func sign16AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func sign32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func sign64AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func xor8VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func xor8VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func xor8SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func and16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func and16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func and16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func or16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func or16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func or16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func xor16VVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func xor16VSAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func xor16SVAVX2(d, x, y unsafe.Pointer, n int)

//go:noescape
func signU8AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func signU16AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func signU32AVX2(d, x unsafe.Pointer, n int)

//go:noescape
func signU64AVX2(d, x unsafe.Pointer, n int)

// registerIntVec installs the AVX2 products of 8- and 16-bit integers,
// bool add (or) and multiply (and), the bitwise and, or and xor of 8- and
// 16-bit integers and bools, and the elementwise maximum and minimum of
// integers, in every form; the negation of integers and the
// absolute value and sign of signed ones (the absolute value of a bool or
// unsigned integer is a copy).
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
		{BitwiseAnd, Int8, [3]func(d, x, y unsafe.Pointer, n int){and8VVAVX2, and8VSAVX2, and8SVAVX2}},
		{BitwiseOr, Int8, [3]func(d, x, y unsafe.Pointer, n int){or8VVAVX2, or8VSAVX2, or8SVAVX2}},
		{BitwiseXor, Int8, [3]func(d, x, y unsafe.Pointer, n int){xor8VVAVX2, xor8VSAVX2, xor8SVAVX2}},
		{BitwiseAnd, Uint8, [3]func(d, x, y unsafe.Pointer, n int){and8VVAVX2, and8VSAVX2, and8SVAVX2}},
		{BitwiseOr, Uint8, [3]func(d, x, y unsafe.Pointer, n int){or8VVAVX2, or8VSAVX2, or8SVAVX2}},
		{BitwiseXor, Uint8, [3]func(d, x, y unsafe.Pointer, n int){xor8VVAVX2, xor8VSAVX2, xor8SVAVX2}},
		{BitwiseAnd, Bool, [3]func(d, x, y unsafe.Pointer, n int){and8VVAVX2, and8VSAVX2, and8SVAVX2}},
		{BitwiseOr, Bool, [3]func(d, x, y unsafe.Pointer, n int){or8VVAVX2, or8VSAVX2, or8SVAVX2}},
		{BitwiseXor, Bool, [3]func(d, x, y unsafe.Pointer, n int){xor8VVAVX2, xor8VSAVX2, xor8SVAVX2}},
		{BitwiseAnd, Int16, [3]func(d, x, y unsafe.Pointer, n int){and16VVAVX2, and16VSAVX2, and16SVAVX2}},
		{BitwiseOr, Int16, [3]func(d, x, y unsafe.Pointer, n int){or16VVAVX2, or16VSAVX2, or16SVAVX2}},
		{BitwiseXor, Int16, [3]func(d, x, y unsafe.Pointer, n int){xor16VVAVX2, xor16VSAVX2, xor16SVAVX2}},
		{BitwiseAnd, Uint16, [3]func(d, x, y unsafe.Pointer, n int){and16VVAVX2, and16VSAVX2, and16SVAVX2}},
		{BitwiseOr, Uint16, [3]func(d, x, y unsafe.Pointer, n int){or16VVAVX2, or16VSAVX2, or16SVAVX2}},
		{BitwiseXor, Uint16, [3]func(d, x, y unsafe.Pointer, n int){xor16VVAVX2, xor16VSAVX2, xor16SVAVX2}},
		{Maximum, Int8, [3]func(d, x, y unsafe.Pointer, n int){maxI8VVAVX2, maxI8VSAVX2, maxI8SVAVX2}},
		{Minimum, Int8, [3]func(d, x, y unsafe.Pointer, n int){minI8VVAVX2, minI8VSAVX2, minI8SVAVX2}},
		{Maximum, Uint8, [3]func(d, x, y unsafe.Pointer, n int){maxU8VVAVX2, maxU8VSAVX2, maxU8SVAVX2}},
		{Minimum, Uint8, [3]func(d, x, y unsafe.Pointer, n int){minU8VVAVX2, minU8VSAVX2, minU8SVAVX2}},
		{Maximum, Int16, [3]func(d, x, y unsafe.Pointer, n int){maxI16VVAVX2, maxI16VSAVX2, maxI16SVAVX2}},
		{Minimum, Int16, [3]func(d, x, y unsafe.Pointer, n int){minI16VVAVX2, minI16VSAVX2, minI16SVAVX2}},
		{Maximum, Uint16, [3]func(d, x, y unsafe.Pointer, n int){maxU16VVAVX2, maxU16VSAVX2, maxU16SVAVX2}},
		{Minimum, Uint16, [3]func(d, x, y unsafe.Pointer, n int){minU16VVAVX2, minU16VSAVX2, minU16SVAVX2}},
		{Maximum, Int32, [3]func(d, x, y unsafe.Pointer, n int){maxI32VVAVX2, maxI32VSAVX2, maxI32SVAVX2}},
		{Minimum, Int32, [3]func(d, x, y unsafe.Pointer, n int){minI32VVAVX2, minI32VSAVX2, minI32SVAVX2}},
		{Maximum, Uint32, [3]func(d, x, y unsafe.Pointer, n int){maxU32VVAVX2, maxU32VSAVX2, maxU32SVAVX2}},
		{Minimum, Uint32, [3]func(d, x, y unsafe.Pointer, n int){minU32VVAVX2, minU32VSAVX2, minU32SVAVX2}},
		{Maximum, Int64, [3]func(d, x, y unsafe.Pointer, n int){maxI64VVAVX2, maxI64VSAVX2, maxI64SVAVX2}},
		{Minimum, Int64, [3]func(d, x, y unsafe.Pointer, n int){minI64VVAVX2, minI64VSAVX2, minI64SVAVX2}},
		{Maximum, Uint64, [3]func(d, x, y unsafe.Pointer, n int){maxU64VVAVX2, maxU64VSAVX2, maxU64SVAVX2}},
		{Minimum, Uint64, [3]func(d, x, y unsafe.Pointer, n int){minU64VVAVX2, minU64VSAVX2, minU64SVAVX2}},
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
	registerShiftVec()
	for _, c := range []struct {
		t         Type
		neg, sign func(d, x unsafe.Pointer, n int)
	}{
		{Int8, neg8AVX2, sign8AVX2}, {Int16, neg16AVX2, sign16AVX2}, {Int32, neg32AVX2, sign32AVX2}, {Int64, neg64AVX2, sign64AVX2},
		{Uint8, neg8AVX2, signU8AVX2}, {Uint16, neg16AVX2, signU16AVX2}, {Uint32, neg32AVX2, signU32AVX2}, {Uint64, neg64AVX2, signU64AVX2},
	} {
		size := c.t.Size()
		unTable[Neg][c.t] = asmUnary(c.neg, unTable[Neg][c.t], size, 32/size)
		if c.sign != nil {
			unTable[Sign][c.t] = asmUnary(c.sign, unTable[Sign][c.t], size, 32/size)
		}
	}
}
