package frame_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// TestParquetStreamColumnsAndAggregates (arrowio's TestParquetEvaluateReduce,
// moved): computed columns and aggregates over a Parquet file read as a
// RecordReader (parquetio.Read, in batches other than its row groups) give
// what they give over the same batches in memory.
func TestParquetStreamColumnsAndAggregates(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(3, 3)), 30)
	recs := d.records(t, mem)
	defer release(recs)
	s := recs[0].Schema()
	rr, err := arrowarray.NewRecordReader(s, recs)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, parquetio.Write(&buf, rr, parquetio.WithRowGroupRows(8)))
	rr.Release()
	data := buf.Bytes()

	query := func(f frame.Frame) (*frame.Table, *frame.Table) {
		c := collect(t, f.WithColumns(frame.Let("z", "x * x + 1"), frame.Let("y2", "y * y")).Select("z", "y2"), frame.WithAllocator(mem))
		return c, nil
	}
	want, _ := query(frame.FromRecords(recs...))
	defer want.Release()
	pr, err := parquetio.Read(bytes.NewReader(data), parquetio.WithAllocator(mem), parquetio.WithBatchRows(7), parquetio.WithParallel(true))
	require.NoError(t, err)
	got, _ := query(frame.FromReader(pr))
	pr.Release()
	defer got.Release()
	for c := 0; c < 2; c++ {
		require.True(t, arrowarray.Equal(want.Record().Column(c), got.Record().Column(c)), "column %d", c)
	}

	aggs := []frame.Agg{frame.Mean("x").As("m"), frame.Sum("y").As("s")}
	wa := collect(t, frame.FromRecords(recs...).GroupBy().Agg(aggs...), frame.WithAllocator(mem))
	defer wa.Release()
	pr, err = parquetio.Read(bytes.NewReader(data), parquetio.WithAllocator(mem), parquetio.WithColumns("y", "x"), parquetio.WithBatchRows(5))
	require.NoError(t, err)
	ga := collect(t, frame.FromReader(pr).GroupBy().Agg(aggs...), frame.WithAllocator(mem))
	pr.Release()
	defer ga.Release()
	for c := 0; c < 2; c++ {
		require.True(t, arrowarray.ApproxEqual(wa.Record().Column(c), ga.Record().Column(c), arrowarray.WithAbsTolerance(1e-4)), "aggregate %d: %v, want %v", c, ga.Record().Column(c), wa.Record().Column(c))
	}
}
