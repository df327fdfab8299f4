package parquetio

import (
	"fmt"
	"io"
	"math/rand"
	"syscall"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
)

// fastBenchRecord: n rows shaped like the db-benchmark groupby table
// (id1, id2 of 100 levels, id3 of n/100, id4..id6 and v1, v2 int32, v3
// float64), the ids int64 or strings ("id%03d", "id%010d").
func fastBenchRecord(n int, str bool) arrow.Record {
	mem := memory.DefaultAllocator
	rng := rand.New(rand.NewSource(1))
	var fields []arrow.Field
	var cols []arrow.Array
	for k, levels := range []int{100, 100, n / 100} {
		name := fmt.Sprintf("id%d", k+1)
		if str {
			b := arrowarray.NewStringBuilder(mem)
			for i := 0; i < n; i++ {
				if k < 2 {
					b.Append(fmt.Sprintf("id%03d", 1+rng.Intn(levels)))
				} else {
					b.Append(fmt.Sprintf("id%010d", 1+rng.Intn(levels)))
				}
			}
			cols = append(cols, b.NewArray())
			b.Release()
			fields = append(fields, arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true})
			continue
		}
		b := arrowarray.NewInt64Builder(mem)
		for i := 0; i < n; i++ {
			b.Append(int64(1 + rng.Intn(levels)))
		}
		cols = append(cols, b.NewArray())
		b.Release()
		fields = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	}
	for k, levels := range []int{100, 100, n / 100, 5, 15} {
		b := arrowarray.NewInt32Builder(mem)
		for i := 0; i < n; i++ {
			b.Append(int32(1 + rng.Intn(levels)))
		}
		cols = append(cols, b.NewArray())
		b.Release()
		name := fmt.Sprintf("id%d", k+4)
		if k >= 3 {
			name = fmt.Sprintf("v%d", k-2)
		}
		fields = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	}
	fb := arrowarray.NewFloat64Builder(mem)
	for i := 0; i < n; i++ {
		fb.Append(float64(rng.Intn(100_000_000)) / 1e6)
	}
	cols = append(cols, fb.NewArray())
	fb.Release()
	fields = append(fields, arrow.Field{Name: "v3", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), cols, int64(n))
	releaseArrow(cols)
	return rec
}

// BenchmarkWriteParquetTable writes 2^21 rows of the db-benchmark table
// (two row groups) to io.Discard: the fast writer with 1 and 2 workers,
// and pqarrow (WithProperties forces it).
func BenchmarkWriteParquetTable(b *testing.B) {
	for _, str := range []bool{false, true} {
		rec := fastBenchRecord(1<<21, str)
		var bytes int64
		for _, c := range rec.Columns() {
			for _, buf := range c.Data().Buffers() {
				if buf != nil {
					bytes += int64(buf.Len())
				}
			}
		}
		kind := "int"
		if str {
			kind = "str"
		}
		for _, mode := range []string{"fast1", "fast2", "pqarrow"} {
			b.Run(kind+"/"+mode, func(b *testing.B) {
				var opts []WriteOption
				switch mode {
				case "fast1":
					opts = append(opts, WithWriteWorkers(1))
				case "fast2":
					opts = append(opts, WithWriteWorkers(2))
				default:
					opts = append(opts, WithProperties(parquet.WithStats(true)))
				}
				b.SetBytes(bytes)
				b.ReportAllocs()
				cpu0 := cpuTime()
				defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
				for i := 0; i < b.N; i++ {
					rr, _ := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec})
					if err := Write(io.Discard, rr, opts...); err != nil {
						b.Fatal(err)
					}
					rr.Release()
				}
			})
		}
		rec.Release()
	}
}

// cpuTime is the process's user+system CPU time in ns (the machine is
// shared: wall time is not the writer's).
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
