package broadcast

import "fmt"

// Numpy is one-directional NumPy broadcasting of data to target: the
// Broadcast-1/3 "numpy" mode and ONNX unidirectional broadcasting (Gemm's C,
// PRelu's slope). The shapes are right-aligned; every data dim must be 1 or
// equal to the target dim it lands on, and rank(target) >= rank(data). The
// output shape is target (a copy); data axis i lands on output axis
// rank(target)-rank(data)+i.
func Numpy(data, target []int) ([]int, AxisMap, error) {
	const rule = "numpy"
	shapes := [][]int{data, target}
	if err := checkDims(rule, []string{"data", "target"}, shapes, nil); err != nil {
		return nil, nil, err
	}
	off := len(target) - len(data)
	if off < 0 {
		return nil, nil, newError(rule, shapes, nil, -1, ErrRank,
			"target rank %d is smaller than data rank %d", len(target), len(data))
	}
	m := make(AxisMap, len(data))
	for i, d := range data {
		t := target[off+i]
		if d != 1 && d != t {
			return nil, nil, newError(rule, shapes, nil, off+i, ErrIncompatible,
				"dim %d is %d, target is %d", off+i, d, t)
		}
		m[i] = off + i
	}
	return cloneInts0(target), m, nil
}

// Multidirectional is NumPy (ONNX multidirectional, elementwise "numpy")
// broadcasting of any number of shapes to a common one: the shapes are
// right-aligned and left-padded with 1s; on every axis the dims are 1 or one
// common value, which is the output dim (1 if all are 1). It returns the
// output shape and one AxisMap per input. At least one shape is required.
func Multidirectional(shapes ...[]int) ([]int, []AxisMap, error) {
	names := make([]string, len(shapes))
	for i := range names {
		names[i] = fmt.Sprintf("shape %d", i)
	}
	return multi("multidirectional", names, shapes)
}

// Bidirectional is Broadcast-3 "bidirectional" mode and ONNX Expand: the
// result of numpy.array(data) * numpy.ones(target). It is multidirectional
// broadcasting of the two shapes, so the output may differ from target: a
// target dim of 1 takes the data dim, and a target of smaller rank is
// left-padded with 1s. The AxisMap is data's.
func Bidirectional(data, target []int) ([]int, AxisMap, error) {
	out, ms, err := multi("bidirectional", []string{"data", "target"}, [][]int{data, target})
	if err != nil {
		return nil, nil, err
	}
	return out, ms[0], nil
}

func multi(rule string, names []string, shapes [][]int) ([]int, []AxisMap, error) {
	if len(shapes) == 0 {
		return nil, nil, newError(rule, nil, nil, -1, ErrShape, "no shapes given")
	}
	if err := checkDims(rule, names, shapes, nil); err != nil {
		return nil, nil, err
	}
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]int, rank)
	from := make([]int, rank) // which shape set out[j]; -1 while it is 1
	for j := range out {
		out[j], from[j] = 1, -1
	}
	maps := make([]AxisMap, len(shapes))
	for k, s := range shapes {
		off := rank - len(s)
		m := make(AxisMap, len(s))
		for i, d := range s {
			j := off + i
			m[i] = j
			switch {
			case d == 1 || d == out[j] && from[j] >= 0:
			case from[j] < 0:
				out[j], from[j] = d, k
			default:
				return nil, nil, newError(rule, shapes, nil, j, ErrIncompatible,
					"dim %d is %d in %s and %d in %s", j, out[j], names[from[j]], d, names[k])
			}
		}
		maps[k] = m
	}
	return out, maps, nil
}

// cloneInts0 copies s; the copy of a nil or empty slice is an empty, non-nil
// slice, so a scalar output is []int{}.
func cloneInts0(s []int) []int {
	c := make([]int, len(s))
	copy(c, s)
	return c
}
