package view

import (
	"fmt"

	"github.com/stride0/stride0/array"
)

// Transpose returns a view of a with its axes permuted: output axis k is
// input axis perm[k] (negative entries count from the end). With no perm the
// axes are reversed, as numpy.transpose does; a perm must name every axis
// exactly once.
func Transpose(a *array.Array, perm ...int) (*array.Array, error) {
	const op = "view.Transpose"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	r := len(shape)
	if len(perm) == 0 {
		perm = make([]int, r)
		for k := range perm {
			perm[k] = r - 1 - k
		}
	}
	if len(perm) != r {
		return nil, fmt.Errorf("%s %v by %v: %d axes for rank %d: %w", op, shape, perm, len(perm), r, ErrAxis)
	}
	seen := make([]bool, r)
	ns, nst := make([]int, r), make([]int, r)
	for k, p := range perm {
		ax, ok := normAxis(p, r)
		if !ok {
			return nil, fmt.Errorf("%s %v by %v: axis %d out of range for rank %d: %w", op, shape, perm, p, r, ErrAxis)
		}
		if seen[ax] {
			return nil, fmt.Errorf("%s %v by %v: axis %d repeated: %w", op, shape, perm, p, ErrAxis)
		}
		seen[ax] = true
		ns[k], nst[k] = shape[ax], strides[ax]
	}
	return view(op, a, ns, nst, a.Offset())
}
