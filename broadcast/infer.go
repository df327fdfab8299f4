package broadcast

import "fmt"

// InferNumpy is Numpy over partial shapes (Broadcast "numpy" mode): the
// output is target. rank(target) >= rank(data) is checked when both ranks
// and the target value are known, and a data dim is checked (1 or equal)
// only when it and its target dim are static.
func InferNumpy(data, target Shape) (Shape, error) {
	const rule = "numpy"
	shapes := []Shape{data, target}
	if err := checkPartial(rule, []string{"data", "target"}, shapes, nil); err != nil {
		return Shape{}, err
	}
	switch {
	case !target.RankKnown:
		return DynamicShape(), nil
	case target.valueUnknown():
		return unknownShape(len(target.Dims)), nil
	case !data.RankKnown:
		return target.clone(), nil
	}
	off := len(target.Dims) - len(data.Dims)
	if off < 0 {
		return Shape{}, newPartialError(rule, shapes, nil, -1, ErrRank,
			"target rank %d is smaller than data rank %d", len(target.Dims), len(data.Dims))
	}
	for i, d := range data.Dims {
		t := target.Dims[off+i]
		if d.IsStatic() && t.IsStatic() && d.Lo != 1 && d.Lo != t.Lo {
			return Shape{}, newPartialError(rule, shapes, nil, off+i, ErrIncompatible,
				"dim %d is %v, target is %v", off+i, d, t)
		}
	}
	return target.clone(), nil
}

// InferMultidirectional is Multidirectional over partial shapes (elementwise
// "numpy"): the shapes are folded left to right, right-aligned and padded
// with 1s, each axis merged with BroadcastMerge. Once a shape of unknown rank
// is met the result has unknown rank.
func InferMultidirectional(shapes ...Shape) (Shape, error) {
	const rule = "multidirectional"
	names := make([]string, len(shapes))
	for i := range names {
		names[i] = fmt.Sprintf("shape %d", i)
	}
	if len(shapes) == 0 {
		return Shape{}, newPartialError(rule, nil, nil, -1, ErrShape, "no shapes given")
	}
	if err := checkPartial(rule, names, shapes, nil); err != nil {
		return Shape{}, err
	}
	acc := shapes[0].clone()
	for k := 1; k < len(shapes); k++ {
		var err error
		if acc, err = mergeNumpy(rule, shapes, acc, shapes[k], "the shapes before", names[k]); err != nil {
			return Shape{}, err
		}
	}
	return acc, nil
}

// InferBidirectional is Bidirectional over partial shapes: an unknown data
// rank or target length gives an unknown rank; otherwise the two are
// right-aligned, padded with 1s and merged with BroadcastMerge.
func InferBidirectional(data, target Shape) (Shape, error) {
	const rule = "bidirectional"
	shapes := []Shape{data, target}
	if err := checkPartial(rule, []string{"data", "target"}, shapes, nil); err != nil {
		return Shape{}, err
	}
	return mergeNumpy(rule, shapes, data, target, "data", "target")
}

// BidirectionalAxes is what OpenVINO's Broadcast-3 get_broadcast_axes()
// reports in bidirectional mode: the output axes that do not come unchanged
// from data (new axes and axes whose size differs from data's), known only
// when data and the inferred output are static.
func BidirectionalAxes(data, target Shape) (axes []int, known bool, err error) {
	out, err := InferBidirectional(data, target)
	if err != nil {
		return nil, false, err
	}
	d, ok := data.Static()
	o, ok2 := out.Static()
	if !ok || !ok2 {
		return nil, false, nil
	}
	start := len(o) - len(d)
	axes = []int{}
	for i := range o {
		if i < start || o[i] != d[i-start] {
			axes = append(axes, i)
		}
	}
	return axes, true, nil
}

// mergeNumpy is OpenVINO's PartialShape::broadcast_merge_into for NUMPY.
func mergeNumpy(rule string, shapes []Shape, a, b Shape, aName, bName string) (Shape, error) {
	if !a.RankKnown || !b.RankKnown {
		return DynamicShape(), nil
	}
	rank := max(len(a.Dims), len(b.Dims))
	oa, ob := rank-len(a.Dims), rank-len(b.Dims)
	dims := make([]Dim, rank)
	for j := range dims {
		da, db := StaticDim(1), StaticDim(1)
		if j >= oa {
			da = a.Dims[j-oa]
		}
		if j >= ob {
			db = b.Dims[j-ob]
		}
		m, ok := BroadcastMerge(da, db)
		if !ok {
			return Shape{}, newPartialError(rule, shapes, nil, j, ErrIncompatible,
				"dim %d is %v in %s and %v in %s", j, da, aName, db, bName)
		}
		dims[j] = m
	}
	return Shape{Dims: dims, RankKnown: true}, nil
}

// InferNone is None over partial shapes: folded left to right with
// OpenVINO's PartialShape::merge_into; a shape of unknown rank takes the
// other, ranks must agree, and each dim pair must intersect (MergeDim).
func InferNone(shapes ...Shape) (Shape, error) {
	const rule = "none"
	names := make([]string, len(shapes))
	for i := range names {
		names[i] = fmt.Sprintf("shape %d", i)
	}
	if len(shapes) == 0 {
		return Shape{}, newPartialError(rule, nil, nil, -1, ErrShape, "no shapes given")
	}
	if err := checkPartial(rule, names, shapes, nil); err != nil {
		return Shape{}, err
	}
	acc := shapes[0].clone()
	for k, s := range shapes[1:] {
		k++
		switch {
		case !acc.RankKnown:
			acc = s.clone()
			continue
		case !s.RankKnown:
			continue
		case len(s.Dims) != len(acc.Dims):
			return Shape{}, newPartialError(rule, shapes, nil, -1, ErrRank,
				"shape %d has rank %d, the shapes before have rank %d", k, len(s.Dims), len(acc.Dims))
		}
		for i, d := range s.Dims {
			m, ok := MergeDim(acc.Dims[i], d)
			if !ok {
				return Shape{}, newPartialError(rule, shapes, nil, i, ErrIncompatible,
					"dim %d is %v in the shapes before and %v in shape %d", i, acc.Dims[i], d, k)
			}
			acc.Dims[i] = m
		}
	}
	return acc, nil
}
