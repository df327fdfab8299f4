package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// closingReader is a file in memory that records a Close.
type closingReader struct {
	*bytes.Reader
	closed bool
}

func (c *closingReader) Close() error { c.closed = true; return nil }

// The entry points' contract for absurd input: a nil reader is
// array.ErrNil, an empty file ErrInvalid, out-of-range options mean their
// defaults (or fail with an error), every option gives the rows the
// defaults give, and no reader is closed.
func TestFastReadContract(t *testing.T) {
	_, err := Read(nil)
	require.ErrorIs(t, err, array.ErrNil)
	_, err = ReadTable(nil)
	require.ErrorIs(t, err, array.ErrNil)
	_, err = Info(nil)
	require.ErrorIs(t, err, array.ErrNil)
	for _, data := range [][]byte{nil, []byte("PAR1"), []byte("PAR1PAR1PAR1")} {
		_, err = Read(bytes.NewReader(data))
		require.ErrorIs(t, err, ErrInvalid)
		_, err = ReadTable(bytes.NewReader(data))
		require.ErrorIs(t, err, ErrInvalid)
		_, err = Info(bytes.NewReader(data))
		require.ErrorIs(t, err, ErrInvalid)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	data := leakFile(t, 3)
	want := readAllRecords(t, data, WithAllocator(mem))
	all := concatRecords(t, mem, want)
	defer all.Release()
	releaseRecords(want)
	extremes := [][]ReadOption{
		{WithRowGroupWorkers(0)}, {WithRowGroupWorkers(-1)}, {WithRowGroupWorkers(1)}, {WithRowGroupWorkers(1 << 30)}, {WithRowGroupWorkers(math.MinInt)},
		{WithBatchRows(0)}, {WithBatchRows(-1)}, {WithBatchRows(1)}, {WithBatchRows(1 << 30)}, {WithBatchRows(math.MaxInt)},
		{WithParallel(true), WithBatchRows(3)}, {WithRowGroupWorkers(1 << 30), WithBatchRows(1)},
		{WithMaxBuffer(0)}, {WithMaxBuffer(-1)}, {WithMaxTotal(-1)}, {nil},
	}
	for i, opts := range extremes {
		for _, table := range []bool{false, true} {
			r := &closingReader{Reader: bytes.NewReader(data)}
			o := append([]ReadOption{WithAllocator(mem)}, opts...)
			var got arrow.Record
			if table {
				got, err = ReadTable(r, o...)
				require.NoError(t, err, "options %d", i)
			} else {
				recs := readAllRecords(t, data, o...)
				got = concatRecords(t, mem, recs)
				releaseRecords(recs)
			}
			sameRecords(t, fmt.Sprintf("options %d (table %v)", i, table), []arrow.Record{got}, []arrow.Record{all})
			got.Release()
			require.False(t, r.closed, "options %d: the reader was closed", i)
		}
	}
	// no row group, a row group twice, no column
	for _, opts := range [][]ReadOption{{WithRowGroups()}, {WithRowGroups(2, 0, 2)}, {WithColumns()}, {WithColumns("f", "a", "f")}} {
		tab, err := ReadTable(bytes.NewReader(data), append(opts, WithAllocator(mem), withNoFallback())...)
		require.NoError(t, err)
		recs := readAllRecords(t, data, append(opts, WithAllocator(mem))...)
		if len(recs) == 0 {
			require.EqualValues(t, 0, tab.NumRows())
		} else {
			cat := concatRecords(t, mem, recs)
			sameRecords(t, "row groups and columns", []arrow.Record{tab}, []arrow.Record{cat})
			cat.Release()
		}
		releaseRecords(recs)
		tab.Release()
	}
	// errors leave the reader open too
	r := &closingReader{Reader: bytes.NewReader(data)}
	_, err = ReadTable(r, WithRowGroups(3))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = ReadTable(r, WithColumns("nope"))
	require.ErrorIs(t, err, ErrNoColumn)
	_, err = ReadTable(r, WithMaxTotal(1000))
	require.ErrorIs(t, err, ErrLimit)
	require.False(t, r.closed)
}

// The writer's contract: absurd worker counts and row-group sizes are
// their defaults or work; a table of no columns, of no rows, of a column
// all null, of sliced arrays, of empty strings, and of dictionary arrays
// with nulls (pqarrow's path) read back as written; the writer never
// closes its io.Writer, Write nor Writer.Close.
func TestFastWriteContract(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	build := func(typ arrow.DataType, vals ...any) arrow.Array {
		b := arrowarray.NewBuilder(mem, typ)
		defer b.Release()
		for _, v := range vals {
			if v == nil {
				b.AppendNull()
				continue
			}
			switch bb := b.(type) {
			case *arrowarray.Int64Builder:
				bb.Append(v.(int64))
			case *arrowarray.StringBuilder:
				bb.Append(v.(string))
			case *arrowarray.Float32Builder:
				bb.Append(v.(float32))
			case *arrowarray.BinaryDictionaryBuilder:
				require.NoError(t, bb.AppendString(v.(string)))
			}
		}
		return b.NewArray()
	}
	i := build(arrow.PrimitiveTypes.Int64, int64(1), nil, int64(-3), int64(math.MaxInt64), int64(5))
	s := build(arrow.BinaryTypes.String, "", nil, "", "long string past sixteen bytes", "x")
	n := build(arrow.PrimitiveTypes.Float32, nil, nil, nil, nil, nil)
	d := build(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, "a", nil, "b", "a", nil)
	defer releaseArrow([]arrow.Array{i, s, n, d})
	field := func(name string, a arrow.Array) arrow.Field {
		return arrow.Field{Name: name, Type: a.DataType(), Nullable: true}
	}
	tables := map[string][]arrow.Array{
		"no columns": nil, "flat": {i, s, n}, "dictionary": {d, i},
	}
	for name, cols := range tables {
		fields := make([]arrow.Field, len(cols))
		for k, c := range cols {
			fields[k] = field(fmt.Sprintf("c%d", k), c)
		}
		schema := arrow.NewSchema(fields, nil)
		for _, off := range []int{0, 1, 4, 5} { // sliced: offset off, the rest
			part := make([]arrow.Array, len(cols))
			for k, c := range cols {
				part[k] = arrowarray.NewSlice(c, int64(off), int64(c.Len()))
			}
			rows := int64(5 - off)
			rec := arrowarray.NewRecord(schema, part, rows)
			releaseArrow(part)
			for _, opts := range [][]WriteOption{{WithWriteWorkers(0)}, {WithWriteWorkers(-1)}, {WithWriteWorkers(1 << 30)}, {WithWriteWorkers(math.MinInt)},
				{WithRowGroupRows(0)}, {WithRowGroupRows(-1)}, {WithRowGroupRows(1)}, {WithRowGroupRows(math.MaxInt)},
				{func(c *writeConfig) { c.pageBytes = 1 }}, {func(c *writeConfig) { c.pageBytes = math.MaxInt32 }}} {
				var w closeCounter
				rr, err := arrowarray.NewRecordReader(schema, []arrow.Record{rec})
				require.NoError(t, err)
				require.NoError(t, Write(&w, rr, append(opts, WithWriteAllocator(mem))...), "%s", name)
				rr.Release()
				require.Zero(t, w.closes)
				var pw closeCounter
				wr, err := NewWriter(&pw, schema, append(opts, WithWriteAllocator(mem))...)
				require.NoError(t, err)
				require.NoError(t, wr.Write(rec))
				require.NoError(t, wr.Close())
				require.Zero(t, pw.closes)
				require.Equal(t, w.Bytes(), pw.Bytes(), "%s: Write and Writer differ", name)
				tab, err := ReadTable(bytes.NewReader(w.Bytes()), WithAllocator(mem))
				require.NoError(t, err, "%s", name)
				require.Equal(t, rows, tab.NumRows(), "%s", name)
				for k := range cols {
					want, got := rec.Column(k), tab.Column(k)
					if wd, ok := want.(*arrowarray.Dictionary); ok {
						// pqarrow reads dictionary indices back as int32
						gd := got.(*arrowarray.Dictionary)
						require.Equal(t, wd.Len(), gd.Len())
						for r := 0; r < wd.Len(); r++ {
							require.Equal(t, wd.IsNull(r), gd.IsNull(r))
							if wd.IsValid(r) {
								require.Equal(t, wd.Dictionary().(*arrowarray.String).Value(wd.GetValueIndex(r)), gd.Dictionary().(*arrowarray.String).Value(gd.GetValueIndex(r)))
							}
						}
						continue
					}
					require.True(t, arrowarray.Equal(want, got), "%s, offset %d, column %d:\n%v\nvs\n%v", name, off, k, want, got)
				}
				tab.Release()
			}
			rec.Release()
		}
	}
	_, err := NewWriter(nil, arrow.NewSchema(nil, nil))
	require.ErrorIs(t, err, array.ErrNil)
	require.True(t, errors.Is(Write(nil, nil), array.ErrNil))
}
