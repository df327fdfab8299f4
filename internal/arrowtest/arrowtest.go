// Package arrowtest holds the test helpers the tests of arrowio and
// parquetio share (checked allocators, Arrow arrays built with Arrow's own
// builders, fixtures). Only tests import it.
package arrowtest

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// NewMem returns a checked allocator that must be empty when the test ends
// (Cleanup runs after the test's deferred releases).
func NewMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// BuildArrow builds a primitive Arrow array of dtype dt with Arrow's own
// builders: vals[i] converted to the element type, null where !valid[i]
// (valid nil: no nulls).
func BuildArrow(t testing.TB, mem memory.Allocator, dt array.DType, vals []float64, valid []bool) arrow.Array {
	b := arrowarray.NewBuilder(mem, dt.ArrowType())
	defer b.Release()
	for i, v := range vals {
		if valid != nil && !valid[i] {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *arrowarray.BooleanBuilder:
			b.Append(v != 0)
		case *arrowarray.Int8Builder:
			b.Append(int8(v))
		case *arrowarray.Int16Builder:
			b.Append(int16(v))
		case *arrowarray.Int32Builder:
			b.Append(int32(v))
		case *arrowarray.Int64Builder:
			b.Append(int64(v))
		case *arrowarray.Uint8Builder:
			b.Append(uint8(v))
		case *arrowarray.Uint16Builder:
			b.Append(uint16(v))
		case *arrowarray.Uint32Builder:
			b.Append(uint32(v))
		case *arrowarray.Uint64Builder:
			b.Append(uint64(v))
		case *arrowarray.Float16Builder:
			b.Append(float16.New(float32(v)))
		case *arrowarray.Float32Builder:
			b.Append(float32(v))
		case *arrowarray.Float64Builder:
			b.Append(v)
		default:
			t.Fatalf("no builder case for %v", dt)
		}
	}
	return b.NewArray()
}

// ArrowValues reads a primitive Arrow array as float64s (0 for nulls) and its
// validity, through Arrow's own accessors.
func ArrowValues(t testing.TB, arr arrow.Array) ([]float64, []bool) {
	n := arr.Len()
	vals, valid := make([]float64, n), make([]bool, n)
	for i := 0; i < n; i++ {
		valid[i] = arr.IsValid(i)
		if !valid[i] {
			continue
		}
		switch a := arr.(type) {
		case *arrowarray.Boolean:
			if a.Value(i) {
				vals[i] = 1
			}
		case *arrowarray.Int8:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Int16:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Int32:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Int64:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Uint8:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Uint16:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Uint32:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Uint64:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Float16:
			vals[i] = float64(a.Value(i).Float32())
		case *arrowarray.Float32:
			vals[i] = float64(a.Value(i))
		case *arrowarray.Float64:
			vals[i] = a.Value(i)
		default:
			t.Fatalf("arrowValues: %T", arr)
		}
	}
	return vals, valid
}

// Elems returns a's elements in row-major order as float64s with nulls read
// as 0, and the validity.
func Elems(t testing.TB, a *array.Array) ([]float64, []bool) {
	v, err := array.ToSlice[float64](a)
	require.NoError(t, err)
	ok, err := array.ValidSlice(a)
	require.NoError(t, err)
	for i := range v {
		if !ok[i] {
			v[i] = 0
		}
	}
	return v, ok
}

// TestValues gives n values that fit every dtype (0..100, bool: 0/1).
func TestValues(dt array.DType, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64((i*7 + 3) % 101)
		if dt == array.Bool {
			v[i] = float64(i % 2)
		}
	}
	return v
}

// NullEvery is a validity of n values, every k-th (from the second) null.
func NullEvery(n, k int) []bool {
	v := make([]bool, n)
	for i := range v {
		v[i] = i%k != 1
	}
	return v
}

// Addr is the address of buffer element e of a (elements of a's dtype).
func Addr(a *array.Array, e int) uintptr {
	return uintptr(unsafe.Pointer(&a.Data().Bytes()[e*a.DType().Size()]))
}

// ArrowAddr is the address of value i of a primitive Arrow array.
func ArrowAddr(arr arrow.ArrayData, i int) uintptr {
	sz := arr.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
	return uintptr(unsafe.Pointer(&arr.Buffers()[1].Bytes()[(arr.Offset()+i)*sz]))
}

// ZeroNulls is v with the values where !ok set to 0.
func ZeroNulls(v []float64, ok []bool) []float64 {
	out := append([]float64{}, v...)
	for i := range out {
		if ok != nil && !ok[i] {
			out[i] = 0
		}
	}
	return out
}

// RequireSameRecord fails t unless got has want's schema, rows and columns.
func RequireSameRecord(t testing.TB, want, got arrow.Record) {
	require.True(t, want.Schema().Equal(got.Schema()), "schema %v\nvs %v", want.Schema(), got.Schema())
	require.Equal(t, want.NumRows(), got.NumRows())
	for i := range want.Columns() {
		require.True(t, arrowarray.Equal(want.Column(i), got.Column(i)), "column %d", i)
		require.IsType(t, want.Column(i), got.Column(i))
	}
}

// RecordFixture is a batch of rows rows: "x", a [rows, 2, 2] float32 tensor
// column of transposed tensors (made by tensorColumn, arrowio.ToTensorColumn:
// this package cannot import arrowio, whose own tests use it), and "y", a
// nullable int32 column with field metadata; seed shifts the values.
func RecordFixture(t testing.TB, mem memory.Allocator, rows int, seed int, tensorColumn func(memory.Allocator, *array.Array) (arrow.Array, error)) arrow.Record {
	x, err := array.Arange(mem, array.Float32, float64(seed), float64(seed+rows*4), 1)
	require.NoError(t, err)
	defer x.Release()
	xv, err := x.View([]int{rows, 2, 2}, []int{4, 1, 2}, 0) // transposed tensors
	require.NoError(t, err)
	defer xv.Release()
	col, err := tensorColumn(mem, xv)
	require.NoError(t, err)
	defer col.Release()
	valid := make([]bool, rows)
	vals := make([]float64, rows)
	for i := range valid {
		valid[i] = (i+seed)%3 != 0
		vals[i] = float64(i + seed)
	}
	y := BuildArrow(t, mem, array.Int32, vals, valid)
	defer y.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: col.DataType(), Nullable: true},
		{Name: "y", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: arrow.NewMetadata([]string{"unit"}, []string{"m"})},
	}, nil)
	return arrowarray.NewRecord(schema, []arrow.Array{col, y}, int64(rows))
}

// ReleaseRecords releases every batch of recs.
func ReleaseRecords(recs []arrow.Record) {
	for _, r := range recs {
		r.Release()
	}
}
