package expr

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

// Cumsum returns the running sums of x along one axis (axes holds exactly
// one axis, negative counting from the end), or of the flattened array in C
// order when axes is nil, as numpy.cumsum: the result has x's shape (or
// [size] flattened). Lazy: the shape is known when built. NumPy 2's
// dtypes: bool and signed integers give int64, unsigned integers uint64,
// floats keep their dtype; each partial sum is rounded to the result dtype
// in turn (float16 too), integers wrap. Nulls (Arrow's skip_nulls): a null
// element is null in the result and does not change the running total.
func Cumsum(x *Node, axes []int) *Node { return scan(redCumsum, x, axes) }

// Cumprod is Cumsum for running products (numpy.cumprod).
func Cumprod(x *Node, axes []int) *Node { return scan(redCumprod, x, axes) }

func scan(r reduction, x *Node, axes []int) *Node {
	n := &Node{kind: kReduce, red: r, args: []*Node{x}}
	name := r.funcName()
	if n.err = firstErr(name, x); n.err != nil {
		return n
	}
	if !x.shape.RankKnown {
		n.err = fmt.Errorf("expr.%s: %w: operand rank is unknown", name, ErrArgument)
		return n
	}
	if x.dtype == array.Invalid {
		n.err = fmt.Errorf("expr.%s: %w: %v", name, ErrDType, x.dtype)
		return n
	}
	rank := len(x.shape.Dims)
	switch {
	case axes == nil:
		n.flat = true
		d := broadcast.UnknownDim()
		if s, ok := x.shape.Static(); ok {
			d = broadcast.StaticDim(size(s))
		}
		n.shape = broadcast.Shape{Dims: []broadcast.Dim{d}, RankKnown: true}
	case len(axes) != 1:
		n.err = fmt.Errorf("expr.%s: %w: takes one axis or nil (flattened), got %v", name, broadcast.ErrAxes, axes)
		return n
	case axes[0] < -rank || axes[0] >= rank:
		n.err = fmt.Errorf("expr.%s: axis %d out of range for shape %v: %w", name, axes[0], x.shape, broadcast.ErrAxes)
		return n
	default:
		a := axes[0]
		if a < 0 {
			a += rank
		}
		n.axes = []int{a}
		n.shape = broadcast.Shape{Dims: slices.Clone(x.shape.Dims), RankKnown: true}
	}
	n.dtype = reduceDType(r, x.dtype)
	n.ctype = n.dtype
	return n
}

// scan evaluates Cumsum and Cumprod: the argument is converted into the
// result (one fused pass, which also writes the validity), null slots are
// set to the op's identity, and the running totals are made in place,
// row by row along the axis (whole rows at a time when the axis is not the
// innermost).
func (ev *evaluation) scan(r *rnode, dst *array.Array) (*array.Array, error) {
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	op := r.n.red.op()
	kern, err := compute.LookupScan(op, compute.Type(r.dtype))
	if err != nil {
		return nil, err
	}
	arg := r.args[0]
	if ev.describePass(r, fmt.Sprintf("%v: the operand converted into the result, then running totals in place", r.n.red), dst) {
		return nil, nil
	}
	out := dst
	if out == nil || !out.IsContiguous() {
		if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*array.Array, error) {
		if out != dst {
			out.Release()
		}
		return nil, err
	}
	if hasNulls(arg) {
		// on out itself: a mask added to the reshaped view below would be
		// the view's alone
		if err := out.EnsureValidity(); err != nil {
			return fail(err)
		}
	}
	// the operand, converted, in the argument's shape
	in, err := out.Reshaped(arg.shape...)
	if err != nil {
		return fail(err)
	}
	cp := &rnode{n: &Node{kind: kCast, dtype: r.dtype, ctype: r.dtype, args: []*Node{arg.n}}, shape: arg.shape, dtype: r.dtype, ctype: r.dtype,
		args: []*rnode{arg}, maps: []broadcast.AxisMap{identityMap(len(arg.shape))}}
	if err = ev.hoist(cp, false); err == nil {
		_, err = ev.elementwise(cp, in)
	}
	in.Release()
	if err != nil {
		return fail(err)
	}
	n := out.Len()
	if n > 0 {
		base := unsafe.Add(out.DataPointer(), out.Offset()*r.dtype.Size())
		if out.HasNulls() && op == compute.Mul {
			one := identity(redProd, r.dtype)
			sz := r.dtype.Size()
			m := unsafe.Slice((*byte)(unsafe.Add(out.ValidityPointer(), out.Offset())), n)
			for i, ok := range m {
				if ok == 0 {
					copy(unsafe.Slice((*byte)(unsafe.Add(base, i*sz)), sz), one[:sz])
				}
			}
		}
		outer, length, inner := 1, n, 1
		if !r.n.flat {
			a := r.n.axes[0]
			for i, d := range arg.shape {
				switch {
				case i < a:
					outer *= d
				case i > a:
					inner *= d
				}
			}
			length = arg.shape[a]
		}
		sz := r.dtype.Size()
		chunk := max(inner, 1)
		if outer < ev.o.workers && inner >= 2048 {
			chunk = (inner + ev.o.workers - 1) / ev.o.workers
		}
		nChunks := (inner + chunk - 1) / chunk
		split(outer*nChunks, length*chunk, ev.o.workers, func(lo, hi int) {
			for u := lo; u < hi; u++ {
				o, l0 := u/nChunks, u%nChunks*chunk
				kern(unsafe.Add(base, (o*length*inner+l0)*sz), length, inner, min(chunk, inner-l0))
			}
		})
	}
	if out != dst && dst != nil {
		defer out.Release()
		cp := &rnode{n: &Node{kind: kCast, dtype: r.dtype, ctype: r.dtype, args: []*Node{r.n}}, shape: r.shape, dtype: r.dtype, ctype: r.dtype,
			args: []*rnode{{n: r.n, shape: r.shape, arr: out, dtype: r.dtype, ctype: r.dtype}},
			maps: []broadcast.AxisMap{identityMap(len(r.shape))}}
		return ev.elementwise(cp, dst)
	}
	return out, nil
}

// hasNulls reports whether any leaf under r has a validity mask.
func hasNulls(r *rnode) bool {
	if r.isLeaf() {
		return r.arr.HasNulls()
	}
	for _, a := range r.args {
		if hasNulls(a) {
			return true
		}
	}
	return false
}
