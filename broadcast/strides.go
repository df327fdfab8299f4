package broadcast

import "math"

// Strides returns the output-space strides of a view of an input of shape
// in and strides inStrides, broadcast to out through m: a mapped axis keeps
// its stride unless its dim is 1 and the output's is not (then 0); output
// axes no input axis lands on get 0; -1 entries of m are ignored. Strides
// are in whatever unit inStrides uses and may be negative.
func Strides(in, inStrides, out []int, m AxisMap) ([]int, error) {
	const rule = "strides"
	if err := checkMap(rule, in, out, m); err != nil {
		return nil, err
	}
	if len(inStrides) != len(in) {
		return nil, newError(rule, [][]int{in, out}, axesOrEmpty(m), -1, ErrShape,
			"%d strides %v for an input of rank %d", len(inStrides), inStrides, len(in))
	}
	s := make([]int, len(out))
	for i, o := range m {
		if o < 0 || in[i] == 1 && out[o] != 1 {
			continue
		}
		s[o] = inStrides[i]
	}
	return s, nil
}

// Size returns the number of elements of shape (1 for a scalar, 0 when a
// dim is 0). A negative dim is ErrShape; a product that exceeds math.MaxInt
// is ErrOverflow.
func Size(shape []int) (int, error) {
	zero := false
	for i, d := range shape {
		if d < 0 {
			return 0, newError("size", [][]int{shape}, nil, i, ErrShape, "dim %d is negative (%d)", i, d)
		}
		zero = zero || d == 0
	}
	if zero {
		return 0, nil
	}
	n := 1
	for i, d := range shape {
		if n > math.MaxInt/d {
			return 0, newError("size", [][]int{shape}, nil, i, ErrOverflow, "the product overflows at dim %d", i)
		}
		n *= d
	}
	return n, nil
}
