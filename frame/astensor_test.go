package frame_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/internal/arraytest"
)

// listRecord holds rows of a list<float32> column: nil is a null row.
func listRecord(mem memory.Allocator, rows [][]float32) arrow.Record {
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32), Nullable: true}}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	defer b.Release()
	lb := b.Field(0).(*arrowarray.ListBuilder)
	vb := lb.ValueBuilder().(*arrowarray.Float32Builder)
	for _, r := range rows {
		if r == nil {
			lb.AppendNull() // a null row without values: gathered, not sliced
			continue
		}
		lb.Append(true)
		vb.AppendValues(r, nil)
	}
	return b.NewRecord()
}

func TestAsTensor(t *testing.T) {
	mem := checked(t)
	rec := listRecord(mem, [][]float32{{1, 2, 3, 4}, nil, {5, 6, 7, 8}, {9, 10, 11, 12}})
	defer rec.Release()
	f := frame.FromRecords(rec).AsTensor("x", 2, 2)
	require.NoError(t, f.Err())
	tb := collect(t, f.WithColumns(frame.Let("s", "sum(x, axis=(1, 2))")), frame.WithAllocator(mem))
	x, err := tb.Column("x")
	require.NoError(t, err)
	assert.Equal(t, []int{4, 2, 2}, x.Shape())
	v, err := array.ToSlice[float32](x)
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, append(v[:4:4], v[8:]...))
	assert.False(t, arraytest.IsValid(t, x, 1, 0, 0))
	x.Release()
	sc, _ := tb.Arrow("s")
	assert.True(t, sc.IsNull(1), "the sum of a null row is null")
	assert.Equal(t, float32(10), sc.(*arrowarray.Float32).Value(0))
	tb.Release()
	g := collect(t, f.GroupBy().Agg(frame.Mean("x")), frame.WithAllocator(mem))
	m, err := g.Column("x")
	require.NoError(t, err)
	mv, _ := array.ToSlice[float32](m)
	assert.Equal(t, []float32{5, 6, 7, 8}, mv)
	m.Release()
	g.Release()

	// rows back to back: the values are sliced, not copied
	whole := listRecord(mem, [][]float32{{1, 2}, {3, 4}, {5, 6}})
	defer whole.Release()
	w := collect(t, frame.FromRecords(whole).Limit(2).AsTensor("x", 2), frame.WithAllocator(mem))
	assert.Equal(t, []float32{1, 2, 3, 4}, values[float32](t, w, "x"))
	w.Release()

	bad := listRecord(mem, [][]float32{{1, 2, 3, 4}, {1, 2, 3}})
	defer bad.Release()
	_, err = frame.FromRecords(bad).AsTensor("x", 4).Collect(context.Background(), frame.WithAllocator(mem))
	assert.ErrorIs(t, err, array.ErrShape)
	assert.Contains(t, err.Error(), "row 1 holds 3 values, not 4")
	assert.ErrorIs(t, frame.FromRecords(bad).AsTensor("y", 4).Err(), frame.ErrNoColumn)
	d := makeData(rand.New(rand.NewPCG(71, 72)), 3)
	recs := d.records(t, mem)
	defer release(recs)
	assert.ErrorIs(t, frame.FromRecords(recs...).AsTensor("site", 4).Err(), frame.ErrType)
}

// TestAsTensorSlicedList converts list columns that start at an offset
// (a slice of a larger batch, as readers hand out), with and without
// nulls, contiguous and gathered: each row keeps its own values.
func TestAsTensorSlicedList(t *testing.T) {
	mem := checked(t)
	rng := rand.New(rand.NewPCG(7, 19))
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(30)
		rows := make([][]float32, n)
		for i := range rows {
			if rng.IntN(4) == 0 && trial%2 == 1 {
				continue // a null row (odd trials only: even ones stay contiguous)
			}
			rows[i] = []float32{float32(10 * i), float32(10*i + 1), float32(10*i + 2), float32(10*i + 3)}
		}
		full := listRecord(mem, rows)
		lo := rng.IntN(n)
		hi := lo + rng.IntN(n-lo+1)
		rec := full.NewSlice(int64(lo), int64(hi))
		full.Release()
		tb := collect(t, frame.FromRecords(rec).AsTensor("x", 4), frame.WithAllocator(mem))
		rec.Release()
		x, err := tb.Column("x")
		require.NoError(t, err)
		v, err := array.ToSlice[float32](x)
		require.NoError(t, err)
		for i := lo; i < hi; i++ {
			r := i - lo
			if rows[i] == nil {
				assert.False(t, arraytest.IsValid(t, x, r, 0), "trial %d row %d is null", trial, i)
				continue
			}
			assert.True(t, arraytest.IsValid(t, x, r, 0), "trial %d row %d is valid", trial, i)
			assert.Equal(t, rows[i], v[4*r:4*r+4], "trial %d row %d [%d:%d]", trial, i, lo, hi)
		}
		x.Release()
		tb.Release()
	}
}
