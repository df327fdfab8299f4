package compute

import (
	"fmt"
	"unsafe"

	"github.com/stride0/stride0/internal/half"
)

// ScanFunc runs a cumulative op in place over n rows of lanes contiguous
// elements, the rows stride elements apart: row k becomes row k-1 op row k,
// in order, so each element is the running total up to it (NumPy's
// add.accumulate and multiply.accumulate: one op at a time, rounding after
// each).
type ScanFunc func(p unsafe.Pointer, n, stride, lanes int)

var scanTable [numOps][numTypes]ScanFunc

// LookupScan returns the in-place scan for Add (cumsum) or Mul (cumprod) on
// type t (not bool: NumPy sums bools as int64). float16 is computed in
// float32 and rounded to float16 after each step, as NumPy stores each
// partial result.
func LookupScan(op Op, t Type) (ScanFunc, error) {
	if op >= numOps || t >= numTypes || scanTable[op][t] == nil {
		return nil, fmt.Errorf("compute: no %v scan for %v", op, t)
	}
	return scanTable[op][t], nil
}

func scanAdd[T number](p unsafe.Pointer, n, stride, lanes int) {
	if n < 2 || lanes < 1 {
		return
	}
	x := unsafe.Slice((*T)(p), (n-1)*stride+lanes)
	if lanes == 1 {
		s := x[0]
		for k := 1; k < n; k++ {
			s += x[k*stride]
			x[k*stride] = s
		}
		return
	}
	for k := 1; k < n; k++ {
		prev, row := x[(k-1)*stride:(k-1)*stride+lanes], x[k*stride:k*stride+lanes]
		for i := range row {
			row[i] += prev[i]
		}
	}
}

func scanMul[T number](p unsafe.Pointer, n, stride, lanes int) {
	if n < 2 || lanes < 1 {
		return
	}
	x := unsafe.Slice((*T)(p), (n-1)*stride+lanes)
	if lanes == 1 {
		s := x[0]
		for k := 1; k < n; k++ {
			s *= x[k*stride]
			x[k*stride] = s
		}
		return
	}
	for k := 1; k < n; k++ {
		prev, row := x[(k-1)*stride:(k-1)*stride+lanes], x[k*stride:k*stride+lanes]
		for i := range row {
			row[i] *= prev[i]
		}
	}
}

func scanF16(mul bool) ScanFunc {
	return func(p unsafe.Pointer, n, stride, lanes int) {
		if n < 2 || lanes < 1 {
			return
		}
		x := unsafe.Slice((*uint16)(p), (n-1)*stride+lanes)
		for k := 1; k < n; k++ {
			prev, row := x[(k-1)*stride:(k-1)*stride+lanes], x[k*stride:k*stride+lanes]
			for i := range row {
				a, b := float32(half.ToFloat64(prev[i])), float32(half.ToFloat64(row[i]))
				v := a + b
				if mul {
					v = a * b
				}
				row[i] = half.FromFloat64(float64(v))
			}
		}
	}
}

func regScan[T number](t Type) {
	scanTable[Add][t] = scanAdd[T]
	scanTable[Mul][t] = scanMul[T]
}

func init() { registerScans() }

func registerScans() {
	regScan[int8](Int8)
	regScan[int16](Int16)
	regScan[int32](Int32)
	regScan[int64](Int64)
	regScan[uint8](Uint8)
	regScan[uint16](Uint16)
	regScan[uint32](Uint32)
	regScan[uint64](Uint64)
	regScan[float32](Float32)
	regScan[float64](Float64)
	scanTable[Add][Float16] = scanF16(false)
	scanTable[Mul][Float16] = scanF16(true)
}
