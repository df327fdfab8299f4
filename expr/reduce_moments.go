package expr

import (
	"fmt"
	"math"
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
// NumPy's division does. keepDims keeps the reduced axes as size 1.
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
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	if ev.describePass(r, fmt.Sprintf("%v over axes %v: blocks of two passes (mean, squared deviations) merged by Chan's formulas", r.n.red, r.axes), dst) {
		return nil, nil
	}
	x, done, err := ev.operand(r.args[0])
	if err != nil {
		return nil, err
	}
	defer done()
	w := newWalk(x, r.axes)
	res := make([]compute.Moments, w.nOut)
	if w.nOut > 0 && w.nRed > 0 {
		work := momentsWork(x.DType())
		if w.columns() {
			err = momentsColumns(w, work, res, ev.o.workers)
		} else {
			err = momentsRows(w, work, res, ev.o.workers)
		}
		if err != nil {
			return nil, err
		}
	}
	out, err := ev.newOutput(array.Float64, r.shape)
	if err != nil {
		return nil, err
	}
	v := unsafe.Slice((*float64)(out.DataPointer()), out.Len())
	for i, m := range res {
		v[i] = m.Var(r.n.ddof)
		if r.n.red == redStd {
			v[i] = math.Sqrt(v[i])
		}
	}
	return ev.deliver(r, out, dst)
}

// momentsRows computes each output's moments from runs along the innermost
// reduced axis, block by block.
func momentsRows(w *walk, work array.DType, res []compute.Moments, workers int) error {
	rs, rstr, run := w.rShape, w.rStr, 1
	runStride := 1
	if k := len(rs) - 1; k >= 0 {
		run, runStride = rs[k], rstr[k]
		rs, rstr = rs[:k], rstr[:k]
	}
	block := min(run, compute.MomentsBlock)
	var err error
	split(w.nOut, w.nRed, workers, func(lo, hi int) {
		ld, e := w.loader(work, block, 1)
		if e != nil {
			err = e
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
			res[o] = m
			ko.next()
		}
	})
	return err
}

// momentsColumns computes the moments of lanes along the innermost kept
// axis, reading whole rows of lanes (a reduction over outer axes): blocks of
// rows are reduced in two passes and merged into the lanes.
func momentsColumns(w *walk, work array.DType, res []compute.Moments, workers int) error {
	k := len(w.kShape) - 1
	lanes, ls := w.kShape[k], w.kStr[k]
	nOuter := w.nOut / lanes
	chunk := min(lanes, 2048)
	if nOuter*((lanes+chunk-1)/chunk) < workers {
		chunk = max(64, (lanes+workers-1)/workers)
	}
	nChunks := (lanes + chunk - 1) / chunk
	// a block of rows fills about 256 KiB (L2) and is read twice
	rows := max(1, min(64, (256<<10)/(chunk*work.Size())))
	var err error
	split(nOuter*nChunks, chunk*w.nRed, workers, func(lo, hi int) {
		ld, e := w.loader(work, chunk, rows)
		if e != nil {
			err = e
			return
		}
		ko := newOdometer(w.kShape[:k], w.kStr[:k], 0)
		ro := newOdometer(w.rShape, w.rStr, 0)
		lm := compute.LaneMoments{Mean: make([]float64, chunk), M2: make([]float64, chunk)}
		var each []compute.Moments // per lane, with nulls
		bsum, bm2, tmp := alignedBytes(chunk*8), alignedBytes(chunk*8), alignedBytes(chunk*8)
		ptrs := make([]unsafe.Pointer, 0, rows)
		for u := lo; u < hi; u++ {
			o, l0 := u/nChunks, u%nChunks*chunk
			n := min(chunk, lanes-l0)
			ko.seek(o)
			base := ko.off + l0*ls
			ro.seek(0)
			out := res[o*lanes+l0 : o*lanes+l0+n]
			if w.mask != nil {
				if cap(each) < n {
					each = make([]compute.Moments, n)
				}
				each = each[:n]
				clear(each)
				for j := 0; j < w.nRed; j++ {
					p, mk := ld.load(base+ro.off, n, ls, 0)
					pushValid(each, p, mk, work)
					ro.next()
				}
				copy(out, each)
				continue
			}
			lm.Count, lm.Mean, lm.M2 = 0, lm.Mean[:n], lm.M2[:n]
			flush := func() {
				if work == array.Float32 {
					lm.MergeRows32(ptrs, bytesAs[float32](bsum), bytesAs[float32](bm2), bytesAs[float32](tmp))
				} else {
					lm.MergeRows64(ptrs, bytesAs[float64](bsum), bytesAs[float64](bm2), bytesAs[float64](tmp))
				}
				ptrs = ptrs[:0]
			}
			for j := 0; j < w.nRed; j++ {
				p, _ := ld.load(base+ro.off, n, ls, len(ptrs))
				ptrs = append(ptrs, p)
				if len(ptrs) == rows {
					flush()
				}
				ro.next()
			}
			if len(ptrs) > 0 {
				flush()
			}
			for i := range out {
				out[i] = compute.Moments{Count: lm.Count, Mean: lm.Mean[i], M2: lm.M2[i]}
			}
			lm.Mean, lm.M2 = lm.Mean[:chunk], lm.M2[:chunk]
		}
	})
	return err
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
