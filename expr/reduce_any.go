package expr

import (
	"fmt"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// flipCmp is the comparison with its operands swapped (c op x = x flip c).
var flipCmp = map[compute.Op]compute.Op{
	compute.Greater: compute.Less, compute.GreaterEqual: compute.LessEqual,
	compute.Less: compute.Greater, compute.LessEqual: compute.GreaterEqual,
	compute.Equal: compute.Equal, compute.NotEqual: compute.NotEqual,
}

// anyCompare evaluates any(x op c) into one bool, fused
// (compute.AnyCompare: one read of x, no bool array, a stop at the first
// true element), when it has that form: Any over every element of a
// comparison between a contiguous float32 or float64 array without nulls
// and a scalar of the same type (either side). ok is false otherwise, and
// the general reduction runs.
func (ev *evaluation) anyCompare(r *rnode, dst *array.Array) (out *array.Array, ok bool, err error) {
	if r.n.red != redAny || size(r.shape) != 1 || len(r.args) != 1 {
		return nil, false, nil
	}
	cmp := r.args[0]
	if cmp.isLeaf() || cmp.n.kind != kBinary || len(cmp.args) != 2 {
		return nil, false, nil
	}
	op, known := flipCmp[cmp.n.op]
	if !known {
		return nil, false, nil
	}
	op = cmp.n.op
	x, c := cmp.args[0], cmp.args[1]
	if c.arr == nil || c.arr.Len() != 1 {
		x, c = c, x
		op = flipCmp[op]
	}
	ct := cmp.ctype
	if (ct != array.Float32 && ct != array.Float64) || x.arr == nil || c.arr == nil || c.arr.Len() != 1 ||
		x.arr.DType() != ct || c.arr.DType() != ct || !x.arr.IsContiguous() || x.arr.HasNulls() || c.arr.HasNulls() ||
		x.arr.Len() != size(cmp.shape) || x.arr.Len() == 0 {
		return nil, false, nil
	}
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, true, err
		}
	}
	if ev.describePass(r, fmt.Sprintf("fused any(x %v c) of %v values: one read, no bool array, stops at the first true element", op, ct), dst) {
		return nil, true, nil
	}
	sz := ct.Size()
	xp := unsafe.Add(x.arr.DataPointer(), x.arr.Offset()*sz)
	cp := unsafe.Add(c.arr.DataPointer(), c.arr.Offset()*sz)
	found, supported := compute.AnyCompare(op, compute.Type(ct), xp, x.arr.Len(), cp)
	if !supported {
		return nil, false, nil
	}
	out = dst
	if out == nil {
		if out, err = ev.newOutput(array.Bool, r.shape); err != nil {
			return nil, true, err
		}
	}
	if err := array.Set(out, found, make([]int, len(r.shape))...); err != nil {
		if dst == nil {
			out.Release()
		}
		return nil, true, err
	}
	return out, true, nil
}
