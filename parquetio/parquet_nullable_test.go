package parquetio

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
)

// Columns whose FixedSizeList fields are not nullable (pqarrow v15 writes
// no values for them) come back whole, with their nullability, and other
// readers (plain pqarrow) see the values in nullable columns.
func TestParquetNonNullableFixedSizeList(t *testing.T) {
	mem := arrowtest.NewMem(t)
	const rows = 5
	xs := make([]float64, rows*4)
	for i := range xs {
		xs[i] = float64(i) + 0.5
	}
	x, err := array.FromSlice(mem, xs, rows, 2, 2)
	require.NoError(t, err)
	defer x.Release()
	tens, err := arrowio.ToTensorColumn(mem, x)
	require.NoError(t, err)
	defer tens.Release()

	fslType := arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float64)
	fb := arrowarray.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Float64)
	defer fb.Release()
	for i := 0; i < rows; i++ {
		fb.Append(true)
		fb.ValueBuilder().(*arrowarray.Float64Builder).AppendValues([]float64{float64(i), -float64(i)}, nil)
	}
	fsl := fb.NewArray()
	defer fsl.Release()

	stType := arrow.StructOf(arrow.Field{Name: "f", Type: fslType}, arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32})
	sb := arrowarray.NewStructBuilder(mem, stType)
	defer sb.Release()
	for i := 0; i < rows; i++ {
		sb.Append(true)
		f := sb.FieldBuilder(0).(*arrowarray.FixedSizeListBuilder)
		f.Append(true)
		f.ValueBuilder().(*arrowarray.Float64Builder).AppendValues([]float64{float64(10 * i), 1}, nil)
		sb.FieldBuilder(1).(*arrowarray.Int32Builder).Append(int32(i))
	}
	st := sb.NewArray()
	defer st.Release()

	s := arrow.NewSchema([]arrow.Field{
		{Name: "t", Type: tens.DataType()},
		{Name: "l", Type: fslType},
		{Name: "s", Type: stType, Nullable: true},
	}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{tens, fsl, st}, rows)
	defer rec.Release()
	data := writePQ(t, mem, s, []arrow.Record{rec}, WithRowGroupRows(3))

	rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	require.True(t, s.Equal(rr.Schema()), "schema read %v, written %v", rr.Schema(), s)
	info, err := Info(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	require.True(t, s.Equal(info.Schema), "Info's schema %v, written %v", info.Schema, s)
	got, _ := drainCols(t, mem, rr)
	defer releaseArrow(got)
	for i, c := range got {
		require.Zero(t, c.NullN(), "column %q", s.Field(i).Name)
		require.True(t, arrowarray.Equal(rec.Column(i), c), "column %q: read %v, wrote %v", s.Field(i).Name, c, rec.Column(i))
	}

	// A reader that knows nothing of stride0 reads the values, in nullable columns.
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	require.True(t, fr.Manifest.Fields[1].Field.Nullable)
	cr, err := fr.GetColumn(context.Background(), 1)
	require.NoError(t, err)
	defer cr.Release()
	ch, err := cr.NextBatch(rows)
	require.NoError(t, err)
	defer ch.Release()
	require.Len(t, ch.Chunks(), 1)
	plain := ch.Chunk(0).(*arrowarray.FixedSizeList)
	require.Zero(t, plain.NullN())
	require.Equal(t, fsl.(*arrowarray.FixedSizeList).ListValues().(*arrowarray.Float64).Float64Values(),
		plain.ListValues().(*arrowarray.Float64).Float64Values())
}

// Read's default total limit counts the whole file as input
// (arrowio.DefaultTotalBase + arrowio.DefaultTotalRatio × the file's bytes), so a file that
// decodes to more than arrowio.DefaultTotalBase is not refused for that alone.
func TestParquetDefaultTotalCountsTheFile(t *testing.T) {
	mem := arrowtest.NewMem(t)
	b := arrowarray.NewInt64Builder(mem)
	for i := int64(0); i < 1000; i++ {
		b.Append(i * 7)
	}
	col := b.NewArray()
	b.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{col}, 1000)
	col.Release()
	defer rec.Release()
	data := writePQ(t, mem, s, []arrow.Record{rec})
	rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	p, ok := rr.(*pqReader)
	require.True(t, ok, "%T", rr)
	require.Equal(t, int64(arrowio.DefaultTotalBase+arrowio.DefaultTotalRatio*len(data)), p.lim.Limit())
}
