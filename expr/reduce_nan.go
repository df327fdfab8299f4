package expr

import "github.com/stride0/stride0/array"

// Nansum sums x over axes treating NaN as zero (numpy.nansum), with
// ReduceSum's dtypes, nulls and axes. Lazy: it is
// ReduceSum(Where(IsNaN(x), 0, x)) for floats and ReduceSum(x) otherwise,
// fused like any expression. A slice of NaNs (or an empty one) sums to 0.
func Nansum(x *Node, axes []int, keepDims bool) *Node {
	if x != nil && x.dtype.IsFloat() {
		x = Where(IsNaN(x), Const(0), x)
	}
	return ReduceSum(x, axes, keepDims)
}

// Nanmean averages x over axes leaving NaNs out of both the sum and the
// count (numpy.nanmean): floats keep their dtype, bool and integers give
// float64 as ReduceMean. The sum is the accurate float sum (see the
// package doc) kept in float64, divided by the count in float64 and
// rounded once to the dtype: as NumPy's _divide_by_count, but a float16
// or float32 sum is not rounded (nor overflows) before the division. A
// slice of NaNs, nulls or nothing gives NaN. Lazy: two reductions (sum and
// count) and a division.
func Nanmean(x *Node, axes []int, keepDims bool) *Node {
	if x == nil || !x.dtype.IsFloat() {
		return ReduceMean(x, axes, keepDims)
	}
	sum := ReduceSum(Where(IsNaN(x), Const(0), x), axes, keepDims)
	if sum.err == nil {
		sum.dtype = array.Float64 // the accumulator itself: the values stay x's (ctype)
	}
	cnt := ReduceSum(LogicalNot(IsNaN(x)), axes, keepDims) // int64: nulls are not counted
	return Cast(Div(sum, cnt), x.dtype)
}

// Nanmax takes the maximum over axes ignoring NaNs (numpy.nanmax: NumPy's
// fmax reduction): a slice of NaNs gives NaN (NumPy also warns), nulls are
// skipped, an axis of size 0 is an error (ErrArgument), integers are as
// ReduceMax. The dtype is kept. Lazy, fused like ReduceMax.
func Nanmax(x *Node, axes []int, keepDims bool) *Node { return reduce(redNanMax, x, axes, keepDims) }

// Nanmin is Nanmax for the minimum (numpy.nanmin).
func Nanmin(x *Node, axes []int, keepDims bool) *Node { return reduce(redNanMin, x, axes, keepDims) }

// Any reports over axes whether some element is nonzero (numpy.any; NaN is
// nonzero), as a bool array. An empty slice, or one of nulls only, gives
// false. Lazy: an "or" reduction of Cast(x, Bool), fused.
func Any(x *Node, axes []int, keepDims bool) *Node {
	return reduce(redAny, asBool(x), axes, keepDims)
}

// All reports over axes whether every element is nonzero (numpy.all), as
// a bool array; an empty slice, or one of nulls only, gives true. Lazy, as
// Any.
func All(x *Node, axes []int, keepDims bool) *Node {
	return reduce(redAll, asBool(x), axes, keepDims)
}

// CountNonzero counts the nonzero elements over axes (numpy.count_nonzero
// with an axis or, with axes nil, of the whole array), as int64; NaN counts,
// nulls do not. Lazy: ReduceSum(Cast(x, Bool)), fused.
func CountNonzero(x *Node, axes []int, keepDims bool) *Node {
	return ReduceSum(asBool(x), axes, keepDims)
}

func asBool(x *Node) *Node {
	if x != nil && x.dtype == array.Bool {
		return x
	}
	return Cast(x, array.Bool)
}
