package broadcast

// NGraph is nGraph's v0 Broadcast(arg, shape, broadcastAxes): the output has
// shape; the axes listed in broadcastAxes are new, and shape with them
// removed must equal arg exactly (there is no stretching of size-1 dims).
// Every axis must be in [0, rank(shape)) and appear once; the order does not
// matter (it is a set). output[C] = arg[p(C)], where p removes the broadcast
// axes from the coordinate C; the AxisMap lists the remaining output axes in
// order.
func NGraph(arg, shape, broadcastAxes []int) ([]int, AxisMap, error) {
	const rule = "ngraph"
	shapes := [][]int{arg, shape}
	axes := axesOrEmpty(broadcastAxes)
	fail := func(ax int, sentinel error, format string, args ...any) ([]int, AxisMap, error) {
		return nil, nil, newError(rule, shapes, axes, ax, sentinel, format, args...)
	}
	if err := checkDims(rule, []string{"arg", "shape"}, shapes, axes); err != nil {
		return nil, nil, err
	}
	isNew := make([]bool, len(shape))
	for i, a := range broadcastAxes {
		if a < 0 || a >= len(shape) {
			return fail(i, ErrAxes, "broadcast axis %d is out of range for output rank %d", a, len(shape))
		}
		if isNew[a] {
			return fail(a, ErrAxes, "broadcast axis %d is listed twice", a)
		}
		isNew[a] = true
	}
	if want := len(shape) - len(broadcastAxes); len(arg) != want {
		return fail(-1, ErrRank, "arg rank %d is not output rank %d minus %d broadcast axes", len(arg), len(shape), len(broadcastAxes))
	}
	m := make(AxisMap, 0, len(arg))
	for o, isn := range isNew {
		if isn {
			continue
		}
		j := len(m)
		if arg[j] != shape[o] {
			return fail(o, ErrIncompatible, "arg dim %d is %d, shape dim %d is %d", j, arg[j], o, shape[o])
		}
		m = append(m, o)
	}
	return cloneInts0(shape), m, nil
}
