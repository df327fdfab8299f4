package view_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/view"
)

func TestFlip(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 2, 2) // numpy.flip's documented example
	for _, c := range []struct {
		axes []int
		want []float64
	}{
		{[]int{0}, []float64{4, 5, 6, 7, 0, 1, 2, 3}},
		{[]int{1}, []float64{2, 3, 0, 1, 6, 7, 4, 5}},
		{nil, []float64{7, 6, 5, 4, 3, 2, 1, 0}},
		{[]int{0, -1}, []float64{5, 4, 7, 6, 1, 0, 3, 2}},
	} {
		v, err := view.Flip(a, c.axes...)
		require.NoError(t, err)
		require.Same(t, a.Data(), v.Data())
		require.Equal(t, c.want, f64s(t, v), "%v", c.axes)
		v.Release()
	}
	s := arange(t, mem)
	v, err := view.Flip(s)
	require.NoError(t, err)
	require.Equal(t, []int{}, v.Shape())
	v.Release()
	e := arange(t, mem, 0, 3)
	v, err = view.Flip(e, 1)
	require.NoError(t, err)
	require.Equal(t, []int{0, 3}, v.Shape())
	v.Release()
	for _, axes := range [][]int{{3}, {-4}, {0, 0}, {1, -2}} {
		_, err := view.Flip(a, axes...)
		require.ErrorIs(t, err, view.ErrAxis, "%v", axes)
	}
	_, err = view.Flip(nil)
	require.ErrorIs(t, err, array.ErrNil)
}

func TestTileRepeatViews(t *testing.T) {
	mem := checkedMem(t)
	col := arange(t, mem, 2, 1)
	row := arange(t, mem, 3)
	for _, c := range []struct {
		name    string
		f       func() (*array.Array, error)
		shape   []int
		strides []int
		want    []float64
	}{
		{"tile column", func() (*array.Array, error) { return view.Tile(col, 1, 3) }, []int{2, 3}, []int{1, 0}, []float64{0, 0, 0, 1, 1, 1}},
		{"tile new axes", func() (*array.Array, error) { return view.Tile(row, 2, 1) }, []int{2, 3}, []int{0, 1}, []float64{0, 1, 2, 0, 1, 2}},
		{"tile reps 1", func() (*array.Array, error) { return view.Tile(row, 1) }, []int{3}, []int{1}, []float64{0, 1, 2}},
		{"tile empty", func() (*array.Array, error) { return view.Tile(row, 0) }, []int{0}, []int{1}, []float64{}},
		{"repeat column", func() (*array.Array, error) { return view.Repeat(col, 4, 1) }, []int{2, 4}, []int{1, 0}, []float64{0, 0, 0, 0, 1, 1, 1, 1}},
		{"repeat 1", func() (*array.Array, error) { return view.Repeat(row, 1, -1) }, []int{3}, []int{1}, []float64{0, 1, 2}},
		{"repeat 0", func() (*array.Array, error) { return view.Repeat(row, 0, 0) }, []int{0}, []int{1}, []float64{}},
	} {
		v, err := c.f()
		require.NoError(t, err, c.name)
		require.Equal(t, c.shape, v.Shape(), c.name)
		require.Equal(t, c.strides, v.Strides(), c.name)
		require.Equal(t, c.want, f64s(t, v), c.name)
		v.Release()
	}
	// no strides express these: the expanded views hold them
	_, err := view.Tile(row, 2)
	require.ErrorIs(t, err, view.ErrCopyRequired)
	_, err = view.Repeat(row, 2, 0)
	require.ErrorIs(t, err, view.ErrCopyRequired)
	x, err := view.TileExpanded(row, 2, 2)
	require.NoError(t, err)
	require.Equal(t, []int{2, 1, 2, 3}, x.Shape())
	require.Equal(t, []int{0, 0, 0, 1}, x.Strides())
	x.Release()
	x, err = view.RepeatExpanded(row, 2, 0)
	require.NoError(t, err)
	require.Equal(t, []int{3, 2}, x.Shape())
	require.Equal(t, []float64{0, 0, 1, 1, 2, 2}, f64s(t, x))
	x.Release()
	// errors
	_, err = view.Tile(row, -1)
	require.ErrorIs(t, err, view.ErrShape)
	_, err = view.TileExpanded(row, 1, -2)
	require.ErrorIs(t, err, view.ErrShape)
	_, err = view.Repeat(row, -1, 0)
	require.ErrorIs(t, err, view.ErrShape)
	_, err = view.Repeat(row, 2, 1)
	require.ErrorIs(t, err, view.ErrAxis)
	_, err = view.RepeatExpanded(row, 2, -2)
	require.ErrorIs(t, err, view.ErrAxis)
	_, err = view.Tile(row, 1<<40, 1<<40)
	require.ErrorIs(t, err, view.ErrShape)
	_, err = view.Repeat(nil, 1, 0)
	require.ErrorIs(t, err, array.ErrNil)
	_, err = view.Tile(nil)
	require.ErrorIs(t, err, array.ErrNil)
}
