package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
)

// writePQ writes recs (all of schema s) to Parquet bytes.
func writePQ(t testing.TB, mem memory.Allocator, s *arrow.Schema, recs []arrow.Record, opts ...WriteOption) []byte {
	t.Helper()
	rr, err := arrowarray.NewRecordReader(s, recs)
	require.NoError(t, err)
	defer rr.Release()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, rr, append([]WriteOption{WithWriteAllocator(mem)}, opts...)...))
	return buf.Bytes()
}

// drainCols reads rr to the end and returns each column concatenated over
// the batches (nil columns if there were none), and the batch count.
func drainCols(t testing.TB, mem memory.Allocator, rr arrowarray.RecordReader) ([]arrow.Array, int) {
	t.Helper()
	parts := make([][]arrow.Array, rr.Schema().NumFields())
	n := 0
	for rr.Next() {
		n++
		for i, c := range rr.Record().Columns() {
			c.Retain()
			parts[i] = append(parts[i], c)
		}
	}
	require.NoError(t, rr.Err())
	out := make([]arrow.Array, len(parts))
	for i, p := range parts {
		if len(p) > 0 {
			c, err := arrowarray.Concatenate(p, mem)
			require.NoError(t, err)
			out[i] = c
		}
		releaseArrow(p)
	}
	return out, n
}

// requireSameColumns compares the columns of recs, concatenated, with got.
func requireSameColumns(t testing.TB, mem memory.Allocator, recs []arrow.Record, got []arrow.Array) {
	t.Helper()
	rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	defer rr.Release()
	want, _ := drainCols(t, mem, rr)
	defer releaseArrow(want)
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i].DataType().ID(), got[i].DataType().ID(), "column %d", i)
		require.True(t, arrow.TypeEqual(want[i].DataType(), got[i].DataType()), "column %d: %v vs %v", i, want[i].DataType(), got[i].DataType())
		require.True(t, arrowarray.Equal(want[i], got[i]), "column %d:\n%v\nvs\n%v", i, want[i], got[i])
	}
}

func TestParquetRoundTripRecords(t *testing.T) {
	mem := arrowtest.NewMem(t)
	var recs []arrow.Record
	for i, rows := range []int{7, 0, 13, 5} {
		recs = append(recs, recordFixture(t, mem, rows, i))
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	data := writePQ(t, mem, recs[0].Schema(), recs, WithRowGroupRows(4))
	for _, par := range []bool{false, true} {
		t.Run(fmt.Sprint("parallel=", par), func(t *testing.T) {
			rr, err := Read(bytes.NewReader(data), WithAllocator(mem), WithParallel(par), WithBatchRows(6))
			require.NoError(t, err)
			defer rr.Release()
			require.True(t, recs[0].Schema().Equal(rr.Schema()), "%v\nvs\n%v", recs[0].Schema(), rr.Schema())
			got, n := drainCols(t, mem, rr)
			defer releaseArrow(got)
			require.Equal(t, 5, n) // 25 rows in batches of 6
			requireSameColumns(t, mem, recs, got)
			_, ok := got[0].(*arrowio.FixedShapeTensorArray)
			require.True(t, ok, "%T", got[0])
		})
	}
	// several row groups were written
	pf := pqFile(t, data)
	require.Equal(t, 7, pf.NumRowGroups())
	pf.Close()
}

// TestParquetEveryDType: a tensor column and a primitive column of every
// dtype, with null elements and null rows, go through Parquet and come back
// to the same values and masks, the tensor column as zero-copy Array.
func TestParquetEveryDType(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for _, dt := range array.DTypes {
		t.Run(dt.String(), func(t *testing.T) {
			mem := arrowtest.NewMem(t)
			const rows, k = 9, 6
			vals := arrowtest.TestValues(dt, rows*k)
			valid := make([]bool, rows*k)
			for i := range valid {
				valid[i] = rng.Intn(5) != 0
			}
			for j := 0; j < k; j++ { // row 2 null, row 5 all valid
				valid[2*k+j] = false
				valid[5*k+j] = true
			}
			flat := arrowtest.BuildArrow(t, mem, dt, vals, valid)
			defer flat.Release()
			a, err := arrowio.FromArrow(mem, flat)
			require.NoError(t, err)
			defer a.Release()
			a3, err := a.Reshaped(rows, 2, 3)
			require.NoError(t, err)
			defer a3.Release()
			col, err := arrowio.ToTensorColumn(mem, a3, arrowio.WithDimNames("r", "c"))
			require.NoError(t, err)
			defer col.Release()
			require.Equal(t, 1, col.NullN())
			prim := arrowtest.BuildArrow(t, mem, dt, vals[:rows], valid[:rows])
			defer prim.Release()
			s := arrow.NewSchema([]arrow.Field{
				{Name: "t", Type: col.DataType(), Nullable: true},
				{Name: "p", Type: prim.DataType(), Nullable: true},
			}, nil)
			rec := arrowarray.NewRecord(s, []arrow.Array{col, prim}, rows)
			defer rec.Release()
			data := writePQ(t, mem, s, []arrow.Record{rec}, WithRowGroupRows(4))
			rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
			require.NoError(t, err)
			defer rr.Release()
			got, _ := drainCols(t, mem, rr)
			defer releaseArrow(got)
			requireSameColumns(t, mem, []arrow.Record{rec}, got)
			tc, ok := got[0].(*arrowio.FixedShapeTensorArray)
			require.True(t, ok, "%T", got[0])
			require.Equal(t, []string{"r", "c"}, tc.TensorType().DimNames())
			back, err := arrowio.FromArrow(mem, tc)
			require.NoError(t, err)
			defer back.Release()
			require.Equal(t, []int{rows, 2, 3}, back.Shape())
			wv, wok := arrowtest.Elems(t, a3)
			gv, gok := arrowtest.Elems(t, back)
			require.Equal(t, wok, gok)
			require.Equal(t, arrowtest.ZeroNulls(wv, wok), arrowtest.ZeroNulls(gv, gok))
			sv := tc.Storage().(*arrowarray.FixedSizeList).ListValues().Data()
			if dt != array.Bool { // bools are unpacked
				require.Equal(t, arrowtest.ArrowAddr(sv, sv.Offset()), arrowtest.Addr(back, 0), "zero-copy from the decoded column")
			}
		})
	}
}

func pqColumns(t *testing.T, data []byte, opts ...ReadOption) ([]arrow.Array, *arrow.Schema) {
	rr, err := Read(bytes.NewReader(data), opts...)
	require.NoError(t, err)
	defer rr.Release()
	s := rr.Schema()
	got, _ := drainCols(t, memory.DefaultAllocator, rr)
	return got, s
}

func TestParquetProjectionAndEmpty(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 11, 2)
	defer rec.Release()
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec})
	got, s := pqColumns(t, data, WithAllocator(mem), WithColumns("y", "x"))
	defer releaseArrow(got)
	require.Equal(t, []string{"y", "x"}, []string{s.Field(0).Name, s.Field(1).Name})
	require.True(t, arrowarray.Equal(rec.Column(1), got[0]))
	require.True(t, arrowarray.Equal(rec.Column(0), got[1]))
	require.True(t, s.Field(0).Metadata.Equal(rec.Schema().Field(1).Metadata))

	_, err := Read(bytes.NewReader(data), WithAllocator(mem), WithColumns("nope"))
	require.ErrorIs(t, err, ErrNoColumn)
	require.ErrorContains(t, err, `"nope"`)

	// no batches at all
	empty := writePQ(t, mem, rec.Schema(), nil)
	rr, err := Read(bytes.NewReader(empty), WithAllocator(mem))
	require.NoError(t, err)
	require.True(t, rec.Schema().Equal(rr.Schema()))
	require.False(t, rr.Next())
	require.NoError(t, rr.Err())
	rr.Release()
}

func TestParquetErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	_, err := Read(nil)
	require.ErrorIs(t, err, array.ErrNil)
	require.ErrorIs(t, Write(nil, nil), array.ErrNil)
	for _, b := range [][]byte{nil, []byte("PAR1"), []byte("PAR1\x00\x00\x00\x00PAR1")} {
		_, err = Read(bytes.NewReader(b), WithAllocator(mem))
		require.ErrorIs(t, err, ErrInvalid)
	}
	rec := recordFixture(t, mem, 20, 1)
	defer rec.Release()
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec})
	// a tiny buffer limit fails cleanly (no leak: newMem checks)
	rr, err := Read(bytes.NewReader(data), WithAllocator(mem), WithMaxBuffer(16))
	if err == nil {
		for rr.Next() {
		}
		err = rr.Err()
		rr.Release()
	}
	require.ErrorIs(t, err, ErrInvalid)
	// a column Parquet cannot hold
	s := arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.DenseUnionOf(nil, nil)}}, nil)
	ur, err := arrowarray.NewRecordReader(s, nil)
	require.NoError(t, err)
	defer ur.Release()
	err = Write(&bytes.Buffer{}, ur, WithWriteAllocator(mem))
	require.True(t, errors.Is(err, ErrUnsupported) || errors.Is(err, ErrInvalid), "%v", err)
}

func pqFile(t *testing.T, data []byte) *file.Reader {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	return pf
}

// TestParquetPlainListNullRows: a FixedSizeList column without the
// extension, sliced, with null rows, comes back with the same rows and
// nulls (the null rows written as null elements).
func TestParquetPlainListNullRows(t *testing.T) {
	mem := arrowtest.NewMem(t)
	b := arrowarray.NewFixedSizeListBuilder(mem, 3, arrow.PrimitiveTypes.Int16)
	defer b.Release()
	vb := b.ValueBuilder().(*arrowarray.Int16Builder)
	for r := 0; r < 10; r++ {
		b.Append(true)
		vb.AppendValues([]int16{int16(r), int16(-r), 7}, []bool{true, r%3 != 0, true})
	}
	built := b.NewArray()
	defer built.Release()
	// rows 1, 5, 9 null, their elements not
	rows := memory.NewResizableBuffer(mem)
	rows.Resize(2)
	rows.Bytes()[0], rows.Bytes()[1] = 0xff&^(1<<1|1<<5), 0xff&^(1<<1)
	defer rows.Release()
	fd := arrowarray.NewData(built.DataType(), 10, []*memory.Buffer{rows}, built.Data().Children(), 3, 0)
	defer fd.Release()
	full := arrowarray.MakeFromData(fd)
	defer full.Release()
	require.Equal(t, 3, full.NullN())
	col := arrowarray.NewSlice(full, 2, 9)
	defer col.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "l", Type: col.DataType(), Nullable: true}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	data := writePQ(t, mem, s, []arrow.Record{rec}, WithRowGroupRows(3))
	got, gs := pqColumns(t, data, WithAllocator(mem))
	defer releaseArrow(got)
	require.True(t, s.Equal(gs), "%v vs %v", s, gs)
	require.Equal(t, col.NullN(), got[0].NullN(), "%v\nvs\n%v", col, got[0])
	require.True(t, arrowarray.Equal(col, got[0]), "%v\nvs\n%v", col, got[0])
}

// closeCounter is a writer that counts calls to Close.
type closeCounter struct {
	bytes.Buffer
	closes int
}

func (c *closeCounter) Close() error { c.closes++; return nil }

// Write leaves its writer open (pqarrow closes an io.Closer sink).
func TestWriteParquetLeavesWriterOpen(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b := arrowarray.NewInt64Builder(mem)
	b.AppendValues([]int64{1, 2, 3}, nil)
	col := b.NewArray()
	b.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{col}, 3)
	col.Release()
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(s, []arrow.Record{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var w closeCounter
	if err := Write(&w, rr, WithWriteAllocator(mem)); err != nil {
		t.Fatal(err)
	}
	if w.closes != 0 {
		t.Fatalf("Write closed its writer %d times", w.closes)
	}
	if w.Len() == 0 {
		t.Fatal("nothing written")
	}
}

// TestParquetDictionaryRoundTrip: dictionary-encoded string columns, with
// and without nulls, through both page versions. arrow-go v15 writes their
// version 2 pages with a negative num_nulls, which the pre-flight checks
// must accept (they refused it once: every dictionary column failed to read).
func TestParquetDictionaryRoundTrip(t *testing.T) {
	mem := arrowtest.NewMem(t)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	s := arrow.NewSchema([]arrow.Field{{Name: "k", Type: dt}, {Name: "kn", Type: dt, Nullable: true}}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	for i := 0; i < 1000; i++ {
		require.NoError(t, b.Field(0).(*arrowarray.BinaryDictionaryBuilder).AppendString([]string{"red", "green", "blue"}[i%3]))
		if i%7 == 0 {
			b.Field(1).AppendNull()
		} else {
			require.NoError(t, b.Field(1).(*arrowarray.BinaryDictionaryBuilder).AppendString([]string{"x", "y"}[i%2]))
		}
	}
	rec := b.NewRecord()
	b.Release()
	defer rec.Release()
	for _, v2 := range []bool{true, false} {
		version := parquet.DataPageV1
		if v2 {
			version = parquet.DataPageV2
		}
		data := writePQ(t, mem, s, []arrow.Record{rec}, WithRowGroupRows(300), WithProperties(parquet.WithDataPageVersion(version)))
		rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
		require.NoError(t, err, "page version 2: %v", v2)
		got, _ := drainCols(t, mem, rr)
		rr.Release()
		for i, g := range got {
			want := rec.Column(i)
			require.Equal(t, want.Len(), g.Len())
			for r := 0; r < want.Len(); r++ {
				require.Equal(t, want.IsNull(r), g.IsNull(r), "column %d row %d", i, r)
				if !want.IsNull(r) {
					require.Equal(t, want.ValueStr(r), g.ValueStr(r), "column %d row %d", i, r)
				}
			}
		}
		releaseArrow(got)
	}
}
