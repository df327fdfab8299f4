package expr_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// Building an expression costs O(rank) bytes per node whatever the size of
// the arrays it will produce: here broadcasts to 10^12 elements.
func TestBuildAllocatesNothingThatGrows(t *testing.T) {
	b, err := array.Full(nil, float32(1), 1000)
	require.NoError(t, err)
	defer b.Release()
	huge := []int{1000000000, 1000} // 10^12 elements
	bytes := func() uint64 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for i := 0; i < 100; i++ {
			v, err := view.BroadcastTo(b, huge)
			require.NoError(t, err)
			e := expr.Mul(expr.Add(expr.BroadcastNumpy(expr.Leaf(b), huge), expr.Const(float32(2))), expr.Leaf(v))
			require.NoError(t, e.Err())
			v.Release()
		}
		runtime.ReadMemStats(&m1)
		return (m1.TotalAlloc - m0.TotalAlloc) / 100
	}()
	require.Less(t, bytes, uint64(8<<10), "bytes allocated to build a view and 5 nodes")
}

// A plan evaluated again into a preallocated output allocates nothing.
func TestRepeatedEvalIntoAllocatesNothing(t *testing.T) {
	if raceOn {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	x, _ := array.Full(nil, float32(1), 64, 64)
	b, _ := array.Full(nil, float32(2), 64)
	out, _ := array.Empty(nil, array.Float32, 64, 64)
	defer x.Release()
	defer b.Release()
	defer out.Release()
	p, err := expr.Compile(expr.Add(expr.Leaf(x), expr.Leaf(b)), expr.WithWorkers(1))
	require.NoError(t, err)
	require.NoError(t, p.EvalInto(out, nil))
	allocs := testing.AllocsPerRun(100, func() {
		if err := p.EvalInto(out, nil); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
	v, _ := array.ToSlice[float32](out)
	require.Equal(t, float32(3), v[len(v)-1])
}
