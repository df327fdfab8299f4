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
// reversing gather kernel reads backwards, dst's contiguous): one kernel
// call per row straight into dst, where the fused pass would gather each
// tile into a buffer and copy it out again. Rows are shared among up to
// workers goroutines when there are enough bytes. With stream (dst exists,
// so its pages are mapped) and at least ntThreshold bytes, rows of 4- or
// 8-byte elements are written around the cache (compute.ReverseStream):
// no output line is read before it is written. It reports whether it
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
	nt := stream && step == -1 && (sz == 4 || sz == 8) && rows*cols*sz >= ntThreshold
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
			if nt {
				compute.ReverseStream(unsafe.Add(db, do*sz), unsafe.Add(sb, so*sz), cols, sz)
			} else {
				move(unsafe.Add(db, do*sz), unsafe.Add(sb, so*sz), cols, step)
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
// would gather through a buffer), the output's contiguous, rows of at
// least minRowCopy elements, no nulls.
func rowCopyable(src *array.Array, ds []int) bool {
	r := src.Rank()
	return r >= 1 && !src.HasNulls() && len(ds) == r && ds[r-1] == 1 && src.Stride(r-1) == -1 && src.Dim(r-1) >= minRowCopy
}
