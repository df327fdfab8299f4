package expr

import (
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
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
	d       *rows2DCall // the whole pass as one row-looped kernel call, when it is one (else nil)
}

// rows2DCall is a pass that is one call of a row-looped kernel (plan2D)
// over a two-dimensional coalesced space on the calling goroutine, and so
// is fixed by the layout: the kernel, which leaves it reads and the byte
// step from one row to the next of each operand. A call that repeats the
// layout runs it without a worker, a pool or a closure: W10's per-call
// overhead.
type rows2DCall struct {
	kern       func(dst, x, y unsafe.Pointer, n, rows, ds, xs, ys int)
	a, b       int // the operands' leaves
	sa, sb, sd int // element sizes of a, b and the output
	rows, n    int
	ds, xs, ys int // bytes from one row to the next
	// row: where one operand is the same row every row (its step 0) and
	// the pass is in cache, the kernel that keeps that row in registers
	// (compute.RowKernel); rowFirst: the repeated operand is a.
	row      compute.RowKernel
	rowFirst bool
}

// newRows2DCall returns the one-call form of g, or nil when g's pass is
// not a single row-looped kernel call on one goroutine (see runRange: rank
// 2, no streaming stores, no masks, one worker).
func newRows2DCall(g *group, workers int) *rows2DCall {
	if g.k2d.Func == nil || len(g.cshape) != 2 || g.nt || g.masked || len(g.leaves) > 2 || len(g.prog) != 1 {
		return nil
	}
	total := size(g.cshape)
	if total == 0 || (workers >= 2 && total >= minParallel) {
		return nil
	}
	in := &g.prog[0]
	la, lb := g.leaves[in.a], g.leaves[in.b]
	d := &rows2DCall{kern: g.k2d.Func, a: in.a, b: in.b,
		sa: la.dt.Size(), sb: lb.dt.Size(), sd: g.rootT.Size(),
		rows: g.cshape[0], n: g.cshape[1]}
	d.ds, d.xs, d.ys = g.dstCS[0]*d.sd, la.cs[0]*d.sa, lb.cs[0]*d.sb
	if in.form == compute.VV && d.sa == d.sd && d.sb == d.sd && d.n*d.sd%compute.RowKernelBytes == 0 &&
		total*d.sd <= cachedBytes && (d.xs == 0) != (d.ys == 0) {
		d.rowFirst = d.xs == 0
		d.row, _ = compute.LookupRowKernel(in.op, in.kt, d.rowFirst)
	}
	return d
}

func newFastGroup(g *group, root *rnode, dst *array.Array, workers int) *fastGroup {
	fg := &fastGroup{g: g, dtype: root.dtype, shape: slices.Clone(root.shape), d: newRows2DCall(g, workers)}
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
	if fg.d != nil {
		if out, ok, err = fg.tryRows2D(o, dst, b); ok {
			return out, ok, err
		}
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
	if !fg.dstOK(dst, arrs) {
		return nil, false, nil
	}
	*ap = arrs
	out, err = runElementwise(fg.g, arrs, fg.dtype, fg.shape, dst, o)
	return out, true, err
}

// dstOK reports whether dst (nil: a fresh output) has the layout the pass
// was built for and shares no memory with the leaves arrs.
func (fg *fastGroup) dstOK(dst *array.Array, arrs []*array.Array) bool {
	if dst == nil {
		return fg.dst == nil
	}
	if fg.dst == nil || array.Check(dst) != nil || dst.DType() != fg.dtype || dst.Rank() != len(fg.shape) || dst.ReadOnly() {
		return false
	}
	for i, d := range fg.shape {
		if dst.Dim(i) != d || dst.Stride(i) != fg.dst[i] {
			return false
		}
	}
	dlo, dhi := span(dst)
	for _, a := range arrs {
		if lo, hi := span(a); lo < dhi && dlo < hi {
			return false
		}
	}
	return true
}

// tryRows2D is try for a pass that is one row-looped kernel call (fg.d):
// the leaves are held in a local array and the kernel is called directly,
// as runRange would call it (rows2D over all the rows from the first),
// so that a repeated call costs a few checks and, for Eval, the result.
// An output with a validity mask takes the general path (the row-looped
// kernels write no validity).
func (fg *fastGroup) tryRows2D(o *options, dst *array.Array, b Bindings) (*array.Array, bool, error) {
	var buf [2]*array.Array
	arrs := buf[:len(fg.nodes)]
	for k, n := range fg.nodes {
		a := n.arr
		if n.kind == kVar {
			a = b[n.name]
		}
		arrs[k] = a
	}
	if (dst != nil && dst.ValidityPointer() != nil) || !fg.dstOK(dst, arrs) {
		return nil, false, nil
	}
	out := dst
	if out == nil {
		var err error
		if out, err = array.EmptyTouched(o.mem, o.workers, fg.dtype, fg.shape...); err != nil {
			return nil, true, err
		}
	}
	d := fg.d
	x, y := arrs[d.a], arrs[d.b]
	dp := unsafe.Add(out.DataPointer(), out.Offset()*d.sd)
	xp, yp := unsafe.Add(x.DataPointer(), x.Offset()*d.sa), unsafe.Add(y.DataPointer(), y.Offset()*d.sb)
	switch {
	case d.row == nil:
		d.kern(dp, xp, yp, d.n, d.rows, d.ds, d.xs, d.ys)
	case d.rowFirst: // a repeats: y streams
		d.row(dp, yp, xp, d.n*d.sd, d.rows, d.ds, d.ys)
	default:
		d.row(dp, xp, yp, d.n*d.sd, d.rows, d.ds, d.xs)
	}
	runtime.KeepAlive(x) // the kernel read their buffers through raw pointers
	runtime.KeepAlive(y)
	return out, true, nil
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
