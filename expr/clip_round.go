package expr

import (
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// Clip returns x limited to [lo, hi] (numpy.clip): minimum(maximum(x, lo),
// hi), with the three broadcast by NumPy's rule and promoted together (weak
// constants included). A NaN in x or a bound gives NaN; where lo > hi the
// result is hi.
func Clip(x, lo, hi *Node) *Node {
	if err := firstErr("clip", x, lo, hi); err != nil {
		return &Node{kind: kBinary, err: err}
	}
	dt := promoteWeak(x, lo, hi)
	args := []*Node{x, lo, hi}
	for i, a := range args {
		c, err := a.asDType(dt, "clip")
		if err != nil {
			return &Node{kind: kBinary, err: err}
		}
		args[i] = c
	}
	return Minimum(Maximum(args[0], args[1]), args[2])
}

// Round rounds x to the given number of decimals (numpy.round), halves to
// even: for floats rint(x * 10**decimals) / 10**decimals, computed in x's
// dtype (so not always the nearest decimal, as in NumPy); a negative
// decimals rounds to tens, hundreds...: rint(x / 10**-d) * 10**-d. Integers
// (and bool) are kept for decimals >= 0 and rounded through float64 for a
// negative decimals, as NumPy does.
func Round(x *Node, decimals int) *Node {
	if err := firstErr("round", x); err != nil {
		return &Node{kind: kBinary, err: err}
	}
	x = strongCopy(x) // a weak constant rounds in its default dtype
	dt := x.dtype
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
