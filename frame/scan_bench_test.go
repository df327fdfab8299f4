package frame_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// scanRows is the size of the benchmarks' table: the db-benchmark
// columns id1 (100 values), id6 (rows/100 values), v1 (1..5), v3 (0..100).
const scanRows = 1 << 20

func benchTable(b *testing.B) arrow.Record {
	b.Helper()
	mem := memory.DefaultAllocator
	rng := rand.New(rand.NewPCG(1, 2))
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id1", Type: arrow.PrimitiveTypes.Int32},
		{Name: "id6", Type: arrow.PrimitiveTypes.Int32},
		{Name: "v1", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v3", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	rb := arrowarray.NewRecordBuilder(mem, s)
	defer rb.Release()
	for i := 0; i < scanRows; i++ {
		rb.Field(0).(*arrowarray.Int32Builder).Append(int32(1 + rng.IntN(100)))
		rb.Field(1).(*arrowarray.Int32Builder).Append(int32(1 + rng.IntN(scanRows/100)))
		rb.Field(2).(*arrowarray.Int64Builder).Append(int64(1 + rng.IntN(5)))
		rb.Field(3).(*arrowarray.Float64Builder).Append(float64(rng.IntN(1e7)) / 1e5)
	}
	return rb.NewRecord()
}

func benchRun(b *testing.B, f frame.Frame, bytesPerRow int64, workers int) {
	b.SetBytes(scanRows * bytesPerRow)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		t, err := f.Collect(context.Background(), frame.WithWorkers(workers))
		if err != nil {
			b.Fatal(err)
		}
		t.Release()
	}
}

// BenchmarkTopPerGroup is db-benchmark's q8: the two largest v3 of each
// id6 (a sort, then GroupBy.Head, run as one pass per group).
func BenchmarkTopPerGroup(b *testing.B) {
	rec := benchTable(b)
	defer rec.Release()
	f := frame.FromRecords(rec).Sort(frame.Desc("v3")).GroupBy("id6").Head(2).Select("id6", "v3")
	benchRun(b, f, 12, 1)
}

// BenchmarkSort sorts every row by two keys (radix on normalized keys).
func BenchmarkSort(b *testing.B) {
	rec := benchTable(b)
	defer rec.Release()
	f := frame.FromRecords(rec).Sort(frame.Asc("id1"), frame.Desc("v3"))
	benchRun(b, f, 24, 1)
}

func BenchmarkFilter(b *testing.B) {
	rec := benchTable(b)
	defer rec.Release()
	f := frame.FromRecords(rec).Filter("v3 > 50").Select("id1", "v1", "v3")
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "1T", 2: "2T"}[w], func(b *testing.B) { benchRun(b, f, 20, w) })
	}
}

// BenchmarkScanParquet reads the table from a Parquet file of 16 row
// groups; BenchmarkWriteParquet writes it.
func BenchmarkScanParquet(b *testing.B) {
	rec := benchTable(b)
	defer rec.Release()
	path := filepath.Join(b.TempDir(), "t.parquet")
	var buf bytes.Buffer
	rr, _ := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec})
	if err := parquetio.Write(&buf, rr, parquetio.WithRowGroupRows(scanRows/16)); err != nil {
		b.Fatal(err)
	}
	rr.Release()
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	f := frame.ScanParquet(path)
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "1T", 2: "2T"}[w], func(b *testing.B) { benchRun(b, f, 24, w) })
	}
}

func BenchmarkWriteParquet(b *testing.B) {
	rec := benchTable(b)
	defer rec.Release()
	f := frame.FromRecords(rec)
	b.SetBytes(scanRows * 24)
	b.ReportAllocs()
	var buf bytes.Buffer
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := f.WriteParquet(context.Background(), &buf, frame.WithWorkers(1)); err != nil {
			b.Fatal(err)
		}
	}
}
