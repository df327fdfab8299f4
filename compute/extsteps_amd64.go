//go:build amd64 && !noasm

package compute

import "unsafe"

// The AVX2 steps of max, min, nanmax and nanmin reductions
// (extsteps_amd64.s).

//go:noescape
func accMaxF32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinF32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxF64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinF64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accRowsMaxF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsFmaxF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsFminF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsFmaxF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsFminF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxU8AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinU8AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxI8AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinI8AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxU16AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinU16AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxI16AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinI16AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxU32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinU32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMaxI32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsMinI32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

// registerAccExtrema installs the AVX2 steps of max, min, nanmax and nanmin
// reductions: accumulating over outer axes (accMax's and accFmax's rules:
// NaN when either is, or only when both are; -0 below +0), whole vectors
// in assembly and the rest in Go, and nanmax's and nanmin's folds.
func registerAccExtrema() {
	// an accumulating step has a unary kernel's shape: (acc, x, n)
	acc := func(k func(acc, x unsafe.Pointer, n int), tail AccumulateFunc, size, lanes int) AccumulateFunc {
		return AccumulateFunc(asmUnary(k, UnaryFunc(tail), size, lanes))
	}
	accTable[Fmax][Float32] = acc(accFmaxF32AVX2, accFmax[float32], 4, 8)
	accTable[Fmin][Float32] = acc(accFminF32AVX2, accFmin[float32], 4, 8)
	accTable[Fmax][Float64] = acc(accFmaxF64AVX2, accFmax[float64], 8, 4)
	accTable[Fmin][Float64] = acc(accFminF64AVX2, accFmin[float64], 8, 4)
	foldTable[Fmax][Float32] = foldNanExtreme[float32](kFmaxF32, nanmaxF[float32])
	foldTable[Fmin][Float32] = foldNanExtreme[float32](kFminF32, nanminF[float32])
	foldTable[Fmax][Float64] = foldNanExtreme[float64](kFmaxF64, nanmaxF[float64])
	foldTable[Fmin][Float64] = foldNanExtreme[float64](kFminF64, nanminF[float64])
	accTable[Maximum][Float32] = acc(accMaxF32AVX2, accMax[float32], 4, 8)
	accTable[Minimum][Float32] = acc(accMinF32AVX2, accMin[float32], 4, 8)
	accTable[Maximum][Float64] = acc(accMaxF64AVX2, accMax[float64], 8, 4)
	accTable[Minimum][Float64] = acc(accMinF64AVX2, accMin[float64], 8, 4)
	extRowsTable[0][Float32] = extRows(accRowsMaxF32AVX2, accMax[float32], 4, 8)
	extRowsTable[1][Float32] = extRows(accRowsMinF32AVX2, accMin[float32], 4, 8)
	extRowsTable[0][Float64] = extRows(accRowsMaxF64AVX2, accMax[float64], 8, 4)
	extRowsTable[1][Float64] = extRows(accRowsMinF64AVX2, accMin[float64], 8, 4)
	extRowsTable[2][Float32] = extRows(accRowsFmaxF32AVX2, accFmax[float32], 4, 8)
	extRowsTable[3][Float32] = extRows(accRowsFminF32AVX2, accFmin[float32], 4, 8)
	extRowsTable[2][Float64] = extRows(accRowsFmaxF64AVX2, accFmax[float64], 8, 4)
	extRowsTable[3][Float64] = extRows(accRowsFminF64AVX2, accFmin[float64], 8, 4)
}

// extRows is a max, min, nanmax or nanmin over rows: the whole vectors of every row in
// assembly (k), the columns after them a row at a time by tail.
func extRows(k func(acc, x unsafe.Pointer, n, rows, stride int), tail func(acc, x unsafe.Pointer, n int), size, lanes int) RowsFunc {
	return func(acc, x unsafe.Pointer, n, rows, stride int) {
		if rows <= 0 || n <= 0 {
			return
		}
		m := n &^ (lanes - 1)
		if m > 0 {
			k(acc, x, m, rows, stride*size)
		}
		if m < n {
			for r := 0; r < rows; r++ {
				tail(unsafe.Add(acc, m*size), unsafe.Add(x, (r*stride+m)*size), n-m)
			}
		}
	}
}

//go:noescape
func accFmaxF32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldFmaxF32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accFmaxF64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldFmaxF64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accFminF32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldFminF32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accFminF64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldFminF64AVX2(acc, x unsafe.Pointer, n int)

// foldNanExtreme is a NaN-ignoring fold (nanmax, nanmin) whose whole blocks
// of four vectors go through k: four vectors of accumulators, started from
// x's first block, take each further block; step then folds the
// accumulators and the rest into acc. The order of the steps does not
// matter: the rule (NaN only when both are, -0 below +0) is commutative
// and associative.
func foldNanExtreme[T float32 | float64](k int, step func(T, T) T) FoldFunc {
	var z T
	size := int(unsafe.Sizeof(z))
	block := 128 / size // four vectors
	return func(acc, x unsafe.Pointer, n int) {
		s := *(*T)(acc)
		if m := n / block * block; m >= 2*block {
			var buf [32]T // four vectors of float32 (float64 uses 16)
			copy(buf[:block], unsafe.Slice((*T)(x), block))
			foldNanKernel(k, unsafe.Pointer(&buf[0]), unsafe.Add(x, block*size), m-block)
			for _, v := range buf[:block] {
				s = step(s, v)
			}
			x, n = unsafe.Add(x, m*size), n-m
		}
		for _, v := range unsafe.Slice((*T)(x), n) {
			s = step(s, v)
		}
		*(*T)(acc) = s
	}
}

// foldNanExtreme's kernels; foldNanKernel calls kernel k statically, so
// that the caller's accumulators stay on its stack (through a func value
// they escaped: an allocation every call, every row of a nanmax along
// rows).
const (
	kFmaxF32 = iota
	kFminF32
	kFmaxF64
	kFminF64
)

func foldNanKernel(k int, acc, x unsafe.Pointer, n int) {
	switch k {
	case kFmaxF32:
		foldFmaxF32AVX2(acc, x, n)
	case kFminF32:
		foldFminF32AVX2(acc, x, n)
	case kFmaxF64:
		foldFmaxF64AVX2(acc, x, n)
	case kFminF64:
		foldFminF64AVX2(acc, x, n)
	}
}

// registerIntRows installs the integer max and min over rows of 1-, 2-
// and 4-byte elements (bool's max and min are uint8's), the columns past
// the whole vectors through the accumulate kernels already installed.
func registerIntRows() {
	for _, c := range []struct {
		t        Type
		max, min func(acc, x unsafe.Pointer, n, rows, stride int)
	}{
		{Bool, accRowsMaxU8AVX2, accRowsMinU8AVX2},
		{Uint8, accRowsMaxU8AVX2, accRowsMinU8AVX2},
		{Int8, accRowsMaxI8AVX2, accRowsMinI8AVX2},
		{Uint16, accRowsMaxU16AVX2, accRowsMinU16AVX2},
		{Int16, accRowsMaxI16AVX2, accRowsMinI16AVX2},
		{Uint32, accRowsMaxU32AVX2, accRowsMinU32AVX2},
		{Int32, accRowsMaxI32AVX2, accRowsMinI32AVX2},
	} {
		sz := c.t.Size()
		extRowsTable[0][c.t] = extRows(c.max, accTable[Maximum][c.t], sz, 32/sz)
		extRowsTable[1][c.t] = extRows(c.min, accTable[Minimum][c.t], sz, 32/sz)
	}
}
