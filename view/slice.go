package view

import (
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// Range selects indices along one axis with Python slice semantics,
// a[Start:Stop:Step]: negative Start and Stop count from the end, bounds
// beyond either end are clamped, Step may be negative (walking backwards),
// and a range that selects nothing gives an axis of size 0.
//
// Python's omitted bounds are the extremes: math.MinInt and math.MaxInt clamp
// to the right end for any step, so a[::-1] is Range{math.MaxInt, math.MinInt,
// -1} (see Reverse) and a[2:] is Range{2, math.MaxInt, 1} (see From).
//
// Step 0 is not a Python step: a Range with Step 0 and Stop == Start+1 is a
// single index (what Index makes), which selects element Start and drops the
// axis, as NumPy's a[i] does; any other Step 0 is an error.
type Range struct{ Start, Stop, Step int }

// All selects a whole axis, a[:].
func All() Range { return Range{0, math.MaxInt, 1} }

// Span selects a[start:stop].
func Span(start, stop int) Range { return Range{start, stop, 1} }

// From selects a[start:].
func From(start int) Range { return Range{start, math.MaxInt, 1} }

// Reverse selects a[::-1].
func Reverse() Range { return Range{math.MaxInt, math.MinInt, -1} }

// Index selects the single element a[i] (negative i counts from the end) and
// drops the axis; an index out of range is an error. To keep the axis with
// size 1, use Span(i, i+1).
func Index(i int) Range { return Range{i, i + 1, 0} }

// IsIndex reports whether r is a single index (made by Index).
func (r Range) IsIndex() bool { return r.Step == 0 && r.Stop == r.Start+1 }

// String formats r as Python does: "1:5:2", "::-1" style bounds are shown
// as numbers; an index is shown alone.
func (r Range) String() string {
	if r.IsIndex() {
		return fmt.Sprint(r.Start)
	}
	bound := func(b int) string {
		if b == math.MinInt || b == math.MaxInt {
			return ""
		}
		return fmt.Sprint(b)
	}
	return bound(r.Start) + ":" + bound(r.Stop) + ":" + fmt.Sprint(r.Step)
}

// Slice returns a view of a restricted to ranges, one per leading axis;
// axes without a range are kept whole. Index ranges drop their axis. The
// view shares a's buffers; with negative steps its strides are negative.
func Slice(a *array.Array, ranges ...Range) (*array.Array, error) {
	const op = "view.Slice"
	if err := check(op, a); err != nil {
		return nil, err
	}
	shape, strides := a.Shape(), a.Strides()
	if len(ranges) > len(shape) {
		return nil, fmt.Errorf("%s %v by %v: %d ranges for rank %d: %w", op, shape, ranges, len(ranges), len(shape), ErrAxis)
	}
	offset := a.Offset()
	ns := make([]int, 0, len(shape))
	nst := make([]int, 0, len(shape))
	for k, n := range shape {
		if k >= len(ranges) {
			ns, nst = append(ns, n), append(nst, strides[k])
			continue
		}
		r := ranges[k]
		if r.IsIndex() {
			i, ok := normAxis(r.Start, n)
			if !ok {
				return nil, fmt.Errorf("%s %v by %v: index %d out of range for axis %d of size %d: %w", op, shape, ranges, r.Start, k, n, ErrRange)
			}
			offset += i * strides[k]
			continue
		}
		if r.Step == 0 {
			return nil, fmt.Errorf("%s %v by %v: step 0 on axis %d (use Index for a single element): %w", op, shape, ranges, k, ErrRange)
		}
		start, length := r.indices(n)
		st := strides[k]
		if length > 0 {
			offset += start * strides[k]
			if length > 1 {
				st *= r.Step // |Step| < n: the product stays inside the axis' extent
			}
		}
		ns, nst = append(ns, length), append(nst, st)
	}
	return view(op, a, ns, nst, offset)
}

// indices applies r to an axis of n elements, as Python's
// PySlice_AdjustIndices does: it returns the first index and the number of
// indices selected. r.Step must not be 0.
func (r Range) indices(n int) (start, length int) {
	clamp := func(b int) int {
		if b < 0 {
			b += n // no overflow: b < 0 <= n
			if b < 0 {
				if r.Step < 0 {
					return -1
				}
				return 0
			}
		} else if b >= n {
			if r.Step < 0 {
				return n - 1
			}
			return n
		}
		return b
	}
	start, stop := clamp(r.Start), clamp(r.Stop)
	// start and stop are now in [-1, n]: the differences below cannot overflow.
	if r.Step > 0 {
		if start < stop {
			length = (stop-start-1)/r.Step + 1
		}
	} else if stop < start {
		length = 1 - (start-stop-1)/r.Step // (start-stop-1)/-Step + 1, without negating Step
	}
	return start, length
}
