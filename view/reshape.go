package view

import (
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// Reshape returns a view of a with another shape of the same element count,
// its elements in the same row-major order. One dim may be -1: it is
// inferred from the others (it must divide evenly, and the others must not
// hold zero elements).
//
// Reshape never copies. The view exists whenever the strides allow it: the
// input axes merged into one output axis must be laid out one after the other
// (stride[k] == dim[k+1] * stride[k+1]), while splitting an axis and adding or
// removing axes of size 1 always work, whatever the strides; this is NumPy's
// no-copy reshape (_attempt_nocopy_reshape). So a transposed, sliced,
// reversed or broadcast input can often be reshaped in place, and a
// contiguous one always can. Otherwise the error wraps ErrCopyRequired; copy
// with array.Copy and reshape the copy if that is what you want.
func Reshape(a *array.Array, shape ...int) (*array.Array, error) {
	const op = "view.Reshape"
	if err := check(op, a); err != nil {
		return nil, err
	}
	in := a.Shape()
	out, err := inferShape(in, a.Len(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s %v to %v: %w", op, in, shape, err)
	}
	if a.Len() == 0 {
		// No element to reach: any strides do.
		return view(op, a, out, array.ContiguousStrides(out), a.Offset())
	}
	inStrides := a.Strides()
	st, bad := noCopyStrides(in, inStrides, out)
	if st == nil {
		return nil, fmt.Errorf("%s %v (strides %v) to %v: axes %d and %d (strides %d and %d) would merge but are not laid out one after the other: %w",
			op, in, inStrides, out, bad[0], bad[1], inStrides[bad[0]], inStrides[bad[1]], ErrCopyRequired)
	}
	return view(op, a, out, st, a.Offset())
}

// inferShape checks shape against n elements and fills in its -1.
func inferShape(in []int, n int, shape []int) ([]int, error) {
	out := make([]int, len(shape))
	copy(out, shape)
	unknown := -1
	known := 1 // product of the other dims, saturated at MaxInt
	for i, d := range out {
		switch {
		case d == -1 && unknown >= 0:
			return nil, fmt.Errorf("dims %d and %d are both -1: %w", unknown, i, ErrShape)
		case d == -1:
			unknown = i
		case d < 0:
			return nil, fmt.Errorf("dim %d is negative (%d): %w", i, d, ErrShape)
		case d == 0:
			known = 0
		case known > math.MaxInt/d:
			known = math.MaxInt // more than any array holds
		default:
			known *= d
		}
	}
	if unknown >= 0 {
		if known == 0 {
			return nil, fmt.Errorf("cannot infer dim %d: the other dims hold no element: %w", unknown, ErrShape)
		}
		if n%known != 0 {
			return nil, fmt.Errorf("cannot infer dim %d: %d elements do not divide by %d: %w", unknown, n, known, ErrShape)
		}
		out[unknown] = n / known
		known = n
	}
	if known != n {
		return nil, fmt.Errorf("%d elements cannot take a shape of %v: %w", n, out, ErrShape)
	}
	return out, nil
}

// noCopyStrides returns strides that lay out the shape out over the elements
// of (in, inStrides) in row-major order, or nil if there are none. in and out
// hold the same, non-zero, number of elements. It is NumPy's
// _attempt_nocopy_reshape for C order: drop the size-1 input axes, then walk
// both shapes in groups of axes with equal products; a group of input axes
// must be mergeable (each stride equal to the next dim times the next
// stride), and the output axes of the group get the strides of a row-major
// split of the merged axis. Output axes left over are 1s. When there are no
// such strides, bad holds the two input axes that cannot merge.
func noCopyStrides(in, inStrides, out []int) (strides []int, bad [2]int) {
	var od, os, oa []int // input dims, strides and axes without the 1s
	for i, d := range in {
		if d != 1 {
			od = append(od, d)
			os = append(os, inStrides[i])
			oa = append(oa, i)
		}
	}
	st := make([]int, len(out))
	ni, nj := 0, 1 // the current output group is out[ni:nj]
	oi, oj := 0, 1 // the current input group is od[oi:oj]
	for ni < len(out) && oi < len(od) {
		np, op := out[ni], od[oi]
		for np != op {
			if np < op {
				np *= out[nj]
				nj++
			} else {
				op *= od[oj]
				oj++
			}
		}
		for k := oi; k < oj-1; k++ {
			if os[k] != od[k+1]*os[k+1] {
				return nil, [2]int{oa[k], oa[k+1]}
			}
		}
		st[nj-1] = os[oj-1]
		for k := nj - 1; k > ni; k-- {
			st[k-1] = st[k] * out[k]
		}
		ni, nj = nj, nj+1
		oi, oj = oj, oj+1
	}
	last := 1
	if ni > 0 {
		last = st[ni-1]
	}
	for k := ni; k < len(out); k++ {
		st[k] = last
	}
	return st, bad
}
