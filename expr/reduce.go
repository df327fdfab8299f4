package expr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

type reduction uint8

const (
	redSum reduction = iota + 1
	redProd
	redMax
	redMin
	redMean
	redVar
	redStd
	redArgmin
	redArgmax
	redNanMax
	redNanMin
	redCumsum
	redCumprod
	redAny
	redAll
)

func (r reduction) String() string {
	return [...]string{"?", "sum", "prod", "max", "min", "mean", "var", "std", "argmin", "argmax", "nanmax", "nanmin", "cumsum", "cumprod", "any", "all"}[r]
}

// funcName is the exported function that builds r.
func (r reduction) funcName() string {
	switch r {
	case redArgmin:
		return "Argmin"
	case redArgmax:
		return "Argmax"
	case redNanMax:
		return "Nanmax"
	case redNanMin:
		return "Nanmin"
	case redCumsum:
		return "Cumsum"
	case redCumprod:
		return "Cumprod"
	case redAny:
		return "Any"
	case redAll:
		return "All"
	}
	return "Reduce" + strings.ToUpper(r.String()[:1]) + r.String()[1:]
}

// noIdentity reports whether r has no value for an empty axis, so that
// reducing a zero-size axis is an error (NumPy's ValueError).
func (r reduction) noIdentity() bool {
	switch r {
	case redMax, redMin, redNanMax, redNanMin, redArgmax, redArgmin:
		return true
	}
	return false
}

// isScan reports whether r is a cumulative op (the result keeps the
// argument's shape).
func (r reduction) isScan() bool { return r == redCumsum || r == redCumprod }

func (r reduction) op() compute.Op {
	switch r {
	case redProd:
		return compute.Mul
	case redMax, redAny:
		return compute.Maximum
	case redMin, redAll:
		return compute.Minimum
	case redNanMax:
		return compute.Fmax
	case redNanMin:
		return compute.Fmin
	case redCumprod:
		return compute.Mul
	}
	return compute.Add
}

// reduceDType is NumPy's result dtype of a reduction: sum, prod, cumsum and
// cumprod of bool and signed integers give int64, of unsigned integers
// uint64; mean, var and std of bool and integers give float64; argmin and
// argmax give int64; max, min, nanmax and nanmin keep the dtype.
func reduceDType(r reduction, dt array.DType) array.DType {
	switch r {
	case redArgmin, redArgmax:
		return array.Int64
	case redSum, redProd, redCumsum, redCumprod:
		switch {
		case dt == array.Bool || dt.IsSigned():
			return array.Int64
		case dt.IsUnsigned():
			return array.Uint64
		}
	case redMean, redVar, redStd:
		if !dt.IsFloat() {
			return array.Float64
		}
	}
	return dt
}

func reduce(r reduction, x *Node, axes []int, keep bool) *Node {
	n := &Node{kind: kReduce, red: r, args: []*Node{x}, keep: keep}
	name := r.funcName()
	if n.err = firstErr(name, x); n.err != nil {
		return n
	}
	if !x.shape.RankKnown {
		n.err = fmt.Errorf("expr.%s: %w: operand rank is unknown", name, ErrArgument)
		return n
	}
	if err := countErr(x.shape); err != nil {
		n.err = fmt.Errorf("expr.%s: operand shape %v: %w", name, x.shape, err)
		return n
	}
	rank := len(x.shape.Dims)
	norm := make([]int, 0, len(axes))
	for _, a := range axes {
		if a < -rank || a >= rank {
			n.err = fmt.Errorf("expr.%s: axis %d out of range for shape %v: %w", name, a, x.shape, broadcast.ErrAxes)
			return n
		}
		if a < 0 {
			a += rank
		}
		if slices.Contains(norm, a) {
			n.err = fmt.Errorf("expr.%s: axis %d repeated in %v: %w", name, a, axes, broadcast.ErrAxes)
			return n
		}
		norm = append(norm, a)
	}
	if axes == nil {
		for i := 0; i < rank; i++ {
			norm = append(norm, i)
		}
	}
	slices.Sort(norm)
	n.axes = norm
	if r.noIdentity() {
		for _, a := range norm {
			if d := x.shape.Dims[a]; d.IsStatic() && d.Lo == 0 {
				n.err = emptyAxisError(name, a, x.shape)
				return n
			}
		}
	}
	dims := make([]broadcast.Dim, 0, rank)
	for i, d := range x.shape.Dims {
		switch {
		case !slices.Contains(norm, i):
			dims = append(dims, d)
		case keep:
			dims = append(dims, broadcast.StaticDim(1))
		}
	}
	n.shape = broadcast.Shape{Dims: dims, RankKnown: true}
	n.dtype = reduceDType(r, x.dtype)
	n.ctype = n.dtype
	if r == redMax || r == redMin || r == redNanMax || r == redNanMin {
		n.ctype = x.dtype
	}
	return n
}

// emptyAxisError reports a reduction without identity over a zero-size
// axis: NumPy's "zero-size array to reduction operation minimum which has
// no identity" and "attempt to get argmax of an empty sequence".
func emptyAxisError(name string, axis int, shape any) error {
	return fmt.Errorf("expr.%s: %w: axis %d of shape %v has size 0 and the reduction has no identity", name, ErrArgument, axis, shape)
}

// ReduceSum sums x over axes (nil: every axis; negative axes count from the
// end), keeping the reduced axes as size 1 when keepDims is set. NumPy's
// dtypes: bool and signed integers give int64, unsigned give uint64.
func ReduceSum(x *Node, axes []int, keepDims bool) *Node { return reduce(redSum, x, axes, keepDims) }

// ReduceProd multiplies x over axes, with ReduceSum's dtypes. A float
// product is NumPy's running product in index order (float16 and float32
// in float64, rounded once), computed by one worker per output element, so
// its result does not depend on the worker count (see the package doc,
// Accuracy).
func ReduceProd(x *Node, axes []int, keepDims bool) *Node { return reduce(redProd, x, axes, keepDims) }

// ReduceMax takes the maximum over axes (NaN propagates). Reducing an axis
// of size 0 is an error (ErrArgument), as in NumPy: the maximum has no
// identity.
func ReduceMax(x *Node, axes []int, keepDims bool) *Node { return reduce(redMax, x, axes, keepDims) }

// ReduceMin takes the minimum over axes (NaN propagates); an axis of size
// 0 is an error, as for ReduceMax.
func ReduceMin(x *Node, axes []int, keepDims bool) *Node { return reduce(redMin, x, axes, keepDims) }

// ReduceMean averages x over axes; integers give float64. Nulls are left
// out of both the sum and the count; an empty axis, or one with no valid
// element, gives NaN.
func ReduceMean(x *Node, axes []int, keepDims bool) *Node { return reduce(redMean, x, axes, keepDims) }

// ReduceTo is the adjoint of NumPy broadcasting: it sums x (for example a
// gradient of a broadcast result) over every axis that broadcasting shape to
// x's shape created or stretched, and returns an array of exactly shape, in
// x's dtype. shape must broadcast to x's shape one-directionally.
func ReduceTo(x *Node, shape []int) *Node {
	n := &Node{kind: kReduce, red: redSum, args: []*Node{x}, reshap: clone(shape)}
	if n.reshap == nil {
		n.reshap = []int{}
	}
	if n.err = firstErr("ReduceTo", x); n.err != nil {
		return n
	}
	if err := countErr(x.shape); err != nil {
		n.err = fmt.Errorf("expr.ReduceTo: operand shape %v: %w", x.shape, err)
		return n
	}
	// With a partial operand shape the axes are found at evaluation.
	if xs, ok := x.shape.Static(); ok {
		axes, err := broadcast.ReduceTo(xs, shape)
		if err != nil {
			n.err = fmt.Errorf("expr.ReduceTo: %w", err)
			return n
		}
		n.axes = axes
	}
	n.keep = true
	n.shape = broadcast.StaticShape(shape...)
	n.dtype = x.dtype
	n.ctype = reduceDType(redSum, x.dtype)
	return n.checkCount("ReduceTo")
}

// ReduceAxes sums x over the given output axes of a broadcast: the adjoint
// of nGraph's Broadcast(arg, shape, broadcast_axes) is
// ReduceAxes(delta, broadcast_axes), in delta's dtype.
func ReduceAxes(x *Node, broadcastAxes []int) *Node {
	n := reduce(redSum, x, broadcastAxes, false)
	if n.err == nil {
		n.ctype = n.dtype
		n.dtype = x.dtype
	}
	return n
}
