package naive_test

import (
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/naive"
)

func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func fromSlice[T array.Element](t *testing.T, mem memory.Allocator, v []T, shape ...int) *array.Array {
	t.Helper()
	a, err := array.FromSlice(mem, v, shape...)
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

func values(t *testing.T, a *array.Array) []float64 {
	t.Helper()
	v, err := array.ToSlice[float64](a)
	require.NoError(t, err)
	return v
}

func TestForEach(t *testing.T) {
	var got [][]int
	naive.ForEach([]int{2, 3}, func(c []int) bool {
		got = append(got, append([]int(nil), c...))
		return true
	})
	assert.Equal(t, [][]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}, got)

	n := 0
	naive.ForEach(nil, func(c []int) bool { n++; assert.Empty(t, c); return true })
	assert.Equal(t, 1, n, "a scalar has one coordinate")
	n = 0
	naive.ForEach([]int{3, 0, 2}, func([]int) bool { n++; return true })
	assert.Equal(t, 0, n)
	naive.ForEach([]int{-1}, func([]int) bool { n++; return true })
	assert.Equal(t, 0, n)
	naive.ForEach([]int{5, 5}, func([]int) bool { n++; return n < 3 })
	assert.Equal(t, 3, n, "stops when f returns false")
}

// TestBroadcastNGraphSpec is the example of the nGraph Broadcast page.
func TestBroadcastNGraphSpec(t *testing.T) {
	mem := checkedMem(t)
	arg := fromSlice(t, mem, []float64{1, 2, 3}) // [a, b, c]

	rows, err := naive.Broadcast(mem, arg, []int{2, 3}, broadcast.AxisMap{1}) // broadcast_axes {0}
	require.NoError(t, err)
	defer rows.Release()
	assert.Equal(t, []int{2, 3}, rows.Shape())
	assert.Equal(t, []float64{1, 2, 3, 1, 2, 3}, values(t, rows))

	cols, err := naive.Broadcast(mem, arg, []int{3, 2}, broadcast.AxisMap{0}) // broadcast_axes {1}
	require.NoError(t, err)
	defer cols.Release()
	assert.Equal(t, []float64{1, 1, 2, 2, 3, 3}, values(t, cols))
}

func TestBroadcastStretchDropAndScalar(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []int32{1, 2}, 2, 1)

	// [2 1] -> [3 2 4]: axis 0 -> 1, axis 1 (size 1) -> 2 stretched.
	b, err := naive.Broadcast(mem, a, []int{3, 2, 4}, broadcast.AxisMap{1, 2})
	require.NoError(t, err)
	defer b.Release()
	want := []float64{1, 1, 1, 1, 2, 2, 2, 2}
	assert.Equal(t, append(append(append([]float64{}, want...), want...), want...), values(t, b))

	// A dropped size-1 axis (-1).
	d, err := naive.Broadcast(mem, a, []int{2}, broadcast.AxisMap{0, -1})
	require.NoError(t, err)
	defer d.Release()
	assert.Equal(t, []float64{1, 2}, values(t, d))

	s := fromSlice(t, mem, []uint8{7}, []int{}...)
	f, err := naive.Broadcast(mem, s, []int{2, 2}, broadcast.AxisMap{})
	require.NoError(t, err)
	defer f.Release()
	assert.Equal(t, []float64{7, 7, 7, 7}, values(t, f))

	ss, err := naive.Broadcast(mem, s, []int{}, broadcast.AxisMap{})
	require.NoError(t, err)
	defer ss.Release()
	assert.Equal(t, []float64{7}, values(t, ss))

	// Zero-size outputs: a 1 stretched to 0, a new axis of 0.
	z, err := naive.Broadcast(mem, a, []int{2, 0}, broadcast.AxisMap{0, 1})
	require.NoError(t, err)
	defer z.Release()
	assert.Equal(t, []int{2, 0}, z.Shape())
	z2, err := naive.Broadcast(mem, a, []int{0, 2, 1}, broadcast.AxisMap{1, 2})
	require.NoError(t, err)
	defer z2.Release()
	assert.Equal(t, 0, z2.Len())
}

func TestBroadcastKeepsValidityAndDType(t *testing.T) {
	mem := checkedMem(t)
	for _, dt := range array.DTypes {
		a, err := array.Arange(mem, dt, 1, 4, 1)
		require.NoError(t, err)
		require.NoError(t, a.SetNull(1))
		b, err := naive.Broadcast(mem, a, []int{2, 3}, broadcast.AxisMap{1})
		require.NoError(t, err)
		assert.Equal(t, dt, b.DType())
		assert.True(t, b.HasNulls())
		vs, err := array.ValidSlice(b)
		require.NoError(t, err)
		assert.Equal(t, []bool{true, false, true, true, false, true}, vs)
		b.Release()
		a.Release()
	}
}

func TestBroadcastErrors(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []int8{1, 2, 3, 4, 5, 6}, 2, 3)
	cases := []struct {
		name string
		out  []int
		m    broadcast.AxisMap
		want error
	}{
		{"short map", []int{2, 3}, broadcast.AxisMap{0}, broadcast.ErrAxes},
		{"out of range", []int{2, 3}, broadcast.AxisMap{0, 2}, broadcast.ErrAxes},
		{"negative", []int{2, 3}, broadcast.AxisMap{-2, 1}, broadcast.ErrAxes},
		{"dropped non-1", []int{3}, broadcast.AxisMap{-1, 0}, broadcast.ErrAxes},
		{"twice", []int{3, 2}, broadcast.AxisMap{1, 1}, broadcast.ErrAxes},
		{"incompatible", []int{2, 4}, broadcast.AxisMap{0, 1}, broadcast.ErrIncompatible},
		{"negative out", []int{2, -3}, broadcast.AxisMap{0, 1}, broadcast.ErrShape},
	}
	for _, tc := range cases {
		_, err := naive.Broadcast(mem, a, tc.out, tc.m)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	_, err := naive.Broadcast(mem, nil, []int{1}, broadcast.AxisMap{})
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = naive.Broadcast(mem, a, []int{1 << 40, 1 << 40, 2, 3}, broadcast.AxisMap{2, 3})
	assert.ErrorIs(t, err, array.ErrShape, "overflowing output")
}

func TestTranspose(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []float32{0, 1, 2, 3, 4, 5}, 1, 2, 3)
	b, err := naive.Transpose(mem, a, []int{2, 0, 1})
	require.NoError(t, err)
	defer b.Release()
	assert.Equal(t, []int{3, 1, 2}, b.Shape())
	assert.Equal(t, []float64{0, 3, 1, 4, 2, 5}, values(t, b))

	for _, bad := range [][]int{{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}} {
		_, err := naive.Transpose(mem, a, bad)
		assert.ErrorIs(t, err, array.ErrShape, "%v", bad)
	}
	s := fromSlice(t, mem, []float32{9}, []int{}...)
	c, err := naive.Transpose(mem, s, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{9}, values(t, c))
	c.Release()
}

func TestReshape(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []int64{0, 1, 2, 3, 4, 5}, 2, 3)
	tr, err := naive.Transpose(mem, a, []int{1, 0}) // [[0 3] [1 4] [2 5]]
	require.NoError(t, err)
	defer tr.Release()
	r, err := naive.Reshape(mem, tr, []int{6})
	require.NoError(t, err)
	defer r.Release()
	assert.Equal(t, []float64{0, 3, 1, 4, 2, 5}, values(t, r))
	r2, err := naive.Reshape(mem, a, []int{3, 1, 2})
	require.NoError(t, err)
	defer r2.Release()
	assert.Equal(t, float64(3), arraytest.At[float64](t, r2, 1, 0, 1))

	_, err = naive.Reshape(mem, a, []int{4})
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = naive.Reshape(mem, a, []int{-1, 6})
	assert.ErrorIs(t, err, array.ErrShape)

	e := fromSlice(t, mem, []int64{}, 0, 3)
	r3, err := naive.Reshape(mem, e, []int{3, 0, 5})
	require.NoError(t, err)
	assert.Equal(t, []int{3, 0, 5}, r3.Shape())
	r3.Release()
}

func TestTake(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []uint16{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4)
	b, err := naive.Take(mem, a, [][]int{{2, 0}, {3, 1, 1}})
	require.NoError(t, err)
	defer b.Release()
	assert.Equal(t, []int{2, 3}, b.Shape())
	assert.Equal(t, []float64{11, 9, 9, 3, 1, 1}, values(t, b))

	e, err := naive.Take(mem, a, [][]int{{}, {0}})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, e.Shape())
	e.Release()

	_, err = naive.Take(mem, a, [][]int{{3}, {0}})
	assert.ErrorIs(t, err, array.ErrIndex)
	_, err = naive.Take(mem, a, [][]int{{-1}, {0}})
	assert.ErrorIs(t, err, array.ErrIndex)
	_, err = naive.Take(mem, a, [][]int{{0}})
	assert.ErrorIs(t, err, array.ErrShape)
}

func TestGatherErrors(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []float64{1, 2})
	_, err := naive.Gather(mem, a, []int{3}, func(c []int) []int { return c })
	assert.ErrorIs(t, err, array.ErrBounds)
	_, err = naive.Gather(mem, a, []int{1}, func(c []int) []int { return []int{0, 0} })
	assert.ErrorIs(t, err, array.ErrBounds)
	_, err = naive.Gather(mem, a, []int{1}, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = naive.Gather(mem, a, []int{-1}, func(c []int) []int { return c })
	assert.ErrorIs(t, err, array.ErrShape)
	a2, err := array.FromSlice(mem, []int8{1})
	require.NoError(t, err)
	a2.Release()
	_, err = naive.Gather(mem, a2, []int{1}, func(c []int) []int { return c })
	assert.ErrorIs(t, err, array.ErrReleased)
}

func TestSumAxes(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	cases := []struct {
		axes  []int
		shape []int
		want  []float64
	}{
		{[]int{0}, []int{3}, []float64{5, 7, 9}},
		{[]int{1}, []int{2}, []float64{6, 15}},
		{[]int{-1}, []int{2}, []float64{6, 15}},
		{[]int{1, 0}, []int{}, []float64{21}},
		{nil, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}},
	}
	for _, tc := range cases {
		s, err := naive.SumAxes(mem, a, tc.axes)
		require.NoError(t, err, "%v", tc.axes)
		assert.Equal(t, tc.shape, s.Shape(), "%v", tc.axes)
		assert.Equal(t, tc.want, values(t, s), "%v", tc.axes)
		s.Release()
	}
	for _, bad := range [][]int{{2}, {-3}, {0, 0}, {1, -1}} {
		_, err := naive.SumAxes(mem, a, bad)
		assert.ErrorIs(t, err, array.ErrShape, "%v", bad)
	}

	// The adjoint of a broadcast: summing over broadcast.Adjoint's axes gives
	// the input times the replication factor.
	in := fromSlice(t, mem, []int32{1, 2, 3}, 3, 1)
	out := []int{2, 3, 4}
	_, m, err := broadcast.Numpy(in.Shape(), out)
	require.NoError(t, err)
	b, err := naive.Broadcast(mem, in, out, m)
	require.NoError(t, err)
	defer b.Release()
	axes, err := broadcast.Adjoint(in.Shape(), out, m)
	require.NoError(t, err)
	g, err := naive.SumAxes(mem, b, axes)
	require.NoError(t, err)
	defer g.Release()
	assert.Equal(t, array.Int32, g.DType())
	assert.Equal(t, []float64{8, 16, 24}, values(t, g))

	// Nulls count as zero; integer results truncate; bool is "any".
	n, err := array.FromSliceValid(mem, []int8{1, 100, 3}, []bool{true, false, true})
	require.NoError(t, err)
	defer n.Release()
	sn, err := naive.SumAxes(mem, n, []int{0})
	require.NoError(t, err)
	assert.Equal(t, []float64{4}, values(t, sn))
	assert.False(t, sn.HasNulls())
	sn.Release()
	bo := fromSlice(t, mem, []bool{false, true, false, false}, 2, 2)
	sb, err := naive.SumAxes(mem, bo, []int{1})
	require.NoError(t, err)
	got, err := array.ToSlice[bool](sb)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false}, got)
	sb.Release()

	// Zero-size axes sum to zero.
	e := fromSlice(t, mem, []float32{}, 2, 0)
	se, err := naive.SumAxes(mem, e, []int{1})
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0}, values(t, se))
	se.Release()
}

func TestEqual(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []float64{1, math.NaN(), 3}, 3)
	b := fromSlice(t, mem, []float64{1, math.NaN(), 3}, 3)
	require.NoError(t, naive.Equal(a, b), "NaN with the same bits is equal")
	require.NoError(t, naive.Equal(a, a))

	c := fromSlice(t, mem, []float64{1, math.NaN(), 4}, 3)
	err := naive.Equal(a, c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "value at [2]")

	negz := fromSlice(t, mem, []float64{math.Copysign(0, -1)})
	posz := fromSlice(t, mem, []float64{0})
	assert.Error(t, naive.Equal(posz, negz), "-0 differs from +0")
	assert.NoError(t, naive.Close(posz, negz, 0, 0))

	assert.ErrorContains(t, naive.Equal(a, fromSlice(t, mem, []float32{1, 2, 3})), "dtype")
	assert.ErrorContains(t, naive.Equal(a, fromSlice(t, mem, []float64{1, 2, 3}, 3, 1)), "shape")

	many := fromSlice(t, mem, []float64{9, 9, 9})
	assert.ErrorContains(t, naive.Equal(a, many), "and 2 more differences")

	// Validity: a mask that says all valid equals no mask; a null differs.
	m, err := array.FromSliceValid(mem, []float64{1, math.NaN(), 3}, []bool{true, true, true})
	require.NoError(t, err)
	defer m.Release()
	assert.NoError(t, naive.Equal(a, m))
	require.NoError(t, m.SetNull(0))
	assert.ErrorContains(t, naive.Equal(a, m), "validity at [0]")

	assert.ErrorIs(t, naive.Equal(nil, a), array.ErrNil)
	assert.ErrorIs(t, naive.Equal(a, nil), array.ErrNil)

	// Every dtype, through a non-contiguous view.
	for _, dt := range array.DTypes {
		x, err := array.Arange(mem, dt, 0, 6, 1)
		require.NoError(t, err)
		v, err := x.View([]int{3}, []int{-2}, 5)
		require.NoError(t, err)
		y, err := array.Copy(mem, v)
		require.NoError(t, err)
		assert.NoError(t, naive.Equal(v, y), dt)
		if dt != array.Bool {
			require.NoError(t, array.Set(y, int8(100), 1))
			assert.Error(t, naive.Equal(v, y), dt)
		}
		x.Release()
		v.Release()
		y.Release()
	}
}

func TestEqualIntegersExactly(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []int64{1<<62 + 1})
	b := fromSlice(t, mem, []int64{1 << 62})
	assert.Error(t, naive.Equal(a, b), "no rounding through float64")
	u := fromSlice(t, mem, []uint64{math.MaxUint64})
	u2 := fromSlice(t, mem, []uint64{math.MaxUint64 - 1})
	assert.Error(t, naive.Equal(u, u2))
	h := fromSlice(t, mem, []float16.Num{float16.FromBits(1)})
	h2 := fromSlice(t, mem, []float16.Num{float16.FromBits(2)})
	assert.Error(t, naive.Equal(h, h2))
	assert.NoError(t, naive.Close(h, h2, 0, 1e-7))
}

func TestClose(t *testing.T) {
	mem := checkedMem(t)
	a := fromSlice(t, mem, []float32{1, 100, float32(math.Inf(1)), float32(math.NaN())})
	b := fromSlice(t, mem, []float32{1.001, 100.05, float32(math.Inf(1)), float32(math.NaN())})
	assert.NoError(t, naive.Close(a, b, 1e-3, 1e-3))
	assert.Error(t, naive.Close(a, b, 1e-6, 1e-6))
	c := fromSlice(t, mem, []float32{1, 100, float32(math.Inf(-1)), float32(math.NaN())})
	assert.Error(t, naive.Close(a, c, 1, 1), "infinities of other signs")
	d := fromSlice(t, mem, []float32{1, 100, float32(math.Inf(1)), 0})
	assert.Error(t, naive.Close(a, d, 1, 1), "NaN against a number")
	i := fromSlice(t, mem, []int32{1, 2})
	j := fromSlice(t, mem, []int32{1, 3})
	assert.Error(t, naive.Close(i, j, 1, 1), "integers are compared exactly")
}
