package expr

import (
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// Clip returns x limited to [lo, hi] (numpy.clip): minimum(maximum(x, lo),
// hi), with the three broadcast by NumPy's rule and promoted together (weak
// constants included). A NaN in x or a bound gives NaN; where lo > hi the
// result is hi. A nil bound is no bound (numpy.clip's None): Clip(x, nil,
// hi) is Minimum(x, hi), Clip(x, lo, nil) is Maximum(x, lo), and with both
// nil the result is x itself (numpy.positive: an error wrapping ErrDType
// for bool).
//
// Weak ints beyond x's range, NumPy 2.1 and later (numpy/numpy#26892): when
// x has an integer dtype (not bool), a weak int lo at or below the dtype's
// minimum, or a weak int hi at or above its maximum, bounds nothing and is
// dropped, so the dtype is kept: Clip(u8, Const(-2), Const(300)) is x,
// Clip(u8, Const(-2), Const(12)) is Minimum(u8, Const(12)), uint8. A weak
// int beyond the range on the other side is an error wrapping ErrOverflow,
// as NumPy's OverflowError: Clip(u8, Const(300), nil) and Clip(u8,
// Const(5), Const(-1)) (a lo above the maximum, a hi below the minimum).
// Strong constants, floats and bools are never dropped: Clip(i8,
// Const(-1000.5), Const(1)) computes in float64, as NumPy.
func Clip(x, lo, hi *Node) *Node {
	if err := firstErr("clip", x); err != nil {
		return &Node{kind: kBinary, err: err}
	}
	for _, b := range []*Node{lo, hi} {
		if b != nil && b.Err() != nil {
			return &Node{kind: kBinary, err: b.Err()}
		}
	}
	if dt := x.dtype; dt.IsInteger() {
		if lo != nil && lo.weak == weakInt && lo.wi <= intMin(dt) {
			lo = nil
		}
		if hi != nil && hi.weak == weakInt && intAtOrAboveMax(hi.wi, dt) {
			hi = nil
		}
	}
	switch {
	case lo == nil && hi == nil:
		if x.dtype == array.Bool {
			return &Node{kind: kBinary, err: fmt.Errorf("expr.clip: %w: no bound on a bool operand (numpy.positive has no bool loop)", ErrDType)}
		}
		return strongCopy(x)
	case lo == nil:
		return Minimum(x, hi)
	case hi == nil:
		return Maximum(x, lo)
	}
	dt := promoteWeak(x, lo, hi)
	args := []*Node{x, lo, hi}
	for i, a := range args {
		c, err := a.asDType(dt, "clip")
		if err != nil {
			return &Node{kind: kBinary, err: err}
		}
		if c.dtype != dt {
			// NumPy computes in the three operands' common dtype, which is
			// not the pairwise promotions' (uint8, int8, float16: float16)
			c = Cast(c, dt)
		}
		args[i] = c
	}
	return Minimum(Maximum(args[0], args[1]), args[2])
}

// intMin is the least value of the integer dtype dt.
func intMin(dt array.DType) int64 {
	if dt.IsUnsigned() {
		return 0
	}
	return -1 << (8*dt.Size() - 1)
}

// intAtOrAboveMax reports whether v is at least the greatest value of the
// integer dtype dt (never for uint64, whose maximum is beyond int64).
func intAtOrAboveMax(v int64, dt array.DType) bool {
	bits := 8 * dt.Size()
	if dt.IsUnsigned() {
		return bits < 64 && v >= int64(1)<<bits-1
	}
	return v >= int64(uint64(1)<<(bits-1)-1)
}

// Round rounds x to the given number of decimals (numpy.round), halves to
// even: for floats rint(x * 10**decimals) / 10**decimals, computed in x's
// dtype (so not always the nearest decimal, as in NumPy); a negative
// decimals rounds to tens, hundreds...: rint(x / 10**-d) * 10**-d. Integers
// are kept for decimals >= 0 and rounded through float64 for a negative
// decimals, as NumPy does. bool is not an integer there: decimals 0 is
// rint's float16 result, and any other decimals an error wrapping ErrDType
// (NumPy's multiply or true_divide cannot write its float64 result back
// into a bool array).
func Round(x *Node, decimals int) *Node {
	if err := firstErr("round", x); err != nil {
		return &Node{kind: kBinary, err: err}
	}
	x = strongCopy(x) // a weak constant rounds in its default dtype
	dt := x.dtype
	if dt == array.Bool {
		if decimals == 0 {
			return Rint(x)
		}
		return &Node{kind: kBinary, err: fmt.Errorf("expr.round: %w: bool with decimals %d (NumPy scales it in float64 and cannot cast that back to bool; cast to an integer or float first)", ErrDType, decimals)}
	}
	if !dt.IsFloat() {
		if decimals >= 0 {
			return Cast(x, dt)
		}
		return Cast(Round(Cast(x, array.Float64), decimals), dt)
	}
	if decimals > 400 || decimals < -400 {
		return &Node{kind: kBinary, err: fmt.Errorf("expr.round: %w: decimals %d out of [-400, 400]", ErrArgument, decimals)}
	}
	if decimals >= 0 {
		f := Const(math.Pow(10, float64(decimals)))
		return Div(Rint(Mul(x, f)), f)
	}
	f := Const(math.Pow(10, float64(-decimals)))
	return Mul(Rint(Div(x, f)), f)
}

// strongCopy returns a weak constant as a strong one of its default dtype.
func strongCopy(n *Node) *Node {
	if n.weak == strong {
		return n
	}
	c := *n
	c.weak = strong
	return &c
}
