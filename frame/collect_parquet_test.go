package frame_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// TestCollectBareParquet: Collect of a bare single-file Parquet source
// (read whole by parquetio.ReadTable) gives the table the batch path gives
// (the same source under a projection of every column), at 1 and 3
// workers, for files of several row-group sizes.
func TestCollectBareParquet(t *testing.T) {
	mem := checked(t)
	dir := t.TempDir()
	for i, group := range []int{1000, 97, 7} {
		recs := duckTable(mem, rand.New(rand.NewPCG(uint64(60+i), 61)), 700, 200)
		path := filepath.Join(dir, "bare.parquet")
		writeParquetFile(t, path, recs, group)
		release(recs)
		f := frame.ScanParquet(path, parquetio.WithAllocator(mem))
		names := make([]string, f.Schema().NumFields())
		for j, fl := range f.Schema().Fields() {
			names[j] = fl.Name
		}
		for _, workers := range []int{1, 3} {
			got := collect(t, f, frame.WithAllocator(mem), frame.WithWorkers(workers))
			want := collect(t, f.Select(names...), frame.WithAllocator(mem), frame.WithWorkers(workers))
			require.True(t, got.Record().Schema().Equal(want.Record().Schema()), "row groups of %d", group)
			require.Equal(t, want.Record().NumRows(), got.Record().NumRows())
			for j := range names {
				// (NaN equal to NaN, otherwise exact)
				require.True(t, arrowarray.ApproxEqual(want.Record().Column(j), got.Record().Column(j), arrowarray.WithNaNsEqual(true), arrowarray.WithAbsTolerance(0)), "row groups of %d, workers %d, column %q", group, workers, names[j])
			}
			got.Release()
			want.Release()
		}
	}
}
