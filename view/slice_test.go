package view_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/view"
)

func TestRangeHelpers(t *testing.T) {
	assert.Equal(t, view.Range{Start: 0, Stop: math.MaxInt, Step: 1}, view.All())
	assert.Equal(t, view.Range{Start: 2, Stop: 5, Step: 1}, view.Span(2, 5))
	assert.Equal(t, view.Range{Start: 2, Stop: math.MaxInt, Step: 1}, view.From(2))
	assert.Equal(t, view.Range{Start: math.MaxInt, Stop: math.MinInt, Step: -1}, view.Reverse())
	assert.True(t, view.Index(3).IsIndex())
	assert.True(t, view.Index(-1).IsIndex())
	assert.True(t, view.Index(math.MaxInt).IsIndex())
	assert.False(t, view.Span(3, 4).IsIndex())
	assert.False(t, view.Range{}.IsIndex())
	assert.Equal(t, "1:5:2", view.Range{Start: 1, Stop: 5, Step: 2}.String())
	assert.Equal(t, "::-1", view.Reverse().String())
	assert.Equal(t, "-2", view.Index(-2).String())
}

// TestSliceOneAxis checks Python semantics against hand-written results
// (what list(range(n))[start:stop:step] gives).
func TestSliceOneAxis(t *testing.T) {
	const n = 6
	cases := []struct {
		r    view.Range
		want []float64
	}{
		{view.All(), []float64{0, 1, 2, 3, 4, 5}},
		{view.Span(1, 4), []float64{1, 2, 3}},
		{view.Span(-2, 100), []float64{4, 5}},
		{view.Span(-100, 2), []float64{0, 1}},
		{view.Span(4, 1), []float64{}},
		{view.Span(6, 10), []float64{}},
		{view.Span(-1, -1), []float64{}},
		{view.From(-3), []float64{3, 4, 5}},
		{view.Reverse(), []float64{5, 4, 3, 2, 1, 0}},
		{view.Range{Start: 0, Stop: 6, Step: 2}, []float64{0, 2, 4}},
		{view.Range{Start: 1, Stop: 6, Step: 2}, []float64{1, 3, 5}},
		{view.Range{Start: 0, Stop: 6, Step: 5}, []float64{0, 5}},
		{view.Range{Start: 0, Stop: 6, Step: 6}, []float64{0}},
		{view.Range{Start: 0, Stop: 6, Step: math.MaxInt}, []float64{0}},
		{view.Range{Start: 5, Stop: 0, Step: -2}, []float64{5, 3, 1}},
		{view.Range{Start: 5, Stop: math.MinInt, Step: -2}, []float64{5, 3, 1}},
		{view.Range{Start: -1, Stop: -4, Step: -1}, []float64{5, 4, 3}},
		{view.Range{Start: 100, Stop: 2, Step: -1}, []float64{5, 4, 3}},
		{view.Range{Start: 2, Stop: -100, Step: -1}, []float64{2, 1, 0}},
		{view.Range{Start: 2, Stop: -1, Step: -1}, []float64{}}, // -1 is the last element
		{view.Range{Start: 0, Stop: 5, Step: -1}, []float64{}},
		{view.Range{Start: math.MaxInt, Stop: math.MinInt, Step: math.MinInt}, []float64{5}},
		{view.Range{Start: math.MinInt, Stop: math.MaxInt, Step: 4}, []float64{0, 4}},
		{view.Range{Start: -7, Stop: 7, Step: 1}, []float64{0, 1, 2, 3, 4, 5}},
	}
	for _, tc := range cases {
		mem := checkedMem(t)
		a := arange(t, mem, n)
		v, err := view.Slice(a, tc.r)
		require.NoError(t, err, "%v", tc.r)
		assert.Equal(t, tc.want, f64s(t, v), "[%v]", tc.r)
		assert.Equal(t, []int{len(tc.want)}, v.Shape())
		var idx []int
		for _, w := range tc.want {
			idx = append(idx, int(w))
		}
		assert.Equal(t, len(idx), len(pySlice(n, tc.r)), "pySlice agrees on [%v]", tc.r)
		for i := range idx {
			assert.Equal(t, idx[i], pySlice(n, tc.r)[i])
		}
		v.Release()
	}
}

func TestSliceIndex(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 3, 4)
	for _, tc := range []struct {
		ranges []view.Range
		shape  []int
		want   []float64
	}{
		{[]view.Range{view.Index(1)}, ints(4), []float64{4, 5, 6, 7}},
		{[]view.Range{view.Index(-1)}, ints(4), []float64{8, 9, 10, 11}},
		{[]view.Range{view.All(), view.Index(2)}, ints(3), []float64{2, 6, 10}},
		{[]view.Range{view.Index(2), view.Index(-4)}, ints(), []float64{8}},
		{[]view.Range{view.Span(1, 2), view.Index(0)}, ints(1), []float64{4}},
		{[]view.Range{view.Reverse(), view.Range{Start: 3, Stop: math.MinInt, Step: -2}}, ints(3, 2), []float64{11, 9, 7, 5, 3, 1}},
		{nil, ints(3, 4), []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	} {
		v, err := view.Slice(a, tc.ranges...)
		require.NoError(t, err, "%v", tc.ranges)
		assert.Equal(t, tc.shape, v.Shape(), "%v", tc.ranges)
		assert.Equal(t, tc.want, f64s(t, v), "%v", tc.ranges)
		checkCopy(t, mem, v, func() (*array.Array, error) { return naiveSlice(mem, a, tc.ranges) })
		v.Release()
	}
}

func TestSliceErrors(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 3, 4)
	cases := []struct {
		name   string
		ranges []view.Range
		want   error
	}{
		{"too many", []view.Range{view.All(), view.All(), view.All()}, view.ErrAxis},
		{"step 0", []view.Range{{Start: 0, Stop: 3, Step: 0}}, view.ErrRange},
		{"zero value", []view.Range{{}}, view.ErrRange},
		{"index past the end", []view.Range{view.Index(3)}, view.ErrRange},
		{"index before the start", []view.Range{view.All(), view.Index(-5)}, view.ErrRange},
		{"huge index", []view.Range{view.Index(math.MaxInt)}, view.ErrRange},
		{"min index", []view.Range{view.Index(math.MinInt)}, view.ErrRange},
	}
	for _, tc := range cases {
		v, err := view.Slice(a, tc.ranges...)
		assert.Nil(t, v, tc.name)
		require.ErrorIs(t, err, tc.want, tc.name)
		assert.True(t, strings.HasPrefix(err.Error(), "view.Slice [3 4]"), err.Error())
	}
	s := arange(t, mem)
	_, err := view.Slice(s, view.Index(0))
	assert.ErrorIs(t, err, view.ErrAxis)
	e := arange(t, mem, 0)
	_, err = view.Slice(e, view.Index(0))
	assert.ErrorIs(t, err, view.ErrRange)
	v, err := view.Slice(e, view.Reverse())
	require.NoError(t, err)
	assert.Equal(t, []int{0}, v.Shape())
	v.Release()
}

func TestSliceStridesAndWrites(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 4, 5)
	v, err := view.Slice(a, view.Range{Start: 3, Stop: 0, Step: -2}, view.Range{Start: 1, Stop: 5, Step: 3})
	require.NoError(t, err)
	defer v.Release()
	assert.Equal(t, []int{2, 2}, v.Shape())
	assert.Equal(t, []int{-10, 3}, v.Strides())
	assert.Equal(t, 16, v.Offset())
	assert.Equal(t, []float64{16, 19, 6, 9}, f64s(t, v))
	require.NoError(t, array.Set(v, -1.0, 1, 1))
	assert.Equal(t, -1.0, arraytest.At[float64](t, a, 1, 4))

	// A slice of a slice.
	w, err := view.Slice(v, view.Reverse(), view.Index(0))
	require.NoError(t, err)
	defer w.Release()
	assert.Equal(t, []float64{6, 16}, f64s(t, w))

	// Length-1 results keep a valid stride even for a huge step.
	one, err := view.Slice(a, view.Range{Start: 1, Stop: math.MaxInt, Step: math.MaxInt})
	require.NoError(t, err)
	defer one.Release()
	assert.Equal(t, []int{1, 5}, one.Shape())
	assert.Equal(t, []float64{5, 6, 7, 8, -1}, f64s(t, one)) // a[1, 4] was set through v
}
