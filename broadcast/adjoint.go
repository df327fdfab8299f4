package broadcast

// AxisMap describes how an input lands in a broadcast output: AxisMap[i] is
// the output axis that input axis i lands on, or -1 for an input axis of size
// 1 that the rule drops (the trailing 1s of B in elementwise pdpd). The
// entries other than -1 are strictly increasing. A mapped input axis of size
// 1 under an output axis of another size is stretched; output axes that no
// input axis lands on are new.
type AxisMap []int

// Adjoint returns the output axes, in increasing order, to sum over to bring
// a result of shape out, broadcast from in through m, back to in: every
// output axis no input axis lands on, and every axis where a dim of 1 was
// stretched. Summing over them (without keeping them) leaves exactly the
// elements of in, in order, so a reshape to in completes the adjoint (the
// gradient of the broadcast). For the numpy, pdpd and bidirectional rules
// these are also the axes OpenVINO's get_broadcast_axes() reports.
func Adjoint(in, out []int, m AxisMap) ([]int, error) {
	if err := checkMap("adjoint", in, out, m); err != nil {
		return nil, err
	}
	kept := make([]bool, len(out))
	for i, o := range m {
		if o >= 0 && !(in[i] == 1 && out[o] != 1) {
			kept[o] = true
		}
	}
	axes := make([]int, 0, len(out))
	for o, k := range kept {
		if !k {
			axes = append(axes, o)
		}
	}
	return axes, nil
}

// ReduceTo returns the axes of out to sum over to reduce a gradient of shape
// out back to in, where in broadcasts to out under the one-directional numpy
// rule (see Numpy and Adjoint).
func ReduceTo(out, in []int) ([]int, error) {
	_, m, err := Numpy(in, out)
	if err != nil {
		e := err.(*Error)
		e.Rule = "reduce to"
		e.Shapes = [][]int{cloneInts(out), cloneInts(in)}
		return nil, e
	}
	return Adjoint(in, out, m)
}

// checkMap reports whether m is a valid map of in onto out.
func checkMap(rule string, in, out []int, m AxisMap) error {
	shapes := [][]int{in, out}
	axes := axesOrEmpty(m)
	if err := checkDims(rule, []string{"input", "output"}, shapes, axes); err != nil {
		return err
	}
	if len(m) != len(in) {
		return newError(rule, shapes, axes, -1, ErrAxes, "axis map has %d entries, input rank is %d", len(m), len(in))
	}
	prev := -1
	for i, o := range m {
		switch {
		case o == -1:
			if in[i] != 1 {
				return newError(rule, shapes, axes, i, ErrAxes, "input axis %d of size %d is dropped (only a size-1 axis may be)", i, in[i])
			}
			continue
		case o < 0 || o >= len(out):
			return newError(rule, shapes, axes, i, ErrAxes, "input axis %d maps to %d, out of range for output rank %d", i, o, len(out))
		case o <= prev:
			return newError(rule, shapes, axes, i, ErrAxes, "input axis %d maps to %d, not after %d", i, o, prev)
		case in[i] != 1 && in[i] != out[o]:
			return newError(rule, shapes, axes, o, ErrIncompatible, "input dim %d is %d, output dim %d is %d", i, in[i], o, out[o])
		}
		prev = o
	}
	return nil
}
