package broadcast

import "fmt"

// PDPD is the Broadcast-1/3 "pdpd" mode: data is laid onto target starting at
// output axis `axis` (-1: rank(target)-rank(data), which must be >= 0), and
// rank(data) must equal rank(target)-axis. Output dims before the start axis
// are copied from target; from the start axis on, a data dim of 1 takes the
// target dim, a target dim of 1 takes the data dim (so the output can exceed
// target), and otherwise the two must be equal. Data axis j lands on output
// axis start+j.
func PDPD(data, target []int, axis int) ([]int, AxisMap, error) {
	const rule = "pdpd"
	shapes := [][]int{data, target}
	fail := func(ax int, sentinel error, format string, args ...any) ([]int, AxisMap, error) {
		return nil, nil, newError(rule, shapes, nil, ax, sentinel, format, args...)
	}
	if err := checkDims(rule, []string{"data", "target"}, shapes, nil); err != nil {
		return nil, nil, err
	}
	rd, rt := len(data), len(target)
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
	out := cloneInts0(target)
	m := make(AxisMap, rd)
	for j, d := range data {
		o := start + j
		t := target[o]
		switch {
		case d == 1:
		case t == 1 || t == d:
			out[o] = d
		default:
			return fail(o, ErrIncompatible, "dim %d is %d, target is %d (axis %d)", o, d, t, start)
		}
		m[j] = o
	}
	return out, m, nil
}

// PDPDElementwise is the elementwise "pdpd" auto-broadcast rule: B is
// broadcast onto A, never the other way. axis (>= -1) is the axis of A where
// B starts; -1 means rank(A)-rank(B), computed with B's full rank. B must fit:
// rank(B) <= rank(A) and axis+rank(B) <= rank(A). Each B dim must equal the A
// dim it lies on, or be 1 on a non-zero A dim (OpenVINO rejects a static B
// dim larger than the A dim, so a 1 cannot land on a 0). Trailing 1s of B are
// then ignored: their AxisMap entries are -1. The output shape is A (a copy)
// and the AxisMap is B's.
func PDPDElementwise(a, b []int, axis int) ([]int, AxisMap, error) {
	const rule = "pdpd elementwise"
	shapes := [][]int{a, b}
	fail := func(ax int, sentinel error, format string, args ...any) ([]int, AxisMap, error) {
		return nil, nil, newError(rule, shapes, nil, ax, sentinel, format, args...)
	}
	if err := checkDims(rule, []string{"A", "B"}, shapes, nil); err != nil {
		return nil, nil, err
	}
	ra, rb := len(a), len(b)
	start, err := pdpdStart(ra, rb, axis)
	if err != nil {
		return fail(-1, err, "%s", pdpdStartReason(ra, rb, axis, err))
	}
	n := rb
	for n > 0 && b[n-1] == 1 {
		n--
	}
	m := make(AxisMap, rb)
	for j, bd := range b {
		o := start + j
		ad := a[o]
		if bd != ad && (bd != 1 || ad == 0) {
			return fail(o, ErrIncompatible, "dim %d of A is %d, B dim %d is %d (only B broadcasts onto A, axis %d)", o, ad, j, bd, start)
		}
		m[j] = o
		if j >= n {
			m[j] = -1
		}
	}
	return cloneInts0(a), m, nil
}

// pdpdStart resolves the start axis of elementwise pdpd, or returns the
// sentinel that says why B does not fit A.
func pdpdStart(ra, rb, axis int) (int, error) {
	switch {
	case axis < -1:
		return 0, ErrAxes
	case rb > ra:
		return 0, ErrRank
	case axis == -1:
		return ra - rb, nil
	case axis > ra-rb:
		return 0, ErrAxes
	}
	return axis, nil
}

func pdpdStartReason(ra, rb, axis int, err error) string {
	switch {
	case axis < -1:
		return fmt.Sprintf("axis %d is less than -1", axis)
	case err == ErrRank:
		return fmt.Sprintf("rank of B (%d) exceeds rank of A (%d)", rb, ra)
	}
	return fmt.Sprintf("B of rank %d does not fit into A of rank %d at axis %d", rb, ra, axis)
}
