package view

import (
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// Tile returns numpy.tile(a, reps) as a view, when one exists. reps is
// padded with leading 1s to a's rank, and a with leading axes of size 1 to
// len(reps); output axis k then has size dim[k]*reps[k], made of reps[k]
// copies of the input axis one after the other.
//
// As broadcast_to does, the view repeats through stride 0, so it exists
// when every repeated axis has size 1 (tile([[1], [2]], 3) is the columns
// replicated), when reps[k] is 1, or when the result is empty. Otherwise
// (tile([1, 2], 2) is [1 2 1 2]) no strides express the result and the
// error wraps ErrCopyRequired: expr.Tile evaluates any tile, reading the
// input through TileExpanded. A negative rep is an error wrapping ErrShape.
func Tile(a *array.Array, reps ...int) (*array.Array, error) {
	const op = "view.Tile"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, _, err := TileShape(a.Shape(), reps)
	if err != nil {
		return nil, fmt.Errorf("%s %v by %v: %w", op, a.Shape(), reps, err)
	}
	in := padLeftOnes(a.Shape(), len(shape))
	st := padLeft(a.Strides(), len(shape))
	out := make([]int, len(shape))
	empty := false
	for k, d := range shape {
		if d == 0 {
			empty = true
		}
		switch {
		case in[k] == d: // reps 1
			out[k] = st[k]
		case in[k] == 1:
			out[k] = 0
		}
	}
	if empty {
		return view(op, a, shape, array.ContiguousStrides(shape), a.Offset())
	}
	for k, d := range shape {
		if in[k] != d && in[k] != 1 {
			return nil, fmt.Errorf("%s %v by %v: axis %d of size %d repeated %d times needs a copy: %w", op, a.Shape(), reps, k, in[k], d/in[k], ErrCopyRequired)
		}
	}
	return view(op, a, shape, out, a.Offset())
}

// TileShape returns the shape of numpy.tile over an input of shape in, and
// the reps padded to its rank. A negative rep is an error wrapping ErrShape.
func TileShape(in, reps []int) (shape, padded []int, err error) {
	r := max(len(in), len(reps))
	padded = padLeftOnes(reps, r)
	x := padLeftOnes(in, r)
	shape = make([]int, r)
	for k := range shape {
		if padded[k] < 0 {
			return nil, nil, fmt.Errorf("rep %d is negative (%d): %w", k, padded[k], ErrShape)
		}
		if padded[k] != 0 && x[k] > maxDim/padded[k] {
			return nil, nil, fmt.Errorf("axis %d: %d × %d elements overflow: %w", k, x[k], padded[k], ErrShape)
		}
		shape[k] = x[k] * padded[k]
	}
	if err := boundedSize(shape); err != nil {
		return nil, nil, err
	}
	return shape, padded, nil
}

// boundedSize checks that shape holds at most maxDim elements.
func boundedSize(shape []int) error {
	n := 1
	for _, d := range shape {
		if d == 0 {
			return nil
		}
	}
	for _, d := range shape {
		if n > maxDim/d {
			return fmt.Errorf("%v holds more than 2^48 elements: %w", shape, ErrShape)
		}
		n *= d
	}
	return nil
}

// TileExpanded returns the view of a that numpy.tile(a, reps) reads, one
// rank above the result per axis: shape [reps0, dim0, reps1, dim1, ...]
// with stride 0 on the reps axes. A contiguous result reshaped to that
// shape and filled from this view holds the tile, whatever a's layout.
func TileExpanded(a *array.Array, reps ...int) (*array.Array, error) {
	const op = "view.TileExpanded"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, padded, err := TileShape(a.Shape(), reps)
	if err != nil {
		return nil, fmt.Errorf("%s %v by %v: %w", op, a.Shape(), reps, err)
	}
	in := padLeftOnes(a.Shape(), len(shape))
	st := padLeft(a.Strides(), len(shape))
	es, est := make([]int, 0, 2*len(shape)), make([]int, 0, 2*len(shape))
	for k := range shape {
		es = append(es, padded[k], in[k])
		est = append(est, 0, st[k])
	}
	if a.Len() == 0 {
		est = array.ContiguousStrides(es)
	}
	return view(op, a, es, est, a.Offset())
}

// Repeat returns numpy.repeat(a, repeats, axis) as a view, when one exists:
// each element along axis is repeated repeats times in a row (negative axis
// counts from the end). The view exists when the axis has size 1 (stride
// 0 repeats it), when repeats is 1, or when the result is empty; otherwise
// the error wraps ErrCopyRequired (expr.Repeat evaluates any repeat,
// reading RepeatExpanded). A negative repeats is an error wrapping ErrShape.
func Repeat(a *array.Array, repeats, axis int) (*array.Array, error) {
	const op = "view.Repeat"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	ax, err := repeatAxis(shape, repeats, axis)
	if err != nil {
		return nil, fmt.Errorf("%s %v by %d along %d: %w", op, shape, repeats, axis, err)
	}
	d := shape[ax]
	shape[ax] = d * repeats
	if a.Len() == 0 || repeats == 0 {
		return view(op, a, shape, array.ContiguousStrides(shape), a.Offset())
	}
	switch {
	case repeats == 1:
	case d == 1:
		strides[ax] = 0
	default:
		return nil, fmt.Errorf("%s %v by %d along axis %d of size %d needs a copy: %w", op, a.Shape(), repeats, ax, d, ErrCopyRequired)
	}
	return view(op, a, shape, strides, a.Offset())
}

// RepeatExpanded returns the view of a that numpy.repeat(a, repeats, axis)
// reads: an axis of size repeats with stride 0 inserted after axis. A
// contiguous result reshaped to its shape and filled from it holds the
// repeat.
func RepeatExpanded(a *array.Array, repeats, axis int) (*array.Array, error) {
	const op = "view.RepeatExpanded"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	ax, err := repeatAxis(shape, repeats, axis)
	if err != nil {
		return nil, fmt.Errorf("%s %v by %d along %d: %w", op, shape, repeats, axis, err)
	}
	es := append(append(append([]int{}, shape[:ax+1]...), repeats), shape[ax+1:]...)
	est := append(append(append([]int{}, strides[:ax+1]...), 0), strides[ax+1:]...)
	if a.Len() == 0 || repeats == 0 {
		est = array.ContiguousStrides(es)
	}
	return view(op, a, es, est, a.Offset())
}

// maxDim bounds a dim computed from user input (the element count of any
// array is far below it): 2^48, or the largest int where int has 32 bits.
const maxDim = min(1<<48, math.MaxInt)

func repeatAxis(shape []int, repeats, axis int) (int, error) {
	ax, ok := normAxis(axis, len(shape))
	if !ok {
		return 0, fmt.Errorf("axis %d out of range for rank %d: %w", axis, len(shape), ErrAxis)
	}
	if repeats < 0 {
		return 0, fmt.Errorf("repeats is negative (%d): %w", repeats, ErrShape)
	}
	if repeats != 0 && shape[ax] > maxDim/repeats {
		return 0, fmt.Errorf("%d × %d elements overflow: %w", shape[ax], repeats, ErrShape)
	}
	out := append([]int{}, shape...)
	out[ax] *= repeats
	return ax, boundedSize(out)
}

// padLeftOnes returns s with leading 1s up to rank r.
func padLeftOnes(s []int, r int) []int {
	out := make([]int, r)
	for i := range out {
		out[i] = 1
	}
	copy(out[r-len(s):], s)
	return out
}

// padLeft returns s with leading 0s up to rank r (strides of new axes).
func padLeft(s []int, r int) []int {
	out := make([]int, r)
	copy(out[r-len(s):], s)
	return out
}
