package frame_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/frame"
)

// benchRows is the size of the db-benchmark-shaped table of the group-by
// benchmarks (the harness's is 10^7).
const benchRows = 1_000_000

var (
	benchOnce   sync.Once
	benchTables map[string]*frame.Table
)

// groupBenchTable is G1_<rows>_1e2_0_0 in db-benchmark's distributions:
// id1, id2, id4, id5 in 1..100, id3 and id6 in 1..rows/100, v1 in 1..5,
// v2 in 1..15, v3 in [0, 100). "int": every key an int64; "str": id1..id3
// strings ("id001", "id0000000001"), as the harness's string-key table.
func groupBenchTable(b *testing.B, form string) *frame.Table {
	benchOnce.Do(func() {
		benchTables = map[string]*frame.Table{}
		for _, f := range []string{"int", "str"} {
			benchTables[f] = makeGroupTable(benchRows, f == "str")
		}
	})
	return benchTables[form]
}

func makeGroupTable(n int, str bool) *frame.Table {
	r := rand.New(rand.NewPCG(1, 2))
	mem := memory.DefaultAllocator
	k := int64(n / 100)
	var fields []arrow.Field
	var cols []arrow.Array
	for i, hi := range []int64{100, 100, k, 100, 100, k} {
		name := fmt.Sprintf("id%d", i+1)
		if str && i < 3 {
			b := arrowarray.NewStringBuilder(mem)
			for j := 0; j < n; j++ {
				v := 1 + r.Int64N(hi)
				if i < 2 {
					b.Append(fmt.Sprintf("id%03d", v))
				} else {
					b.Append(fmt.Sprintf("id%010d", v))
				}
			}
			fields = append(fields, arrow.Field{Name: name, Type: arrow.BinaryTypes.String})
			cols = append(cols, b.NewArray())
			b.Release()
			continue
		}
		b := arrowarray.NewInt64Builder(mem)
		for j := 0; j < n; j++ {
			b.Append(1 + r.Int64N(hi))
		}
		fields = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64})
		cols = append(cols, b.NewArray())
		b.Release()
	}
	for _, hi := range []int64{5, 15} {
		b := arrowarray.NewInt64Builder(mem)
		for j := 0; j < n; j++ {
			b.Append(1 + r.Int64N(hi))
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	fb := arrowarray.NewFloat64Builder(mem)
	for j := 0; j < n; j++ {
		fb.Append(float64(r.IntN(10000)) / 100)
	}
	cols = append(cols, fb.NewArray())
	fb.Release()
	fields = append(fields, arrow.Field{Name: "v1", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "v2", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "v3", Type: arrow.PrimitiveTypes.Float64})
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	t, err := frame.NewTable(rec)
	rec.Release()
	if err != nil {
		panic(err)
	}
	return t
}

// BenchmarkGroupBy runs db-benchmark's group-by questions q1-q7, q9 and
// q10 (q8 is a sort) over benchRows rows, int and string keys, 1 and 2
// workers. Bytes: the key and value columns read.
func BenchmarkGroupBy(b *testing.B) {
	qs := []struct {
		name  string
		bytes int // per row, int form
		q     func(f frame.Frame) frame.Frame
	}{
		{"q1", 16, func(f frame.Frame) frame.Frame { return f.GroupBy("id1").Agg(frame.Sum("v1")) }},
		{"q2", 24, func(f frame.Frame) frame.Frame { return f.GroupBy("id1", "id2").Agg(frame.Sum("v1")) }},
		{"q3", 24, func(f frame.Frame) frame.Frame { return f.GroupBy("id3").Agg(frame.Sum("v1"), frame.Mean("v3")) }},
		{"q4", 32, func(f frame.Frame) frame.Frame {
			return f.GroupBy("id4").Agg(frame.Mean("v1"), frame.Mean("v2"), frame.Mean("v3"))
		}},
		{"q5", 32, func(f frame.Frame) frame.Frame {
			return f.GroupBy("id6").Agg(frame.Sum("v1"), frame.Sum("v2"), frame.Sum("v3"))
		}},
		{"q6", 24, func(f frame.Frame) frame.Frame {
			return f.GroupBy("id4", "id5").Agg(frame.Median("v3").As("median_v3"), frame.Std("v3", 1).As("sd_v3"))
		}},
		{"q7", 24, func(f frame.Frame) frame.Frame {
			return f.GroupBy("id3").Agg(frame.Max("v1").As("a"), frame.Min("v2").As("b")).
				WithColumns(frame.Let("range_v1_v2", "a - b")).Select("id3", "range_v1_v2")
		}},
		{"q9", 32, func(f frame.Frame) frame.Frame {
			return f.GroupBy("id2", "id4").Agg(frame.Corr("v1", "v2").As("r")).
				WithColumns(frame.Let("r2", "r ** 2")).Select("id2", "id4", "r2")
		}},
		{"q10", 56, func(f frame.Frame) frame.Frame {
			return f.GroupBy("id1", "id2", "id3", "id4", "id5", "id6").Agg(frame.Sum("v3"), frame.Count().As("count"))
		}},
	}
	for _, form := range []string{"int", "str"} {
		for _, q := range qs {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/%dT", q.name, form, workers), func(b *testing.B) {
					t := groupBenchTable(b, form)
					f := q.q(t.Frame())
					b.ReportAllocs()
					b.SetBytes(int64(q.bytes) * benchRows)
					c0 := cpuNanos()
					for i := 0; i < b.N; i++ {
						out, err := f.Collect(context.Background(), frame.WithWorkers(workers))
						if err != nil {
							b.Fatal(err)
						}
						out.Release()
					}
					reportCPU(b, c0)
				})
			}
		}
	}
}

// cpuNanos is the process's CPU time (user and system, every thread).
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU reports the CPU time an op took since c0 (cpu-ns/op): on a
// machine shared with other work, steadier than the wall time.
func reportCPU(b *testing.B, c0 int64) {
	b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
}
