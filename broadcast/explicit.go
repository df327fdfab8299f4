package broadcast

// Explicit is Broadcast-1/3 "explicit" mode: axesMapping[i] is the output
// axis that data axis i lands on. The mapping must have one entry per data
// axis, be strictly increasing (no transposes, no duplicates) and lie in
// [0, rank(target)); each data dim must equal the target dim it lands on or
// be 1 (a dim of 1 is stretched). Scalar data with a one-entry mapping counts
// as rank 1, and the target dim it names must then be 1; its AxisMap is
// empty. The output shape is target (a copy).
func Explicit(data, target, axesMapping []int) ([]int, AxisMap, error) {
	const rule = "explicit"
	shapes := [][]int{data, target}
	fail := func(axis int, sentinel error, format string, args ...any) ([]int, AxisMap, error) {
		return nil, nil, newError(rule, shapes, axesOrEmpty(axesMapping), axis, sentinel, format, args...)
	}
	if err := checkDims(rule, []string{"data", "target"}, shapes, axesOrEmpty(axesMapping)); err != nil {
		return nil, nil, err
	}
	rank := len(data)
	scalar := rank == 0 && len(axesMapping) > 0
	if scalar {
		rank = 1
	}
	if len(axesMapping) != rank {
		return fail(-1, ErrAxes, "axes_mapping has %d entries, data rank is %d", len(axesMapping), rank)
	}
	for i, a := range axesMapping {
		if a < 0 || a >= len(target) {
			return fail(i, ErrAxes, "axes_mapping[%d] = %d is out of range for target rank %d", i, a, len(target))
		}
		if i > 0 && a <= axesMapping[i-1] {
			return fail(i, ErrAxes, "axes_mapping[%d] = %d does not follow axes_mapping[%d] = %d (must be strictly increasing)",
				i, a, i-1, axesMapping[i-1])
		}
	}
	if scalar {
		if t := target[axesMapping[0]]; t != 1 {
			return fail(axesMapping[0], ErrIncompatible, "scalar data lands on dim %d, which is %d, not 1", axesMapping[0], t)
		}
		return cloneInts0(target), AxisMap{}, nil
	}
	for i, d := range data {
		a := axesMapping[i]
		if t := target[a]; d != 1 && d != t {
			return fail(a, ErrIncompatible, "data dim %d is %d, target dim %d is %d", i, d, a, t)
		}
	}
	return cloneInts0(target), AxisMap(cloneInts0(axesMapping)), nil
}

// axesOrEmpty makes an absent mapping print as [] in an error.
func axesOrEmpty(a []int) []int {
	if a == nil {
		return []int{}
	}
	return a
}
