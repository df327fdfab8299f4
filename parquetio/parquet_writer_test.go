package parquetio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
)

// pwRecords: batches of 5, 0, 7 and 3 rows of a [2,3] float32 tensor
// column with a null row and an int64 column with nulls.
func pwRecords(t *testing.T, mem memory.Allocator) []arrow.Record {
	t.Helper()
	var recs []arrow.Record
	id := 0
	for _, n := range []int{5, 0, 7, 3} {
		xs := make([]float32, n*6)
		for i := range xs {
			xs[i] = float32(id*6+i) / 4
		}
		valid := make([]bool, n*6)
		for i := range valid {
			valid[i] = (i/6+id)%4 != 1 // every fourth row null
		}
		x, err := array.FromSliceValid(mem, xs, valid, n, 2, 3)
		require.NoError(t, err)
		col, err := arrowio.ToTensorColumn(mem, x)
		x.Release()
		require.NoError(t, err)
		ib := arrowarray.NewInt64Builder(mem)
		for i := 0; i < n; i++ {
			if (id+i)%3 == 2 {
				ib.AppendNull()
			} else {
				ib.Append(int64(id + i))
			}
		}
		ids := ib.NewArray()
		ib.Release()
		s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType(), Nullable: true}, {Name: "id", Type: ids.DataType(), Nullable: true}}, nil)
		recs = append(recs, arrowarray.NewRecord(s, []arrow.Array{col, ids}, int64(n)))
		col.Release()
		ids.Release()
		id += n
	}
	return recs
}

// Batches pushed to a Writer make the file Write makes of
// the same batches, byte for byte, and read back as written.
func TestParquetWriterMatchesWriteParquet(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := pwRecords(t, mem)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	want := writePQ(t, mem, recs[0].Schema(), recs, WithRowGroupRows(4))
	var buf bytes.Buffer
	pw, err := NewWriter(&buf, recs[0].Schema(), WithWriteAllocator(mem), WithRowGroupRows(4))
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, pw.Write(r))
	}
	require.NoError(t, pw.Close())
	require.NoError(t, pw.Close(), "a second Close")
	require.Equal(t, want, buf.Bytes())
	rr, err := Read(bytes.NewReader(buf.Bytes()), WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	got, _ := drainCols(t, mem, rr)
	defer releaseArrow(got)
	requireSameColumns(t, mem, recs, got)
	err = pw.Write(recs[0])
	require.ErrorIs(t, err, ErrInvalid, "Write after Close")
}

// A batch of another schema fails Write, and Close then returns that error
// with everything released (the checked allocator); misuse returns errors.
func TestParquetWriterErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := pwRecords(t, mem)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	var buf bytes.Buffer
	pw, err := NewWriter(&buf, recs[0].Schema(), WithWriteAllocator(mem), WithRowGroupRows(100))
	require.NoError(t, err)
	require.NoError(t, pw.Write(recs[0])) // held: the row group is not full
	other := recs[2].NewSlice(0, 2)
	defer other.Release()
	proj := arrowarray.NewRecord(arrow.NewSchema(other.Schema().Fields()[:1], nil), other.Columns()[:1], 2)
	defer proj.Release()
	err = pw.Write(proj)
	require.ErrorIs(t, err, ErrInvalid)
	require.Contains(t, err.Error(), "differs from the writer's")
	require.ErrorIs(t, pw.Write(recs[2]), ErrInvalid, "the first error sticks")
	require.ErrorIs(t, pw.Close(), ErrInvalid)
	require.NoError(t, pw.Close())

	_, err = NewWriter(nil, recs[0].Schema())
	require.True(t, errors.Is(err, array.ErrNil))
	_, err = NewWriter(&buf, nil)
	require.True(t, errors.Is(err, array.ErrNil))
	var zero Writer
	require.ErrorIs(t, zero.Write(recs[0]), array.ErrNil)
	require.ErrorIs(t, zero.Close(), array.ErrNil)
	var nilw *Writer
	require.ErrorIs(t, nilw.Write(recs[0]), array.ErrNil)
	pw2, err := NewWriter(&buf, recs[0].Schema(), WithWriteAllocator(mem))
	require.NoError(t, err)
	require.ErrorIs(t, pw2.Write(nil), array.ErrNil)
	require.NoError(t, pw2.Close(), "a nil record changes nothing")
}
