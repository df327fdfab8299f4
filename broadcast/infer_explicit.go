package broadcast

// InferExplicit is Explicit over partial shapes. axesMapping nil means its
// value is unknown. The output is target (n unknown dims when only its length
// is known, unknown rank when not even that is). The length of the mapping
// is checked against the data rank when both are known; the order, range and
// per-dim checks run only when the data rank, the target value and the
// mapping are all known, as in OpenVINO (so an unsorted mapping is accepted
// while the target value is unknown). A target dim and a data dim agree when
// their intervals intersect or the data dim can be 1.
func InferExplicit(data, target Shape, axesMapping []int) (Shape, error) {
	const rule = "explicit"
	shapes := []Shape{data, target}
	axes := axesMapping
	fail := func(axis int, sentinel error, format string, args ...any) (Shape, error) {
		return Shape{}, newPartialError(rule, shapes, axes, axis, sentinel, format, args...)
	}
	if err := checkPartial(rule, []string{"data", "target"}, shapes, axes); err != nil {
		return Shape{}, err
	}
	var out Shape
	switch {
	case !target.RankKnown:
		out = DynamicShape()
	case target.valueUnknown():
		out = unknownShape(len(target.Dims))
	default:
		out = target.clone()
	}
	if !data.RankKnown || axesMapping == nil {
		return out, nil
	}
	rank := len(data.Dims)
	scalar := rank == 0 && len(axesMapping) > 0
	if scalar {
		rank = 1
	}
	if len(axesMapping) != rank {
		return fail(-1, ErrAxes, "axes_mapping has %d entries, data rank is %d", len(axesMapping), rank)
	}
	if !target.RankKnown || target.valueUnknown() {
		return out, nil
	}
	for i, a := range axesMapping {
		if a < 0 || a >= len(target.Dims) {
			return fail(i, ErrAxes, "axes_mapping[%d] = %d is out of range for target rank %d", i, a, len(target.Dims))
		}
		if i > 0 && a <= axesMapping[i-1] {
			return fail(i, ErrAxes, "axes_mapping[%d] = %d does not follow axes_mapping[%d] = %d (must be strictly increasing)",
				i, a, i-1, axesMapping[i-1])
		}
	}
	if scalar {
		if t := target.Dims[axesMapping[0]]; !t.Contains(1) {
			return fail(axesMapping[0], ErrIncompatible, "scalar data lands on dim %d, which is %v, not 1", axesMapping[0], t)
		}
		return out, nil
	}
	for i, d := range data.Dims {
		a := axesMapping[i]
		if t := target.Dims[a]; !compatible(t, d) && !d.Contains(1) {
			return fail(a, ErrIncompatible, "data dim %d is %v, target dim %d is %v", i, d, a, t)
		}
	}
	return out, nil
}
