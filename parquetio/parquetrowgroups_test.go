package parquetio

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
	"github.com/stride0/stride0/internal/arrowtest"
)

// TestParquetRowGroups: reading a random selection of row groups (in a
// random order, with repeats, with and without a projection, serial and
// parallel) gives the rows of the whole read that those row groups hold,
// in that order.
func TestParquetRowGroups(t *testing.T) {
	mem := arrowtest.NewMem(t)
	const rows, per = 53, 7 // 8 row groups, the last of 4 rows
	rec := recordFixture(t, mem, rows, 3)
	defer rec.Release()
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(per))
	info, err := Info(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	require.Len(t, info.RowGroups, 8)
	rng := rand.New(rand.NewSource(5))
	for trial := 0; trial < 20; trial++ {
		sel := make([]int, rng.Intn(5))
		for i := range sel {
			sel[i] = rng.Intn(len(info.RowGroups))
		}
		cols := []string(nil)
		if trial%2 == 1 {
			cols = []string{"y"}
		}
		name := fmt.Sprint(sel, cols)
		t.Run(name, func(t *testing.T) {
			opts := []ReadOption{WithAllocator(mem), WithRowGroups(sel...), WithParallel(trial%3 == 0), WithBatchRows(1 + rng.Intn(9)), WithRowGroupWorkers(trial % 4)}
			if cols != nil {
				opts = append(opts, WithColumns(cols...))
			}
			rr, err := Read(bytes.NewReader(data), opts...)
			require.NoError(t, err)
			defer rr.Release()
			got, _ := drainCols(t, mem, rr)
			defer releaseArrow(got)
			// the expected rows: the slices of rec the row groups hold
			var want []arrow.Record
			for _, g := range sel {
				lo := int64(g * per)
				want = append(want, rec.NewSlice(lo, min(lo+per, rows)))
			}
			defer func() {
				for _, w := range want {
					w.Release()
				}
			}()
			var n int64
			for _, w := range want {
				n += w.NumRows()
			}
			if n == 0 {
				for _, c := range got {
					require.Nil(t, c)
				}
				return
			}
			if cols != nil {
				proj := make([]arrow.Record, len(want))
				for i, w := range want {
					s := arrow.NewSchema([]arrow.Field{w.Schema().Field(1)}, nil)
					proj[i] = arrowarray.NewRecord(s, []arrow.Array{w.Column(1)}, w.NumRows())
				}
				defer func() {
					for _, p := range proj {
						p.Release()
					}
				}()
				requireSameColumns(t, mem, proj, got)
				return
			}
			requireSameColumns(t, mem, want, got)
		})
	}
}

func TestParquetInfo(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 20, 1)
	defer rec.Release()
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(6))
	info, err := Info(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	require.EqualValues(t, 20, info.NumRows)
	require.True(t, rec.Schema().Equal(info.Schema), "%v\nvs\n%v", rec.Schema(), info.Schema)
	var rows []int64
	for _, g := range info.RowGroups {
		rows = append(rows, g.Rows)
		require.Positive(t, g.CompressedBytes)
	}
	require.Equal(t, []int64{6, 6, 6, 2}, rows)
	// the same schema as Read's
	rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	require.True(t, rr.Schema().Equal(info.Schema))
	rr.Release()

	// an empty file: the schema, no row groups
	empty := writePQ(t, mem, rec.Schema(), nil)
	info, err = Info(bytes.NewReader(empty), WithAllocator(mem))
	require.NoError(t, err)
	require.Zero(t, info.NumRows)
	require.Empty(t, info.RowGroups)
	require.True(t, rec.Schema().Equal(info.Schema))

	// errors
	_, err = Info(nil)
	require.Error(t, err)
	_, err = Info(bytes.NewReader(data[:len(data)-9]), WithAllocator(mem))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Info(bytes.NewReader([]byte("PAR1")), WithAllocator(mem))
	require.ErrorIs(t, err, ErrInvalid)
}

func TestParquetRowGroupsErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 10, 1)
	defer rec.Release()
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(4))
	for _, g := range []int{3, -1, 1 << 40} {
		_, err := Read(bytes.NewReader(data), WithAllocator(mem), WithRowGroups(0, g))
		require.ErrorIs(t, err, ErrInvalid)
		require.ErrorContains(t, err, fmt.Sprintf("row group %d of a file of 3 row groups", g))
	}
	// no row groups: the schema and no rows
	rr, err := Read(bytes.NewReader(data), WithAllocator(mem), WithRowGroups())
	require.NoError(t, err)
	require.True(t, rec.Schema().Equal(rr.Schema()))
	require.False(t, rr.Next())
	require.NoError(t, rr.Err())
	rr.Release()
}

// closeRecorder is a writer that records whether it was closed.
type closeRecorder struct {
	bytes.Buffer
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

// TestWriteParquetDoesNotClose: Write leaves its writer open (arrow-go
// closes an io.Closer sink), and the file is complete.
func TestWriteParquetDoesNotClose(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 9, 1)
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec})
	require.NoError(t, err)
	defer rr.Release()
	var w closeRecorder
	require.NoError(t, Write(&w, rr, WithWriteAllocator(mem)))
	require.False(t, w.closed)
	info, err := Info(bytes.NewReader(w.Bytes()), WithAllocator(mem))
	require.NoError(t, err)
	require.EqualValues(t, 9, info.NumRows)
}

// TestInfoStats: Info reports each row group's min, max and nulls of the
// top-level signed integer, float and utf8 columns.
func TestInfoStats(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint32},
	}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	for i := 0; i < 250; i++ {
		b.Field(0).(*arrowarray.Int64Builder).Append(int64(i))
		if i%10 == 3 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*arrowarray.Float32Builder).Append(float32(-i))
		}
		b.Field(2).(*arrowarray.StringBuilder).Append(fmt.Sprintf("k%03d", i))
		b.Field(3).(*arrowarray.Uint32Builder).Append(uint32(i))
	}
	rec := b.NewRecord()
	b.Release()
	defer rec.Release()
	data := writePQ(t, mem, s, []arrow.Record{rec}, WithRowGroupRows(100))
	info, err := Info(bytes.NewReader(data))
	require.NoError(t, err)
	require.Len(t, info.RowGroups, 3)
	for g, rg := range info.RowGroups {
		lo, hi := int64(g*100), int64(min(g*100+99, 249))
		require.Equal(t, ColumnStats{HasMinMax: true, Min: lo, Max: hi, Nulls: 0}, rg.Stats["id"], "row group %d", g)
		require.Equal(t, ColumnStats{HasMinMax: true, Min: float64(-hi), Max: float64(-lo), Nulls: (hi - lo + 1) / 10}, rg.Stats["v"], "row group %d", g)
		require.Equal(t, fmt.Sprintf("k%03d", lo), rg.Stats["s"].Min)
		require.Equal(t, fmt.Sprintf("k%03d", hi), rg.Stats["s"].Max)
		_, ok := rg.Stats["u"]
		require.False(t, ok, "unsigned columns are left out")
	}
}

// TestParquetRowGroupWorkers: decoding row groups ahead on several
// goroutines gives the rows of the serial read, in order, batches never
// spanning two row groups; a reader released early (after any number of
// batches) leaves nothing allocated.
func TestParquetRowGroupWorkers(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rng := rand.New(rand.NewSource(19))
	for trial := 0; trial < 12; trial++ {
		rows := []int{0, 1, 9, 100, 333}[trial%5]
		per := 1 + rng.Intn(40)
		rec := recordFixture(t, mem, rows, trial)
		data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(per))
		rec.Release()
		serial, err := Read(bytes.NewReader(data), WithAllocator(mem))
		require.NoError(t, err)
		want, _ := drainCols(t, mem, serial)
		serial.Release()
		for _, workers := range []int{2, 3, 8} {
			batch := 1 + rng.Intn(50)
			rr, err := Read(bytes.NewReader(data), WithAllocator(mem), WithRowGroupWorkers(workers), WithBatchRows(batch))
			require.NoError(t, err)
			var parts []arrow.Record
			for rr.Next() {
				r := rr.Record()
				// a batch lies within one row group
				require.LessOrEqual(t, r.NumRows(), int64(min(batch, per)))
				r.Retain()
				parts = append(parts, r)
			}
			require.NoError(t, rr.Err())
			rr.Release()
			var n int64
			for _, p := range parts {
				n += p.NumRows()
			}
			require.Equal(t, int64(rows), n, "trial %d workers %d", trial, workers)
			for c := range want {
				if want[c] == nil {
					continue
				}
				chunks := make([]arrow.Array, len(parts))
				for i, p := range parts {
					chunks[i] = p.Column(c)
				}
				got, err := arrowarray.Concatenate(chunks, mem)
				require.NoError(t, err)
				require.True(t, arrowarray.Equal(want[c], got), "trial %d workers %d column %d", trial, workers, c)
				got.Release()
			}
			for _, p := range parts {
				p.Release()
			}
			// released after k batches
			rr, err = Read(bytes.NewReader(data), WithAllocator(mem), WithRowGroupWorkers(workers), WithBatchRows(batch))
			require.NoError(t, err)
			for k := rng.Intn(4); k > 0 && rr.Next(); k-- {
			}
			rr.Release()
		}
		releaseArrow(want)
	}
}
