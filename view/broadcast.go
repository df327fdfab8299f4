package view

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
)

// Broadcast returns a read-only view of a with shape out, in which input axis
// i lies along output axis m[i] (m[i] == -1 drops a size-1 input axis), as
// a broadcasting rule of package broadcast describes it. A mapped axis keeps
// its stride, a stretched axis (dim 1 under a longer output dim) and every
// output axis no input axis lands on get stride 0 (broadcast.Strides). The
// view costs O(rank) bytes whatever the size of out.
func Broadcast(a *array.Array, out []int, m broadcast.AxisMap) (*array.Array, error) {
	return apply("view.Broadcast", a, out, m)
}

// apply is Broadcast, its errors naming op.
func apply(op string, a *array.Array, out []int, m broadcast.AxisMap) (*array.Array, error) {
	if err := check(op, a); err != nil {
		return nil, err
	}
	if _, err := broadcast.Size(out); err != nil {
		return nil, fmt.Errorf("%s %v to %v: %w", op, a.Shape(), out, err)
	}
	st, err := broadcast.Strides(a.Shape(), a.Strides(), out, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return view(op, a, out, st, a.Offset())
}

// Numpy broadcasts a to target by one-directional NumPy rules (Broadcast-3
// "numpy", ONNX unidirectional): the shapes are right-aligned, each dim of a
// is 1 or equal to the target's, and the view has exactly the target shape.
func Numpy(a *array.Array, target []int) (*array.Array, error) {
	return rule("view.Numpy", a, func(in []int) ([]int, broadcast.AxisMap, error) {
		return broadcast.Numpy(in, target)
	})
}

// BroadcastTo is Numpy, named like numpy.broadcast_to.
func BroadcastTo(a *array.Array, target []int) (*array.Array, error) {
	return rule("view.BroadcastTo", a, func(in []int) ([]int, broadcast.AxisMap, error) {
		return broadcast.Numpy(in, target)
	})
}

// Bidirectional broadcasts a by Broadcast-3 "bidirectional" rules (ONNX
// Expand): the shape of numpy.array(a) * numpy.ones(target), which may differ
// from target (a target dim of 1 takes a's dim; a shorter target is padded).
func Bidirectional(a *array.Array, target []int) (*array.Array, error) {
	return rule("view.Bidirectional", a, func(in []int) ([]int, broadcast.AxisMap, error) {
		return broadcast.Bidirectional(in, target)
	})
}

// Explicit broadcasts a to target with Broadcast-3 "explicit" rules: axis i
// of a lands on output axis axesMapping[i] (strictly increasing); every
// other output axis is new.
func Explicit(a *array.Array, target, axesMapping []int) (*array.Array, error) {
	return rule("view.Explicit", a, func(in []int) ([]int, broadcast.AxisMap, error) {
		return broadcast.Explicit(in, target, axesMapping)
	})
}

// PDPD broadcasts a to target with Broadcast-3 "pdpd" rules: a is laid onto
// target from output axis axis on (-1: right-aligned).
func PDPD(a *array.Array, target []int, axis int) (*array.Array, error) {
	return rule("view.PDPD", a, func(in []int) ([]int, broadcast.AxisMap, error) {
		return broadcast.PDPD(in, target, axis)
	})
}

// NGraph is nGraph's Broadcast(arg, shape, broadcastAxes): the output axes in
// broadcastAxes are new, and shape without them must equal a's shape, so
// that output[C] = a[p(C)] where p drops the broadcast axes from C.
func NGraph(a *array.Array, shape, broadcastAxes []int) (*array.Array, error) {
	return rule("view.NGraph", a, func(in []int) ([]int, broadcast.AxisMap, error) {
		return broadcast.NGraph(in, shape, broadcastAxes)
	})
}

// rule applies a broadcasting rule to a's shape, then Broadcast.
func rule(op string, a *array.Array, f func(in []int) ([]int, broadcast.AxisMap, error)) (*array.Array, error) {
	if err := check(op, a); err != nil {
		return nil, err
	}
	out, m, err := f(a.Shape())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return apply(op, a, out, m)
}

// Multidirectional broadcasts every array to their common NumPy shape (ONNX
// multidirectional, the elementwise "numpy" rule), like
// numpy.broadcast_arrays: one view per input, in order, each to be released.
// On error no view is returned.
func Multidirectional(arrays ...*array.Array) ([]*array.Array, error) {
	const op = "view.Multidirectional"
	shapes := make([][]int, len(arrays))
	for i, a := range arrays {
		if err := array.Check(a); err != nil {
			return nil, fmt.Errorf("%s: array %d: %w", op, i, err)
		}
		shapes[i] = a.Shape()
	}
	out, maps, err := broadcast.Multidirectional(shapes...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	views := make([]*array.Array, len(arrays))
	for i, a := range arrays {
		if views[i], err = apply(op, a, out, maps[i]); err != nil {
			for _, v := range views[:i] {
				v.Release()
			}
			return nil, err
		}
	}
	return views, nil
}
