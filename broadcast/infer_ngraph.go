package broadcast

import "strconv"

// InferNGraph is NGraph over partial shapes. The broadcast axes must be
// distinct and non-negative, and below rank(shape) when that is known; when
// the ranks of arg and shape are known, shape minus the broadcast axes must
// have arg's rank and each pair of dims must intersect. The output is shape,
// each kept dim narrowed to its intersection with arg's.
func InferNGraph(arg, shape Shape, broadcastAxes []int) (Shape, error) {
	const rule = "ngraph"
	shapes := []Shape{arg, shape}
	axes := axesOrEmpty(broadcastAxes)
	fail := func(ax int, sentinel error, format string, args ...any) (Shape, error) {
		return Shape{}, newPartialError(rule, shapes, axes, ax, sentinel, format, args...)
	}
	if err := checkPartial(rule, []string{"arg", "shape"}, shapes, axes); err != nil {
		return Shape{}, err
	}
	seen := make(map[int]bool, len(broadcastAxes))
	for i, a := range broadcastAxes {
		if a < 0 || shape.RankKnown && a >= len(shape.Dims) {
			return fail(i, ErrAxes, "broadcast axis %d is out of range for output rank %v", a, rankString(shape))
		}
		if seen[a] {
			return fail(a, ErrAxes, "broadcast axis %d is listed twice", a)
		}
		seen[a] = true
	}
	if !shape.RankKnown {
		return DynamicShape(), nil
	}
	out := shape.clone()
	if !arg.RankKnown {
		return out, nil
	}
	if want := len(shape.Dims) - len(broadcastAxes); len(arg.Dims) != want {
		return fail(-1, ErrRank, "arg rank %d is not output rank %d minus %d broadcast axes", len(arg.Dims), len(shape.Dims), len(broadcastAxes))
	}
	j := 0
	for o, d := range shape.Dims {
		if seen[o] {
			continue
		}
		m, ok := MergeDim(arg.Dims[j], d)
		if !ok {
			return fail(o, ErrIncompatible, "arg dim %d is %v, shape dim %d is %v", j, arg.Dims[j], o, d)
		}
		out.Dims[o] = m
		j++
	}
	return out, nil
}

func rankString(s Shape) string {
	if !s.RankKnown {
		return "?"
	}
	return strconv.Itoa(len(s.Dims))
}
