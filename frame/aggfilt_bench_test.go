package frame

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// BenchmarkFilterMask: the filter's mask of v > 50 over a morsel of 64 Ki
// float64 values in [0, 100) (half kept, at random).
func BenchmarkFilterMask(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	fb := arrowarray.NewFloat64Builder(memory.DefaultAllocator)
	defer fb.Release()
	for i := 0; i < 1<<16; i++ {
		fb.Append(rng.Float64() * 100)
	}
	col := fb.NewArray()
	defer col.Release()
	rec := arrowarray.NewRecord(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Float64}}, nil), []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	n := FromRecords(rec).Filter("v > 50").node()
	w := newWorker(memory.DefaultAllocator, 1)
	b.SetBytes(int64(col.Len() * 8))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m, _, err := n.tree.keptMask(w, rec)
		if err != nil {
			b.Fatal(err)
		}
		putMask(m)
	}
}

// BenchmarkDenseMean: one batch of 64 Ki rows folded into Mean's state,
// 100 groups at random: a float32 tensor column of width 16 (the blocked
// float64 sums), int32 and float64 columns of width 1 (blocked, and
// compensated per value).
func BenchmarkDenseMean(b *testing.B) {
	const rows, groups = 1 << 16, 100
	rng := rand.New(rand.NewPCG(3, 4))
	gids := make([]int32, rows)
	for i := range gids {
		gids[i] = int32(rng.IntN(groups))
	}
	mem := memory.NewGoAllocator()
	run := func(b *testing.B, col arrow.Array, width int, st aggState, bytes int) {
		defer col.Release()
		c, err := readColumn(col, width)
		if err != nil {
			b.Fatal(err)
		}
		st.grow(groups)
		b.SetBytes(int64(bytes))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := st.update(gids, c, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("float32x16", func(b *testing.B) {
		lb := arrowarray.NewFixedSizeListBuilder(mem, 16, arrow.PrimitiveTypes.Float32)
		defer lb.Release()
		vb := lb.ValueBuilder().(*arrowarray.Float32Builder)
		for i := 0; i < rows; i++ {
			lb.Append(true)
			for j := 0; j < 16; j++ {
				vb.Append(rng.Float32())
			}
		}
		run(b, lb.NewArray(), 16, &momentState[float32]{op: aggMean, width: 16}, rows*16*4)
	})
	b.Run("int32", func(b *testing.B) {
		ib := arrowarray.NewInt32Builder(mem)
		defer ib.Release()
		for i := 0; i < rows; i++ {
			ib.Append(rng.Int32N(100))
		}
		run(b, ib.NewArray(), 1, &momentState[int32]{op: aggMean, width: 1}, rows*4)
	})
	b.Run("float64", func(b *testing.B) {
		fb := arrowarray.NewFloat64Builder(mem)
		defer fb.Release()
		for i := 0; i < rows; i++ {
			fb.Append(rng.Float64() * 100)
		}
		run(b, fb.NewArray(), 1, &momentState[float64]{op: aggMean, width: 1}, rows*8)
	})
}

// BenchmarkFilterSelect: Filter("v3 > 50").Select("id1", "v1", "v3") over
// an in-memory table of 2^20 rows and six columns (half the rows kept),
// one worker.
func BenchmarkFilterSelect(b *testing.B) {
	const rows = 1 << 20
	rng := rand.New(rand.NewPCG(5, 6))
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id1", Type: arrow.PrimitiveTypes.Int32}, {Name: "id2", Type: arrow.PrimitiveTypes.Int32},
		{Name: "id3", Type: arrow.PrimitiveTypes.Int64}, {Name: "v1", Type: arrow.PrimitiveTypes.Int32},
		{Name: "v2", Type: arrow.PrimitiveTypes.Int32}, {Name: "v3", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	rb := arrowarray.NewRecordBuilder(mem, schema)
	defer rb.Release()
	for i := 0; i < rows; i++ {
		rb.Field(0).(*arrowarray.Int32Builder).Append(rng.Int32N(100))
		rb.Field(1).(*arrowarray.Int32Builder).Append(rng.Int32N(100))
		rb.Field(2).(*arrowarray.Int64Builder).Append(rng.Int64N(100000))
		rb.Field(3).(*arrowarray.Int32Builder).Append(rng.Int32N(5))
		rb.Field(4).(*arrowarray.Int32Builder).Append(rng.Int32N(15))
		rb.Field(5).(*arrowarray.Float64Builder).Append(rng.Float64() * 100)
	}
	rec := rb.NewRecord()
	defer rec.Release()
	q := FromRecords(rec).Filter("v3 > 50").Select("id1", "v1", "v3")
	b.SetBytes(rows * 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := q.Collect(context.Background(), WithWorkers(1))
		if err != nil {
			b.Fatal(err)
		}
		t.Release()
	}
}
