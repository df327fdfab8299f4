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
func firstNonzero8AVX2(x unsafe.Pointer, n int) int

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

// firstEqAsm is firstEq for elements of size bytes: whole blocks of 32
// bytes through the vector search, called statically (v may point at the
// caller's stack), the rest in Go.
func firstEqAsm(size int, x unsafe.Pointer, n int, v unsafe.Pointer) int {
	m := n &^ (32/size - 1)
	if m > 0 {
		i := -1
		switch size {
		case 1:
			i = firstEq8AVX2(x, m, v)
		case 2:
			i = firstEq16AVX2(x, m, v)
		case 4:
			i = firstEq32AVX2(x, m, v)
		default:
			i = firstEq64AVX2(x, m, v)
		}
		if i >= 0 {
			return i
		}
	}
	if i := firstEqGo(unsafe.Add(x, m*size), n-m, v, size); i >= 0 {
		return m + i
	}
	return -1
}

// argExtremeIntAsm is ArgExtremeInt of the integer types with the vector
// kernels called statically, so that the extreme stays on the stack
// (through the fold's and the search's func values it escaped: an
// allocation a call, every row of an argmax along rows).
func argExtremeIntAsm(t Type, x unsafe.Pointer, n int, isMax bool) int {
	switch t {
	case Uint8:
		return argExtremeVec[uint8](x, n, isMax, kMaxU8, kMinU8)
	case Int8:
		return argExtremeVec[int8](x, n, isMax, kMaxI8, kMinI8)
	case Uint16:
		return argExtremeVec[uint16](x, n, isMax, kMaxU16, kMinU16)
	case Int16:
		return argExtremeVec[int16](x, n, isMax, kMaxI16, kMinI16)
	case Uint32:
		return argExtremeVec[uint32](x, n, isMax, kMaxU32, kMinU32)
	case Int32:
		return argExtremeVec[int32](x, n, isMax, kMaxI32, kMinI32)
	case Uint64:
		return argExtremeVec[uint64](x, n, isMax, kMaxU64, kMinU64)
	case Int64:
		return argExtremeVec[int64](x, n, isMax, kMaxI64, kMinI64)
	}
	return -1
}

// argExtremeVec is the index of the first maximum (isMax) or minimum of
// the n > 0 values at x: the extreme by foldBlocks (kernel kmax or kmin)
// and foldValues over the rest, then its first occurrence.
func argExtremeVec[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](x unsafe.Pointer, n int, isMax bool, kmax, kmin int) int {
	op, id := Minimum, kmin
	if isMax {
		op, id = Maximum, kmax
	}
	v, m := foldBlocks[T](id, op, *(*T)(x), x, n)
	v = foldValues(op, v, unsafe.Slice((*T)(unsafe.Add(x, m*int(unsafe.Sizeof(v)))), n-m))
	return firstEqAsm(int(unsafe.Sizeof(v)), x, n, unsafe.Pointer(&v))
}

// foldVec128 is a fold whose whole blocks of 128 bytes go through kernel
// id (foldKernel): four vectors of accumulators, started from x's first
// block, take each further block (and, but for 64-bit lanes, are folded
// into one vector); then the accumulators' lanes are folded into acc
// here, and the rest by the Go fold. For max, min and the
// wrapping product the grouping does not matter. The accumulators live on
// the stack: the kernel is called statically (foldKernel), so they do not
// escape (through a func value they did, a heap allocation every call:
// every row of a reduction along rows), and their lanes are folded by a
// loop over T rather than the fold's func value.
func foldVec128[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](id int, op Op, fold FoldFunc) FoldFunc {
	size := int(unsafe.Sizeof(T(0)))
	return func(acc, x unsafe.Pointer, n int) {
		v, m := foldBlocks[T](id, op, *(*T)(acc), x, n)
		*(*T)(acc) = v
		fold(acc, unsafe.Add(x, m*size), n-m)
	}
}

// foldBlocks folds into v the whole blocks of 128 bytes of the n values
// at x through kernel id when there are at least two (else none), and
// returns v and the values folded.
func foldBlocks[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](id int, op Op, v T, x unsafe.Pointer, n int) (T, int) {
	size := int(unsafe.Sizeof(v))
	block := 128 / size
	m := n / block * block
	if m < 2*block {
		return v, 0
	}
	nl := 32 / size // the 8/16/32-bit kernels leave one vector of lanes (FOLDINT)
	if size == 8 {
		nl = block // the 64-bit ones all four
	}
	var buf [128]byte
	copy(buf[:], unsafe.Slice((*byte)(x), 128))
	foldKernel(id, unsafe.Pointer(&buf[0]), unsafe.Add(x, 128), m-block)
	return foldValues(op, v, unsafe.Slice((*T)(unsafe.Pointer(&buf[0])), nl)), m
}

// foldValues folds xs into v: a wrapping product (Mul), a max (Maximum)
// or a min (otherwise).
func foldValues[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](op Op, v T, xs []T) T {
	switch op {
	case Mul:
		for _, b := range xs {
			v *= b
		}
	case Maximum:
		for _, b := range xs {
			v = max(v, b)
		}
	default:
		for _, b := range xs {
			v = min(v, b)
		}
	}
	return v
}

// foldKernels are foldVec128's kernels; foldKernel calls kernel id
// statically, so that its accumulators stay on the caller's stack.
const (
	kMaxU8 = iota
	kMinU8
	kMaxI8
	kMinI8
	kMaxU16
	kMinU16
	kMaxI16
	kMinI16
	kMaxU32
	kMinU32
	kMaxI32
	kMinI32
	kMaxU64
	kMinU64
	kMaxI64
	kMinI64
	kMulI64
)

func foldKernel(id int, acc, x unsafe.Pointer, n int) {
	switch id {
	case kMaxU8:
		foldMaxU8AVX2(acc, x, n)
	case kMinU8:
		foldMinU8AVX2(acc, x, n)
	case kMaxI8:
		foldMaxI8AVX2(acc, x, n)
	case kMinI8:
		foldMinI8AVX2(acc, x, n)
	case kMaxU16:
		foldMaxU16AVX2(acc, x, n)
	case kMinU16:
		foldMinU16AVX2(acc, x, n)
	case kMaxI16:
		foldMaxI16AVX2(acc, x, n)
	case kMinI16:
		foldMinI16AVX2(acc, x, n)
	case kMaxU32:
		foldMaxU32AVX2(acc, x, n)
	case kMinU32:
		foldMinU32AVX2(acc, x, n)
	case kMaxI32:
		foldMaxI32AVX2(acc, x, n)
	case kMinI32:
		foldMinI32AVX2(acc, x, n)
	case kMaxU64:
		foldMaxU64AVX2(acc, x, n)
	case kMinU64:
		foldMinU64AVX2(acc, x, n)
	case kMaxI64:
		foldMaxI64AVX2(acc, x, n)
	case kMinI64:
		foldMinI64AVX2(acc, x, n)
	case kMulI64:
		foldMulI64AVX2(acc, x, n)
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
	foldTable[Maximum][Uint8] = foldVec128[uint8](kMaxU8, Maximum, foldTable[Maximum][Uint8])
	foldTable[Minimum][Uint8] = foldVec128[uint8](kMinU8, Minimum, foldTable[Minimum][Uint8])
	foldTable[Maximum][Int8] = foldVec128[int8](kMaxI8, Maximum, foldTable[Maximum][Int8])
	foldTable[Minimum][Int8] = foldVec128[int8](kMinI8, Minimum, foldTable[Minimum][Int8])
	foldTable[Maximum][Uint16] = foldVec128[uint16](kMaxU16, Maximum, foldTable[Maximum][Uint16])
	foldTable[Minimum][Uint16] = foldVec128[uint16](kMinU16, Minimum, foldTable[Minimum][Uint16])
	foldTable[Maximum][Int16] = foldVec128[int16](kMaxI16, Maximum, foldTable[Maximum][Int16])
	foldTable[Minimum][Int16] = foldVec128[int16](kMinI16, Minimum, foldTable[Minimum][Int16])
	foldTable[Maximum][Uint32] = foldVec128[uint32](kMaxU32, Maximum, foldTable[Maximum][Uint32])
	foldTable[Minimum][Uint32] = foldVec128[uint32](kMinU32, Minimum, foldTable[Minimum][Uint32])
	foldTable[Maximum][Int32] = foldVec128[int32](kMaxI32, Maximum, foldTable[Maximum][Int32])
	foldTable[Minimum][Int32] = foldVec128[int32](kMinI32, Minimum, foldTable[Minimum][Int32])
	foldTable[Maximum][Uint64] = foldVec128[uint64](kMaxU64, Maximum, foldTable[Maximum][Uint64])
	foldTable[Minimum][Uint64] = foldVec128[uint64](kMinU64, Minimum, foldTable[Minimum][Uint64])
	foldTable[Maximum][Int64] = foldVec128[int64](kMaxI64, Maximum, foldTable[Maximum][Int64])
	foldTable[Minimum][Int64] = foldVec128[int64](kMinI64, Minimum, foldTable[Minimum][Int64])
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
	foldTable[Mul][Int64] = foldVec128[int64](kMulI64, Mul, foldTable[Mul][Int64])
	foldTable[Mul][Uint64] = foldVec128[uint64](kMulI64, Mul, foldTable[Mul][Uint64])
	for _, t := range []Type{Int64, Uint64} {
		if mul := binTable[Mul][t][VV]; mul != nil {
			accTable[Mul][t] = func(acc, x unsafe.Pointer, n int) { mul(acc, acc, x, n) }
		}
	}
	for _, size := range []int{1, 2, 4, 8} {
		firstEq[size] = func(x unsafe.Pointer, n int, v unsafe.Pointer) int { return firstEqAsm(size, x, n, v) }
	}
	argExtremeIntFast = argExtremeIntAsm
	firstZero = func(x unsafe.Pointer, n int) int {
		var zero [8]byte // a static call: it stays on the stack
		return firstEqAsm(1, x, n, unsafe.Pointer(&zero))
	}
	firstNonzero = func(x unsafe.Pointer, n int) int {
		m := n &^ 31
		if m > 0 {
			if i := firstNonzero8AVX2(x, m); i >= 0 {
				return i
			}
		}
		if i := firstNonzeroGo(unsafe.Add(x, m), n-m); i >= 0 {
			return m + i
		}
		return -1
	}
}
