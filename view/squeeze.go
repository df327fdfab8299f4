package view

import (
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// ExpandDims returns a view of a with a new axis of size 1 at position axis of
// the result (numpy.expand_dims): 0 puts it first, a.Rank() last, and a
// negative axis counts from the end of the result, so -1 is last too.
func ExpandDims(a *array.Array, axis int) (*array.Array, error) {
	const op = "view.ExpandDims"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	r := len(shape)
	ax, ok := normAxis(axis, r+1)
	if !ok {
		return nil, fmt.Errorf("%s %v at axis %d: out of range for rank %d: %w", op, shape, axis, r+1, ErrAxis)
	}
	// Any stride fits an axis of size 1; take the one a row-major layout of
	// the axes after it would give, so a contiguous input stays contiguous
	// in every sense.
	s := 1
	if ax < r {
		d := max(shape[ax], 1)
		s = strides[ax]
		if s > math.MaxInt/d || s < math.MinInt/d {
			s = 0
		} else {
			s *= d
		}
	}
	ns := append(append(append(make([]int, 0, r+1), shape[:ax]...), 1), shape[ax:]...)
	nst := append(append(append(make([]int, 0, r+1), strides[:ax]...), s), strides[ax:]...)
	return view(op, a, ns, nst, a.Offset())
}

// Squeeze returns a view of a without the given axes, each of which must
// have size 1 (negative axes count from the end; an axis may not repeat).
// With no axes (nil or empty) it removes every axis of size 1, as
// numpy.squeeze does.
func Squeeze(a *array.Array, axes ...int) (*array.Array, error) {
	const op = "view.Squeeze"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	r := len(shape)
	drop := make([]bool, r)
	if len(axes) == 0 {
		for k, d := range shape {
			drop[k] = d == 1
		}
	}
	for _, axis := range axes {
		k, ok := normAxis(axis, r)
		switch {
		case !ok:
			return nil, fmt.Errorf("%s %v axes %v: axis %d out of range for rank %d: %w", op, shape, axes, axis, r, ErrAxis)
		case drop[k]:
			return nil, fmt.Errorf("%s %v axes %v: axis %d repeated: %w", op, shape, axes, axis, ErrAxis)
		case shape[k] != 1:
			return nil, fmt.Errorf("%s %v axes %v: axis %d has size %d, not 1: %w", op, shape, axes, axis, shape[k], ErrAxis)
		}
		drop[k] = true
	}
	ns, nst := make([]int, 0, r), make([]int, 0, r)
	for k := range shape {
		if !drop[k] {
			ns, nst = append(ns, shape[k]), append(nst, strides[k])
		}
	}
	return view(op, a, ns, nst, a.Offset())
}
