package frame

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestParallelPanics: a panic in one of parallel's tasks is raised again
// in the caller, where a recover sees it, and every other task that ran
// finished.
func TestParallelPanics(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		got := func() (r any) {
			defer func() { r = recover() }()
			parallel(workers, 100, func(i int) {
				if i == 37 {
					panic("task 37")
				}
			})
			return nil
		}()
		require.Equal(t, "task 37", got, "workers %d", workers)
	}
}

// TestIntKeyColumnsBlocks: int64 and int32 keys with nulls scattered over
// many blocks of intKeyColumns (more than 2^16 groups, so that the
// workers share them), nearly all distinct (owned partitions) or
// repeated: every group's keys, nulls, count, sum and first row equal a
// map's, in order of first rows.
func TestIntKeyColumnsBlocks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	const batch = 60_000
	for _, distinct := range []int{0, 90_000} {
		r := rand.New(rand.NewPCG(5, uint64(distinct)))
		var recs []arrow.Record
		row := 0
		for range 3 {
			ab, bb, vb := arrowarray.NewInt64Builder(mem), arrowarray.NewInt32Builder(mem), arrowarray.NewInt64Builder(mem)
			for range batch {
				k := row
				if distinct > 0 {
					k = r.IntN(distinct)
				}
				if row%5003 == 17 {
					ab.AppendNull()
				} else {
					ab.Append(int64(k)*1_000_003 - 5)
				}
				if row%7001 == 3 {
					bb.AppendNull()
				} else {
					bb.Append(int32(k%3) - 1)
				}
				vb.Append(int64(row))
				row++
			}
			cols := []arrow.Array{ab.NewArray(), bb.NewArray(), vb.NewArray()}
			recs = append(recs, arrowarray.NewRecord(schema, cols, batch))
			for _, c := range cols {
				c.Release()
			}
			ab.Release()
			bb.Release()
			vb.Release()
		}
		ref := newGroupRef(recs, 2)
		require.Greater(t, len(ref.keys), 1<<16)
		for _, workers := range []int{1, 2, 3} {
			tb, err := FromRecords(recs...).GroupBy("a", "b").Agg(Count(), Sum("v").As("sum"), First("v").As("first")).
				Collect(context.Background(), WithWorkers(workers), WithAllocator(mem))
			require.NoError(t, err)
			ref.check(t, tb.Record(), workers)
			tb.Release()
		}
		for _, rec := range recs {
			rec.Release()
		}
	}
}
