package parquetio

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// pqBenchRecord: 64Ki rows of a float32 tensor column of shape [4, 4] and
// an int64 column.
func pqBenchRecord(b *testing.B) arrow.Record {
	mem := memory.DefaultAllocator
	const rows = 64 << 10
	x, err := array.Arange(mem, array.Float32, 0, rows*16, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	x3, err := x.Reshaped(rows, 4, 4)
	if err != nil {
		b.Fatal(err)
	}
	defer x3.Release()
	col, err := arrowio.ToTensorColumn(mem, x3)
	if err != nil {
		b.Fatal(err)
	}
	defer col.Release()
	ib := arrowarray.NewInt64Builder(mem)
	defer ib.Release()
	for i := 0; i < rows; i++ {
		ib.Append(int64(i))
	}
	ids := ib.NewArray()
	defer ids.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType()}, {Name: "id", Type: ids.DataType()}}, nil)
	return arrowarray.NewRecord(s, []arrow.Array{col, ids}, rows)
}

func BenchmarkReadParquet(b *testing.B) {
	rec := pqBenchRecord(b)
	defer rec.Release()
	rr, _ := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec})
	var buf bytes.Buffer
	if err := Write(&buf, rr, WithRowGroupRows(16<<10)); err != nil {
		b.Fatal(err)
	}
	rr.Release()
	for _, par := range []bool{false, true} {
		name := "serial"
		if par {
			name = "parallel"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(rec.NumRows() * (16*4 + 8))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := Read(bytes.NewReader(buf.Bytes()), WithParallel(par), WithBatchRows(16<<10))
				if err != nil {
					b.Fatal(err)
				}
				for r.Next() {
				}
				if err := r.Err(); err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
		})
	}
}

// BenchmarkWriteParquet writes pqBenchRecord as row groups of 16Ki rows with
// the default (version 2) data pages; "v1" forces version 1 pages, whose
// level encoding in arrow-go v15 copies the page's level buffer every few
// values (seconds per row group: run it with -benchtime=1x).
func BenchmarkWriteParquet(b *testing.B) {
	rec := pqBenchRecord(b)
	defer rec.Release()
	for _, v1 := range []bool{false, true} {
		name := "v2"
		var opts []WriteOption
		if v1 {
			name = "v1"
			opts = append(opts, WithProperties(parquet.WithDataPageVersion(parquet.DataPageV1)))
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(rec.NumRows() * (16*4 + 8))
			b.ReportAllocs()
			var buf bytes.Buffer
			for i := 0; i < b.N; i++ {
				buf.Reset()
				rr, _ := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec})
				if err := Write(&buf, rr, append(opts, WithRowGroupRows(16<<10))...); err != nil {
					b.Fatal(err)
				}
				rr.Release()
			}
		})
	}
}
