package view

import (
	"errors"
	"fmt"

	"github.com/stride0/stride0/array"
)

// Sentinel errors of the package; test with errors.Is.
var (
	// ErrAxis: an axis out of range or repeated, a permutation that is not
	// one, more slice ranges than axes, or squeezing an axis whose size is
	// not 1.
	ErrAxis = errors.New("invalid axis")
	// ErrShape: a reshape to a shape with another element count, a negative
	// dim, more than one -1, or a -1 that cannot be inferred.
	ErrShape = errors.New("invalid shape")
	// ErrRange: a slice step of 0 or an index out of range.
	ErrRange = errors.New("invalid range")
	// ErrCopyRequired: the strides of the input do not allow the requested
	// view without copying the elements (see Reshape).
	ErrCopyRequired = errors.New("view impossible without a copy")
)

// check returns the error for an unusable input, naming the function.
func check(op string, a *array.Array) error {
	if err := array.Check(a); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// normAxis maps an axis in [-n, n) to [0, n).
func normAxis(axis, n int) (int, bool) {
	if axis < -n || axis >= n {
		return 0, false
	}
	if axis < 0 {
		axis += n
	}
	return axis, true
}

// view makes the header, naming op if that fails (it cannot when the caller
// derived shape, strides and offset from a's correctly).
func view(op string, a *array.Array, shape, strides []int, offset int) (*array.Array, error) {
	v, err := a.View(shape, strides, offset)
	if err != nil {
		return nil, fmt.Errorf("%s %v: %w", op, a.Shape(), err)
	}
	return v, nil
}
