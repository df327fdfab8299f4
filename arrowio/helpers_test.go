package arrowio

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
)

// The helpers shared with parquetio's tests are in internal/arrowtest.

// tensorFixture is a [3, 2, 3] float64 column with element (0,1,1) null and
// row 2 entirely null.
func tensorFixture(t testing.TB, mem memory.Allocator) (*array.Array, *FixedShapeTensorArray) {
	a, err := array.Arange(mem, array.Float64, 0, 18, 1)
	require.NoError(t, err)
	v, err := a.View([]int{3, 2, 3}, []int{6, 3, 1}, 0)
	a.Release()
	require.NoError(t, err)
	require.NoError(t, v.SetNull(0, 1, 1))
	for j := 0; j < 2; j++ {
		for k := 0; k < 3; k++ {
			require.NoError(t, v.SetNull(2, j, k))
		}
	}
	col, err := ToTensorColumn(mem, v, WithDimNames("h", "w"))
	require.NoError(t, err)
	return v, col
}

// recordFixture is arrowtest.RecordFixture with ToTensorColumn.
func recordFixture(t testing.TB, mem memory.Allocator, rows int, seed int) arrow.Record {
	return arrowtest.RecordFixture(t, mem, rows, seed, func(mem memory.Allocator, a *array.Array) (arrow.Array, error) {
		return ToTensorColumn(mem, a)
	})
}
