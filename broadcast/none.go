package broadcast

import "fmt"

// None is the "none" auto-broadcast rule: all shapes must be equal. It
// returns a copy of the shape and an identity AxisMap per input. At least one
// shape is required.
func None(shapes ...[]int) ([]int, []AxisMap, error) {
	const rule = "none"
	if len(shapes) == 0 {
		return nil, nil, newError(rule, nil, nil, -1, ErrShape, "no shapes given")
	}
	names := make([]string, len(shapes))
	for i := range names {
		names[i] = fmt.Sprintf("shape %d", i)
	}
	if err := checkDims(rule, names, shapes, nil); err != nil {
		return nil, nil, err
	}
	first := shapes[0]
	maps := make([]AxisMap, len(shapes))
	for k, s := range shapes {
		if len(s) != len(first) {
			return nil, nil, newError(rule, shapes, nil, -1, ErrRank, "shape %d has rank %d, shape 0 has rank %d", k, len(s), len(first))
		}
		for i, d := range s {
			if d != first[i] {
				return nil, nil, newError(rule, shapes, nil, i, ErrIncompatible, "dim %d is %d in shape 0 and %d in shape %d", i, first[i], d, k)
			}
		}
		maps[k] = identity(len(s))
	}
	return cloneInts0(first), maps, nil
}

func identity(n int) AxisMap {
	m := make(AxisMap, n)
	for i := range m {
		m[i] = i
	}
	return m
}
