package expr_test

// NumPy's documented examples of var, std, argmin, argmax, any, all,
// count_nonzero, nansum, nanmean, nanmin, nanmax, cumsum and cumprod (the
// numpy.org reference pages), and edge cases: empty axes, zero-size dims,
// rank 0, all-NaN slices, nulls, bad axes.

import (
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
)

// evalSame evaluates e with 1 and 3 workers and 16-element tiles, checks
// dtype and shape, that both runs agree (NaN-aware) and returns the values.
func evalSame[T array.Element](t *testing.T, mem memory.Allocator, e *expr.Node, dt array.DType, shape ...int) []T {
	t.Helper()
	require.NoError(t, e.Err())
	if shape == nil {
		shape = []int{}
	}
	var first []T
	for i, w := range []int{1, 3} {
		out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(w), expr.WithTileSize(16))
		require.NoError(t, err, "%v", e)
		require.Equal(t, dt, out.DType(), "%v", e)
		require.Equal(t, shape, out.Shape(), "%v", e)
		v, err := array.ToSlice[T](out)
		require.NoError(t, err)
		out.Release()
		if i == 0 {
			first = v
			continue
		}
		require.Equal(t, fmt.Sprint(first), fmt.Sprint(v), "workers 1 and 3 differ: %v", e)
	}
	return first
}

func scalar[T array.Element](t *testing.T, mem memory.Allocator, v T) *array.Array {
	t.Helper()
	a, err := array.Scalar(mem, v)
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

func near(t *testing.T, want, got []float64, rel float64, msg ...any) {
	t.Helper()
	require.Len(t, got, len(want), msg...)
	for i := range want {
		if math.IsNaN(want[i]) {
			require.True(t, math.IsNaN(got[i]), "element %d: want NaN, got %v %v", i, got[i], msg)
			continue
		}
		require.InDelta(t, want[i], got[i], rel*math.Max(1, math.Abs(want[i])), "element %d %v", i, msg)
	}
}

func TestVarStdNumPyExamples(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []int64{1, 2, 3, 4}, 2, 2))
	near(t, []float64{1.25}, evalSame[float64](t, mem, expr.ReduceVar(a, nil, 0, false), array.Float64), 1e-15)
	near(t, []float64{1, 1}, evalSame[float64](t, mem, expr.ReduceVar(a, []int{0}, 0, false), array.Float64, 2), 1e-15)
	near(t, []float64{0.25, 0.25}, evalSame[float64](t, mem, expr.ReduceVar(a, []int{1}, 0, false), array.Float64, 2), 1e-15)
	near(t, []float64{1.1180339887498949}, evalSame[float64](t, mem, expr.ReduceStd(a, nil, 0, false), array.Float64), 1e-15)
	near(t, []float64{1, 1}, evalSame[float64](t, mem, expr.ReduceStd(a, []int{0}, 0, false), array.Float64, 2), 1e-15)
	near(t, []float64{0.5, 0.5}, evalSame[float64](t, mem, expr.ReduceStd(a, []int{1}, 0, true), array.Float64, 2, 1), 1e-15)
	// ddof
	b := expr.Leaf(mk(t, mem, []int32{1, 2, 3, 4}, 4))
	near(t, []float64{5.0 / 3}, evalSame[float64](t, mem, expr.ReduceVar(b, nil, 1, false), array.Float64), 1e-15)
	// float32 keeps its dtype: a[0,:] = 1.0, a[1,:] = 0.1 over 512*512 columns
	n := 512 * 512
	v := make([]float32, 2*n)
	for i := range v {
		v[i] = 1
		if i >= n {
			v[i] = 0.1
		}
	}
	f := expr.Leaf(mk(t, mem, v, 2, n))
	got := evalSame[float32](t, mem, expr.ReduceVar(f, nil, 0, false), array.Float32)
	require.InDelta(t, 0.2025, float64(got[0]), 2e-7, "NumPy prints 0.20250003")
	// a large mean next to a small spread: the sum of squares would lose it
	big := make([]float64, 1000)
	for i := range big {
		big[i] = 1e9 + float64(i%2)
	}
	near(t, []float64{0.25}, evalSame[float64](t, mem, expr.ReduceVar(expr.Leaf(mk(t, mem, big, 1000)), nil, 0, false), array.Float64), 1e-12)
	near(t, []float64{0.25}, evalSame[float64](t, mem, expr.ReduceVar(expr.Leaf(mk(t, mem, big, 500, 2)), []int{0, 1}, 0, false), array.Float64), 1e-12)
}

func TestVarStdEdgeCases(t *testing.T) {
	mem := checkedMem(t)
	nan := math.NaN()
	empty := expr.Leaf(mk(t, mem, []float32{}, 2, 0))
	// an empty slice: NaN (NumPy warns); an empty result: empty
	require.True(t, math.IsNaN(float64(evalSame[float32](t, mem, expr.ReduceVar(empty, []int{1}, 0, false), array.Float32, 2)[0])))
	require.Empty(t, evalSame[float32](t, mem, expr.ReduceStd(empty, []int{0}, 0, false), array.Float32, 0))
	// rank 0: one value, variance 0; with ddof 1, NaN
	s := expr.Leaf(scalar(t, mem, 3.0))
	near(t, []float64{0}, evalSame[float64](t, mem, expr.ReduceVar(s, nil, 0, false), array.Float64), 0)
	near(t, []float64{nan}, evalSame[float64](t, mem, expr.ReduceVar(s, nil, 1, false), array.Float64), 0)
	// no degree of freedom left with a spread: +Inf (0 < M2, divided by 0)
	two := expr.Leaf(mk(t, mem, []float64{1, 2}, 2))
	near(t, []float64{math.Inf(1)}, evalSame[float64](t, mem, expr.ReduceVar(two, nil, 2, false), array.Float64), 0)
	near(t, []float64{math.Inf(1)}, evalSame[float64](t, mem, expr.ReduceVar(two, nil, 5, false), array.Float64), 0)
	// no axes: every element alone
	near(t, []float64{0, 0}, evalSame[float64](t, mem, expr.ReduceVar(two, []int{}, 0, false), array.Float64, 2), 0)
	// NaN and Inf propagate
	ni := expr.Leaf(mk(t, mem, []float64{1, nan, 2, 3, math.Inf(1), 4}, 2, 3))
	near(t, []float64{nan, nan}, evalSame[float64](t, mem, expr.ReduceVar(ni, []int{1}, 0, false), array.Float64, 2), 0)
	near(t, []float64{1, nan, 1}, evalSame[float64](t, mem, expr.ReduceVar(ni, []int{0}, 0, false), array.Float64, 3), 1e-15)
	// finite values whose sums overflow: +Inf as NumPy (not Inf - Inf's NaN),
	// over every axis, the inner one and the outer one
	huge := expr.Leaf(mk(t, mem, []float64{1e308, 1.5e308, -1e308, 5e307, 1e308, 1.2e308}, 3, 2))
	inf := math.Inf(1)
	near(t, []float64{inf}, evalSame[float64](t, mem, expr.ReduceVar(huge, nil, 0, false), array.Float64), 0)
	near(t, []float64{inf, inf, inf}, evalSame[float64](t, mem, expr.ReduceStd(huge, []int{1}, 0, false), array.Float64, 3), 0)
	near(t, []float64{inf, inf}, evalSame[float64](t, mem, expr.ReduceVar(huge, []int{0}, 0, false), array.Float64, 2), 0)
	// float16 keeps float16; bool gives float64
	h := expr.Cast(expr.Leaf(mk(t, mem, []float32{1.75, 0, 2.25, -0.5, -1.5}, 5)), array.Float16)
	require.Equal(t, array.Float16, expr.ReduceVar(h, nil, 0, false).DType())
	hv := evalSame[float64](t, mem, expr.Cast(expr.ReduceVar(h, nil, 0, false), array.Float64), array.Float64)
	require.InDelta(t, 1.965, hv[0], 0.002)
	bo := expr.Leaf(mk(t, mem, []bool{true, false, true, true}, 4))
	near(t, []float64{0.1875}, evalSame[float64](t, mem, expr.ReduceVar(bo, nil, 0, false), array.Float64), 1e-15)
	// nulls are left out; a slice of nulls is NaN
	x := mkValid(t, mem, []float64{1, 100, 3, 7, 8, 9}, []bool{true, false, true, false, false, false}, 2, 3)
	near(t, []float64{1, nan}, evalSame[float64](t, mem, expr.ReduceVar(expr.Leaf(x), []int{1}, 0, false), array.Float64, 2), 1e-15)
	near(t, []float64{0, nan, 0}, evalSame[float64](t, mem, expr.ReduceVar(expr.Leaf(x), []int{0}, 0, false), array.Float64, 3), 1e-15)
	// errors
	for _, e := range []*expr.Node{
		expr.ReduceVar(two, []int{1}, 0, false), expr.ReduceStd(two, []int{-2}, 0, false),
		expr.ReduceVar(two, []int{0, 0}, 0, false), expr.ReduceVar(two, nil, -1, false), expr.ReduceStd(nil, nil, 0, false),
	} {
		require.Error(t, e.Err())
		_, err := expr.Eval(e, expr.WithAllocator(mem))
		require.Error(t, err)
	}
	require.ErrorIs(t, expr.ReduceVar(two, []int{3}, 0, false).Err(), broadcast.ErrAxes)
	require.ErrorIs(t, expr.ReduceVar(two, nil, -1, false).Err(), expr.ErrArgument)
}

func TestArgminArgmaxNumPyExamples(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []int64{10, 11, 12, 13, 14, 15}, 2, 3))
	require.Equal(t, []int64{5}, evalSame[int64](t, mem, expr.Argmax(a, nil, false), array.Int64))
	require.Equal(t, []int64{1, 1, 1}, evalSame[int64](t, mem, expr.Argmax(a, []int{0}, false), array.Int64, 3))
	require.Equal(t, []int64{2, 2}, evalSame[int64](t, mem, expr.Argmax(a, []int{1}, false), array.Int64, 2))
	require.Equal(t, []int64{0}, evalSame[int64](t, mem, expr.Argmin(a, nil, false), array.Int64))
	require.Equal(t, []int64{0, 0, 0}, evalSame[int64](t, mem, expr.Argmin(a, []int{0}, false), array.Int64, 3))
	require.Equal(t, []int64{0, 0}, evalSame[int64](t, mem, expr.Argmin(a, []int{-1}, false), array.Int64, 2))
	// the first occurrence
	b := expr.Leaf(mk(t, mem, []int16{0, 5, 2, 3, 4, 5}, 6))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.Argmax(b, nil, false), array.Int64))
	c := expr.Leaf(mk(t, mem, []uint8{0, 1, 2, 3, 0, 5}, 6))
	require.Equal(t, []int64{0}, evalSame[int64](t, mem, expr.Argmin(c, nil, false), array.Int64))
	// keepdims: np.argmax(arange(24).reshape(2, 3, 4), axis=1, keepdims=True).shape == (2, 1, 4)
	r := make([]float32, 24)
	for i := range r {
		r[i] = float32(i)
	}
	x := expr.Leaf(mk(t, mem, r, 2, 3, 4))
	require.Equal(t, []int64{2, 2, 2, 2, 2, 2, 2, 2}, evalSame[int64](t, mem, expr.Argmax(x, []int{1}, true), array.Int64, 2, 1, 4))
	require.Equal(t, []int64{23}, evalSame[int64](t, mem, expr.Argmax(x, nil, true), array.Int64, 1, 1, 1))
	// NaN: the first NaN wins for both
	nan := math.NaN()
	f := expr.Leaf(mk(t, mem, []float64{1, nan, 3, nan, -5}, 5))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.Argmax(f, nil, false), array.Int64))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.Argmin(f, nil, false), array.Int64))
	g := expr.Leaf(mk(t, mem, []float32{1, 9, 2, float32(nan), 3, 0, float32(nan), 8}, 4, 2))
	require.Equal(t, []int64{3, 1}, evalSame[int64](t, mem, expr.Argmax(g, []int{0}, false), array.Int64, 2))
	require.Equal(t, []int64{3, 1}, evalSame[int64](t, mem, expr.Argmin(g, []int{0}, false), array.Int64, 2))
	require.Equal(t, []int64{1, 1, 0, 0}, evalSame[int64](t, mem, expr.Argmax(g, []int{1}, false), array.Int64, 4))
	require.Equal(t, []int64{0, 1, 1, 0}, evalSame[int64](t, mem, expr.Argmin(g, []int{1}, false), array.Int64, 4))
	// bool: the first True
	bo := expr.Leaf(mk(t, mem, []bool{false, true, true, false}, 4))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.Argmax(bo, nil, false), array.Int64))
	require.Equal(t, []int64{0}, evalSame[int64](t, mem, expr.Argmin(bo, nil, false), array.Int64))
	// extremes of 64-bit integers compare exactly
	i64 := expr.Leaf(mk(t, mem, []int64{math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64 - 2}, 3))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.Argmax(i64, nil, false), array.Int64))
	// several axes: the C-order index into them together
	require.Equal(t, []int64{11, 11}, evalSame[int64](t, mem, expr.Argmax(x, []int{1, 2}, false), array.Int64, 2))
}

func TestArgEdgeCases(t *testing.T) {
	mem := checkedMem(t)
	// rank 0
	s := expr.Leaf(scalar(t, mem, 3.0))
	require.Equal(t, []int64{0}, evalSame[int64](t, mem, expr.Argmax(s, nil, false), array.Int64))
	// empty: an error (NumPy's ValueError), but an empty result is fine
	empty := expr.Leaf(mk(t, mem, []int32{}, 0, 3))
	require.ErrorIs(t, expr.Argmax(empty, nil, false).Err(), expr.ErrArgument)
	require.ErrorIs(t, expr.Argmin(empty, []int{0}, false).Err(), expr.ErrArgument)
	require.Equal(t, []int64{}, evalSame[int64](t, mem, expr.Argmin(empty, []int{1}, false), array.Int64, 0))
	// an empty axis through a variable is found at evaluation
	v := expr.Var("v", array.Float32, broadcast.Partial(-1, 3))
	e := expr.Argmax(v, []int{0}, false)
	require.NoError(t, e.Err())
	ev := mk(t, mem, []float32{}, 0, 3)
	_, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"v": ev}))
	require.ErrorIs(t, err, expr.ErrArgument)
	// nulls are skipped; a slice of nulls gives -1
	x := mkValid(t, mem, []int8{9, 1, 5, 7, 8, 2}, []bool{false, true, true, false, false, false}, 2, 3)
	require.Equal(t, []int64{2, -1}, evalSame[int64](t, mem, expr.Argmax(expr.Leaf(x), []int{1}, false), array.Int64, 2))
	require.Equal(t, []int64{-1, 0, 0}, evalSame[int64](t, mem, expr.Argmin(expr.Leaf(x), []int{0}, false), array.Int64, 3))
	// bad axes
	two := expr.Leaf(mk(t, mem, []float64{1, 2}, 2))
	require.ErrorIs(t, expr.Argmax(two, []int{1}, false).Err(), broadcast.ErrAxes)
	require.Error(t, expr.Argmin(nil, nil, false).Err())
}

func TestAnyAllCountNonzeroNumPyExamples(t *testing.T) {
	mem := checkedMem(t)
	b := expr.Leaf(mk(t, mem, []bool{true, false, true, true}, 2, 2))
	require.Equal(t, []bool{true}, evalSame[bool](t, mem, expr.Any(b, nil, false), array.Bool))
	require.Equal(t, []bool{true, true}, evalSame[bool](t, mem, expr.Any(b, []int{0}, false), array.Bool, 2))
	require.Equal(t, []bool{false}, evalSame[bool](t, mem, expr.All(b, nil, false), array.Bool))
	require.Equal(t, []bool{true, false}, evalSame[bool](t, mem, expr.All(b, []int{0}, false), array.Bool, 2))
	i := expr.Leaf(mk(t, mem, []int32{-1, 0, 5}, 3))
	require.Equal(t, []bool{true}, evalSame[bool](t, mem, expr.Any(i, nil, false), array.Bool))
	require.Equal(t, []bool{true}, evalSame[bool](t, mem, expr.All(expr.Leaf(mk(t, mem, []int32{-1, 4, 5}, 3)), nil, false), array.Bool))
	nan := math.NaN()
	f := expr.Leaf(mk(t, mem, []float64{nan, math.Inf(1)}, 2, 1))
	require.Equal(t, []bool{true, true}, evalSame[bool](t, mem, expr.Any(f, []int{1}, true), array.Bool, 2, 1), "NaN is nonzero")
	require.Equal(t, []bool{true}, evalSame[bool](t, mem, expr.All(expr.Leaf(mk(t, mem, []float32{1, float32(nan)}, 2)), nil, false), array.Bool))
	// empty: any is false, all is true
	empty := expr.Leaf(mk(t, mem, []float32{}, 0))
	require.Equal(t, []bool{false}, evalSame[bool](t, mem, expr.Any(empty, nil, false), array.Bool))
	require.Equal(t, []bool{true}, evalSame[bool](t, mem, expr.All(empty, nil, false), array.Bool))
	// count_nonzero: np.count_nonzero(np.eye(4)) == 4
	eye := make([]float64, 16)
	for k := 0; k < 4; k++ {
		eye[k*5] = 1
	}
	require.Equal(t, []int64{4}, evalSame[int64](t, mem, expr.CountNonzero(expr.Leaf(mk(t, mem, eye, 4, 4)), nil, false), array.Int64))
	a := expr.Leaf(mk(t, mem, []int16{0, 1, 7, 0, 3, 0, 2, 19}, 2, 4))
	require.Equal(t, []int64{5}, evalSame[int64](t, mem, expr.CountNonzero(a, nil, false), array.Int64))
	require.Equal(t, []int64{1, 1, 2, 1}, evalSame[int64](t, mem, expr.CountNonzero(a, []int{0}, false), array.Int64, 4))
	require.Equal(t, []int64{2, 3}, evalSame[int64](t, mem, expr.CountNonzero(a, []int{1}, false), array.Int64, 2))
	require.Equal(t, []int64{2, 3}, evalSame[int64](t, mem, expr.CountNonzero(a, []int{1}, true), array.Int64, 2, 1))
	// -0.0 is zero; float16 NaN is not
	z := expr.Leaf(mk(t, mem, []float64{math.Copysign(0, -1), 0, nan}, 3))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.CountNonzero(z, nil, false), array.Int64))
	require.Equal(t, []int64{1}, evalSame[int64](t, mem, expr.CountNonzero(expr.Cast(z, array.Float16), nil, false), array.Int64))
	// nulls: not counted, not in any (false) or all (true)
	x := mkValid(t, mem, []int8{0, 3, 0, 0}, []bool{false, false, true, false}, 2, 2)
	require.Equal(t, []bool{false, false}, evalSame[bool](t, mem, expr.Any(expr.Leaf(x), []int{1}, false), array.Bool, 2))
	require.Equal(t, []bool{true, false}, evalSame[bool](t, mem, expr.All(expr.Leaf(x), []int{1}, false), array.Bool, 2))
	require.Equal(t, []int64{0}, evalSame[int64](t, mem, expr.CountNonzero(expr.Leaf(x), nil, false), array.Int64))
	require.ErrorIs(t, expr.Any(a, []int{2}, false).Err(), broadcast.ErrAxes)
	require.Error(t, expr.All(nil, nil, false).Err())
}

func TestNanReductionsNumPyExamples(t *testing.T) {
	mem := checkedMem(t)
	nan, inf := math.NaN(), math.Inf(1)
	one := expr.Leaf(mk(t, mem, []float64{1}))
	near(t, []float64{1}, evalSame[float64](t, mem, expr.Nansum(one, nil, false), array.Float64), 0)
	near(t, []float64{1}, evalSame[float64](t, mem, expr.Nansum(expr.Leaf(mk(t, mem, []float64{1, nan}, 2)), nil, false), array.Float64), 0)
	a := expr.Leaf(mk(t, mem, []float64{1, 1, 1, nan}, 2, 2))
	near(t, []float64{3}, evalSame[float64](t, mem, expr.Nansum(a, nil, false), array.Float64), 0)
	near(t, []float64{2, 1}, evalSame[float64](t, mem, expr.Nansum(a, []int{0}, false), array.Float64, 2), 0)
	near(t, []float64{inf}, evalSame[float64](t, mem, expr.Nansum(expr.Leaf(mk(t, mem, []float64{1, nan, inf}, 3)), nil, false), array.Float64), 0)
	near(t, []float64{-inf}, evalSame[float64](t, mem, expr.Nansum(expr.Leaf(mk(t, mem, []float64{1, nan, -inf}, 3)), nil, false), array.Float64), 0)
	near(t, []float64{nan}, evalSame[float64](t, mem, expr.Nansum(expr.Leaf(mk(t, mem, []float64{1, nan, inf, -inf}, 4)), nil, false), array.Float64), 0)
	// nanmean
	m := expr.Leaf(mk(t, mem, []float64{1, nan, 3, 4}, 2, 2))
	near(t, []float64{2.6666666666666665}, evalSame[float64](t, mem, expr.Nanmean(m, nil, false), array.Float64), 1e-16)
	near(t, []float64{2, 4}, evalSame[float64](t, mem, expr.Nanmean(m, []int{0}, false), array.Float64, 2), 0)
	near(t, []float64{1, 3.5}, evalSame[float64](t, mem, expr.Nanmean(m, []int{1}, false), array.Float64, 2), 0)
	// nanmin, nanmax
	x := expr.Leaf(mk(t, mem, []float64{1, 2, 3, nan}, 2, 2))
	near(t, []float64{1}, evalSame[float64](t, mem, expr.Nanmin(x, nil, false), array.Float64), 0)
	near(t, []float64{1, 2}, evalSame[float64](t, mem, expr.Nanmin(x, []int{0}, false), array.Float64, 2), 0)
	near(t, []float64{1, 3}, evalSame[float64](t, mem, expr.Nanmin(x, []int{1}, false), array.Float64, 2), 0)
	near(t, []float64{3}, evalSame[float64](t, mem, expr.Nanmax(x, nil, false), array.Float64), 0)
	near(t, []float64{3, 2}, evalSame[float64](t, mem, expr.Nanmax(x, []int{0}, false), array.Float64, 2), 0)
	near(t, []float64{2, 3}, evalSame[float64](t, mem, expr.Nanmax(x, []int{1}, false), array.Float64, 2), 0)
	near(t, []float64{1}, evalSame[float64](t, mem, expr.Nanmin(expr.Leaf(mk(t, mem, []float64{1, 2, nan, inf}, 4)), nil, false), array.Float64), 0)
	near(t, []float64{-inf}, evalSame[float64](t, mem, expr.Nanmin(expr.Leaf(mk(t, mem, []float64{1, 2, nan, -inf}, 4)), nil, false), array.Float64), 0)
	near(t, []float64{2}, evalSame[float64](t, mem, expr.Nanmax(expr.Leaf(mk(t, mem, []float64{1, 2, nan, -inf}, 4)), nil, false), array.Float64), 0)
	near(t, []float64{inf}, evalSame[float64](t, mem, expr.Nanmax(expr.Leaf(mk(t, mem, []float64{1, 2, nan, inf}, 4)), nil, false), array.Float64), 0)
}

func TestNanReductionsEdgeCases(t *testing.T) {
	mem := checkedMem(t)
	nan := float32(math.NaN())
	// all-NaN slices: nanmin/nanmax/nanmean NaN, nansum 0
	x := expr.Leaf(mk(t, mem, []float32{nan, nan, 1, nan}, 2, 2))
	for _, e := range []*expr.Node{expr.Nanmin(x, []int{1}, false), expr.Nanmax(x, []int{1}, false), expr.Nanmean(x, []int{1}, false)} {
		v := evalSame[float32](t, mem, e, array.Float32, 2)
		require.True(t, v[0] != v[0], "%v", e)
		require.Equal(t, float32(1), v[1], "%v", e)
	}
	require.Equal(t, []float32{0, 1}, evalSame[float32](t, mem, expr.Nansum(x, []int{1}, false), array.Float32, 2))
	// NaN in the first position and after: the same
	y := expr.Leaf(mk(t, mem, []float32{nan, 3, 2, nan, 5, 1}, 6))
	require.Equal(t, []float32{1}, evalSame[float32](t, mem, expr.Nanmin(y, nil, false), array.Float32))
	require.Equal(t, []float32{5}, evalSame[float32](t, mem, expr.Nanmax(y, nil, false), array.Float32))
	// float16: computed in float32, result float16
	h := expr.Cast(y, array.Float16)
	require.Equal(t, array.Float16, expr.Nanmax(h, nil, false).DType())
	require.Equal(t, []float32{5}, evalSame[float32](t, mem, expr.Cast(expr.Nanmax(h, nil, false), array.Float32), array.Float32))
	require.Equal(t, []float32{2.75}, evalSame[float32](t, mem, expr.Cast(expr.Nanmean(h, nil, false), array.Float32), array.Float32))
	// integers: as min, max, sum and mean
	i := expr.Leaf(mk(t, mem, []int16{3, -7, 2}, 3))
	require.Equal(t, []int16{-7}, evalSame[int16](t, mem, expr.Nanmin(i, nil, false), array.Int16))
	require.Equal(t, []int16{3}, evalSame[int16](t, mem, expr.Nanmax(i, nil, false), array.Int16))
	require.Equal(t, []int64{-2}, evalSame[int64](t, mem, expr.Nansum(i, nil, false), array.Int64))
	near(t, []float64{-2.0 / 3}, evalSame[float64](t, mem, expr.Nanmean(i, nil, false), array.Float64), 1e-16)
	// zero-size axis: nanmin/nanmax are errors, nansum is 0, nanmean NaN
	empty := expr.Leaf(mk(t, mem, []float64{}, 0))
	require.ErrorIs(t, expr.Nanmin(empty, nil, false).Err(), expr.ErrArgument)
	require.ErrorIs(t, expr.Nanmax(empty, []int{0}, true).Err(), expr.ErrArgument)
	near(t, []float64{0}, evalSame[float64](t, mem, expr.Nansum(empty, nil, false), array.Float64), 0)
	near(t, []float64{math.NaN()}, evalSame[float64](t, mem, expr.Nanmean(empty, nil, false), array.Float64), 0)
	// nulls are skipped like NaNs
	z := mkValid(t, mem, []float64{100, 2, math.NaN(), 4}, []bool{false, true, true, true}, 4)
	near(t, []float64{6}, evalSame[float64](t, mem, expr.Nansum(expr.Leaf(z), nil, false), array.Float64), 0)
	near(t, []float64{3}, evalSame[float64](t, mem, expr.Nanmean(expr.Leaf(z), nil, false), array.Float64), 0)
	near(t, []float64{4}, evalSame[float64](t, mem, expr.Nanmax(expr.Leaf(z), nil, false), array.Float64), 0)
	near(t, []float64{2}, evalSame[float64](t, mem, expr.Nanmin(expr.Leaf(z), nil, false), array.Float64), 0)
	require.ErrorIs(t, expr.Nanmin(x, []int{5}, false).Err(), broadcast.ErrAxes)
	for _, e := range []*expr.Node{expr.Nansum(nil, nil, false), expr.Nanmean(nil, nil, false), expr.Nanmax(nil, nil, false)} {
		require.Error(t, e.Err())
	}
}

func TestCumsumCumprodNumPyExamples(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []int32{1, 2, 3, 4, 5, 6}, 2, 3))
	require.Equal(t, []int64{1, 3, 6, 10, 15, 21}, evalSame[int64](t, mem, expr.Cumsum(a, nil), array.Int64, 6))
	require.Equal(t, []int64{1, 2, 3, 5, 7, 9}, evalSame[int64](t, mem, expr.Cumsum(a, []int{0}), array.Int64, 2, 3))
	require.Equal(t, []int64{1, 3, 6, 4, 9, 15}, evalSame[int64](t, mem, expr.Cumsum(a, []int{1}), array.Int64, 2, 3))
	require.Equal(t, []int64{1, 2, 6}, evalSame[int64](t, mem, expr.Cumprod(expr.Leaf(mk(t, mem, []int8{1, 2, 3}, 3)), nil), array.Int64, 3))
	require.Equal(t, []int64{1, 2, 6, 24, 120, 720}, evalSame[int64](t, mem, expr.Cumprod(a, nil), array.Int64, 6))
	require.Equal(t, []int64{1, 2, 3, 4, 10, 18}, evalSame[int64](t, mem, expr.Cumprod(a, []int{0}), array.Int64, 2, 3))
	require.Equal(t, []int64{1, 2, 6, 4, 20, 120}, evalSame[int64](t, mem, expr.Cumprod(a, []int{-1}), array.Int64, 2, 3))
	// dtypes: unsigned give uint64, bool int64, floats keep theirs
	u := expr.Leaf(mk(t, mem, []uint8{200, 100}, 2))
	require.Equal(t, []uint64{200, 300}, evalSame[uint64](t, mem, expr.Cumsum(u, nil), array.Uint64, 2))
	bo := expr.Leaf(mk(t, mem, []bool{true, false, true}, 3))
	require.Equal(t, []int64{1, 1, 2}, evalSame[int64](t, mem, expr.Cumsum(bo, nil), array.Int64, 3))
	f := expr.Leaf(mk(t, mem, []float32{0.5, 0.25, 2}, 3))
	require.Equal(t, []float32{0.5, 0.75, 2.75}, evalSame[float32](t, mem, expr.Cumsum(f, nil), array.Float32, 3))
	// float16 rounds each partial sum: 2048 + 1 is 2048 in float16, every time
	h := expr.Cast(expr.Leaf(mk(t, mem, []float32{2048, 1, 1, 1}, 4)), array.Float16)
	require.Equal(t, []float32{2048, 2048, 2048, 2048}, evalSame[float32](t, mem, expr.Cast(expr.Cumsum(h, nil), array.Float32), array.Float32, 4))
	// int64 wraps as NumPy's does
	w := expr.Leaf(mk(t, mem, []int64{math.MaxInt64, 1}, 2))
	require.Equal(t, []int64{math.MaxInt64, math.MinInt64}, evalSame[int64](t, mem, expr.Cumsum(w, nil), array.Int64, 2))
}

func TestCumsumEdgeCases(t *testing.T) {
	mem := checkedMem(t)
	// rank 0: flattened to one element; an axis is out of range
	s := expr.Leaf(scalar(t, mem, 3.0))
	require.Equal(t, []float64{3}, evalSame[float64](t, mem, expr.Cumsum(s, nil), array.Float64, 1))
	require.ErrorIs(t, expr.Cumsum(s, []int{0}).Err(), broadcast.ErrAxes)
	// zero-size dims
	e := expr.Leaf(mk(t, mem, []int32{}, 2, 0))
	require.Equal(t, []int64{}, evalSame[int64](t, mem, expr.Cumsum(e, []int{0}), array.Int64, 2, 0))
	require.Equal(t, []int64{}, evalSame[int64](t, mem, expr.Cumprod(e, nil), array.Int64, 0))
	// one axis or nil only
	a := expr.Leaf(mk(t, mem, []int32{1, 2, 3, 4}, 2, 2))
	require.ErrorIs(t, expr.Cumsum(a, []int{0, 1}).Err(), broadcast.ErrAxes)
	require.ErrorIs(t, expr.Cumprod(a, []int{}).Err(), broadcast.ErrAxes)
	require.ErrorIs(t, expr.Cumprod(a, []int{2}).Err(), broadcast.ErrAxes)
	require.Error(t, expr.Cumsum(nil, nil).Err())
	// nulls: null in the result, the running total goes on without them
	x := mkValid(t, mem, []int32{1, 100, 3, 4, 5, 6}, []bool{true, false, true, true, true, false}, 2, 3)
	v, ok := evalValid[int64](t, expr.Cumsum(expr.Leaf(x), []int{1}), expr.WithAllocator(mem))
	require.Equal(t, []bool{true, false, true, true, true, false}, ok)
	require.Equal(t, []int64{1, 4, 4, 9}, []int64{v[0], v[2], v[3], v[4]})
	p, ok := evalValid[int64](t, expr.Cumprod(expr.Leaf(x), nil), expr.WithAllocator(mem))
	require.Equal(t, []bool{true, false, true, true, true, false}, ok)
	require.Equal(t, []int64{1, 3, 12, 60}, []int64{p[0], p[2], p[3], p[4]})
	// composes: the cumulative sum of a fused expression, then used again
	y := expr.Mul(expr.Cumsum(expr.Add(a, expr.Const(1)), []int{0}), expr.Const(2))
	require.Equal(t, []int64{4, 6, 12, 16}, evalSame[int64](t, mem, y, array.Int64, 2, 2))
}

// Partials of two halves of the data, merged, give the variance of the
// whole: how a stream of record batches or a set of shards combines.
func TestEvalMomentsMerge(t *testing.T) {
	mem := checkedMem(t)
	v := make([]float32, 40*6)
	for i := range v {
		v[i] = 1000 + float32(i*7%13)/4
	}
	whole := expr.Leaf(mk(t, mem, v, 40, 6))
	top := expr.Leaf(mk(t, mem, v[:17*6], 17, 6))
	bottom := expr.Leaf(mk(t, mem, v[17*6:], 23, 6))
	want := evalSame[float32](t, mem, expr.ReduceVar(whole, []int{0}, 1, false), array.Float32, 6)
	s1, p1, err := expr.EvalMoments(top, []int{0}, expr.WithAllocator(mem))
	require.NoError(t, err)
	s2, p2, err := expr.EvalMoments(expr.Mul(bottom, expr.Const(1)), []int{-2}, expr.WithAllocator(mem), expr.WithWorkers(3))
	require.NoError(t, err)
	require.Equal(t, []int{6}, s1)
	require.Equal(t, s1, s2)
	for i := range want {
		m := p1[i].Merge(p2[i])
		require.Equal(t, int64(40), m.Count)
		require.InDelta(t, float64(want[i]), m.Var(1), 1e-5*float64(want[i]))
	}
	_, _, err = expr.EvalMoments(whole, []int{2})
	require.Error(t, err)
	_, _, err = expr.EvalMoments(nil, nil)
	require.Error(t, err)
}

// Operands that are expressions with broadcast subexpressions give what
// the same values as an array give.
func TestDedicatedPassesOfExpressions(t *testing.T) {
	mem := checkedMem(t)
	col := expr.Leaf(mk(t, mem, []float64{1, 2, 4}, 3, 1))
	row := expr.Leaf(mk(t, mem, []float64{0.5, -1, 3, 8}, 4))
	e := expr.Mul(expr.Add(col, row), expr.Exp(expr.Leaf(mk(t, mem, []float64{0, 0, 0, 0}, 4))))
	vals := evalSame[float64](t, mem, e, array.Float64, 3, 4)
	m := expr.Leaf(mk(t, mem, vals, 3, 4))
	for _, f := range []func(x *expr.Node) *expr.Node{
		func(x *expr.Node) *expr.Node { return expr.ReduceStd(x, []int{0}, 1, false) },
		func(x *expr.Node) *expr.Node { return expr.ReduceVar(x, []int{1}, 0, true) },
		func(x *expr.Node) *expr.Node { return expr.Cast(expr.Argmax(x, nil, false), array.Float64) },
		func(x *expr.Node) *expr.Node { return expr.Cast(expr.Argmin(x, []int{1}, false), array.Float64) },
		func(x *expr.Node) *expr.Node { return expr.Cumsum(x, []int{0}) },
		func(x *expr.Node) *expr.Node { return expr.Cumprod(x, nil) },
	} {
		want, err := expr.Eval(f(m), expr.WithAllocator(mem))
		require.NoError(t, err)
		got, err := expr.Eval(f(e), expr.WithAllocator(mem), expr.WithWorkers(2))
		require.NoError(t, err)
		require.Equal(t, want.Shape(), got.Shape())
		wv, _ := array.ToSlice[float64](want)
		gv, _ := array.ToSlice[float64](got)
		require.Equal(t, wv, gv, "%v", f(e))
		want.Release()
		got.Release()
	}
}

// Nil and zero nodes give errors, never panics.
func TestNewReductionsOfBadNodes(t *testing.T) {
	for _, x := range []*expr.Node{nil, {}} {
		for _, e := range []*expr.Node{
			expr.ReduceVar(x, nil, 0, false), expr.ReduceStd(x, []int{0}, 1, true), expr.Argmin(x, nil, false),
			expr.Argmax(x, []int{0}, true), expr.Any(x, nil, false), expr.All(x, nil, false),
			expr.CountNonzero(x, nil, false), expr.Nansum(x, nil, false), expr.Nanmean(x, nil, false),
			expr.Nanmin(x, nil, false), expr.Nanmax(x, nil, false), expr.Cumsum(x, nil), expr.Cumprod(x, []int{0}),
		} {
			require.Error(t, e.Err())
			_, err := expr.Eval(e)
			require.Error(t, err)
		}
		_, _, err := expr.EvalMoments(x, nil)
		require.Error(t, err)
	}
}

// The variance over many rows does not depend on how many workers share
// them, and keeps its accuracy far from zero.
func TestVarSameForAnyWorkers(t *testing.T) {
	mem := checkedMem(t)
	const R, C = 5000, 300
	v := make([]float32, R*C)
	for i := range v {
		v[i] = 1e4 + float32(i*7919%1000)/64
	}
	x := expr.Leaf(mk(t, mem, v, R, C))
	for _, axes := range [][]int{{0}, nil} {
		var first []float32
		for _, w := range []int{1, 2, 3, 4} {
			out, err := expr.Eval(expr.ReduceVar(x, axes, 0, false), expr.WithAllocator(mem), expr.WithWorkers(w))
			require.NoError(t, err)
			got, _ := array.ToSlice[float32](out)
			out.Release()
			if first == nil {
				first = got
				continue
			}
			require.Equal(t, first, got, "workers %d, axes %v", w, axes)
		}
		// against float64 two-pass
		n := C
		if axes == nil {
			n = 1
		}
		for j := 0; j < n; j++ {
			var s, q float64
			cnt := 0
			for i := 0; i < R*C; i++ {
				if axes == nil || i%C == j {
					s += float64(v[i])
					cnt++
				}
			}
			m := s / float64(cnt)
			for i := 0; i < R*C; i++ {
				if axes == nil || i%C == j {
					q += (float64(v[i]) - m) * (float64(v[i]) - m)
				}
			}
			require.InEpsilon(t, q/float64(cnt), float64(first[j]), 1e-5, "column %d", j)
		}
	}
}

// Over variables of partial shape, one plan serves inputs of different
// sizes.
func TestNewReductionsOverVariables(t *testing.T) {
	mem := checkedMem(t)
	v := expr.Var("v", array.Float64, broadcast.Partial(-1, 2))
	std := expr.ReduceStd(v, []int{0}, 1, false)
	cum := expr.Cumsum(v, nil)
	arg := expr.Argmax(v, nil, false)
	require.NoError(t, std.Err())
	require.False(t, cum.Shape().Dims[0].IsStatic())
	ps, err := expr.Compile(std, expr.WithAllocator(mem))
	require.NoError(t, err)
	pc, err := expr.Compile(cum, expr.WithAllocator(mem))
	require.NoError(t, err)
	pa, err := expr.Compile(arg, expr.WithAllocator(mem))
	require.NoError(t, err)
	for _, c := range []struct {
		vals []float64
		std  []float64
		cum  []float64
		arg  int64
	}{
		{[]float64{1, 2, 3, 6}, []float64{math.Sqrt2, 2 * math.Sqrt2}, []float64{1, 3, 6, 12}, 3},
		{[]float64{1, 2, 3, 6, 5, 4}, []float64{2, 2}, []float64{1, 3, 6, 12, 17, 21}, 3},
	} {
		b := expr.Bindings{"v": mk(t, mem, c.vals, len(c.vals)/2, 2)}
		out, err := ps.Eval(b)
		require.NoError(t, err)
		got, _ := array.ToSlice[float64](out)
		out.Release()
		near(t, c.std, got, 1e-15)
		out, err = pc.Eval(b)
		require.NoError(t, err)
		got, _ = array.ToSlice[float64](out)
		out.Release()
		require.Equal(t, c.cum, got)
		out, err = pa.Eval(b)
		require.NoError(t, err)
		require.Equal(t, c.arg, arraytest.At[int64](t, out))
		out.Release()
	}
}
