package view_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

func TestExpandDims(t *testing.T) {
	cases := []struct {
		in      []int
		axis    int
		out     []int
		strides []int
	}{
		{ints(), 0, ints(1), ints(1)},
		{ints(), -1, ints(1), ints(1)},
		{ints(3), 0, ints(1, 3), ints(3, 1)},
		{ints(3), 1, ints(3, 1), ints(1, 1)},
		{ints(3), -1, ints(3, 1), ints(1, 1)},
		{ints(3), -2, ints(1, 3), ints(3, 1)},
		{ints(2, 3), 1, ints(2, 1, 3), ints(3, 3, 1)},
		{ints(2, 0), 1, ints(2, 1, 0), ints(1, 1, 1)},
	}
	for _, tc := range cases {
		mem := checkedMem(t)
		a := arange(t, mem, tc.in...)
		v, err := view.ExpandDims(a, tc.axis)
		require.NoError(t, err, "%v at %d", tc.in, tc.axis)
		assert.Equal(t, tc.out, v.Shape(), "%v at %d", tc.in, tc.axis)
		assert.Equal(t, tc.strides, v.Strides(), "%v at %d", tc.in, tc.axis)
		assert.True(t, v.IsContiguous())
		assert.False(t, v.ReadOnly())
		checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Reshape(mem, a, tc.out) })
		v.Release()
	}

	// A view of a transposed, broadcast input keeps its layout.
	mem := checkedMem(t)
	b, err := view.BroadcastTo(arange(t, mem, 3), []int{2, 3})
	require.NoError(t, err)
	defer b.Release()
	v, err := view.ExpandDims(b, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 1, 3}, v.Shape())
	assert.Equal(t, []int{0, 3, 1}, v.Strides())
	assert.True(t, v.ReadOnly())
	checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Reshape(mem, b, []int{2, 1, 3}) })
	v.Release()

	a := arange(t, mem, 2, 3)
	for _, axis := range []int{3, -4, 100} {
		v, err := view.ExpandDims(a, axis)
		assert.Nil(t, v)
		require.ErrorIs(t, err, view.ErrAxis, "%d", axis)
		assert.True(t, strings.HasPrefix(err.Error(), "view.ExpandDims [2 3]"), err.Error())
	}
}

func TestSqueeze(t *testing.T) {
	cases := []struct {
		in   []int
		axes []int
		out  []int
	}{
		{ints(1, 3, 1, 2, 1), nil, ints(3, 2)},
		{ints(1, 3, 1, 2, 1), ints(0), ints(3, 1, 2, 1)},
		{ints(1, 3, 1, 2, 1), ints(-1, 2), ints(1, 3, 2)},
		{ints(1, 1), nil, ints()},
		{ints(), nil, ints()},
		{ints(3, 4), nil, ints(3, 4)},
		{ints(1, 0, 1), nil, ints(0)},
		{ints(1), ints(0), ints()},
	}
	for _, tc := range cases {
		mem := checkedMem(t)
		a := arange(t, mem, tc.in...)
		v, err := view.Squeeze(a, tc.axes...)
		require.NoError(t, err, "%v axes %v", tc.in, tc.axes)
		assert.Equal(t, tc.out, v.Shape(), "%v axes %v", tc.in, tc.axes)
		checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Reshape(mem, a, tc.out) })
		v.Release()
	}

	mem := checkedMem(t)
	a := arange(t, mem, 1, 3, 1)
	for _, axes := range [][]int{{1}, {3}, {-4}, {0, 0}, {0, -3}} {
		v, err := view.Squeeze(a, axes...)
		assert.Nil(t, v)
		require.ErrorIs(t, err, view.ErrAxis, "%v", axes)
		assert.True(t, strings.HasPrefix(err.Error(), "view.Squeeze [1 3 1]"), err.Error())
	}
}

// TestSqueezeExpandRoundTrip: the strides survive a squeeze and an
// expand_dims, for a sliced, reversed input.
func TestSqueezeExpandRoundTrip(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 4, 1, 6)
	s, err := view.Slice(a, view.Reverse(), view.All(), view.Range{Start: 5, Stop: 0, Step: -2})
	require.NoError(t, err)
	defer s.Release()
	q, err := view.Squeeze(s)
	require.NoError(t, err)
	defer q.Release()
	assert.Equal(t, []int{4, 3}, q.Shape())
	e, err := view.ExpandDims(q, 1)
	require.NoError(t, err)
	defer e.Release()
	assert.Equal(t, s.Shape(), e.Shape())
	require.NoError(t, naive.Equal(s, e))
}
