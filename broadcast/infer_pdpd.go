package broadcast

// InferPDPD is PDPD over partial shapes (Broadcast "pdpd" mode). With an
// unknown target value the output is n unknown dims (unknown rank when the
// length is unknown too); with an unknown data rank it has target's rank and
// unknown dims. Otherwise, from the start axis on, a static data dim of 1
// takes the target dim, a static target dim of 1 takes the data dim, and
// other pairs are intersected (MergeDim).
func InferPDPD(data, target Shape, axis int) (Shape, error) {
	const rule = "pdpd"
	shapes := []Shape{data, target}
	fail := func(ax int, sentinel error, format string, args ...any) (Shape, error) {
		return Shape{}, newPartialError(rule, shapes, nil, ax, sentinel, format, args...)
	}
	if err := checkPartial(rule, []string{"data", "target"}, shapes, nil); err != nil {
		return Shape{}, err
	}
	switch {
	case !target.RankKnown:
		return DynamicShape(), nil
	case target.valueUnknown() || !data.RankKnown:
		return unknownShape(len(target.Dims)), nil
	}
	rd, rt := len(data.Dims), len(target.Dims)
	start := axis
	switch {
	case axis < -1:
		return fail(-1, ErrAxes, "axis %d is less than -1", axis)
	case axis == -1:
		start = rt - rd
		if start < 0 {
			return fail(-1, ErrRank, "target rank %d is smaller than data rank %d", rt, rd)
		}
	case axis > rt:
		return fail(-1, ErrAxes, "axis %d exceeds target rank %d", axis, rt)
	}
	if rd != rt-start {
		return fail(-1, ErrRank, "data rank %d is not target rank %d minus axis %d", rd, rt, start)
	}
	out := target.clone()
	for j, d := range data.Dims {
		o := start + j
		t := target.Dims[o]
		switch {
		case d == StaticDim(1):
		case t == StaticDim(1):
			out.Dims[o] = d
		default:
			m, ok := MergeDim(d, t)
			if !ok {
				return fail(o, ErrIncompatible, "dim %d is %v, target is %v (axis %d)", o, d, t, start)
			}
			out.Dims[o] = m
		}
	}
	return out, nil
}

// InferPDPDElementwise is PDPDElementwise over partial shapes, as OpenVINO's
// PartialShape::broadcast_merge_into does it for PDPD: with either rank
// unknown the result is A; otherwise the rank and axis checks of
// PDPDElementwise apply, a pair of static dims must satisfy PDPDElementwise,
// and any other pair is merged into A's dim with BroadcastMerge (so an
// unknown B dim can replace an A dim of 1).
func InferPDPDElementwise(a, b Shape, axis int) (Shape, error) {
	const rule = "pdpd elementwise"
	shapes := []Shape{a, b}
	if err := checkPartial(rule, []string{"A", "B"}, shapes, nil); err != nil {
		return Shape{}, err
	}
	if !a.RankKnown || !b.RankKnown {
		return a.clone(), nil
	}
	ra, rb := len(a.Dims), len(b.Dims)
	start, err := pdpdStart(ra, rb, axis)
	if err != nil {
		return Shape{}, newPartialError(rule, shapes, nil, -1, err, "%s", pdpdStartReason(ra, rb, axis, err))
	}
	out := a.clone()
	for j, bd := range b.Dims {
		o := start + j
		ad := out.Dims[o]
		m, ok := ad, true
		if ad.IsStatic() && bd.IsStatic() {
			ok = bd.Lo == ad.Lo || bd.Lo == 1 && ad.Lo != 0
		} else {
			m, ok = BroadcastMerge(ad, bd)
		}
		if !ok {
			return Shape{}, newPartialError(rule, shapes, nil, o, ErrIncompatible,
				"dim %d of A is %v, B dim %d is %v (only B broadcasts onto A, axis %d)", o, ad, j, bd, start)
		}
		out.Dims[o] = m
	}
	return out, nil
}
