package expr

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

// identity returns the 8-byte pattern of op's identity in type t.
func identity(r reduction, t array.DType) [8]byte {
	var b [8]byte
	p := unsafe.Pointer(&b)
	switch r {
	case redAny:
		return b // false
	case redAll:
		b[0] = 1
		return b
	case redNanMax, redNanMin:
		// NaN: fmax(NaN, x) is x, and a slice of NaNs (or nulls) stays NaN
		switch t {
		case array.Float32:
			*(*float32)(p) = float32(math.NaN())
			return b
		case array.Float64:
			*(*float64)(p) = math.NaN()
			return b
		}
		r = map[reduction]reduction{redNanMax: redMax, redNanMin: redMin}[r]
	}
	hi := r == redMin
	switch r {
	case redSum, redMean:
		return b
	case redProd:
		return scalarOf(t, 1)
	}
	switch t {
	case array.Bool:
		*(*uint8)(p) = b2u(hi)
	case array.Int8:
		*(*int8)(p) = pick[int8](hi, math.MaxInt8, math.MinInt8)
	case array.Int16:
		*(*int16)(p) = pick[int16](hi, math.MaxInt16, math.MinInt16)
	case array.Int32:
		*(*int32)(p) = pick[int32](hi, math.MaxInt32, math.MinInt32)
	case array.Int64:
		*(*int64)(p) = pick[int64](hi, math.MaxInt64, math.MinInt64)
	case array.Uint8:
		*(*uint8)(p) = pick[uint8](hi, math.MaxUint8, 0)
	case array.Uint16:
		*(*uint16)(p) = pick[uint16](hi, math.MaxUint16, 0)
	case array.Uint32:
		*(*uint32)(p) = pick[uint32](hi, math.MaxUint32, 0)
	case array.Uint64:
		*(*uint64)(p) = pick[uint64](hi, math.MaxUint64, 0)
	case array.Float16:
		*(*uint16)(p) = pick(hi, float16.Inf(), float16.Inf().Negate()).Uint16()
	case array.Float32:
		*(*float32)(p) = pick(hi, float32(math.Inf(1)), float32(math.Inf(-1)))
	case array.Float64:
		*(*float64)(p) = pick(hi, math.Inf(1), math.Inf(-1))
	}
	return b
}

func pick[T any](hi bool, a, b T) T {
	if hi {
		return a
	}
	return b
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// reduce evaluates a reduction: the argument's tree is fused and folded
// into an accumulator shaped like the argument with the reduced axes set to
// 1, which is then converted (mean: divided) into the result.
func (ev *evaluation) reduce(r *rnode, dst *array.Array) (*array.Array, error) {
	switch r.n.red {
	case redVar, redStd:
		return ev.moments(r, dst)
	case redArgmin, redArgmax:
		return ev.argExtreme(r, dst)
	case redCumsum, redCumprod:
		return ev.scan(r, dst)
	}
	if out, ok, err := ev.anyCompare(r, dst); ok {
		return out, err
	}
	arg := r.args[0]
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	at := kernelType(r.ctype) // accumulator type
	// xt: the type the fused pass delivers its values in. Float sums and
	// means accumulate in float64 with compensation (accurateSum), float
	// products of float16 and float32 in float64.
	xt := at
	sumK, accurate := accurateSum(r.n.red, at)
	if accurate || (r.n.red == redProd && at == array.Float32) {
		at = array.Float64
	}
	if !accurate {
		xt = at
	}
	keep := slices.Clone(arg.shape)
	for _, a := range r.axes {
		keep[a] = 1
	}
	// accumulate straight into the output when it is a fresh or contiguous
	// array of the accumulator's type that no input shares.
	direct := at == r.dtype && (dst == nil || (dst.IsContiguous() && !overlaps(dst, arg)))
	var acc, out *array.Array
	var err error
	if direct {
		out = dst
		if out == nil {
			if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
				return nil, err
			}
		}
		if acc, err = out.Reshaped(keep...); err != nil {
			if dst == nil {
				out.Release()
			}
			return nil, err
		}
		defer acc.Release()
	} else {
		if acc, err = ev.newOutput(at, keep); err != nil {
			return nil, err
		}
		defer acc.Release()
	}
	ident := identity(r.n.red, at)
	fill, _ := compute.Gather(at.Size())
	var accPtr unsafe.Pointer
	if acc.Len() > 0 {
		// (an empty view may have an offset past its empty buffer)
		accPtr = unsafe.Add(acc.DataPointer(), acc.Offset()*at.Size())
		fill(accPtr, unsafe.Pointer(&ident), acc.Len(), 0)
	}

	accStrides := array.ContiguousStrides(keep)
	for _, a := range r.axes {
		accStrides[a] = 0
	}
	fail := func(err error) (*array.Array, error) {
		if direct && dst == nil {
			out.Release()
		}
		return nil, err
	}
	g, err := ev.buildGroup(arg, arg.shape, accStrides, xt, false, false)
	if err != nil {
		return fail(err)
	}
	var comp *array.Array // accurate sums: the compensations, like acc
	if accurate {
		if comp, err = ev.newOutput(array.Float64, keep); err != nil {
			return fail(err)
		}
		defer comp.Release()
		if comp.Len() > 0 {
			fill(comp.DataPointer(), unsafe.Pointer(&ident), comp.Len(), 0)
		}
	}
	op := r.n.red.op()
	if !at.IsFloat() && op == compute.Fmax {
		op = compute.Maximum // nanmax of integers is max
	}
	if !at.IsFloat() && op == compute.Fmin {
		op = compute.Minimum
	}
	fold, err := compute.LookupFold(op, compute.Type(at))
	if err != nil {
		return fail(err)
	}
	accum, err := compute.LookupAccumulate(op, compute.Type(at))
	if err != nil {
		return fail(err)
	}
	if k, ok := g.fuseWidenAccum(op, at, accurate); ok {
		accum = k
	}
	if k, ok := compute.LookupAccumulateRows(compute.Type(at)); ok && op == compute.Add && !accurate {
		g.useRows(k)
	}
	if k, ok := compute.LookupExtremeRows(op, compute.Type(at)); ok {
		g.useRows(k) // max and min over rows: four rows a step, the same results
	}
	g.useRuns()
	if accurate {
		g.useRows(nil)
		g.notes = append(g.notes, fmt.Sprintf("accurate sum: %v values into float64 accumulators with compensation", xt))
	}
	finish := finishCast(r, at, dst, direct)
	if finish != nil {
		g.notes = append(g.notes, fmt.Sprintf("finish: cast %v->%v into the result", at, r.dtype))
	}
	if ev.describe(g, r, "reduce "+r.n.red.String()+fmt.Sprint(" over axes ", r.axes, " into accumulator ", at, keep), dst) {
		if direct && dst == nil {
			out.Release()
		}
		return nil, nil
	}
	t := target{base: acc.DataPointer(), off: acc.Offset(), size: at.Size(), fold: fold, accum: accum, ident: unsafe.Pointer(&ident)}
	if accurate {
		t.sum, t.comp = &sumK, comp.DataPointer()
	}

	workers := ev.o.workers
	outerOnly := g.dstCS[0] != 0
	var privates, pcomps []*array.Array
	var private func(i int) target
	if !outerOnly && workers > 1 {
		// every worker folds into its own accumulator, summed at the end;
		// only worth it while the accumulators are small next to the input.
		// A float product is one running product per output in index
		// order, NumPy's: split between workers it would round, overflow
		// and underflow differently with each worker count (overflow in
		// one part and underflow in another give NaN where NumPy's gives
		// an infinity).
		if acc.Len()*workers*4 > size(arg.shape) || (r.n.red == redProd && at.IsFloat()) {
			workers = 1
		} else {
			privates, pcomps = make([]*array.Array, workers), make([]*array.Array, workers)
			private = func(i int) target {
				p, err := ev.newOutput(at, keep)
				if err != nil {
					return t // fall back: cannot happen with a Go allocator
				}
				var pc *array.Array
				if accurate {
					if pc, err = ev.newOutput(array.Float64, keep); err != nil {
						p.Release()
						return t
					}
					fill(pc.DataPointer(), unsafe.Pointer(&ident), pc.Len(), 0)
				}
				fill(p.DataPointer(), unsafe.Pointer(&ident), p.Len(), 0)
				privates[i], pcomps[i] = p, pc
				tt := t
				tt.base, tt.off = p.DataPointer(), 0
				if accurate {
					tt.comp = pc.DataPointer()
				}
				return tt
			}
		}
	}
	g.execute(t, g.arrays(), workers, outerOnly, private)
	for i, p := range privates { // in worker order: the merge order is fixed
		if p == nil {
			continue
		}
		if accurate {
			compute.MergeSums(accPtr, comp.DataPointer(), p.DataPointer(), pcomps[i].DataPointer(), acc.Len())
			pcomps[i].Release()
		} else {
			accum(accPtr, unsafe.Add(p.DataPointer(), p.Offset()*at.Size()), acc.Len())
		}
		p.Release()
	}
	if accurate && acc.Len() > 0 {
		compute.FinishSums(accPtr, comp.DataPointer(), acc.Len())
	}
	if r.n.red == redMean {
		if err := ev.mean(g, arg, accStrides, keep, at, accPtr, acc.Len(), workers, outerOnly); err != nil {
			return fail(err)
		}
	}
	if direct && out.HasNulls() && out.Len() > 0 {
		// the result has no nulls: clear what the output's mask held
		m := unsafe.Slice((*byte)(unsafe.Add(out.ValidityPointer(), out.Offset())), out.Len())
		for i := range m {
			m[i] = 1
		}
	}
	if direct {
		return out, nil
	}
	if finish != nil {
		return ev.finishInto(finish, acc, r, dst)
	}
	// convert the accumulator into the result (cast, reshape, strided dst)
	view, err := acc.Reshaped(r.shape...)
	if err != nil {
		return nil, err
	}
	defer view.Release()
	cp := &rnode{n: &Node{kind: kCast, dtype: r.dtype, ctype: r.dtype, args: []*Node{r.n}}, shape: r.shape, dtype: r.dtype, ctype: r.dtype,
		args: []*rnode{{n: r.n, shape: r.shape, arr: view, dtype: at, ctype: at}},
		maps: []broadcast.AxisMap{identityMap(len(r.shape))}}
	return ev.elementwise(cp, dst)
}

// accurateSum reports whether a reduction r computed in type at (float32
// for float16) is a float sum (ReduceSum, ReduceMean, and so Nansum and
// Nanmean), which accumulates at's values into float64 accumulators with a
// compensation each (compute.LookupSum), and returns its kernels.
func accurateSum(r reduction, at array.DType) (compute.SumKernels, bool) {
	if (r != redSum && r != redMean) || !at.IsFloat() {
		return compute.SumKernels{}, false
	}
	return compute.LookupSum(compute.Type(at))
}

// useRows switches a sum to the multi-row kernel when it applies: the
// argument is one leaf read in place (no instructions, unit inner stride,
// no nulls) of the accumulator's type, and the accumulator runs along the
// inner axis and repeats along the row axis.
// A nil k (an accurate sum, whose target carries its own Rows kernel)
// only marks the group (g.rowsOK).
func (g *group) useRows(k compute.RowsFunc) {
	r := len(g.cshape)
	if r < 2 || len(g.prog) != 0 || len(g.leaves) != 1 || g.masked || g.root != 0 {
		return
	}
	l := g.leaves[0]
	if l.inner() != 1 || l.dt != g.rootT || g.dstCS[r-2] != 0 || g.dstCS[r-1] != 1 {
		return
	}
	g.rows, g.rowsOK = k, true
	g.notes = append(g.notes, "sum rows: multi-row kernel")
}

// useRuns hands whole runs along the inner axis to the fold kernel instead
// of tiles when the pass has nothing to compute: one leaf read in place
// (unit inner stride, no nulls) of the accumulator's type folded along the
// inner axis. The kernels then see runs long enough to read as several
// streams (compute/extrema.go's streamLen), and a 64 MiB fold makes one
// kernel call instead of 16384.
func (g *group) useRuns() {
	r := len(g.cshape)
	if len(g.prog) != 0 || len(g.leaves) != 1 || g.masked || g.count || g.root != 0 || g.rootS {
		return
	}
	if l := g.leaves[0]; l.inner() != 1 || l.gather != nil || l.dt != g.rootT || g.dstCS[r-1] != 0 {
		return
	}
	g.runs = true
	g.notes = append(g.notes, "fold: whole runs per kernel call")
}

// mean turns the sums in the accumulator (n elements at accPtr, of type at)
// into means: divided by the number of elements reduced into each, or, when
// the argument has nulls, by the number of valid ones, counted by a second
// pass over the same leaves (a mean of no valid element is NaN).
func (ev *evaluation) mean(g *group, arg *rnode, accStrides, keep []int, at array.DType, accPtr unsafe.Pointer, n int, workers int, outerOnly bool) error {
	if n == 0 {
		return nil
	}
	tmp := make([]byte, n*at.Size())
	copy(tmp, unsafe.Slice((*byte)(accPtr), len(tmp)))
	if !g.masked {
		div, err := compute.LookupBinary(compute.Div, compute.Type(at), compute.VS)
		if err != nil {
			return err
		}
		cv := scalarOf(at, float64(size(arg.shape)/n))
		if size(arg.shape) == 0 {
			cv = scalarOf(at, math.NaN())
		}
		div(accPtr, unsafe.Pointer(unsafe.SliceData(tmp)), unsafe.Pointer(&cv), n)
		return nil
	}
	cnt, err := ev.newOutput(at, keep)
	if err != nil {
		return err
	}
	defer cnt.Release()
	gc, err := ev.buildGroup(arg, arg.shape, accStrides, at, false, false)
	if err != nil {
		return err
	}
	gc.count = true
	zero := identity(redSum, at)
	fill, _ := compute.Gather(at.Size())
	fill(cnt.DataPointer(), unsafe.Pointer(&zero), n, 0)
	fold, err := compute.LookupFold(compute.Add, compute.Type(at))
	if err != nil {
		return err
	}
	accum, err := compute.LookupAccumulate(compute.Add, compute.Type(at))
	if err != nil {
		return err
	}
	if !outerOnly {
		workers = 1 // no private counters: the count pass runs on one worker
	}
	gc.execute(target{base: cnt.DataPointer(), size: at.Size(), fold: fold, accum: accum, ident: unsafe.Pointer(&zero)},
		gc.arrays(), workers, outerOnly, nil)
	div, err := compute.LookupBinary(compute.Div, compute.Type(at), compute.VV)
	if err != nil {
		return err
	}
	div(accPtr, unsafe.Pointer(unsafe.SliceData(tmp)), cnt.DataPointer(), n) // 0/0 = NaN
	return nil
}

// scalarOf returns v converted to t as an 8-byte pattern, by compute's
// cast from float64 (the conversion of astype: truncation toward zero for
// integers, x != 0 for bool, one rounding for float16).
func scalarOf(t array.DType, v float64) [8]byte {
	var b [8]byte
	if k, err := compute.LookupCast(compute.Float64, compute.Type(t)); err == nil {
		k(unsafe.Pointer(&b), unsafe.Pointer(&v), 1)
	}
	return b
}

// fuseWidenAccum drops a pass's one instruction, a cast of a leaf to the
// accumulator type at, when compute has that cast fused into the
// accumulating step of op (compute.LookupAccumulateWiden: a float32
// product into float64 accumulators) and the pass only accumulates (its
// innermost axis is kept, so it never folds; no masks, counts or accurate
// sums). The leaf is then the pass's value, read in place by the fused
// step: the tile of cast values is neither written nor read again.
func (g *group) fuseWidenAccum(op compute.Op, at array.DType, accurate bool) (compute.AccumulateFunc, bool) {
	if len(g.prog) != 1 || accurate || g.masked || g.count || g.rootS || g.dstCS[len(g.dstCS)-1] == 0 {
		return nil, false
	}
	in := g.prog[0]
	if in.code != iUnary || in.castFrom == array.Invalid || in.scalar || in.a >= len(g.leaves) || g.rootT != at {
		return nil, false
	}
	k, ok := compute.LookupAccumulateWiden(op, compute.Type(at), compute.Type(in.castFrom))
	if !ok {
		return nil, false
	}
	g.prog, g.root, g.rootT, g.fusedStep = g.prog[:0], in.a, in.castFrom, true
	if err := g.rootMoves(); err != nil { // the root's element size changed
		return nil, false
	}
	g.notes[len(g.notes)-1] = fmt.Sprintf("%v of %v into the %v accumulators, the cast fused into the step", op, in.castFrom, at)
	return k, true
}
