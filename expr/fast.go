package expr

import (
	"slices"
	"sync"

	"github.com/stride0/stride0/array"
)

// fastGroup remembers a fused pass a plan built and the layout it was
// built for (a Plan keeps several, see layoutCache): each leaf's dtype, shape, strides and whether it
// has nulls, and the output's strides. When a call repeats that layout (a
// plan evaluated in a loop, a stream of batches of one size), the pass runs
// again as built: no resolution, no planning, no allocation beyond the
// result. Any difference, and anything the fast path does not cover
// (temporaries, reductions, an output that overlaps an input), takes the
// full path, which checks everything.
type fastGroup struct {
	g       *group
	nodes   []*Node // per leaf: the node it reads (an array, a constant or a variable)
	dts     []array.DType
	dims    [][]int
	strides [][]int
	masks   []bool
	dtype   array.DType
	shape   []int
	dst     []int // the output's strides (EvalInto), nil for a fresh output
	arrs    sync.Pool
}

func newFastGroup(g *group, root *rnode, dst *array.Array) *fastGroup {
	fg := &fastGroup{g: g, dtype: root.dtype, shape: slices.Clone(root.shape)}
	for _, l := range g.leaves {
		if l.r.temp || (l.r.n.kind != kLeaf && l.r.n.kind != kConst && l.r.n.kind != kVar) {
			return nil
		}
		a := l.r.arr
		fg.nodes = append(fg.nodes, l.r.n)
		fg.dts = append(fg.dts, a.DType())
		fg.dims = append(fg.dims, a.Shape())
		fg.strides = append(fg.strides, a.Strides())
		fg.masks = append(fg.masks, a.HasNulls())
	}
	if dst != nil {
		fg.dst = dst.Strides()
	}
	// The pass reads each call's arrays from its arguments; drop the first
	// call's, so that a plan does not keep a batch's memory alive.
	for _, l := range g.leaves {
		l.r = &rnode{n: l.r.n, shape: l.r.shape, dtype: l.r.dtype, ctype: l.r.ctype}
	}
	return fg
}

// try runs the remembered pass if this call's arrays have its layout; ok is
// false when they do not (then nothing was done). The caller checked the
// leaves with matches (layouts do not change within a call); try checks the
// output.
func (fg *fastGroup) try(o *options, dst *array.Array, b Bindings) (out *array.Array, ok bool, err error) {
	if fg == nil {
		return nil, false, nil
	}
	ap, _ := fg.arrs.Get().(*[]*array.Array)
	if ap == nil {
		s := make([]*array.Array, 0, len(fg.nodes))
		ap = &s
	}
	defer func() {
		clear(*ap)
		*ap = (*ap)[:0]
		fg.arrs.Put(ap)
	}()
	arrs := *ap
	for _, n := range fg.nodes {
		a := n.arr
		if n.kind == kVar {
			a = b[n.name]
		}
		arrs = append(arrs, a)
	}
	if dst != nil {
		if fg.dst == nil || array.Check(dst) != nil || dst.DType() != fg.dtype || dst.Rank() != len(fg.shape) || dst.ReadOnly() {
			return nil, false, nil
		}
		for i, d := range fg.shape {
			if dst.Dim(i) != d || dst.Stride(i) != fg.dst[i] {
				return nil, false, nil
			}
		}
		dlo, dhi := span(dst)
		for _, a := range arrs {
			if lo, hi := span(a); lo < dhi && dlo < hi {
				return nil, false, nil
			}
		}
	} else if fg.dst != nil {
		return nil, false, nil
	}
	*ap = arrs
	out, err = runElementwise(fg.g, arrs, fg.dtype, fg.shape, dst, o)
	return out, true, err
}

func (fg *fastGroup) same(k int, a *array.Array) bool {
	if array.Check(a) != nil || a.DType() != fg.dts[k] || a.Rank() != len(fg.dims[k]) || a.HasNulls() != fg.masks[k] {
		return false
	}
	for i, d := range fg.dims[k] {
		if a.Dim(i) != d || a.Stride(i) != fg.strides[k][i] {
			return false
		}
	}
	return true
}
