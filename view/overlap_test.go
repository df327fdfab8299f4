package view_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/view"
)

// TestOrdinaryViewsWritable: chains of slices (any step, negative ones
// included), transposes, reshapes, expands and squeezes of a writable array
// never reach one element twice, so none may be marked read-only, however
// large its span (the base spans 2^21 elements, past the exact search's
// bound). A broadcast of an axis is read-only.
func TestOrdinaryViewsWritable(t *testing.T) {
	mem := checkedMem(t)
	base, err := array.New(mem, array.Int8, 64, 128, 256)
	require.NoError(t, err)
	defer base.Release()
	r := rand.New(rand.NewPCG(21, 22))
	made := map[int]int{}
	for it := 0; it < 3000; it++ {
		v := base
		v.Retain()
		for step := 0; step < 6; step++ {
			var (
				nv  *array.Array
				err error
			)
			shape := v.Shape()
			kind := r.IntN(5)
			switch kind {
			case 0:
				nv, err = view.Transpose(v, r.Perm(len(shape))...)
			case 1:
				rs := make([]view.Range, len(shape))
				for i, d := range shape {
					st := 1 + r.IntN(4)
					if r.IntN(3) == 0 {
						st = -st
					}
					lo, hi := 0, d
					if d > 2 {
						lo = r.IntN(d / 2)
						hi = d - r.IntN(d/2)
					}
					if st < 0 {
						lo, hi = hi-1, lo-1
					}
					rs[i] = view.Range{Start: lo, Stop: hi, Step: st}
					if hi < 0 {
						rs[i] = view.Range{Start: lo, Stop: -d - 1, Step: st}
					}
				}
				nv, err = view.Slice(v, rs...)
			case 2:
				n := v.Len()
				if n > 0 && n%4 == 0 {
					nv, err = view.Reshape(v, 2, -1, 2)
				} else {
					nv, err = view.Reshape(v, -1)
				}
			case 3:
				nv, err = view.ExpandDims(v, r.IntN(len(shape)+1))
			default:
				nv, err = view.Squeeze(v)
			}
			if err != nil {
				continue // e.g. a reshape that would need a copy
			}
			made[kind]++
			require.False(t, nv.ReadOnly(), "view %v of %v (after %d steps)", nv, base, step)
			v.Release()
			v = nv
		}
		if v.Len() > 1 && v.Rank() > 0 {
			shape := v.Shape()
			for i, d := range shape {
				if d == 1 {
					shape[i] = 3
					b, err := view.BroadcastTo(v, shape)
					require.NoError(t, err)
					require.True(t, b.ReadOnly(), "broadcast %v", b)
					b.Release()
					break
				}
			}
		}
		v.Release()
	}
	for k := 0; k < 5; k++ {
		require.Greater(t, made[k], 1000, "views of kind %d made: %v", k, made)
	}
}

// TestSelfOverlapViewReadOnly is the report's z.View([]int{3, 3},
// []int{1, 1}, 0): read-only, and every view of it too.
func TestSelfOverlapViewReadOnly(t *testing.T) {
	mem := checkedMem(t)
	z := arange(t, mem, 9)
	v, err := z.View([]int{3, 3}, []int{1, 1}, 0)
	require.NoError(t, err)
	defer v.Release()
	require.True(t, v.ReadOnly())
	for _, f := range []func() (*array.Array, error){
		func() (*array.Array, error) { return view.Transpose(v, 1, 0) },
		func() (*array.Array, error) { return view.Slice(v, view.Reverse(), view.All()) },
		func() (*array.Array, error) { return view.ExpandDims(v, 0) },
	} {
		w, err := f()
		require.NoError(t, err)
		require.True(t, w.ReadOnly(), "%v", w)
		w.Release()
	}
	// a slice that leaves no two indices on one element is writable again
	w, err := view.Slice(v, view.Index(1), view.All())
	require.NoError(t, err)
	require.False(t, w.ReadOnly(), "%v", w)
	w.Release()
}
