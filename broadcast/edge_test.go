package broadcast_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

// A nil shape is a scalar, and a scalar output is an empty, non-nil slice.
func TestNilIsScalar(t *testing.T) {
	out, m, err := broadcast.Numpy(nil, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{}, out)
	assert.Equal(t, broadcast.AxisMap{}, m)

	out, maps, err := broadcast.Multidirectional(nil, []int{2})
	require.NoError(t, err)
	assert.Equal(t, []int{2}, out)
	assert.Equal(t, []broadcast.AxisMap{{}, {0}}, maps)

	out, m, err = broadcast.Explicit(nil, []int{2, 1}, []int{1})
	require.NoError(t, err)
	assert.Equal(t, []int{2, 1}, out)
	assert.Equal(t, broadcast.AxisMap{}, m)
	_, _, err = broadcast.Explicit(nil, []int{2, 1}, []int{0})
	assert.ErrorIs(t, err, broadcast.ErrIncompatible)
	_, _, err = broadcast.Explicit(nil, []int{1, 1}, []int{0, 1})
	assert.ErrorIs(t, err, broadcast.ErrAxes)
	out, _, err = broadcast.Explicit(nil, []int{2, 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3}, out)

	out, m, err = broadcast.PDPDElementwise(nil, nil, -1)
	require.NoError(t, err)
	assert.Equal(t, []int{}, out)
	assert.Equal(t, broadcast.AxisMap{}, m)

	sum, err := broadcast.Adjoint(nil, []int{2, 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, sum)
	st, err := broadcast.Strides(nil, nil, []int{2, 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0}, st)
	n, err := broadcast.Size(nil)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
}

func TestNoShapes(t *testing.T) {
	_, _, err := broadcast.Multidirectional()
	assert.ErrorIs(t, err, broadcast.ErrShape)
	_, _, err = broadcast.None()
	assert.ErrorIs(t, err, broadcast.ErrShape)
	_, err = broadcast.InferMultidirectional()
	assert.ErrorIs(t, err, broadcast.ErrShape)
	out, maps, err := broadcast.Multidirectional([]int{2, 1})
	require.NoError(t, err)
	assert.Equal(t, []int{2, 1}, out)
	assert.Equal(t, []broadcast.AxisMap{{0, 1}}, maps)
}

// The rules neither modify nor keep their arguments.
func TestNoAliasing(t *testing.T) {
	data, target, axes := []int{3, 1}, []int{2, 3, 4}, []int{1, 2}
	out, m, err := broadcast.Explicit(data, target, axes)
	require.NoError(t, err)
	out[0], m[0] = 99, 99
	assert.Equal(t, []int{2, 3, 4}, target)
	assert.Equal(t, []int{1, 2}, axes)
	out, _, err = broadcast.Numpy(data, target)
	require.NoError(t, err)
	out[0] = 99
	out, _, err = broadcast.PDPDElementwise(target, data, 1)
	require.NoError(t, err)
	out[0] = 99
	out, _, err = broadcast.NGraph([]int{3}, target[:2], []int{0})
	require.NoError(t, err)
	out[0] = 99
	out, _, err = broadcast.None(target)
	require.NoError(t, err)
	out[0] = 99
	assert.Equal(t, []int{2, 3, 4}, target)
	assert.Equal(t, []int{3, 1}, data)
}

func TestExtremeInputs(t *testing.T) {
	big := []int{math.MaxInt, 1}
	out, _, err := broadcast.Numpy([]int{1, 1}, big)
	require.NoError(t, err)
	assert.Equal(t, big, out)
	_, err = broadcast.Size(out)
	assert.NoError(t, err)
	_, err = broadcast.Size([]int{math.MaxInt, 2})
	assert.ErrorIs(t, err, broadcast.ErrOverflow)
	_, err = broadcast.Size([]int{1 << 32, 1 << 31})
	assert.ErrorIs(t, err, broadcast.ErrOverflow)
	n, err := broadcast.Size([]int{1 << 31, 1 << 31})
	require.NoError(t, err)
	assert.Equal(t, 1<<62, n)
	n, err = broadcast.Size([]int{math.MaxInt, math.MaxInt, 0})
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	_, err = broadcast.Size([]int{math.MaxInt, 0, -1})
	assert.ErrorIs(t, err, broadcast.ErrShape)

	for _, axis := range []int{math.MinInt, -2, 5, math.MaxInt} {
		_, _, err = broadcast.PDPD([]int{3}, []int{2, 3}, axis)
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, _, err = broadcast.PDPDElementwise([]int{2, 3}, []int{3}, axis)
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, err = broadcast.InferPDPD(broadcast.StaticShape(3), broadcast.StaticShape(2, 3), axis)
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, err = broadcast.InferPDPDElementwise(broadcast.StaticShape(2, 3), broadcast.StaticShape(3), axis)
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, _, err = broadcast.Explicit([]int{3}, []int{3}, []int{axis})
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, _, err = broadcast.NGraph([]int{3}, []int{3, 2}, []int{axis})
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, err = broadcast.Adjoint([]int{3}, []int{3}, broadcast.AxisMap{axis})
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
		_, err = broadcast.Strides([]int{3}, []int{1}, []int{3}, broadcast.AxisMap{axis})
		assert.ErrorIs(t, err, broadcast.ErrAxes, "axis %d", axis)
	}
	_, _, err = broadcast.NGraph([]int{}, []int{3}, []int{0, 0})
	assert.ErrorIs(t, err, broadcast.ErrAxes)
	_, _, err = broadcast.Explicit([]int{3, 3}, []int{3, 3}, []int{0, 0})
	assert.ErrorIs(t, err, broadcast.ErrAxes, "duplicates are rejected")
	_, _, err = broadcast.Numpy([]int{math.MinInt}, []int{2})
	assert.ErrorIs(t, err, broadcast.ErrShape)
	_, _, err = broadcast.Multidirectional([]int{2}, []int{math.MinInt})
	assert.ErrorIs(t, err, broadcast.ErrShape)
	_, err = broadcast.InferBidirectional(broadcast.Shape{Dims: []broadcast.Dim{{Lo: -5, Hi: 3}}, RankKnown: true}, dyn)
	assert.ErrorIs(t, err, broadcast.ErrShape)
	_, err = broadcast.InferNGraph(dyn, dyn, []int{-1})
	assert.ErrorIs(t, err, broadcast.ErrAxes)
	out2, err := broadcast.InferNGraph(dyn, dyn, []int{7})
	require.NoError(t, err)
	assert.False(t, out2.RankKnown)
	// Dims of a shape of unknown rank are ignored.
	out3, err := broadcast.InferMultidirectional(broadcast.Shape{Dims: []broadcast.Dim{{Lo: 9, Hi: 1}}}, ps(st(2)))
	require.NoError(t, err)
	assert.False(t, out3.RankKnown)
}

func TestAdjointAndStridesValidate(t *testing.T) {
	for _, tc := range []struct {
		in, out []int
		m       broadcast.AxisMap
		is      error
	}{
		{[]int{3}, []int{3}, broadcast.AxisMap{}, broadcast.ErrAxes},           // wrong length
		{[]int{3, 3}, []int{3, 3}, broadcast.AxisMap{1, 0}, broadcast.ErrAxes}, // not increasing
		{[]int{3, 4}, []int{3, 4}, broadcast.AxisMap{0, 0}, broadcast.ErrAxes}, // duplicate
		{[]int{3}, []int{3}, broadcast.AxisMap{-1}, broadcast.ErrAxes},         // dropping a non-1 axis
		{[]int{3}, []int{3}, broadcast.AxisMap{1}, broadcast.ErrAxes},          // out of range
		{[]int{3}, []int{4}, broadcast.AxisMap{0}, broadcast.ErrIncompatible},
		{[]int{-3}, []int{3}, broadcast.AxisMap{0}, broadcast.ErrShape},
		{[]int{3}, []int{-3}, broadcast.AxisMap{0}, broadcast.ErrShape},
	} {
		_, err := broadcast.Adjoint(tc.in, tc.out, tc.m)
		assert.ErrorIs(t, err, tc.is, "%v %v %v", tc.in, tc.out, tc.m)
		_, err = broadcast.Strides(tc.in, make([]int, len(tc.in)), tc.out, tc.m)
		assert.ErrorIs(t, err, tc.is, "%v %v %v", tc.in, tc.out, tc.m)
	}
	// Dropped 1s, kept 1s, negative strides.
	sum, err := broadcast.Adjoint([]int{1, 3, 1, 1}, []int{2, 1, 3, 5}, broadcast.AxisMap{1, 2, 3, -1})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3}, sum)
	st, err := broadcast.Strides([]int{1, 3, 1, 1}, []int{7, -2, 5, 9}, []int{2, 1, 3, 5}, broadcast.AxisMap{1, 2, 3, -1})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 7, -2, 0}, st)
	// A size-1 axis broadcast to 0 is summed (to zero).
	sum, err = broadcast.ReduceTo([]int{0, 3}, []int{1, 3})
	require.NoError(t, err)
	assert.Equal(t, []int{0}, sum)
}

func TestPartialShorthand(t *testing.T) {
	s := broadcast.Partial(-1, 16, 0, -7)
	require.True(t, s.RankKnown)
	require.Len(t, s.Dims, 4)
	assert.Equal(t, broadcast.UnknownDim(), s.Dims[0])
	assert.Equal(t, broadcast.StaticDim(16), s.Dims[1])
	assert.Equal(t, broadcast.StaticDim(0), s.Dims[2])
	assert.Equal(t, broadcast.UnknownDim(), s.Dims[3])
	assert.Equal(t, "[? 16 0 ?]", s.String())
	_, static := s.Static()
	assert.False(t, static)
	scalar := broadcast.Partial()
	assert.True(t, scalar.RankKnown)
	assert.Empty(t, scalar.Dims)
	dims, static := broadcast.Partial(2, 3).Static()
	assert.True(t, static)
	assert.Equal(t, []int{2, 3}, dims)
}
