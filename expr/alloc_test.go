package expr_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// A result too large for the machine is an error, not a crash, and nothing
// is left allocated.
func TestEvalTooLargeIsAnError(t *testing.T) {
	mem := memory.NewCheckedAllocator(array.NewPageAllocator())
	defer mem.AssertSize(t, 0)
	x, err := array.New(mem, array.Float64, 1<<20, 1)
	require.NoError(t, err)
	defer x.Release()
	y, err := array.New(mem, array.Float64, 1, 1<<20)
	require.NoError(t, err)
	defer y.Release()
	e := expr.Add(expr.Leaf(x), expr.Leaf(y))
	for _, workers := range []int{1, 2} {
		r, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(workers))
		require.ErrorIs(t, err, array.ErrAlloc)
		assert.Nil(t, r)
		var ae *array.AllocError
		require.True(t, errors.As(err, &ae))
		assert.Equal(t, []int{1 << 20, 1 << 20}, ae.Shape)
		assert.Equal(t, array.Float64, ae.DType)
		assert.Equal(t, int64(8)<<40, ae.Bytes)
		assert.Contains(t, err.Error(), "unable to allocate 8 TiB for an array with shape [1048576 1048576] and data type float64")
	}
}

// Results of every size that the program drops are reclaimed; fresh large
// results (pages faulted in by all workers first) hold the right values.
func TestEvalDroppedResultsReclaimed(t *testing.T) {
	mem := memory.NewCheckedAllocator(array.NewPageAllocator())
	x, err := array.Arange(mem, array.Float32, 0, 1<<20, 1) // 4 MiB
	require.NoError(t, err)
	for _, n := range []int{16, 1 << 12, 1 << 20} {
		v, err := x.View([]int{n}, []int{1}, 0)
		require.NoError(t, err)
		ev := expr.Mul(expr.Leaf(v), expr.Const(float32(2)))
		for _, workers := range []int{1, 2} {
			r, err := expr.Eval(ev, expr.WithAllocator(mem), expr.WithWorkers(workers))
			require.NoError(t, err)
			got, err := array.ToSlice[float32](r)
			require.NoError(t, err)
			for i := 0; i < n; i += max(1, n/1000) {
				require.Equal(t, float32(2*i), got[i])
			}
			// r dropped without Release
		}
		v.Release()
	}
	x.Release()
	deadline := time.Now().Add(10 * time.Second)
	for mem.CurrentAlloc() != 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	mem.AssertSize(t, 0)
}
