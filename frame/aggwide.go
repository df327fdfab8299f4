package frame

import "github.com/stride0/stride0/compute"

// blockRowsWide is blockRows for a float32 tensor column with no null rows
// and a width that compute.AddRowsF32 has a kernel for (a multiple of 4:
// AVX2, each row's elements widened and added four at a time): it returns
// how many rows, from the first, it added (0 when it does not apply).
func blockRowsWide[T number](acc []float64, rows []int64, gids []int32, v []T, w int, rowOK []bool) int {
	if rowOK != nil || w < 4 {
		return 0
	}
	f, ok := any(v).([]float32)
	if !ok {
		return 0
	}
	return compute.AddRowsF32(acc, rows, gids, f, w)
}
