package expr

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// Argmin returns the index of the minimum of x over axes, as an int64
// array: with axes nil, the flat (C-order) index into the whole array, as
// numpy.argmin without an axis; with one axis, the index along it, as
// numpy.argmin(x, axis); with several axes, the C-order index into those
// axes taken together. The first occurrence wins; a NaN counts as the
// minimum, so the first NaN is the answer, as in NumPy. Lazy: the shape is
// known when built. Nulls are skipped; a slice of nulls only gives -1. An
// axis of size 0 is an error (ErrArgument: NumPy's "attempt to get argmin
// of an empty sequence"). keepDims keeps the reduced axes as size 1.
func Argmin(x *Node, axes []int, keepDims bool) *Node { return argNode(redArgmin, x, axes, keepDims) }

// Argmax is Argmin for the maximum (the first NaN, if any, wins).
func Argmax(x *Node, axes []int, keepDims bool) *Node { return argNode(redArgmax, x, axes, keepDims) }

func argNode(r reduction, x *Node, axes []int, keep bool) *Node {
	n := reduce(r, x, axes, keep)
	if n.err == nil && x.dtype == array.Invalid {
		n.err = fmt.Errorf("expr.%s: %w: %v", r.funcName(), ErrDType, x.dtype)
	}
	return n
}

// argWork is the type the values of dtype dt are compared in (exactly).
func argWork(dt array.DType) array.DType {
	switch dt {
	case array.Float16:
		return array.Float32
	case array.Bool:
		return array.Uint8
	}
	return dt
}

// argExtreme evaluates Argmin and Argmax.
func (ev *evaluation) argExtreme(r *rnode, dst *array.Array) (*array.Array, error) {
	x, out, done, err := ev.walkPass(r, dst, fmt.Sprintf("%v over axes %v: first occurrence, first NaN wins", r.n.red, r.axes), array.Int64)
	if err != nil || out == nil {
		return nil, err
	}
	defer done()
	idx := unsafe.Slice((*int64)(out.DataPointer()), out.Len())
	w := newWalk(x, r.axes)
	isMax := r.n.red == redArgmax
	switch argWork(x.DType()) {
	case array.Int8:
		err = argWalk[int8](w, isMax, idx, ev.o.workers)
	case array.Int16:
		err = argWalk[int16](w, isMax, idx, ev.o.workers)
	case array.Int32:
		err = argWalk[int32](w, isMax, idx, ev.o.workers)
	case array.Int64:
		err = argWalk[int64](w, isMax, idx, ev.o.workers)
	case array.Uint8:
		err = argWalk[uint8](w, isMax, idx, ev.o.workers)
	case array.Uint16:
		err = argWalk[uint16](w, isMax, idx, ev.o.workers)
	case array.Uint32:
		err = argWalk[uint32](w, isMax, idx, ev.o.workers)
	case array.Uint64:
		err = argWalk[uint64](w, isMax, idx, ev.o.workers)
	case array.Float32:
		err = argWalk[float32](w, isMax, idx, ev.o.workers)
	case array.Float64:
		err = argWalk[float64](w, isMax, idx, ev.o.workers)
	default:
		err = fmt.Errorf("expr.%s: %w: %v", r.n.red.funcName(), ErrDType, x.DType())
	}
	if err != nil {
		out.Release()
		return nil, err
	}
	return ev.deliver(r, out, dst)
}

type ordered interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// better reports whether v replaces the best value b found so far: it is
// NaN (and b is not), or strictly beyond b. Ties keep the earlier index.
func better[T ordered](v, b T, isMax bool) bool {
	if b != b {
		return false // the first NaN stays
	}
	if v != v {
		return true
	}
	if isMax {
		return v > b
	}
	return v < b
}

// argStep folds row j of the reduced axis (x, no nulls) into the best
// values so far and their indices, lane by lane, as better does: a NaN
// replaces a number, the first NaN stays, ties keep the earlier row. One
// loop per direction, the comparison written out, so that it compiles to a
// few instructions a lane (better's checks in the column walk were most of
// an argmax along axis 0).
func argStep[T ordered](x, best []T, at []int64, j int64, isMax bool) {
	best, at = best[:len(x)], at[:len(x)]
	if isMax {
		for i, v := range x {
			if b := best[i]; v > b || v != v && b == b {
				best[i], at[i] = v, j
			}
		}
		return
	}
	for i, v := range x {
		if b := best[i]; v < b || v != v && b == b {
			best[i], at[i] = v, j
		}
	}
}

// unbeatable reports whether no later value can replace best as the
// first extreme: a NaN (the first wins), or the type's own extreme (a
// bool's true for argmax, false for argmin).
func unbeatable[T ordered](best T, isMax, isBool bool) bool {
	if best != best {
		return true
	}
	var top T
	switch any(best).(type) {
	case int8:
		top = T(pick[int8](isMax, math.MaxInt8, math.MinInt8))
	case int16:
		top = T(pick[int16](isMax, math.MaxInt16, math.MinInt16))
	case int32:
		top = T(pick[int32](isMax, math.MaxInt32, math.MinInt32))
	case int64:
		top = T(pick[int64](isMax, math.MaxInt64, math.MinInt64))
	case uint8:
		top = T(pick[uint8](isMax, pick[uint8](isBool, 1, math.MaxUint8), 0))
	case uint16:
		top = T(pick[uint16](isMax, math.MaxUint16, 0))
	case uint32:
		top = T(pick[uint32](isMax, math.MaxUint32, 0))
	case uint64:
		top = T(pick[uint64](isMax, math.MaxUint64, 0))
	default:
		return false // floats: only a NaN
	}
	return best == top
}

// argRun folds n values (validity mk, nil: all valid) whose reduced indices
// start at k0 into the best value *b at index *bi (-1: none yet); isBool
// marks uint8 values that are bools (whose argmax is the first true).
func argRun[T ordered](p, mk unsafe.Pointer, n int, k0 int64, b *T, bi *int64, isMax, isBool bool) {
	if mk == nil && n >= 64 {
		// no nulls: the block's first extreme (or a float's first NaN)
		// by the vector kernels, then one comparison with the best so far
		i := -1
		switch any(*b).(type) {
		case float32:
			i = compute.ArgExtremeFloat32(p, n, isMax)
		case float64:
			i = compute.ArgExtremeFloat64(p, n, isMax)
		case int8:
			i = compute.ArgExtremeInt(compute.Int8, p, n, isMax)
		case int16:
			i = compute.ArgExtremeInt(compute.Int16, p, n, isMax)
		case int32:
			i = compute.ArgExtremeInt(compute.Int32, p, n, isMax)
		case int64:
			i = compute.ArgExtremeInt(compute.Int64, p, n, isMax)
		case uint8:
			t := compute.Uint8
			if isBool {
				t = compute.Bool
			}
			i = compute.ArgExtremeInt(t, p, n, isMax)
		case uint16:
			i = compute.ArgExtremeInt(compute.Uint16, p, n, isMax)
		case uint32:
			i = compute.ArgExtremeInt(compute.Uint32, p, n, isMax)
		case uint64:
			i = compute.ArgExtremeInt(compute.Uint64, p, n, isMax)
		}
		if i >= 0 {
			if v := *(*T)(unsafe.Add(p, i*int(unsafe.Sizeof(*b)))); *bi < 0 || better(v, *b, isMax) {
				*b, *bi = v, k0+int64(i)
			}
			return
		}
	}
	x := unsafe.Slice((*T)(p), n)
	var m []byte
	if mk != nil {
		m = unsafe.Slice((*byte)(mk), n)
	}
	best, at := *b, *bi
	for i, v := range x {
		if m != nil && m[i] == 0 {
			continue
		}
		if at < 0 || better(v, best, isMax) {
			best, at = v, k0+int64(i)
			if v != v {
				break
			}
		}
	}
	*b, *bi = best, at
}

// argWalk computes the index of each output's extreme: by runs along the
// innermost reduced axis, or by lanes when the reduction is over outer
// axes (every row of lanes is compared against the lanes' best so far, in
// C order of the reduced axes, so the first occurrence wins).
func argWalk[T ordered](w *walk, isMax bool, idx []int64, workers int) error {
	var z T
	work := array.DType(0)
	switch any(z).(type) {
	case int8:
		work = array.Int8
	case int16:
		work = array.Int16
	case int32:
		work = array.Int32
	case int64:
		work = array.Int64
	case uint8:
		work = array.Uint8
		if w.a.DType() == array.Bool {
			work = array.Bool
		}
	case uint16:
		work = array.Uint16
	case uint32:
		work = array.Uint32
	case uint64:
		work = array.Uint64
	case float32:
		work = array.Float32
	case float64:
		work = array.Float64
	}
	if w.nOut == 0 {
		return nil
	}
	const block, directBlock = 4096, 1 << 16
	var fe firstError
	if w.columns() {
		k := len(w.kShape) - 1
		lanes, ls := w.kShape[k], w.kStr[k]
		nOuter := w.nOut / lanes
		chunk := min(lanes, block)
		if nOuter*((lanes+chunk-1)/chunk) < workers {
			chunk = max(64, (lanes+workers-1)/workers)
		}
		nChunks := (lanes + chunk - 1) / chunk
		split(nOuter*nChunks, chunk*w.nRed, workers, func(lo, hi int) {
			ld, err := w.loader(work, chunk, 1)
			if err != nil {
				fe.set(err)
				return
			}
			ko := newOdometer(w.kShape[:k], w.kStr[:k], 0)
			ro := newOdometer(w.rShape, w.rStr, 0)
			best := make([]T, chunk)
			for u := lo; u < hi; u++ {
				o, l0 := u/nChunks, u%nChunks*chunk
				n := min(chunk, lanes-l0)
				ko.seek(o)
				ro.seek(0)
				at := idx[o*lanes+l0 : o*lanes+l0+n]
				for i := range at {
					at[i] = -1
				}
				for j := 0; j < w.nRed; j++ {
					p, mk := ld.load(ko.off+l0*ls+ro.off, n, ls, 0)
					x := unsafe.Slice((*T)(p), n)
					switch {
					case mk != nil:
						m := unsafe.Slice((*byte)(mk), n)
						for i, v := range x {
							if m[i] != 0 && (at[i] < 0 || better(v, best[i], isMax)) {
								best[i], at[i] = v, int64(j)
							}
						}
					case j == 0:
						copy(best, x)
						clear(at)
					default:
						argStep(x, best[:n], at, int64(j), isMax)
					}
					ro.next()
				}
			}
		})
		return fe.err
	}
	rs, rstr, run, runStride := w.rShape, w.rStr, 1, 1
	if k := len(rs) - 1; k >= 0 {
		run, runStride = rs[k], rstr[k]
		rs, rstr = rs[:k], rstr[:k]
	}
	b := min(run, block)
	if w.a.DType() == work && w.mask == nil && runStride == 1 {
		// contiguous values read in place: blocks of 64K, so that the
		// per-call work (a fold, then a search from L2) stays small
		// beside the values (a whole int8 argmax: 2048 calls of 4096)
		b = min(run, directBlock)
	}
	rows4 := argRows4[T](w, run, runStride, work)
	split(w.nOut, w.nRed, workers, func(lo, hi int) {
		ld, err := w.loader(work, b, 1)
		if err != nil {
			fe.set(err)
			return
		}
		if rows4 != nil {
			lo = rows4(lo, hi, isMax, idx)
		}
		ko := newOdometer(w.kShape, w.kStr, lo)
		ro := newOdometer(rs, rstr, 0)
		outer := w.nRed / run
		isBool := work == array.Bool
		for o := lo; o < hi; o++ {
			var best T
			at := int64(-1)
			ro.seek(0)
		runs:
			for j := 0; j < outer; j++ {
				for c := 0; c < run; c += b {
					n := min(b, run-c)
					p, mk := ld.load(ko.off+ro.off+c*runStride, n, runStride, 0)
					argRun(p, mk, n, int64(j*run+c), &best, &at, isMax, isBool)
					if at >= 0 && unbeatable(best, isMax, isBool) {
						break runs // ties keep the earlier index: nothing later wins
					}
				}
				ro.next()
			}
			idx[o] = at
			ko.next()
		}
	})
	return fe.err
}

// argRows4 returns, for a float walk whose every output reduces one
// contiguous run of the array's own dtype without nulls (argmax(x, axis=1)
// of a C-ordered matrix), a function that computes the outputs of [lo, hi)
// four at a time, from rows a quarter of the range apart (four sequential
// streams from memory instead of one: compute.ArgExtreme4Float32), and
// returns where the rows it left (fewer than four) start; nil otherwise.
func argRows4[T ordered](w *walk, run, runStride int, work array.DType) func(lo, hi int, isMax bool, idx []int64) int {
	var z T
	var f func(*[4]unsafe.Pointer, int, bool, *[4]int) bool
	switch any(z).(type) {
	case float32:
		f = compute.ArgExtreme4Float32
	case float64:
		f = compute.ArgExtreme4Float64
	default:
		return nil
	}
	if w.mask != nil || w.a.DType() != work || run != w.nRed || run < 64 || runStride != 1 && run > 1 {
		return nil
	}
	return func(lo, hi int, isMax bool, idx []int64) int {
		m := (hi - lo) / 4
		if m == 0 {
			return lo
		}
		var ko [4]*odometer
		for k := range ko {
			ko[k] = newOdometer(w.kShape, w.kStr, lo+k*m)
		}
		var p [4]unsafe.Pointer
		var at [4]int
		for i := 0; i < m; i++ {
			for k, o := range ko {
				p[k] = unsafe.Add(w.base, (w.off+o.off)*w.size)
				o.next()
			}
			if !f(&p, run, isMax, &at) {
				return lo // no kernels (known at the first call: nothing done yet)
			}
			for k, a := range at {
				idx[lo+k*m+i] = int64(a)
			}
		}
		return lo + 4*m
	}
}
