package view_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

func TestTranspose(t *testing.T) {
	cases := []struct {
		name    string
		in      []int
		perm    []int
		out     []int
		strides []int
	}{
		{"reverse 2-D", ints(2, 3), nil, ints(3, 2), ints(1, 3)},
		{"reverse 3-D", ints(2, 3, 4), nil, ints(4, 3, 2), ints(1, 4, 12)},
		{"scalar", ints(), nil, ints(), ints()},
		{"1-D", ints(5), nil, ints(5), ints(1)},
		{"identity", ints(2, 3, 4), ints(0, 1, 2), ints(2, 3, 4), ints(12, 4, 1)},
		{"cycle", ints(2, 3, 4), ints(2, 0, 1), ints(4, 2, 3), ints(1, 12, 4)},
		{"negative axes", ints(2, 3, 4), ints(-1, 0, -2), ints(4, 2, 3), ints(1, 12, 4)},
		{"zero size", ints(2, 0, 3), ints(1, 2, 0), ints(0, 3, 2), ints(3, 1, 3)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			a := arange(t, mem, tc.in...)
			v, err := view.Transpose(a, tc.perm...)
			require.NoError(t, err)
			defer v.Release()
			assert.Equal(t, tc.out, v.Shape())
			assert.Equal(t, tc.strides, v.Strides())
			assert.Same(t, a.Data(), v.Data())
			perm := tc.perm
			if perm == nil {
				for k := len(tc.in) - 1; k >= 0; k-- {
					perm = append(perm, k)
				}
			}
			for k := range perm {
				if perm[k] < 0 {
					perm[k] += len(tc.in)
				}
			}
			checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Transpose(mem, a, perm) })
			assert.Equal(t, tc.in, a.Shape(), "input unchanged")
		})
	}
}

func TestTransposeErrors(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 3, 4)
	for _, perm := range [][]int{{0, 1}, {0, 1, 2, 3}, {0, 1, 1}, {0, 1, 3}, {0, 1, -4}, {2, -1, 0}} {
		v, err := view.Transpose(a, perm...)
		assert.Nil(t, v)
		require.ErrorIs(t, err, view.ErrAxis, "%v", perm)
		assert.True(t, strings.HasPrefix(err.Error(), "view.Transpose [2 3 4]"), err.Error())
	}
	s := arange(t, mem)
	_, err := view.Transpose(s, 0)
	assert.ErrorIs(t, err, view.ErrAxis)
}

func TestTransposeTwiceIsIdentity(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 3, 4)
	v, err := view.Transpose(a, 1, 2, 0)
	require.NoError(t, err)
	defer v.Release()
	w, err := view.Transpose(v, 2, 0, 1)
	require.NoError(t, err)
	defer w.Release()
	assert.Equal(t, a.Shape(), w.Shape())
	assert.Equal(t, a.Strides(), w.Strides())
	assert.True(t, w.IsContiguous())
	require.NoError(t, array.Set(w, -1.0, 1, 2, 3))
	assert.Equal(t, -1.0, arraytest.At[float64](t, a, 1, 2, 3))
}
