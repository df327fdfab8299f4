package expr_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// TestPeriodicGatherReuse: a leaf that is both gathered (inner stride 3) and
// repeated on every row (a broadcast) is expanded into scratch for batches
// of rows; a worker that then evaluates a partial row (its range starting
// mid-row) must read the leaf's gathered tile, not the stale expansion.
// FuzzOptions found it (the pool hands a worker used for batches to the
// worker whose range starts mid-row).
func TestPeriodicGatherReuse(t *testing.T) {
	mem := checkedMem(t)
	for _, dt := range []array.DType{array.Float16, array.Float32, array.Int64} {
		base, err := array.Arange(mem, dt, 0, 933, 1)
		require.NoError(t, err)
		t.Cleanup(base.Release)
		x, err := view.Slice(base, view.Range{Start: 0, Stop: 933, Step: 3})
		require.NoError(t, err)
		t.Cleanup(x.Release)
		p, err := expr.Compile(expr.BroadcastExplicit(expr.Leaf(x), []int{271, 311}, []int{1}),
			expr.WithAllocator(mem), expr.WithWorkers(6))
		require.NoError(t, err)
		for call := 0; call < 4; call++ {
			out, err := p.Eval(nil)
			require.NoError(t, err)
			got, err := array.ToSlice[float64](out)
			out.Release()
			require.NoError(t, err)
			for i, v := range got {
				if want := float64(3 * (i % 311)); v != want {
					t.Fatalf("%v call %d: element %d (row %d col %d) is %v, want %v", dt, call, i, i/311, i%311, v, want)
				}
			}
		}
	}
}
