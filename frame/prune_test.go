package frame_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// TestRowGroupSkipping: a filter over a Parquet file reads only the row
// groups whose statistics allow a match (counted with WithStats), and
// gives the rows the same filter gives in memory.
func TestRowGroupSkipping(t *testing.T) {
	mem := checked(t)
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	for i := 0; i < 10_000; i++ {
		b.Field(0).(*arrowarray.Int64Builder).Append(int64(i))
		b.Field(1).(*arrowarray.StringBuilder).Append(fmt.Sprintf("k%05d", i))
		if i/1000 == 3 {
			b.Field(2).AppendNull() // row group 3: every v null
		} else {
			b.Field(2).(*arrowarray.Float64Builder).Append(float64(i%7) - 3)
		}
	}
	rec := b.NewRecord()
	b.Release()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "t.parquet")
	writeParquetFile(t, path, []arrow.Record{rec}, 1000)

	file := frame.ScanParquet(path, parquetio.WithAllocator(mem))
	mem2 := frame.FromRecords(rec)
	for _, c := range []struct {
		q     func(frame.Frame) frame.Frame
		read  int64
		scans int64 // times the file is read (0: once)
	}{
		{func(f frame.Frame) frame.Frame { return f.Filter("id >= 7500") }, 3, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter("7500 > id") }, 8, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter(`s < "k00200"`) }, 1, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter(`(id >= 2000) & (s <= "k02999") & (v > 0)`) }, 1, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter("(id < 100) | (id > 9900)") }, 10, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter("v > -100") }, 9, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter("id == 5000.5") }, 1, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter("id == 20000") }, 0, 1},
		{func(f frame.Frame) frame.Frame { return f.Select("id", "s").Filter("id < 1000").Filter("id > 10") }, 1, 1},
		{func(f frame.Frame) frame.Frame { return f.Rename(map[string]string{"id": "k"}).Filter("k < 1000") }, 10, 1},
		{func(f frame.Frame) frame.Frame { return f.Filter("id != 5") }, 10, 1},
		// one source read twice: only what both reads filter prunes
		{func(f frame.Frame) frame.Frame {
			return f.Select("id").Join(f.Filter("id < 1000").Select("id", "s"), frame.Left, "id")
		}, 10 + 10, 2},
		{func(f frame.Frame) frame.Frame { return frame.Concat(f.Filter("id < 1000"), f.Filter("id > 8999")) }, 10 + 10, 2},
		{func(f frame.Frame) frame.Frame {
			return frame.Concat(f.Filter("(id < 1000) & (v > 0)"), f.Filter("(id < 1000) & (v < 0)"))
		}, 1 + 1, 2},
	} {
		q := c.q(file)
		var st frame.Stats
		got, err := q.Collect(context.Background(), frame.WithAllocator(mem), frame.WithStats(&st))
		require.NoError(t, err)
		want := collect(t, c.q(mem2), frame.WithAllocator(mem))
		assert.Equal(t, c.read, st.RowGroups.Load(), q.Explain())
		assert.Equal(t, 10*max(1, c.scans)-c.read, st.RowGroupsSkipped.Load(), q.Explain())
		require.Equal(t, want.NumRows(), got.NumRows(), q.Explain())
		if want.NumRows() > 0 {
			name := got.Columns()[0]
			assert.Equal(t, values[int64](t, want, name), values[int64](t, got, name), q.Explain())
		}
		got.Release()
		want.Release()
	}
}
