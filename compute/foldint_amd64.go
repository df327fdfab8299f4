//go:build amd64 && !noasm

package compute

import "unsafe"

// The AVX2 folds of integer max and min (foldint_amd64.s).

//go:noescape
func foldMaxU8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinU8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxI8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinI8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxU16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinU16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxI16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinI16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxU32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinU32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxI32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinI32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxI64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinI64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMaxU64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMinU64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func firstEq8AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int

//go:noescape
func firstEq16AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int

//go:noescape
func firstEq32AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int

//go:noescape
func firstEq64AVX2(x unsafe.Pointer, n int, v unsafe.Pointer) int

//go:noescape
func accMaxI64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinI64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxU64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinU64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldMulI64AVX2(acc, x unsafe.Pointer, n int)

// firstEqVec returns firstEq's vector form for elements of size bytes:
// whole blocks of 32 bytes through k, the rest in Go.
func firstEqVec(k func(x unsafe.Pointer, n int, v unsafe.Pointer) int, size int) func(x unsafe.Pointer, n int, v unsafe.Pointer) int {
	block := 32 / size
	return func(x unsafe.Pointer, n int, v unsafe.Pointer) int {
		m := n &^ (block - 1)
		if m > 0 {
			if i := k(x, m, v); i >= 0 {
				return i
			}
		}
		if i := firstEqGo(unsafe.Add(x, m*size), n-m, v, size); i >= 0 {
			return m + i
		}
		return -1
	}
}

// foldVec128 is a fold whose whole blocks of 128 bytes go through k: four
// vectors of accumulators, started from x's first block, take each
// further block; the Go fold then folds the accumulators' lanes and the
// rest into acc. For max and min the grouping does not matter.
func foldVec128(k func(acc, x unsafe.Pointer, n int), fold FoldFunc, size int) FoldFunc {
	block := 128 / size
	return func(acc, x unsafe.Pointer, n int) {
		if m := n / block * block; m >= 2*block {
			var buf [128]byte
			copy(buf[:], unsafe.Slice((*byte)(x), 128))
			k(unsafe.Pointer(&buf[0]), unsafe.Add(x, 128), m-block)
			fold(acc, unsafe.Pointer(&buf[0]), block)
			x, n = unsafe.Add(x, m*size), n-m
		}
		fold(acc, x, n)
	}
}

// registerFoldInt installs the vector folds of integer max and min (the
// reductions over the inner axis or the whole array), the 64-bit steps of
// max and min over outer axes, and the vector first-occurrence search. Bool keeps its
// any/all folds, which stop at the first deciding byte.
func registerFoldInt() {
	if !Asm {
		return
	}
	for _, c := range []struct {
		t        Type
		max, min func(acc, x unsafe.Pointer, n int)
	}{
		{Uint8, foldMaxU8AVX2, foldMinU8AVX2}, {Int8, foldMaxI8AVX2, foldMinI8AVX2},
		{Uint16, foldMaxU16AVX2, foldMinU16AVX2}, {Int16, foldMaxI16AVX2, foldMinI16AVX2},
		{Uint32, foldMaxU32AVX2, foldMinU32AVX2}, {Int32, foldMaxI32AVX2, foldMinI32AVX2},
		{Uint64, foldMaxU64AVX2, foldMinU64AVX2}, {Int64, foldMaxI64AVX2, foldMinI64AVX2},
	} {
		sz := c.t.Size()
		foldTable[Maximum][c.t] = foldVec128(c.max, foldTable[Maximum][c.t], sz)
		foldTable[Minimum][c.t] = foldVec128(c.min, foldTable[Minimum][c.t], sz)
	}
	for _, c := range []struct {
		op Op
		t  Type
		k  func(acc, x unsafe.Pointer, n int)
	}{
		{Maximum, Int64, accMaxI64AVX2}, {Minimum, Int64, accMinI64AVX2},
		{Maximum, Uint64, accMaxU64AVX2}, {Minimum, Uint64, accMinU64AVX2},
	} {
		accTable[c.op][c.t] = AccumulateFunc(asmUnary(c.k, UnaryFunc(accTable[c.op][c.t]), 8, 8))
	}
	// products of 64-bit integers wrap, so their order does not matter:
	// the fold's four vectors, and the in-place multiply over outer axes
	for _, t := range []Type{Int64, Uint64} {
		foldTable[Mul][t] = foldVec128(foldMulI64AVX2, foldTable[Mul][t], 8)
		if mul := binTable[Mul][t][VV]; mul != nil {
			accTable[Mul][t] = func(acc, x unsafe.Pointer, n int) { mul(acc, acc, x, n) }
		}
	}
	firstEq = [9]func(x unsafe.Pointer, n int, v unsafe.Pointer) int{
		1: firstEqVec(firstEq8AVX2, 1), 2: firstEqVec(firstEq16AVX2, 2),
		4: firstEqVec(firstEq32AVX2, 4), 8: firstEqVec(firstEq64AVX2, 8),
	}
}
