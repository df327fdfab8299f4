package expr

import (
	"runtime"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// minRowCopy is the shortest last axis rowCopy takes: below it the fused
// pass's tiles cost no more than a kernel call a row.
const minRowCopy = 16

// rowCopy copies src into dst (same dtype and shape, no masks) a row at a
// time when rowCopyable holds (src's last axis flipped, whose rows the
// reversing gather kernel reads backwards, or contiguous rows in an order
// that does not coalesce, such as a flip of an outer axis; dst's
// contiguous): one kernel call or memmove per row straight into dst, where
// the fused pass would gather each tile into a buffer and copy it out
// again (flip of a [4096, 4096] float64 along axis 0: 10-11 -> 6.4-6.7
// ms, as a contiguous copy). Rows are shared among up to workers
// goroutines when there are enough bytes.
// With stream (dst exists, so its pages are mapped) and at least
// ntThreshold bytes, rows are written around the cache
// (compute.ReverseStream, 4- or 8-byte elements; compute.CopyNT): no
// output line is read before it is written. It reports whether it
// applied.
func rowCopy(dst, src *array.Array, workers int, stream bool) bool {
	ss, ds := src.Strides(), dst.Strides()
	if !rowCopyable(src, ds) || dst.HasNulls() || dst.ReadOnly() || src.DType() != dst.DType() {
		return false
	}
	r := src.Rank()
	shape := src.Shape()
	for i, d := range shape {
		if dst.Dim(i) != d {
			return false
		}
	}
	cols := shape[r-1]
	sz := src.DType().Size()
	move, err := compute.Gather(sz)
	if err != nil {
		return false
	}
	rows := size(shape[:r-1])
	if rows == 0 {
		return true
	}
	sb := unsafe.Add(src.DataPointer(), src.Offset()*sz)
	db := unsafe.Add(dst.DataPointer(), dst.Offset()*sz)
	outer := shape[:r-1]
	step := ss[r-1]
	// an outer axis read backwards is walked forwards in both (the source
	// in ascending addresses, as the prefetchers follow it best; dst's
	// rows are written with their own strides, negated; ss and ds are the
	// arrays' copies)
	for i, d := range outer {
		if ss[i] < 0 && d > 1 {
			sb, db = unsafe.Add(sb, (d-1)*ss[i]*sz), unsafe.Add(db, (d-1)*ds[i]*sz)
			ss[i], ds[i] = -ss[i], -ds[i]
		}
	}
	nt := stream && (step == 1 || sz == 4 || sz == 8) && rows*cols*sz >= ntThreshold
	split(rows, cols*sz, workers, func(lo, hi int) {
		// the offsets of row lo, then an odometer over the outer axes
		idx := make([]int, len(outer))
		so, do := 0, 0
		for i, rem := len(outer)-1, lo; i >= 0; i-- {
			idx[i] = rem % outer[i]
			rem /= outer[i]
			so += idx[i] * ss[i]
			do += idx[i] * ds[i]
		}
		for row := lo; row < hi; row++ {
			d, s := unsafe.Add(db, do*sz), unsafe.Add(sb, so*sz)
			switch {
			case step == 1 && nt:
				compute.CopyNT(d, s, cols*sz)
			case step == 1:
				copy(unsafe.Slice((*byte)(d), cols*sz), unsafe.Slice((*byte)(s), cols*sz))
			case nt:
				compute.ReverseStream(d, s, cols, sz)
			default:
				move(d, s, cols, step)
			}
			nextOuter(idx, outer, ss, ds, &so, &do)
		}
		if nt {
			compute.Fence()
		}
	})
	runtime.KeepAlive(src)
	runtime.KeepAlive(dst)
	return true
}

// rowCopyable reports whether copying src into an output of strides ds is
// rowCopy's case: src's last axis flipped (stride -1, which the fused pass
// would gather through a buffer), or src's rows contiguous but an outer
// stride negative (a flip of an outer axis, which the fused pass cannot
// coalesce), the output's contiguous, rows of at least minRowCopy
// elements, no nulls.
func rowCopyable(src *array.Array, ds []int) bool {
	r := src.Rank()
	if r < 1 || src.HasNulls() || len(ds) != r || ds[r-1] != 1 || src.Dim(r-1) < minRowCopy {
		return false
	}
	switch src.Stride(r - 1) {
	case -1:
		return true
	case 1:
		for i := 0; i < r-1; i++ {
			if src.Stride(i) < 0 && src.Dim(i) > 1 {
				return true
			}
		}
	}
	return false
}
