package expr_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestTakeIndexDTypes checks Take at indices of every integer dtype it
// accepts, contiguous and strided (each index array read by a different
// path), with negative indices where the dtype has them and with a null
// index, from arrays of 1-, 2-, 4- and 8-byte elements along each axis,
// against direct indexing; and that an index out of range is an array.ErrIndex
// error naming it.
func TestTakeIndexDTypes(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewPCG(21, 5))
	const m = 203 // past the gather kernel's prefetch distance
	for _, idt := range []array.DType{array.Int8, array.Int16, array.Int32, array.Int64, array.Uint8, array.Uint16, array.Uint32} {
		for _, xdt := range []array.DType{array.Int8, array.Int16, array.Float32, array.Float64} {
			for _, shape := range [][]int{{77}, {3, 77}, {77, 3}} {
				for ax := range shape {
					for _, strided := range []bool{false, true} {
						for _, null := range []bool{false, true} {
							name := fmt.Sprintf("%v from %v %v axis %d strided %v null %v", idt, xdt, shape, ax, strided, null)
							checkTakeIndex(t, mem, rng, name, idt, xdt, shape, ax, m, strided, null)
						}
					}
				}
			}
		}
	}
}

func checkTakeIndex(t *testing.T, mem *memory.CheckedAllocator, rng *rand.Rand, name string, idt, xdt array.DType, shape []int, ax, m int, strided, null bool) {
	t.Helper()
	total := 1
	for _, d := range shape {
		total *= d
	}
	v := make([]float64, total)
	for i := range v {
		v[i] = float64(rng.IntN(100))
	}
	xs := mk(t, mem, v, shape...)
	x, err := expr.Eval(expr.Cast(expr.Leaf(xs), xdt), expr.WithAllocator(mem))
	require.NoError(t, err)
	defer x.Release()
	n := shape[ax]
	signed := idt == array.Int8 || idt == array.Int16 || idt == array.Int32 || idt == array.Int64
	idx := make([]int64, 2*m) // every other one read when strided
	for i := range idx {
		if signed {
			idx[i] = int64(rng.IntN(2*n) - n)
		} else {
			idx[i] = int64(rng.IntN(n))
		}
	}
	ia := indexArray(t, mem, idx, idt, strided, m)
	defer ia.Release()
	if null {
		require.NoError(t, ia.EnsureValidity())
		require.NoError(t, ia.SetNull(m/2))
	}
	used := idx[:m]
	if strided {
		used = make([]int64, m)
		for k := range used {
			used[k] = idx[2*k]
		}
	}
	outShape := append(append(append([]int{}, shape[:ax]...), m), shape[ax+1:]...)
	got, err := expr.Eval(expr.Take(expr.Leaf(x), expr.Leaf(ia), ax), expr.WithAllocator(mem))
	require.NoError(t, err, name)
	defer got.Release()
	require.Equal(t, outShape, got.Shape(), name)
	gv, err := array.ToSlice[float64](got)
	require.NoError(t, err)
	valid, err := array.ValidSlice(got)
	require.NoError(t, err)
	outer, inner := 1, 1
	for _, d := range shape[:ax] {
		outer *= d
	}
	for _, d := range shape[ax+1:] {
		inner *= d
	}
	for o := range outer {
		for k, i := range used {
			if i < 0 {
				i += int64(n)
			}
			for j := range inner {
				e := (o*m+k)*inner + j
				if null && k == m/2 {
					require.False(t, valid[e], "%s: [%d] is not null", name, e)
					continue
				}
				require.True(t, valid[e], "%s: [%d] is null", name, e)
				require.Equal(t, v[(o*n+int(i))*inner+j], gv[e], "%s: [%d]", name, e)
			}
		}
	}
	// one index out of range: the size of the axis (every dtype holds 77)
	bad := int64(n)
	idx[2*(m-7)] = bad
	idx[m-7] = bad
	ib := indexArray(t, mem, idx, idt, strided, m)
	defer ib.Release()
	_, err = expr.Eval(expr.Take(expr.Leaf(x), expr.Leaf(ib), ax), expr.WithAllocator(mem))
	require.True(t, errors.Is(err, array.ErrIndex), "%s: %v", name, err)
	require.Contains(t, err.Error(), fmt.Sprintf("index %d is out of bounds", bad), name)
}

// indexArray is idx as a 1-D array of dtype idt: its first m values, or
// with strided every other value (a view with stride 2).
func indexArray(t *testing.T, mem memory.Allocator, idx []int64, idt array.DType, strided bool, m int) *array.Array {
	t.Helper()
	base := mk(t, mem, idx)
	c, err := expr.Eval(expr.Cast(expr.Leaf(base), idt), expr.WithAllocator(mem))
	require.NoError(t, err)
	defer c.Release()
	step := 1
	if strided {
		step = 2
	}
	a, err := c.View([]int{m}, []int{step}, 0)
	require.NoError(t, err)
	return a
}
