package view_test

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

// layouts builds inputs with interesting strides from a fresh array.
var layouts = map[string]func(t *testing.T, mem memory.Allocator) *array.Array{
	"contiguous 2x3x4": func(t *testing.T, mem memory.Allocator) *array.Array {
		return retained(arange(t, mem, 2, 3, 4))
	},
	"transposed 3x2": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Transpose(arange(t, mem, 2, 3)))
	},
	"transposed 4x6": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Transpose(arange(t, mem, 6, 4)))
	},
	"every other of 12": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Slice(arange(t, mem, 12), view.Range{Start: 0, Stop: 12, Step: 2}))
	},
	"reversed 12": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Slice(arange(t, mem, 12), view.Reverse()))
	},
	"row broadcast 4x3": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.BroadcastTo(arange(t, mem, 3), []int{4, 3}))
	},
	"column broadcast 3x4": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.BroadcastTo(arange(t, mem, 3, 1), []int{3, 4}))
	},
	"scalar broadcast 2x3x2": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.BroadcastTo(arange(t, mem), []int{2, 3, 2}))
	},
	"sub-block 2x2 of 4x4": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Slice(arange(t, mem, 4, 4), view.Span(1, 3), view.Span(1, 3)))
	},
	"rows of 4x4, stepped": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Slice(arange(t, mem, 4, 4), view.Range{Start: 3, Stop: math.MinInt, Step: -2}))
	},
	"size-1 axes with odd strides": func(t *testing.T, mem memory.Allocator) *array.Array {
		b := arange(t, mem, 12)
		return must(t)(b.View([]int{1, 3, 1, 4, 1}, []int{-1000, 4, 77, 1, 0}, 0))
	},
	"scalar": func(t *testing.T, mem memory.Allocator) *array.Array {
		return retained(arange(t, mem))
	},
	"empty transposed": func(t *testing.T, mem memory.Allocator) *array.Array {
		return must(t)(view.Transpose(arange(t, mem, 0, 3)))
	},
}

func retained(a *array.Array) *array.Array { a.Retain(); return a }

func must(t *testing.T) func(*array.Array, error) *array.Array {
	return func(a *array.Array, err error) *array.Array {
		t.Helper()
		require.NoError(t, err)
		return a
	}
}

// factorizations lists shapes (up to rank 4, 1s included) holding n
// elements, for n > 0.
func factorizations(n int) [][]int {
	var out [][]int
	var rec func(rest int, prefix []int)
	rec = func(rest int, prefix []int) {
		if rest == 1 {
			out = append(out, append([]int{}, prefix...))
		}
		if len(prefix) == 4 {
			return
		}
		for d := 1; d <= rest; d++ {
			if rest%d == 0 && (d > 1 || len(prefix) < 3) {
				rec(rest/d, append(prefix, d))
			}
		}
	}
	rec(n, nil)
	return out
}

// TestReshapeNoCopyExactly: for every layout and every target shape, Reshape
// succeeds exactly when some strided view exists (brute force), and then its
// elements are those of the naive reshape.
func TestReshapeNoCopyExactly(t *testing.T) {
	for name, build := range layouts {
		t.Run(name, func(t *testing.T) {
			mem := checkedMem(t)
			x := build(t, mem)
			defer x.Release()
			targets := factorizations(x.Len())
			if x.Len() == 0 {
				targets = [][]int{{0}, {3, 0}, {0, 5, 1}, {1, 0}}
			}
			ok, copies := 0, 0
			for _, out := range targets {
				v, err := view.Reshape(x, out...)
				if !affineStrides(x, out) {
					require.ErrorIs(t, err, view.ErrCopyRequired, "%v to %v", x, out)
					assert.Nil(t, v)
					assert.Contains(t, err.Error(), "view.Reshape")
					copies++
					continue
				}
				require.NoError(t, err, "%v to %v has a strided view", x, out)
				ok++
				assert.Equal(t, out, v.Shape())
				assert.Equal(t, x.Offset(), v.Offset())
				assert.Same(t, x.Data(), v.Data())
				checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Reshape(mem, x, out) })
				v.Release()
			}
			t.Logf("%d views, %d need a copy", ok, copies)
			assert.NotZero(t, ok)
		})
	}
}

func TestReshapeInfer(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 3, 4)
	for _, tc := range []struct{ in, want []int }{
		{ints(-1), ints(24)},
		{ints(4, -1), ints(4, 6)},
		{ints(-1, 4), ints(6, 4)},
		{ints(2, -1, 1, 2), ints(2, 6, 1, 2)},
		{ints(1, -1, 1), ints(1, 24, 1)},
	} {
		v, err := view.Reshape(a, tc.in...)
		require.NoError(t, err, "%v", tc.in)
		assert.Equal(t, tc.want, v.Shape())
		assert.True(t, v.IsContiguous())
		v.Release()
	}
	e := arange(t, mem, 0, 3)
	v, err := view.Reshape(e, -1)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, v.Shape())
	v.Release()
	v, err = view.Reshape(e, 5, -1)
	require.NoError(t, err)
	assert.Equal(t, []int{5, 0}, v.Shape())
	v.Release()
	s := arange(t, mem)
	v, err = view.Reshape(s)
	require.NoError(t, err)
	assert.Equal(t, []int{}, v.Shape())
	v.Release()
	v, err = view.Reshape(s, -1)
	require.NoError(t, err)
	assert.Equal(t, []int{1}, v.Shape())
	v.Release()
}

func TestReshapeErrors(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 3, 4)
	e := arange(t, mem, 0, 3)
	cases := []struct {
		name  string
		a     *array.Array
		shape []int
		want  error
	}{
		{"count", a, ints(5, 5), view.ErrShape},
		{"count scalar", a, ints(), view.ErrShape},
		{"two unknowns", a, ints(-1, -1), view.ErrShape},
		{"negative", a, ints(-2, -12), view.ErrShape},
		{"not divisible", a, ints(5, -1), view.ErrShape},
		{"zero with unknown", a, ints(0, -1), view.ErrShape},
		{"empty zero with unknown", e, ints(0, -1), view.ErrShape},
		{"empty to non-empty", e, ints(3), view.ErrShape},
		{"overflow", a, ints(math.MaxInt, 2), view.ErrShape},
		{"overflow with unknown", a, ints(math.MaxInt, 2, -1), view.ErrShape},
	}
	for _, tc := range cases {
		v, err := view.Reshape(tc.a, tc.shape...)
		assert.Nil(t, v, tc.name)
		require.ErrorIs(t, err, tc.want, tc.name)
		assert.True(t, strings.HasPrefix(err.Error(), "view.Reshape "), err.Error())
	}
	tr, err := view.Transpose(a)
	require.NoError(t, err)
	defer tr.Release()
	_, err = view.Reshape(tr, 24)
	require.ErrorIs(t, err, view.ErrCopyRequired)
	assert.Equal(t, "view.Reshape [4 3 2] (strides [1 4 12]) to [24]: axes 0 and 1 (strides 1 and 4) would merge but are not laid out one after the other: view impossible without a copy", err.Error())
	// The documented way out: copy, then reshape.
	c, err := array.Copy(mem, tr)
	require.NoError(t, err)
	defer c.Release()
	v, err := view.Reshape(c, 24)
	require.NoError(t, err)
	checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Reshape(mem, tr, []int{24}) })
	v.Release()
}

func TestReshapeSharesAndWrites(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 3, 4)
	v, err := view.Reshape(a, 2, 2, 3)
	require.NoError(t, err)
	defer v.Release()
	require.NoError(t, array.Set(v, 100.0, 1, 1, 2)) // element 11
	assert.Equal(t, 100.0, arraytest.At[float64](t, a, 2, 3))
}
