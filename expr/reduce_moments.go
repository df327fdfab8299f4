package expr

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// ReduceVar returns the variance of x over axes (nil: every axis; negative axes
// count from the end), with ddof delta degrees of freedom: the sum of
// squared deviations from the mean divided by max(n - ddof, 0), as
// numpy.var. Lazy: the result's shape is known when built. NumPy 2's
// dtypes: float16, float32 and float64 keep their dtype (float16 and
// float32 are computed in float32 blocks merged in float64), bool and
// integers give float64. Nulls are left out (a slice with no valid element,
// like an empty one, gives NaN); NaN and Inf propagate; no degree of
// freedom left gives NaN (or +Inf when the deviations are not all zero), as
// NumPy's division does. Finite values whose sums overflow give +Inf when
// the variance is beyond the dtype (as NumPy) and its value when it is not
// (values all equal near the top of the range: 0, where NumPy's
// overflowed mean gives +Inf). NumPy computes float16 in float16, so its
// variance is +Inf once a squared deviation passes 65504; ours is computed
// in float32 and rounded once. keepDims keeps the reduced axes as size 1.
//
// The algorithm is one read of the data: blocks small enough to stay in
// cache get two passes (mean, then squared deviations from it) and are
// merged by Chan's formulas (compute.Moments), so it is accurate when the
// mean is large next to the spread, unlike the sum of squares.
func ReduceVar(x *Node, axes []int, ddof int, keepDims bool) *Node {
	return moments(redVar, x, axes, ddof, keepDims)
}

// ReduceStd is the square root of ReduceVar (numpy.std), with ReduceVar's dtypes, nulls and
// algorithm.
func ReduceStd(x *Node, axes []int, ddof int, keepDims bool) *Node {
	return moments(redStd, x, axes, ddof, keepDims)
}

func moments(r reduction, x *Node, axes []int, ddof int, keep bool) *Node {
	n := reduce(r, x, axes, keep)
	n.ddof = ddof
	if n.err == nil && ddof < 0 {
		n.err = fmt.Errorf("expr.%s: %w: ddof %d is negative", r.funcName(), ErrArgument, ddof)
	}
	if n.err == nil && x.dtype == array.Invalid {
		n.err = fmt.Errorf("expr.%s: %w: %v", r.funcName(), ErrDType, x.dtype)
	}
	return n
}

// momentsWork is the type that blocks of dtype dt are computed in.
func momentsWork(dt array.DType) array.DType {
	if dt == array.Float32 || dt == array.Float16 {
		return array.Float32
	}
	return array.Float64
}

// moments evaluates Var and Std.
func (ev *evaluation) moments(r *rnode, dst *array.Array) (*array.Array, error) {
	x, out, done, err := ev.walkPass(r, dst, fmt.Sprintf("%v over axes %v: blocks of two passes (mean, squared deviations) merged by Chan's formulas", r.n.red, r.axes), array.Float64)
	if err != nil || out == nil {
		return nil, err
	}
	defer done()
	v := unsafe.Slice((*float64)(out.DataPointer()), out.Len())
	ddof, isStd := r.n.ddof, r.n.red == redStd
	put := func(i int, m compute.Moments) {
		v[i] = m.Var(ddof)
		if isStd {
			v[i] = math.Sqrt(v[i])
		}
	}
	w := newWalk(x, r.axes)
	if w.nRed == 0 {
		for i := range v {
			put(i, compute.Moments{})
		}
	}
	if w.nOut > 0 && w.nRed > 0 {
		work := momentsWork(x.DType())
		if w.columns() {
			err = momentsColumns(w, work, put, ev.o.workers)
		} else {
			err = momentsRows(w, work, put, ev.o.workers)
		}
		if err != nil {
			out.Release()
			return nil, err
		}
	}
	return ev.deliver(r, out, dst)
}

// momentsRows computes each output's moments from runs along the innermost
// reduced axis, block by block.
func momentsRows(w *walk, work array.DType, put func(int, compute.Moments), workers int) error {
	rs, rstr, run := w.rShape, w.rStr, 1
	runStride := 1
	if k := len(rs) - 1; k >= 0 {
		run, runStride = rs[k], rstr[k]
		rs, rstr = rs[:k], rstr[:k]
	}
	block := min(run, compute.MomentsBlock)
	var fe firstError
	split(w.nOut, w.nRed, workers, func(lo, hi int) {
		ld, err := w.loader(work, block, 1)
		if err != nil {
			fe.set(err)
			return
		}
		tmp := alignedBytes(block * 8)
		keep := alignedBytes(block * 8) // the valid values of a run with nulls
		ko := newOdometer(w.kShape, w.kStr, lo)
		ro := newOdometer(rs, rstr, 0)
		outer := w.nRed / run
		for o := lo; o < hi; o++ {
			var m compute.Moments
			ro.seek(0)
			for j := 0; j < outer; j++ {
				for c := 0; c < run; c += block {
					n := min(block, run-c)
					p, mk := ld.load(ko.off+ro.off+c*runStride, n, runStride, 0)
					if mk != nil {
						p, n = compact(keep, p, mk, n, work.Size())
					}
					if work == array.Float32 {
						m = m.Merge(compute.MomentsOf32(unsafe.Slice((*float32)(p), n), bytesAs[float32](tmp)))
					} else {
						m = m.Merge(compute.MomentsOf64(unsafe.Slice((*float64)(p), n), bytesAs[float64](tmp)))
					}
				}
				ro.next()
			}
			put(o, m)
			ko.next()
		}
	})
	return fe.err
}

// momentsColumns computes the moments of lanes along the innermost kept
// axis, reading whole rows of lanes (a reduction over outer axes): blocks of
// rows are reduced in two passes and merged into the lanes. The rows of a
// chunk of lanes are taken in spans of a size that depends only on the
// number of rows, whose partials are merged in order by Chan's formulas, so
// that the result does not depend on the number of workers. Workers share
// the chunks of lanes or, when there are fewer chunks than workers, the
// spans, handed out one at a time (a worker held up by the machine does
// not hold the others up).
func momentsColumns(w *walk, work array.DType, put func(int, compute.Moments), workers int) error {
	k := len(w.kShape) - 1
	lanes := w.kShape[k]
	nOuter := w.nOut / lanes
	chunk := min(lanes, 2048)
	nChunks := (lanes + chunk - 1) / chunk
	units := nOuter * nChunks
	span := max(1024, (w.nRed+63)/64) // at most 64 spans
	nSpans := (w.nRed + span - 1) / span
	var fe firstError
	if units >= workers || nSpans < 2 || units*chunk*w.nRed < minParallel {
		split(units, chunk*w.nRed, workers, func(lo, hi int) {
			c, err := newColumnWalker(w, work, chunk)
			if err != nil {
				fe.set(err)
				return
			}
			acc := make([]compute.Moments, chunk)
			for u := lo; u < hi; u++ {
				o, l0 := u/nChunks, u%nChunks*chunk
				n := min(chunk, lanes-l0)
				for s := 0; s < nSpans; s++ {
					c.run(o, l0, n, s*span, min(w.nRed, (s+1)*span), c.out[:n])
					for i, m := range c.out[:n] {
						if s == 0 {
							acc[i] = m
						} else {
							acc[i] = acc[i].Merge(m)
						}
					}
				}
				for i, m := range acc[:n] {
					put(o*lanes+l0+i, m)
				}
			}
		})
		return fe.err
	}
	parts := make([][]compute.Moments, nSpans)
	for u := 0; u < units; u++ {
		o, l0 := u/nChunks, u%nChunks*chunk
		n := min(chunk, lanes-l0)
		var next atomic.Int64
		split(workers, minParallel, workers, func(lo, hi int) {
			c, err := newColumnWalker(w, work, chunk)
			if err != nil {
				fe.set(err)
				return
			}
			for {
				s := int(next.Add(1) - 1)
				if s >= nSpans {
					return
				}
				if len(parts[s]) < n {
					parts[s] = make([]compute.Moments, n)
				}
				c.run(o, l0, n, s*span, min(w.nRed, (s+1)*span), parts[s][:n])
			}
		})
		for j := 0; j < n; j++ {
			m := parts[0][j]
			for _, p := range parts[1:] {
				m = m.Merge(p[j])
			}
			put(o*lanes+l0+j, m)
		}
	}
	return fe.err
}

// columnWalker is one worker's state for momentsColumns.
type columnWalker struct {
	w              *walk
	work           array.DType
	ld             *loader
	ko, ro         *odometer
	rows           int // rows per block
	lm             compute.LaneMoments
	each           []compute.Moments
	bsum, bm2, tmp []byte
	ptrs           []unsafe.Pointer
	out            []compute.Moments // one chunk's results
}

func newColumnWalker(w *walk, work array.DType, chunk int) (*columnWalker, error) {
	k := len(w.kShape) - 1
	// a block of rows is read twice: it must stay in cache (L2) between
	// the passes
	rows := max(1, min(64, (256<<10)/(chunk*work.Size())))
	ld, err := w.loader(work, chunk, rows)
	if err != nil {
		return nil, err
	}
	return &columnWalker{w: w, work: work, ld: ld, rows: rows,
		ko: newOdometer(w.kShape[:k], w.kStr[:k], 0), ro: newOdometer(w.rShape, w.rStr, 0),
		lm:   compute.LaneMoments{Mean: make([]float64, chunk), M2: make([]float64, chunk)},
		bsum: alignedBytes(chunk * 8), bm2: alignedBytes(chunk * 8), tmp: alignedBytes(chunk * 8),
		ptrs: make([]unsafe.Pointer, 0, rows), out: make([]compute.Moments, chunk)}, nil
}

// run computes the moments of lanes [l0, l0+n) of outer position o over
// reduced rows [j0, j1) into out.
func (c *columnWalker) run(o, l0, n, j0, j1 int, out []compute.Moments) {
	w := c.w
	ls := w.kStr[len(w.kStr)-1]
	c.ko.seek(o)
	base := c.ko.off + l0*ls
	c.ro.seek(j0)
	if w.mask != nil {
		if cap(c.each) < n {
			c.each = make([]compute.Moments, n)
		}
		each := c.each[:n]
		clear(each)
		for j := j0; j < j1; j++ {
			p, mk := c.ld.load(base+c.ro.off, n, ls, 0)
			pushValid(each, p, mk, c.work)
			c.ro.next()
		}
		copy(out, each)
		return
	}
	lm := &c.lm
	lm.Count, lm.Mean, lm.M2 = 0, lm.Mean[:n], lm.M2[:n]
	flush := func() {
		if c.work == array.Float32 {
			lm.MergeRows32(c.ptrs, bytesAs[float32](c.bsum), bytesAs[float32](c.bm2), bytesAs[float32](c.tmp))
		} else {
			lm.MergeRows64(c.ptrs, bytesAs[float64](c.bsum), bytesAs[float64](c.bm2), bytesAs[float64](c.tmp))
		}
		c.ptrs = c.ptrs[:0]
	}
	for j := j0; j < j1; j++ {
		p, _ := c.ld.load(base+c.ro.off, n, ls, len(c.ptrs))
		c.ptrs = append(c.ptrs, p)
		if len(c.ptrs) == c.rows {
			flush()
		}
		c.ro.next()
	}
	if len(c.ptrs) > 0 {
		flush()
	}
	for i := range out {
		out[i] = lm.Lane(i)
	}
	lm.Mean, lm.M2 = lm.Mean[:cap(lm.Mean)], lm.M2[:cap(lm.M2)]
}

// pushValid adds the valid values of a row to their lanes (Welford).
func pushValid(each []compute.Moments, p, mk unsafe.Pointer, work array.DType) {
	m := unsafe.Slice((*byte)(mk), len(each))
	if work == array.Float32 {
		for i, v := range unsafe.Slice((*float32)(p), len(each)) {
			if m[i] != 0 {
				each[i].Push(float64(v))
			}
		}
		return
	}
	for i, v := range unsafe.Slice((*float64)(p), len(each)) {
		if m[i] != 0 {
			each[i].Push(v)
		}
	}
}

// compact copies the valid ones of n values of size sz at p into keep and
// returns where they are and how many.
func compact(keep []byte, p, mk unsafe.Pointer, n, sz int) (unsafe.Pointer, int) {
	m := unsafe.Slice((*byte)(mk), n)
	src := unsafe.Slice((*byte)(p), n*sz)
	k := 0
	for i, ok := range m {
		if ok != 0 {
			copy(keep[k*sz:(k+1)*sz], src[i*sz:(i+1)*sz])
			k++
		}
	}
	return unsafe.Pointer(unsafe.SliceData(keep)), k
}

// bytesAs views aligned scratch bytes as a slice of T.
func bytesAs[T any](b []byte) []T {
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
}

// EvalMoments evaluates the mergeable partials of ReduceVar(x, axes, ...):
// for each element of the result (C order, the reduced axes dropped), the
// count of valid values, their mean and M2. Partials of the same positions
// computed over disjoint parts of the data (record batches of a stream,
// shards) combine with compute.Moments.Merge, and Var or Std of the merged
// partial is what ReduceVar or ReduceStd of the whole data gives (up to
// rounding). It returns the result's shape with the partials. Options are
// Eval's (allocator, workers, bindings).
func EvalMoments(x *Node, axes []int, opts ...Option) ([]int, []compute.Moments, error) {
	n := ReduceVar(x, axes, 0, false)
	p, err := Compile(n, opts...)
	if err != nil {
		return nil, nil, err
	}
	r, err := resolve(p.root, p.opts.bind)
	if err != nil {
		return nil, nil, err
	}
	ev := &evaluation{o: &p.opts, root: r}
	defer ev.release()
	if err := ev.hoist(r, true); err != nil {
		return nil, nil, err
	}
	a, done, err := ev.operand(r.args[0])
	if err != nil {
		return nil, nil, err
	}
	defer done()
	w := newWalk(a, r.axes)
	parts := make([]compute.Moments, size(r.shape))
	put := func(i int, m compute.Moments) { parts[i] = m }
	if w.nOut > 0 && w.nRed > 0 {
		work := momentsWork(a.DType())
		if w.columns() {
			err = momentsColumns(w, work, put, ev.o.workers)
		} else {
			err = momentsRows(w, work, put, ev.o.workers)
		}
	}
	return r.shape, parts, err
}
