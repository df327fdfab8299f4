package compute

import (
	"fmt"
	"unsafe"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
)

// Reduction operators are Add (sum), Mul (product), Maximum and Minimum,
// and for floats Fmax and Fmin (NaN-ignoring: nanmax, nanmin).

var (
	accTable  [numOps][numTypes]AccumulateFunc
	foldTable [numOps][numTypes]FoldFunc
)

// LookupAccumulate returns the kernel acc[i] = acc[i] op x[i] for a reduction
// operator on type t.
func LookupAccumulate(op Op, t Type) (AccumulateFunc, error) {
	if op >= numOps || t >= numTypes || accTable[op][t] == nil {
		return nil, fmt.Errorf("compute: no %v accumulation for %v", op, t)
	}
	return accTable[op][t], nil
}

// LookupFold returns the kernel *acc = *acc op x[0] op ... op x[n-1] for a
// reduction operator on type t.
func LookupFold(op Op, t Type) (FoldFunc, error) {
	if op >= numOps || t >= numTypes || foldTable[op][t] == nil {
		return nil, fmt.Errorf("compute: no %v fold for %v", op, t)
	}
	return foldTable[op][t], nil
}

func foldSum[T number](acc, x unsafe.Pointer, n int) {
	s := *(*T)(acc)
	for _, v := range unsafe.Slice((*T)(x), n) {
		s += v
	}
	*(*T)(acc) = s
}

func foldProd[T number](acc, x unsafe.Pointer, n int) {
	s := *(*T)(acc)
	for _, v := range unsafe.Slice((*T)(x), n) {
		s *= v
	}
	*(*T)(acc) = s
}

func foldMax[T number](acc, x unsafe.Pointer, n int) {
	s := *(*T)(acc)
	for _, v := range unsafe.Slice((*T)(x), n) {
		s = max(s, v)
	}
	*(*T)(acc) = s
}

func foldMin[T number](acc, x unsafe.Pointer, n int) {
	s := *(*T)(acc)
	for _, v := range unsafe.Slice((*T)(x), n) {
		s = min(s, v)
	}
	*(*T)(acc) = s
}

// A reduction's extremes order -0 below +0 (max of -0 and +0 is +0, min
// -0, whatever the order of the elements), so that the result does not
// depend on how the elements are split between passes and workers: Go's
// max and min, and nanmaxF and nanminF, not the elementwise kernels (whose
// ties give the second operand, as NumPy's maximum does).

// nanmaxF and nanminF are a NaN-ignoring reduction's step: NaN only when
// both are, -0 below +0.
func nanmaxF[T float](x, y T) T {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	}
	return max(x, y)
}

func nanminF[T float](x, y T) T {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	}
	return min(x, y)
}

func foldFmax[T float](acc, x unsafe.Pointer, n int) {
	s := *(*T)(acc)
	for _, v := range unsafe.Slice((*T)(x), n) {
		s = nanmaxF(s, v)
	}
	*(*T)(acc) = s
}

func foldFmin[T float](acc, x unsafe.Pointer, n int) {
	s := *(*T)(acc)
	for _, v := range unsafe.Slice((*T)(x), n) {
		s = nanminF(s, v)
	}
	*(*T)(acc) = s
}

func accFmax[T float](acc, x unsafe.Pointer, n int) {
	a := unsafe.Slice((*T)(acc), n)
	for i, v := range unsafe.Slice((*T)(x), n) {
		a[i] = nanmaxF(a[i], v)
	}
}

func accFmin[T float](acc, x unsafe.Pointer, n int) {
	a := unsafe.Slice((*T)(acc), n)
	for i, v := range unsafe.Slice((*T)(x), n) {
		a[i] = nanminF(a[i], v)
	}
}

func accMax[T float](acc, x unsafe.Pointer, n int) {
	a := unsafe.Slice((*T)(acc), n)
	for i, v := range unsafe.Slice((*T)(x), n) {
		a[i] = max(a[i], v)
	}
}

func accMin[T float](acc, x unsafe.Pointer, n int) {
	a := unsafe.Slice((*T)(acc), n)
	for i, v := range unsafe.Slice((*T)(x), n) {
		a[i] = min(a[i], v)
	}
}

func regFold[T number](t Type) {
	foldTable[Add][t] = foldSum[T]
	foldTable[Mul][t] = foldProd[T]
	foldTable[Maximum][t] = foldMax[T]
	foldTable[Minimum][t] = foldMin[T]
}

func registerReductions() {
	regFold[int8](Int8)
	regFold[int16](Int16)
	regFold[int32](Int32)
	regFold[int64](Int64)
	regFold[uint8](Uint8)
	regFold[uint16](Uint16)
	regFold[uint32](Uint32)
	regFold[uint64](Uint64)
	regFold[float32](Float32)
	regFold[float64](Float64)
	foldTable[Fmax][Float32], foldTable[Fmin][Float32] = foldFmax[float32], foldFmin[float32]
	foldTable[Fmax][Float64], foldTable[Fmin][Float64] = foldFmax[float64], foldFmin[float64]
	foldTable[Maximum][Bool] = foldAnyBool // bools are 0 or 1: max is or, min is and
	foldTable[Minimum][Bool] = foldAllBool
	registerExtrema()
	// The generated VV loops read and write element i in one step, so they
	// accumulate in place with dst = acc and x = acc.
	for _, op := range []Op{Add, Mul, Maximum, Minimum} {
		for t := Bool; t < numTypes; t++ {
			if f := binTable[op][t][VV]; f != nil && (t != Bool || op == Maximum || op == Minimum) {
				// (a bool sum or product is taken in int64, as NumPy does)
				accTable[op][t] = func(acc, x unsafe.Pointer, n int) { f(acc, acc, x, n) }
			}
		}
	}
	accTable[Fmax][Float32], accTable[Fmin][Float32] = accFmax[float32], accFmin[float32]
	accTable[Fmax][Float64], accTable[Fmin][Float64] = accFmax[float64], accFmin[float64]
	accTable[Maximum][Float32], accTable[Minimum][Float32] = accMax[float32], accMin[float32]
	accTable[Maximum][Float64], accTable[Minimum][Float64] = accMax[float64], accMin[float64]
	// vek's in-place sums for float32 and float64.
	accTable[Add][Float32] = func(acc, x unsafe.Pointer, n int) {
		if n > 0 {
			vek32.Add_Inplace(unsafe.Slice((*float32)(acc), n), unsafe.Slice((*float32)(x), n))
		}
	}
	accTable[Add][Float64] = func(acc, x unsafe.Pointer, n int) {
		if n > 0 {
			vek.Add_Inplace(unsafe.Slice((*float64)(acc), n), unsafe.Slice((*float64)(x), n))
		}
	}
	accTable[Mul][Float32] = func(acc, x unsafe.Pointer, n int) {
		if n > 0 {
			vek32.Mul_Inplace(unsafe.Slice((*float32)(acc), n), unsafe.Slice((*float32)(x), n))
		}
	}
	accTable[Mul][Float64] = func(acc, x unsafe.Pointer, n int) {
		if n > 0 {
			vek.Mul_Inplace(unsafe.Slice((*float64)(acc), n), unsafe.Slice((*float64)(x), n))
		}
	}
}

// RowsFunc folds rows rows of n elements, stride elements apart, into
// acc, row after row: acc[i] += x[i] + x[stride+i] + ... for a sum (the
// same order of additions as one accumulation per row, so the same
// result), max or min likewise (LookupExtremeRows).
type RowsFunc func(acc, x unsafe.Pointer, n, rows, stride int)

var rowsTable [numTypes]RowsFunc

// LookupAccumulateRows returns the multi-row sum kernel for t, where there
// is one faster than a row at a time (float32 and float64 with AVX2).
func LookupAccumulateRows(t Type) (RowsFunc, bool) {
	if t >= numTypes || rowsTable[t] == nil {
		return nil, false
	}
	return rowsTable[t], true
}

// extRowsTable holds the multi-row max, min, nanmax and nanmin kernels
// (indexed like extRowsOps) by type (with AVX2: float32 and float64, and
// the max and min of bool and the 1-, 2- and 4-byte integers).
var extRowsTable [4][numTypes]RowsFunc

var extRowsOps = [4]Op{Maximum, Minimum, Fmax, Fmin}

// LookupExtremeRows returns the multi-row kernel of a max (op Maximum),
// min (Minimum), nanmax (Fmax) or nanmin (Fmin) over outer axes for t,
// where there is one faster than a row at a time (with AVX2: float32 and
// float64, and the max and min of bool and of 1-, 2- and 4-byte integers):
// acc[i] = max(acc[i], x[i], x[stride+i], ...) as one
// accumulation per row, row after row (the same results, NaN payloads and
// signed zeros included).
func LookupExtremeRows(op Op, t Type) (RowsFunc, bool) {
	for i, o := range extRowsOps {
		if o == op && t < numTypes && extRowsTable[i][t] != nil {
			return extRowsTable[i][t], true
		}
	}
	return nil, false
}

func accRowsGo[T number](acc, x unsafe.Pointer, n, rows, stride int) {
	a := unsafe.Slice((*T)(acc), n)
	for r := 0; r < rows; r++ {
		row := unsafe.Slice((*T)(unsafe.Add(x, r*stride*int(unsafe.Sizeof(a[0])))), n)
		for i := range a {
			a[i] += row[i]
		}
	}
}
