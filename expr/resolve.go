package expr

import (
	"fmt"
	"slices"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
)

// rnode is a node resolved for one evaluation: static shape, the axis map of
// each argument into this node's axes, and for leaves the array read.
type rnode struct {
	n      *Node
	shape  []int
	args   []*rnode
	maps   []broadcast.AxisMap
	arr    *array.Array // leaves: the array (an array leaf, a constant, a bound variable, or a temporary)
	temp   bool         // arr was computed by this evaluation and is released after it
	axes   []int        // kReduce: the reduced axes of the argument
	dtype  array.DType
	ctype  array.DType
	once   *rnode // the temporary leaf this node was evaluated into (see cse.go)
	shared bool   // reached by several paths (see cse.go)
	// hoisted: hoist has run on this node in this evaluation; visits: its
	// leaf visits once known (see hoist and leafVisits).
	hoisted bool
	visits  int
}

func (r *rnode) isLeaf() bool { return r.arr != nil }

func identityMap(rank int) broadcast.AxisMap {
	m := make(broadcast.AxisMap, rank)
	for i := range m {
		m[i] = i
	}
	return m
}

// bindVar checks a bound array against its variable's declaration.
func bindVar(n *Node, b Bindings) (*array.Array, error) {
	a, ok := b[n.name]
	if !ok {
		return nil, fmt.Errorf("expr: %w: variable %q is not bound", ErrBinding, n.name)
	}
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("expr: %w: variable %q: %w", ErrBinding, n.name, err)
	}
	if a.DType() != n.dtype {
		return nil, fmt.Errorf("expr: %w: variable %q is %v, bound to a %v array", ErrBinding, n.name, n.dtype, a.DType())
	}
	if n.shape.RankKnown {
		if a.Rank() != len(n.shape.Dims) {
			return nil, fmt.Errorf("expr: %w: variable %q has shape %v, bound to shape %v", ErrBinding, n.name, n.shape, a.Shape())
		}
		for i, d := range n.shape.Dims {
			if !d.Contains(a.Dim(i)) {
				return nil, fmt.Errorf("expr: %w: variable %q has shape %v, bound to shape %v (axis %d)", ErrBinding, n.name, n.shape, a.Shape(), i)
			}
		}
	}
	return a, nil
}

// resolve computes static shapes and maps for the tree under n. Nodes
// reached by several paths, and structurally equal nodes over the same
// leaves, resolve to one shared rnode (see cse.go).
func resolve(n *Node, b Bindings) (*rnode, error) {
	rs := resolver{b: b}
	return rs.resolve(n)
}

// resolveNode resolves n itself, its arguments through rs.
func resolveNode(rs *resolver, n *Node) (*rnode, error) {
	b := rs.b
	if err := n.Err(); err != nil {
		return nil, err
	}
	r := &rnode{n: n, dtype: n.dtype, ctype: n.ctype}
	switch n.kind {
	case kLeaf, kConst:
		if err := array.Check(n.arr); err != nil {
			return nil, fmt.Errorf("expr: leaf %v: %w", n, err)
		}
		r.arr, r.shape = n.arr, n.arr.Shape()
		return r, nil
	case kVar:
		a, err := bindVar(n, b)
		if err != nil {
			return nil, err
		}
		r.arr, r.shape = a, a.Shape()
		return r, nil
	}
	r.args = make([]*rnode, len(n.args))
	shapes := make([][]int, len(n.args))
	for i, a := range n.args {
		ra, err := rs.resolve(a)
		if err != nil {
			return nil, err
		}
		r.args[i], shapes[i] = ra, ra.shape
	}
	var err error
	switch n.kind {
	case kBroadcast:
		var m broadcast.AxisMap
		x := shapes[0]
		switch n.mode {
		case ModeNumpy:
			r.shape, m, err = broadcast.Numpy(x, n.target)
		case ModeBidirectional:
			r.shape, m, err = broadcast.Bidirectional(x, n.target)
		case ModeExplicit:
			r.shape, m, err = broadcast.Explicit(x, n.target, n.axes)
		case ModePDPD:
			r.shape, m, err = broadcast.PDPD(x, n.target, n.axis)
		case ModeNGraph:
			r.shape, m, err = broadcast.NGraph(x, n.target, n.axes)
		}
		r.maps = []broadcast.AxisMap{m}
	case kUnary, kCast:
		r.shape = shapes[0]
		r.maps = []broadcast.AxisMap{identityMap(len(shapes[0]))}
	case kBinary, kWhere:
		r.shape, r.maps, err = resolveRule(n, shapes)
	case kReduce:
		err = r.resolveReduce(shapes[0])
	case kView, kConcat, kTake, kSort, kMatmul:
		r.shape, err = n.structShape(shapes)
		r.maps = make([]broadcast.AxisMap, len(shapes)) // a structural node ends a fused group
		if err != nil {
			return nil, err // named by structShape
		}
	}
	if err == nil {
		err = checkStaticCount(r.shape)
	}
	if err != nil {
		return nil, fmt.Errorf("expr.%s: %w", n.opName(), err)
	}
	return r, nil
}

// resolveRule applies an elementwise auto-broadcast rule to static shapes.
// For select under pdpd the operands are broadcast onto x (args[1]).
func resolveRule(n *Node, shapes [][]int) ([]int, []broadcast.AxisMap, error) {
	switch n.rule.kind {
	case ruleNumpy:
		return broadcast.Multidirectional(shapes...)
	case ruleNone:
		return broadcast.None(shapes...)
	}
	first := 0
	if n.kind == kWhere {
		first = 1
	}
	out := shapes[first]
	maps := make([]broadcast.AxisMap, len(shapes))
	maps[first] = identityMap(len(out))
	axes := make([]int, len(shapes))
	for i := range axes {
		axes[i] = n.rule.axis
	}
	if n.kind == kWhere && n.rule.kind == rulePDPD {
		rc := len(shapes[0])
		for rc > 0 && shapes[0][rc-1] == 1 {
			rc--
		}
		axes[2], axes[0] = selectAxes(len(out), len(shapes[2]), rc, n.rule.axis)
	}
	for i, s := range shapes {
		if i == first {
			continue
		}
		var (
			got []int
			err error
		)
		if n.rule.kind == ruleUni {
			got, maps[i], err = broadcast.Numpy(s, out)
		} else {
			got, maps[i], err = broadcast.PDPDElementwise(out, s, axes[i])
		}
		if err != nil {
			return nil, nil, err
		}
		if !slices.Equal(got, out) {
			return nil, nil, fmt.Errorf("%w: %v does not broadcast onto %v", broadcast.ErrIncompatible, s, out)
		}
	}
	return out, maps, nil
}

func (r *rnode) resolveReduce(x []int) error {
	n := r.n
	r.maps = []broadcast.AxisMap{nil} // a reduction ends a fused group
	if n.red.isScan() {
		r.axes = n.axes
		r.shape = slices.Clone(x)
		if n.flat {
			r.shape = []int{size(x)}
		}
		if r.shape == nil {
			r.shape = []int{}
		}
		return nil
	}
	axes := n.axes
	if n.reshap != nil {
		var err error
		if axes, err = broadcast.ReduceTo(x, n.reshap); err != nil {
			return err
		}
	}
	r.axes = axes
	if n.red.noIdentity() {
		for _, a := range axes {
			if x[a] == 0 {
				return emptyAxisError(n.red.funcName(), a, x)
			}
		}
	}
	for i, d := range x {
		switch {
		case !slices.Contains(axes, i):
			r.shape = append(r.shape, d)
		case n.keep:
			r.shape = append(r.shape, 1)
		}
	}
	if n.reshap != nil {
		r.shape = slices.Clone(n.reshap)
	}
	if r.shape == nil {
		r.shape = []int{}
	}
	return nil
}

func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
