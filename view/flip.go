package view

import (
	"fmt"

	"github.com/stride0/stride0/array"
)

// Flip returns a view of a with the order of its elements reversed along
// the given axes (negative axes count from the end), or along every axis
// when none is given, as numpy.flip does. The view negates the axes'
// strides and moves the offset to their last element; nothing is copied.
// An axis may not repeat.
func Flip(a *array.Array, axes ...int) (*array.Array, error) {
	const op = "view.Flip"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	r := len(shape)
	flip := make([]bool, r)
	if len(axes) == 0 {
		for i := range flip {
			flip[i] = true
		}
	}
	for _, ax := range axes {
		k, ok := normAxis(ax, r)
		if !ok {
			return nil, fmt.Errorf("%s %v along %v: axis %d out of range for rank %d: %w", op, shape, axes, ax, r, ErrAxis)
		}
		if flip[k] {
			return nil, fmt.Errorf("%s %v along %v: axis %d repeated: %w", op, shape, axes, ax, ErrAxis)
		}
		flip[k] = true
	}
	off := a.Offset()
	if a.Len() == 0 {
		return view(op, a, shape, strides, off)
	}
	for k, f := range flip {
		if f {
			off += (shape[k] - 1) * strides[k]
			strides[k] = -strides[k]
		}
	}
	return view(op, a, shape, strides, off)
}
