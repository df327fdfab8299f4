package arrowio

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// varReducer is a Reducer of the variance of a [rows, 64, 64] float32
// tensor column after one batch of 16 rows.
func varReducer(b *testing.B, mem memory.Allocator) (*Reducer, []Reduction, *arrow.Schema) {
	v := make([]float32, 16*64*64)
	for i := range v {
		v[i] = float32(i%97) * 0.5
	}
	a, err := array.FromSlice(mem, v, 16, 64, 64)
	require.NoError(b, err)
	col, err := ToTensorColumn(mem, a)
	a.Release()
	require.NoError(b, err)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType()}}, nil)
	rec := arrowarray.NewRecord(schema, []arrow.Array{col}, 16)
	col.Release()
	defer rec.Release()
	x, err := SchemaVar(schema, "x")
	require.NoError(b, err)
	reds := []Reduction{{Name: "var", Expr: x, Op: Var, Ddof: 1}}
	r, err := NewReducer(mem, schema, reds...)
	require.NoError(b, err)
	require.NoError(b, r.Add(rec))
	return r, reds, schema
}

// BenchmarkReducerMarshal: encoding and decoding the state of a Var over a
// [64, 64] tensor column (4096 moments of 24 bytes); state-bytes is the
// encoding's size.
func BenchmarkReducerMarshal(b *testing.B) {
	mem := memory.NewGoAllocator()
	r, reds, schema := varReducer(b, mem)
	defer r.Release()
	enc, err := r.MarshalBinary()
	require.NoError(b, err)
	dst, err := NewReducer(mem, schema, reds...)
	require.NoError(b, err)
	defer dst.Release()
	b.Run("marshal", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.MarshalBinary(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(enc)), "state-bytes")
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			if err := dst.UnmarshalBinary(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("merge", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			if err := dst.Merge(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
