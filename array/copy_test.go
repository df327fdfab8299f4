package array_test

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
)

func TestCopyEveryDType(t *testing.T) {
	for _, dt := range array.DTypes {
		t.Run(dt.String(), func(t *testing.T) {
			mem := checkedMem(t)
			a, err := array.Arange(mem, dt, 0, 24, 1)
			require.NoError(t, err)
			defer a.Release()
			want := floats(t, a)

			// Contiguous source.
			c, err := array.Copy(mem, a)
			require.NoError(t, err)
			assert.Equal(t, dt, c.DType())
			assert.Equal(t, want, floats(t, c))
			assert.NotSame(t, a.Data(), c.Data())
			c.Release()

			// Reversed, transposed source: shape [3, 4, 2] read backwards.
			v, err := a.View([]int{2, 4, 3}, []int{-1, -2, -8}, 23)
			require.NoError(t, err)
			defer v.Release()
			c, err = array.Copy(mem, v)
			require.NoError(t, err)
			assert.True(t, c.IsContiguous())
			assert.Equal(t, []int{2, 4, 3}, c.Shape())
			assert.Equal(t, []int{12, 3, 1}, c.Strides())
			assert.Equal(t, 0, c.Offset())
			assert.Equal(t, floats(t, v), floats(t, c))
			for i := 0; i < 2; i++ {
				for j := 0; j < 4; j++ {
					for k := 0; k < 3; k++ {
						assert.Equal(t, arraytest.At[float64](t, v, i, j, k), arraytest.At[float64](t, c, i, j, k))
					}
				}
			}
			c.Release()
		})
	}
}

func TestCopyBroadcastViewIsWritable(t *testing.T) {
	mem := checkedMem(t)
	row, err := array.FromSlice(mem, []float32{1, 2, 3})
	require.NoError(t, err)
	defer row.Release()
	b, err := row.View([]int{1000, 3}, []int{0, 1}, 0)
	require.NoError(t, err)
	defer b.Release()
	assert.True(t, b.ReadOnly())
	c, err := array.Copy(nil, b) // a's allocator
	require.NoError(t, err)
	defer c.Release()
	assert.Same(t, mem, c.Allocator())
	assert.False(t, c.ReadOnly())
	assert.Equal(t, 3000, c.Len())
	assert.Equal(t, float32(2), arraytest.At[float32](t, c, 999, 1))
	require.NoError(t, array.Set(c, float32(-1), 5, 1))
	assert.Equal(t, float32(2), arraytest.At[float32](t, row, 1), "the copy is independent")
}

func TestCopyWithValidity(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []int64{1, 2, 3, 4, 5, 6}, []bool{true, false, true, true, true, false}, 2, 3)
	require.NoError(t, err)
	defer a.Release()

	c, err := array.Copy(mem, a)
	require.NoError(t, err)
	assert.True(t, c.HasNulls())
	assert.NotSame(t, a.Validity(), c.Validity())
	vs, err := array.ValidSlice(c)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true, true, true, false}, vs)
	// The copy's mask is its own.
	require.NoError(t, array.Set(c, int64(9), 0, 1))
	assert.False(t, arraytest.IsValid(t, a, 0, 1))
	c.Release()

	tr, err := a.View([]int{3, 2}, []int{1, 3}, 0)
	require.NoError(t, err)
	defer tr.Release()
	c, err = array.Copy(mem, tr)
	require.NoError(t, err)
	vs, err = array.ValidSlice(c)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, false, true, true, false}, vs)
	got, err := array.ToSlice[int64](c)
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 4, 0, 5, 3, 0}, got)
	c.Release()

	bc, err := a.View([]int{2, 2, 3}, []int{0, 3, 1}, 0)
	require.NoError(t, err)
	defer bc.Release()
	c, err = array.Copy(mem, bc)
	require.NoError(t, err)
	vs, err = array.ValidSlice(c)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true, true, true, false, true, false, true, true, true, false}, vs)
	c.Release()
}

func TestCopyRankZeroAndEmpty(t *testing.T) {
	mem := checkedMem(t)
	s, err := array.Scalar(mem, uint8(200))
	require.NoError(t, err)
	defer s.Release()
	require.NoError(t, s.SetNull())
	c, err := array.Copy(mem, s)
	require.NoError(t, err)
	assert.Equal(t, []int{}, c.Shape())
	assert.False(t, arraytest.IsValid(t, c))
	c.Release()

	for _, sh := range [][]int{{0}, {3, 0}, {0, 2, 2}} {
		e, err := array.FromSliceValid(mem, []float64{}, []bool{}, sh...)
		require.NoError(t, err)
		c, err := array.Copy(mem, e)
		require.NoError(t, err)
		assert.Equal(t, sh, c.Shape())
		assert.Equal(t, 0, c.Len())
		assert.True(t, c.HasNulls())
		c.Release()
		e.Release()
	}
}

func TestCopyAllocatorChoice(t *testing.T) {
	src := checkedMem(t)
	dst := checkedMem(t)
	a, err := array.FromSliceValid(src, []int16{1, 2}, []bool{true, false})
	require.NoError(t, err)
	before := src.CurrentAlloc()
	c, err := array.Copy(dst, a)
	require.NoError(t, err)
	assert.Equal(t, before, src.CurrentAlloc(), "nothing from the source's allocator")
	assert.NotZero(t, dst.CurrentAlloc())
	assert.Same(t, dst, c.Allocator())
	a.Release()
	c.Release()
}

func TestCopyErrors(t *testing.T) {
	mem := checkedMem(t)
	_, err := array.Copy(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	a, err := array.New(mem, array.Int8, 3)
	require.NoError(t, err)
	a.Release()
	_, err = array.Copy(mem, a)
	assert.ErrorIs(t, err, array.ErrReleased)
}

// TestCopyFromBuffer copies a header made over a foreign buffer with an
// offset and negative strides.
func TestCopyFromBuffer(t *testing.T) {
	mem := checkedMem(t)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(6 * 4)
	defer buf.Release()
	vals := []int32{10, 11, 12, 13, 14, 15}
	w, err := array.Wrap(vals)
	require.NoError(t, err)
	copy(buf.Bytes(), w.Data().Bytes())
	w.Release()

	a, err := array.FromBuffer(array.Int32, []int{2, 2}, []int{-2, 1}, 3, buf, nil)
	require.NoError(t, err)
	defer a.Release()
	c, err := array.Copy(mem, a)
	require.NoError(t, err)
	defer c.Release()
	got, err := array.ToSlice[int32](c)
	require.NoError(t, err)
	assert.Equal(t, []int32{13, 14, 11, 12}, got)
}
