package expr

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
)

func broadcastNode(mode Mode, x *Node, target, axes []int, axis int) *Node {
	n := &Node{kind: kBroadcast, mode: mode, args: []*Node{x}, target: clone(target), axes: clone(axes), axis: axis}
	if n.err = firstErr(fmt.Sprintf("Broadcast(%s)", mode), x); n.err != nil {
		return n
	}
	n.dtype, n.ctype = x.dtype, x.dtype
	t := broadcast.StaticShape(target...)
	var err error
	switch mode {
	case ModeNumpy:
		n.shape, err = broadcast.InferNumpy(x.shape, t)
	case ModeBidirectional:
		n.shape, err = broadcast.InferBidirectional(x.shape, t)
	case ModeExplicit:
		if axes == nil {
			axes = []int{}
			n.axes = axes
		}
		n.shape, err = broadcast.InferExplicit(x.shape, t, axes)
	case ModePDPD:
		n.shape, err = broadcast.InferPDPD(x.shape, t, axis)
	case ModeNGraph:
		n.shape, err = broadcast.InferNGraph(x.shape, t, axes)
	default:
		err = fmt.Errorf("%w: unknown broadcast mode %q", ErrArgument, mode)
	}
	if err != nil {
		n.err = fmt.Errorf("expr.Broadcast(%s): %w", mode, err)
	}
	return n.checkCount(fmt.Sprintf("Broadcast(%s)", mode))
}

// BroadcastNumpy broadcasts x to exactly target, one-directionally
// (Broadcast-3 mode numpy): right-aligned, each dim of x 1 or equal.
func BroadcastNumpy(x *Node, target []int) *Node {
	return broadcastNode(ModeNumpy, x, target, nil, 0)
}

// BroadcastBidirectional broadcasts like numpy.array(x) * numpy.ones(target)
// (Broadcast-3 bidirectional, ONNX Expand): the result may be larger than
// target.
func BroadcastBidirectional(x *Node, target []int) *Node {
	return broadcastNode(ModeBidirectional, x, target, nil, 0)
}

// BroadcastExplicit broadcasts x to target with axis i of x placed at output
// axis axesMapping[i] (Broadcast-3 explicit).
func BroadcastExplicit(x *Node, target, axesMapping []int) *Node {
	return broadcastNode(ModeExplicit, x, target, axesMapping, 0)
}

// BroadcastPDPD broadcasts x onto target starting at output axis axis (-1:
// right-aligned), Broadcast-1 mode pdpd.
func BroadcastPDPD(x *Node, target []int, axis int) *Node {
	return broadcastNode(ModePDPD, x, target, nil, axis)
}

// BroadcastNGraph is nGraph's Broadcast(arg, shape, broadcast_axes): the
// listed output axes are new, the others are x's, in order.
func BroadcastNGraph(x *Node, shape, broadcastAxes []int) *Node {
	return broadcastNode(ModeNGraph, x, shape, broadcastAxes, 0)
}

// Broadcast is the Broadcast op with its inputs as arrays, as the spec
// defines it: target (target_shape) and axesMapping (explicit mode only,
// otherwise nil) are 1-D arrays of any integer dtype. For ModePDPD, axis is
// the start axis; for ModeNGraph axesMapping holds broadcast_axes.
func Broadcast(x *Node, mode Mode, target, axesMapping *array.Array, axis int) *Node {
	t, err := IntsOf(target)
	if err != nil {
		return &Node{kind: kBroadcast, mode: mode, args: []*Node{x}, err: fmt.Errorf("expr.Broadcast(%s) target_shape: %w", mode, err)}
	}
	var axes []int
	if axesMapping != nil {
		if axes, err = IntsOf(axesMapping); err != nil {
			return &Node{kind: kBroadcast, mode: mode, args: []*Node{x}, err: fmt.Errorf("expr.Broadcast(%s) axes_mapping: %w", mode, err)}
		}
	} else if mode == ModeExplicit {
		return &Node{kind: kBroadcast, mode: mode, args: []*Node{x}, err: fmt.Errorf("expr.Broadcast(explicit): %w: axes_mapping input is required", ErrArgument)}
	}
	if axesMapping != nil && mode != ModeExplicit && mode != ModeNGraph {
		return &Node{kind: kBroadcast, mode: mode, args: []*Node{x}, err: fmt.Errorf("expr.Broadcast(%s): %w: axes_mapping is only for explicit mode", mode, ErrArgument)}
	}
	return broadcastNode(mode, x, t, axes, axis)
}

// IntsOf reads a 1-D array of any integer dtype (a shape or an axes list)
// into Go ints. Other dtypes and ranks are an error.
func IntsOf(a *array.Array) ([]int, error) {
	if err := array.Check(a); err != nil {
		return nil, err
	}
	if !a.DType().IsInteger() {
		return nil, fmt.Errorf("%w: %v, want an integer type", ErrDType, a.DType())
	}
	if a.Rank() != 1 {
		return nil, fmt.Errorf("%w: shape %v, want a 1-D array", ErrArgument, a.Shape())
	}
	if a.DType() == array.Uint64 {
		u, err := array.ToSlice[uint64](a)
		if err != nil {
			return nil, err
		}
		out := make([]int, len(u))
		for i, v := range u {
			if v > 1<<62 {
				return nil, fmt.Errorf("%w: value %d at %d is too large", ErrArgument, v, i)
			}
			out[i] = int(v)
		}
		return out, nil
	}
	v, err := array.ToSlice[int64](a)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out, nil
}

func clone(s []int) []int {
	if s == nil {
		return nil
	}
	c := make([]int, len(s))
	copy(c, s)
	return c
}
