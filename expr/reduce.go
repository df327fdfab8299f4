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
)

func (r reduction) String() string {
	return [...]string{"?", "sum", "prod", "max", "min", "mean"}[r]
}

func (r reduction) op() compute.Op {
	switch r {
	case redProd:
		return compute.Mul
	case redMax:
		return compute.Maximum
	case redMin:
		return compute.Minimum
	}
	return compute.Add
}

// reduceDType is NumPy's result dtype of a reduction: sum and prod of bool and
// signed integers give int64, of unsigned integers uint64; mean of integers
// gives float64; max and min keep the dtype.
func reduceDType(r reduction, dt array.DType) array.DType {
	switch r {
	case redSum, redProd:
		switch {
		case dt == array.Bool || dt.IsSigned():
			return array.Int64
		case dt.IsUnsigned():
			return array.Uint64
		}
	case redMean:
		if !dt.IsFloat() {
			return array.Float64
		}
	}
	return dt
}

func reduce(r reduction, x *Node, axes []int, keep bool) *Node {
	n := &Node{kind: kReduce, red: r, args: []*Node{x}, keep: keep}
	name := "Reduce" + strings.ToUpper(r.String()[:1]) + r.String()[1:]
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
	if r == redMax || r == redMin {
		n.ctype = x.dtype
	}
	return n
}

// ReduceSum sums x over axes (nil: every axis; negative axes count from the
// end), keeping the reduced axes as size 1 when keepDims is set. NumPy's
// dtypes: bool and signed integers give int64, unsigned give uint64.
func ReduceSum(x *Node, axes []int, keepDims bool) *Node { return reduce(redSum, x, axes, keepDims) }

// ReduceProd multiplies x over axes, with ReduceSum's dtypes.
func ReduceProd(x *Node, axes []int, keepDims bool) *Node { return reduce(redProd, x, axes, keepDims) }

// ReduceMax takes the maximum over axes (NaN propagates; an empty axis gives
// the lowest value of the dtype, -Inf for floats).
func ReduceMax(x *Node, axes []int, keepDims bool) *Node { return reduce(redMax, x, axes, keepDims) }

// ReduceMin takes the minimum over axes (an empty axis gives the highest
// value, +Inf for floats).
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
