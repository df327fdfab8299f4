package array_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// accessErrs calls the four element accessors of a at idx and returns their
// errors by name. Set writes -7 and SetNull a null: a test checks that a
// failing call wrote neither.
func accessErrs(a *array.Array, idx ...int) map[string]error {
	errs := map[string]error{}
	_, errs["At"] = array.At[float32](a, idx...)
	_, errs["IsValid"] = a.IsValid(idx...)
	errs["Set"] = array.Set(a, float32(-7), idx...)
	errs["SetNull"] = a.SetNull(idx...)
	return errs
}

// contents is a's data and validity in row-major order.
func contents(t *testing.T, a *array.Array) ([]float64, []bool, bool) {
	t.Helper()
	v, err := array.ToSlice[float64](a)
	require.NoError(t, err)
	ok, err := array.ValidSlice(a)
	require.NoError(t, err)
	return v, ok, a.HasNulls()
}

// TestAccessorsNilReleasedZero: At, IsValid, Set and SetNull on a nil, a
// released and a zero-valued array return ErrNil or ErrReleased (as Check
// gives), naming the function and the index, and do not panic.
func TestAccessorsNilReleasedZero(t *testing.T) {
	mem := checkedMem(t)
	released, err := array.New(mem, array.Float32, 2, 2)
	require.NoError(t, err)
	released.Release()
	for _, tc := range []struct {
		name string
		a    *array.Array
		want error
	}{
		{"nil", nil, array.ErrNil},
		{"released", released, array.ErrReleased},
		{"zero", &array.Array{}, array.ErrReleased},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, idx := range [][]int{nil, {0}, {1, 1}, {-1, 1 << 62}} {
				for name, err := range accessErrs(tc.a, idx...) {
					require.ErrorIs(t, err, tc.want, "%s %v", name, idx)
					assert.False(t, errors.Is(err, array.ErrIndex), "%s %v: %v", name, idx, err)
					assert.Equal(t, fmt.Sprintf("array.%s: index %v into %v", name, idx, tc.want), err.Error())
				}
			}
		})
	}
	assert.EqualError(t, accessErrs(nil, 3, 1)["At"], "array.At: index [3 1] into nil array")
}

// TestAccessorsBadIndex: an index of the wrong length or out of range
// (negative, equal to the dimension, 1<<62, math.MinInt) is an error
// wrapping ErrIndex (not ErrShape) whose message names the function, the
// index and the shape; a failing Set or SetNull leaves the data and the
// mask as they were, and adds no mask to an array without one.
func TestAccessorsBadIndex(t *testing.T) {
	mem := checkedMem(t)
	plain, err := array.FromSlice(mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	defer plain.Release()
	masked, err := array.FromSliceValid(mem, []float32{1, 2, 3, 4, 5, 6}, []bool{true, false, true, true, true, true}, 2, 3)
	require.NoError(t, err)
	defer masked.Release()

	rank := func(idx ...int) string {
		return fmt.Sprintf("index %v of length %d for shape [2 3] of rank 2: index out of range", idx, len(idx))
	}
	outside := func(idx ...int) string {
		return fmt.Sprintf("index %v out of range for shape [2 3]: index out of range", idx)
	}
	for _, tc := range []struct {
		name string
		idx  []int
		msg  string
	}{
		{"no index", nil, rank()},
		{"one index", []int{1}, rank(1)},
		{"three indices", []int{0, 0, 0}, rank(0, 0, 0)},
		{"three indices out of range", []int{5, 5, 5}, rank(5, 5, 5)},
		{"negative row", []int{-1, 0}, outside(-1, 0)},
		{"negative column", []int{0, -1}, outside(0, -1)},
		{"row == dim", []int{2, 0}, outside(2, 0)},
		{"column == dim", []int{1, 3}, outside(1, 3)},
		{"column == dim inside the buffer", []int{0, 3}, outside(0, 3)},
		{"huge row", []int{1 << 62, 0}, outside(1<<62, 0)},
		{"huge column", []int{0, 1 << 62}, outside(0, 1<<62)},
		{"max int", []int{math.MaxInt, math.MaxInt}, outside(math.MaxInt, math.MaxInt)},
		{"min int", []int{math.MinInt, 0}, outside(math.MinInt, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, a := range []*array.Array{plain, masked} {
				v0, ok0, nulls0 := contents(t, a)
				for name, err := range accessErrs(a, tc.idx...) {
					require.ErrorIs(t, err, array.ErrIndex, "%s", name)
					assert.False(t, errors.Is(err, array.ErrShape), "%s: %v", name, err)
					assert.EqualError(t, err, "array."+name+": "+tc.msg)
				}
				v, ok, nulls := contents(t, a)
				assert.Equal(t, v0, v, "data unchanged")
				assert.Equal(t, ok0, ok, "mask unchanged")
				assert.Equal(t, nulls0, nulls, "no mask added")
			}
		})
	}

	sq, err := array.New(mem, array.Int64, 2, 2)
	require.NoError(t, err)
	defer sq.Release()
	_, err = array.At[int64](sq, 3, 1)
	assert.EqualError(t, err, "array.At: index [3 1] out of range for shape [2 2]: index out of range")
}

// TestAccessorsGoodIndex: at a valid index the four accessors work, on a
// masked array too (a null element reads as valid false and zero, without
// an error).
func TestAccessorsGoodIndex(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float32{1, 2, 3, 4, 5, 6}, []bool{true, false, true, true, true, true}, 2, 3)
	require.NoError(t, err)
	defer a.Release()
	v, err := array.At[float32](a, 1, 2)
	require.NoError(t, err)
	assert.Equal(t, float32(6), v)
	ok, err := a.IsValid(0, 1)
	require.NoError(t, err)
	assert.False(t, ok)
	v, err = array.At[float32](a, 0, 1)
	require.NoError(t, err)
	assert.Zero(t, v)
	require.NoError(t, array.Set(a, int8(-2), 0, 1))
	ok, err = a.IsValid(0, 1)
	require.NoError(t, err)
	assert.True(t, ok)
	require.NoError(t, a.SetNull(1, 2))
	vals, valid, _ := contents(t, a)
	assert.Equal(t, []float64{1, -2, 3, 4, 5, 0}, vals)
	assert.Equal(t, []bool{true, true, true, true, true, false}, valid)
}

// TestAccessorsRank0: a 0-d array takes no index; any index is an
// ErrIndex error naming the empty shape.
func TestAccessorsRank0(t *testing.T) {
	mem := checkedMem(t)
	s, err := array.Scalar(mem, int8(5))
	require.NoError(t, err)
	defer s.Release()
	v, err := array.At[int8](s)
	require.NoError(t, err)
	assert.Equal(t, int8(5), v)
	ok, err := s.IsValid()
	require.NoError(t, err)
	assert.True(t, ok)
	for _, idx := range [][]int{{0}, {-1}, {0, 0}} {
		for name, err := range accessErrs(s, idx...) {
			require.ErrorIs(t, err, array.ErrIndex, "%s %v", name, idx)
			assert.EqualError(t, err, fmt.Sprintf("array.%s: index %v of length %d for shape [] of rank 0: index out of range", name, idx, len(idx)))
		}
	}
	vals, _, nulls := contents(t, s)
	assert.Equal(t, []float64{5}, vals)
	assert.False(t, nulls)
	require.NoError(t, array.Set(s, 7.9, []int{}...))
	v, err = array.At[int8](s)
	require.NoError(t, err)
	assert.Equal(t, int8(7), v)
	require.NoError(t, s.SetNull())
	ok, err = s.IsValid()
	require.NoError(t, err)
	assert.False(t, ok)
}

// TestAccessorsBroadcastView: a broadcast (stride-0) view reads at every
// index of its own shape; Set and SetNull return ErrReadOnly and write
// nothing; an index outside the view's shape is ErrIndex (checked before
// the view is found read-only).
func TestAccessorsBroadcastView(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int32{1, 2, 3})
	require.NoError(t, err)
	defer a.Release()
	b, err := a.View([]int{4, 3}, []int{0, 1}, 0)
	require.NoError(t, err)
	defer b.Release()
	for i := range 4 {
		for j := range 3 {
			v, err := array.At[int32](b, i, j)
			require.NoError(t, err)
			assert.Equal(t, int32(j+1), v)
			ok, err := b.IsValid(i, j)
			require.NoError(t, err)
			assert.True(t, ok)
		}
	}
	err = array.Set(b, int32(9), 3, 2)
	assert.ErrorIs(t, err, array.ErrReadOnly)
	assert.ErrorIs(t, b.SetNull(3, 2), array.ErrReadOnly)
	for name, err := range accessErrs(b, 4, 0) {
		require.ErrorIs(t, err, array.ErrIndex, name)
		assert.False(t, errors.Is(err, array.ErrReadOnly), name)
		assert.EqualError(t, err, "array."+name+": index [4 0] out of range for shape [4 3]: index out of range")
	}
	assert.False(t, b.HasNulls())
	assert.False(t, a.HasNulls())
	assert.Equal(t, []float64{1, 2, 3}, floats(t, a), "unchanged")
}

// TestAccessorsStridedViews: a transposed and a sliced view are indexed
// by their own shape and strides, and an index past the view's shape is
// ErrIndex even where it would still land inside the buffer.
func TestAccessorsStridedViews(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int64{0, 1, 2, 3, 4, 5}, 2, 3)
	require.NoError(t, err)
	defer a.Release()

	tr, err := a.View([]int{3, 2}, []int{1, 3}, 0) // a transposed
	require.NoError(t, err)
	defer tr.Release()
	for i := range 3 {
		for j := range 2 {
			v, err := array.At[int64](tr, i, j)
			require.NoError(t, err)
			assert.Equal(t, int64(3*j+i), v, "[%d %d]", i, j)
		}
	}
	_, err = array.At[int64](tr, 0, 2) // element 6: past the buffer
	assert.ErrorIs(t, err, array.ErrIndex)
	_, err = array.At[int64](tr, 1, 1) // (1, 1) of [3 2] is fine, (1, 2) is not
	require.NoError(t, err)
	for name, err := range accessErrs(tr, 1, 2) {
		require.ErrorIs(t, err, array.ErrIndex, name)
		assert.EqualError(t, err, "array."+name+": index [1 2] out of range for shape [3 2]: index out of range")
	}
	require.NoError(t, array.Set(tr, int64(40), 2, 1))
	assert.Equal(t, []float64{0, 1, 2, 3, 4, 40}, floats(t, a))

	// Row 0, columns 1.. 2 of a, reversed: offset 2, stride -1.
	sl, err := a.View([]int{2}, []int{-1}, 2)
	require.NoError(t, err)
	defer sl.Release()
	v, err := array.At[int64](sl, 1)
	require.NoError(t, err)
	assert.Equal(t, int64(1), v)
	for _, idx := range []int{2, -1} { // elements 0 and 3 of the buffer
		for name, err := range accessErrs(sl, idx) {
			require.ErrorIs(t, err, array.ErrIndex, name)
			assert.EqualError(t, err, fmt.Sprintf("array.%s: index [%d] out of range for shape [2]: index out of range", name, idx))
		}
	}
	assert.False(t, sl.HasNulls())
	assert.Equal(t, []float64{0, 1, 2, 3, 4, 40}, floats(t, a), "unchanged")
	require.NoError(t, sl.SetNull(0))
	ok, err := a.IsValid(0, 2)
	require.NoError(t, err)
	assert.True(t, ok, "the mask was added to the view's header only")
	assert.Equal(t, []float64{0, 1, 0, 3, 4, 40}, floats(t, a))
}

// TestAccessorsDoNotAllocate: a good index costs no allocation (the
// variadic index does not escape through the error paths, which print a
// copy of it).
func TestAccessorsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	a, err := array.FromSlice(nil, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	defer a.Release()
	require.NoError(t, a.SetNull(0, 0)) // a mask, so that IsValid reads it
	var sink float64
	allocs := testing.AllocsPerRun(100, func() {
		v, err := array.At[float64](a, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := a.IsValid(1, 1)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		if err := array.Set(a, v+1, 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := a.SetNull(0, 1); err != nil {
			t.Fatal(err)
		}
		sink += v
	})
	assert.Zero(t, allocs, "allocations per call of At, IsValid, Set and SetNull")
	got, err := array.At[float64](a, 1, 0)
	require.NoError(t, err)
	assert.Equal(t, 7.0, got)
}
