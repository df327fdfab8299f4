package compute

import (
	"math"
	"unsafe"
)

// accMulWidenVec, where the build has it, is accMulWiden on whole blocks of
// 8 (castvec_amd64.s).
var accMulWidenVec func(acc, x unsafe.Pointer, n int)

// LookupAccumulateWiden returns the accumulating step of op into
// accumulators of type acc from values of type x with the cast between
// them fused in: acc[i] = acc[i] op acc(x[i]), what casting x to acc and
// then LookupAccumulate(op, acc) give, bit for bit, without the tile of
// cast values between them. ok is false where there is none: so far the
// product of float32 values in float64 (a float32 product's accumulators).
func LookupAccumulateWiden(op Op, acc, x Type) (AccumulateFunc, bool) {
	if op == Mul && acc == Float64 && x == Float32 {
		return accMulWiden, true
	}
	return nil, false
}

// accMulWiden is acc[i] *= float64(x[i]) for float32 x, the whole blocks of
// 8 by the vector kernel where the build has one.
func accMulWiden(acc, x unsafe.Pointer, n int) {
	done := 0
	if v := accMulWidenVec; v != nil && n >= 8 {
		done = n &^ 7
		v(acc, x, done)
	}
	if done < n {
		a := unsafe.Slice((*float64)(acc), n)[done:]
		for i, s := range unsafe.Slice((*float32)(x), n)[done:] {
			if v := a[i]; v != v {
				// the accumulator's NaN, quieted, whatever x is: the vector
				// kernels' (and vek's) multiply takes the first operand's
				// NaN of two, which Go's operand order does not promise
				a[i] = math.Float64frombits(math.Float64bits(v) | 1<<51)
				continue
			}
			a[i] *= float64(s)
		}
	}
}
