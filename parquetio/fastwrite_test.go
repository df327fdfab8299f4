package parquetio

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/internal/arrowtest"
)

// writeTypes are the column types the fast writer writes.
var writeTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Date32,
	arrow.BinaryTypes.String, arrow.BinaryTypes.Binary,
}

// randomWriteValue draws a value of t: card distinct values (0: any), with the
// special values of the type now and then.
func randomWriteValue(rng *rand.Rand, t arrow.DataType, card int) any {
	pick := func(special []any) (any, bool) {
		if rng.Intn(20) == 0 {
			return special[rng.Intn(len(special))], true
		}
		return nil, false
	}
	r := rng.Int63()
	if card > 0 {
		r = int64(rng.Intn(card))*7919 - int64(card)*3000
	}
	switch t.ID() {
	case arrow.INT8:
		if v, ok := pick([]any{int8(math.MinInt8), int8(math.MaxInt8), int8(0), int8(-1)}); ok {
			return v
		}
		return int8(r)
	case arrow.INT16:
		if v, ok := pick([]any{int16(math.MinInt16), int16(math.MaxInt16), int16(0)}); ok {
			return v
		}
		return int16(r)
	case arrow.INT32:
		if v, ok := pick([]any{int32(math.MinInt32), int32(math.MaxInt32), int32(0)}); ok {
			return v
		}
		return int32(r)
	case arrow.DATE32:
		return arrow.Date32(int32(r % 100000))
	case arrow.INT64:
		if v, ok := pick([]any{int64(math.MinInt64), int64(math.MaxInt64), int64(0), int64(-1)}); ok {
			return v
		}
		if card == 0 && rng.Intn(2) == 0 {
			r = -r
		}
		return r
	case arrow.UINT8:
		return uint8(r)
	case arrow.UINT16:
		return uint16(r)
	case arrow.UINT32:
		if v, ok := pick([]any{uint32(math.MaxUint32), uint32(0), uint32(1 << 31)}); ok {
			return v
		}
		return uint32(r)
	case arrow.UINT64:
		if v, ok := pick([]any{uint64(math.MaxUint64), uint64(0), uint64(1 << 63)}); ok {
			return v
		}
		return uint64(r) * 3
	case arrow.FLOAT32:
		if v, ok := pick([]any{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), float32(0), float32(1e-45), float32(math.MaxFloat32)}); ok {
			return v
		}
		if card > 0 {
			return float32(r) / 8
		}
		return float32(rng.NormFloat64() * 1e3)
	case arrow.FLOAT64:
		if v, ok := pick([]any{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0.0, 5e-324, math.MaxFloat64}); ok {
			return v
		}
		if card > 0 {
			return float64(r) / 8
		}
		return rng.NormFloat64() * 1e6
	case arrow.STRING, arrow.BINARY:
		var s string
		if v, ok := pick([]any{"", "\x00", "\xff\xfe", strings.Repeat("long", 1200), "é"}); ok {
			s = v.(string)
		} else if card > 0 && r%2 == 0 {
			s = fmt.Sprintf("id%04d", r%100000)
		} else if card > 0 { // longer than the inline 16 bytes
			s = fmt.Sprintf("a rather longer id%04d", r%100000)
		} else {
			s = fmt.Sprintf("%x", rng.Int63n(1<<uint(rng.Intn(62)+1)))
		}
		if t.ID() == arrow.BINARY {
			return []byte(s)
		}
		return s
	}
	panic(t)
}

// randomWriteColumn builds a column of n rows of t, each null with probability
// pnull.
func randomWriteColumn(mem memory.Allocator, rng *rand.Rand, t arrow.DataType, n int, pnull float64, card int) arrow.Array {
	b := arrowarray.NewBuilder(mem, t)
	defer b.Release()
	for i := 0; i < n; i++ {
		if rng.Float64() < pnull {
			b.AppendNull()
			continue
		}
		switch v := randomWriteValue(rng, t, card).(type) {
		case int8:
			b.(*arrowarray.Int8Builder).Append(v)
		case int16:
			b.(*arrowarray.Int16Builder).Append(v)
		case int32:
			b.(*arrowarray.Int32Builder).Append(v)
		case int64:
			b.(*arrowarray.Int64Builder).Append(v)
		case uint8:
			b.(*arrowarray.Uint8Builder).Append(v)
		case uint16:
			b.(*arrowarray.Uint16Builder).Append(v)
		case uint32:
			b.(*arrowarray.Uint32Builder).Append(v)
		case uint64:
			b.(*arrowarray.Uint64Builder).Append(v)
		case float32:
			b.(*arrowarray.Float32Builder).Append(v)
		case float64:
			b.(*arrowarray.Float64Builder).Append(v)
		case arrow.Date32:
			b.(*arrowarray.Date32Builder).Append(v)
		case string:
			b.(*arrowarray.StringBuilder).Append(v)
		case []byte:
			b.(*arrowarray.BinaryBuilder).Append(v)
		}
	}
	return b.NewArray()
}

// fastTable is a random table of the fast writer's types: one column per
// type (nullable or not, with nulls or not, few or many distinct values),
// cut into batches of random sizes (some sliced out of a larger array).
func fastTable(t testing.TB, mem memory.Allocator, rng *rand.Rand, rows int) (*arrow.Schema, []arrow.Record) {
	var fields []arrow.Field
	var cols []arrow.Array
	for k := 0; k < 1+rng.Intn(2*len(writeTypes)); k++ {
		typ := writeTypes[rng.Intn(len(writeTypes))]
		nullable := rng.Intn(3) > 0
		pnull := 0.0
		if nullable {
			pnull = []float64{0, 0.01, 0.3, 1}[rng.Intn(4)]
		}
		card := []int{0, 1, 3, 100, 5000}[rng.Intn(5)]
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("c%d_%s", k, typ), Type: typ, Nullable: nullable})
		// built with a few rows more, then sliced: an offset
		c := randomWriteColumn(mem, rng, typ, rows+3, pnull, card)
		s := arrowarray.NewSlice(c, 2, int64(rows+2))
		c.Release()
		cols = append(cols, s)
	}
	md := arrow.NewMetadata([]string{"origin"}, []string{"fast writer test"})
	schema := arrow.NewSchema(fields, &md)
	var recs []arrow.Record
	for at := 0; at < rows || (rows == 0 && len(recs) == 0); {
		n := rows - at
		if rng.Intn(3) > 0 && n > 0 {
			n = 1 + rng.Intn(n)
		}
		part := make([]arrow.Array, len(cols))
		for i, c := range cols {
			part[i] = arrowarray.NewSlice(c, int64(at), int64(at+n))
		}
		recs = append(recs, arrowarray.NewRecord(schema, part, int64(n)))
		releaseArrow(part)
		at += n
		if rows == 0 {
			break
		}
	}
	releaseArrow(cols)
	return schema, recs
}

// sameBits compares two arrays of the same type value by value (floats by
// their bits, so that NaN equals NaN and -0 differs from +0).
func sameBits(t testing.TB, want, got arrow.Array, what string) {
	t.Helper()
	require.True(t, arrow.TypeEqual(want.DataType(), got.DataType()), "%s: %v vs %v", what, want.DataType(), got.DataType())
	require.Equal(t, want.Len(), got.Len(), what)
	require.Equal(t, want.NullN(), got.NullN(), what)
	for i := 0; i < want.Len(); i++ {
		require.Equal(t, want.IsNull(i), got.IsNull(i), "%s row %d", what, i)
		if want.IsNull(i) {
			continue
		}
		switch w := want.(type) {
		case *arrowarray.Float32:
			require.Equal(t, math.Float32bits(w.Value(i)), math.Float32bits(got.(*arrowarray.Float32).Value(i)), "%s row %d", what, i)
		case *arrowarray.Float64:
			require.Equal(t, math.Float64bits(w.Value(i)), math.Float64bits(got.(*arrowarray.Float64).Value(i)), "%s row %d", what, i)
		default:
			require.Equal(t, w.ValueStr(i), got.ValueStr(i), "%s row %d", what, i)
		}
	}
}

// naiveStats is what the footer of a row group should record for a
// column (Info's view: signed integers, floats and utf8).
func naiveStats(a arrow.Array) (ColumnStats, bool) {
	st := ColumnStats{Nulls: int64(a.NullN())}
	switch a.DataType().ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.STRING:
	default:
		return st, false
	}
	var mn, mx any
	less := func(x, y any) bool {
		switch x := x.(type) {
		case int64:
			return x < y.(int64)
		case float64:
			return x < y.(float64)
		case string:
			return x < y.(string)
		}
		panic(x)
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		var v any
		switch c := a.(type) {
		case *arrowarray.Int8:
			v = int64(c.Value(i))
		case *arrowarray.Int16:
			v = int64(c.Value(i))
		case *arrowarray.Int32:
			v = int64(c.Value(i))
		case *arrowarray.Int64:
			v = c.Value(i)
		case *arrowarray.Float32:
			if math.IsNaN(float64(c.Value(i))) {
				continue
			}
			v = float64(c.Value(i))
		case *arrowarray.Float64:
			if math.IsNaN(c.Value(i)) {
				continue
			}
			v = c.Value(i)
		case *arrowarray.String:
			v = c.Value(i)
		default:
			return st, false
		}
		if mn == nil || less(v, mn) {
			mn = v
		}
		if mx == nil || less(mx, v) {
			mx = v
		}
	}
	if mn != nil {
		if s, ok := mn.(string); ok && (len(s) > fastMaxStat || len(mx.(string)) > fastMaxStat) {
			return st, true
		}
		st.HasMinMax, st.Min, st.Max = true, mn, mx
	}
	return st, true
}

// fastWritten reports whether data was written by the fast writer.
func fastWritten(t testing.TB, data []byte) bool {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	return strings.HasPrefix(pf.MetaData().GetCreatedBy(), "stride0")
}

// Random tables of every type the fast writer takes (nulls, offsets, few
// and many distinct values, special values), cut in random batches and
// row groups and written with random workers, are written by the fast
// writer and read back as they were, by Read and by pqarrow alone (no
// stored schema needed for the values); every row group's statistics are
// those of its rows.
func TestFastWriterRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	sizes := []int{0, 1, 2, 7, 8, 9, 100, 1000, 4095, 4096, 4097, 9000, 20000}
	for it := 0; it < map[bool]int{false: 60, true: 20}[raceEnabled]; it++ {
		rows := sizes[it%len(sizes)]
		if it >= len(sizes) {
			rows = rng.Intn(30000)
		}
		t.Run(fmt.Sprintf("%d_rows_%d", it, rows), func(t *testing.T) {
			rg := []int{1, 3, 1000, 8192, 1 << 20}[rng.Intn(5)]
			page := []int{0, 1, 200, 5000}[rng.Intn(4)]
			fastRoundTrip(t, rng, rows, rg, page, rng.Intn(4))
		})
	}
}

// fastRoundTrip writes a random table (fastTable) of rows rows with the
// fast writer, in row groups of rg rows (at least rows/40), pages of
// about page bytes, workers workers, and checks what Read, pqarrow and
// Info see of it.
func fastRoundTrip(t *testing.T, rng *rand.Rand, rows, rg, page, workers int) {
	mem := arrowtest.NewMem(t)
	schema, recs := fastTable(t, mem, rng, rows)
	defer arrowtest.ReleaseRecords(recs)
	rg = max(rg, rows/40) // at most about 40 row groups
	opts := []WriteOption{WithRowGroupRows(rg), WithWriteWorkers(workers), func(c *writeConfig) { c.pageBytes = page }}
	data := writePQ(t, mem, schema, recs, opts...)
	require.True(t, fastWritten(t, data), "written by the fast writer")

	rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
	require.NoError(t, err)
	got, _ := drainCols(t, mem, rr)
	require.True(t, rr.Schema().Equal(schema), "schema %v vs %v", rr.Schema(), schema)
	rr.Release()
	defer releaseArrow(got)
	want, err := arrowarray.NewRecordReader(schema, recs)
	require.NoError(t, err)
	wcols, _ := drainCols(t, mem, want)
	want.Release()
	defer releaseArrow(wcols)
	for i := range wcols {
		if wcols[i] == nil || got[i] == nil {
			require.Equal(t, 0, rows)
			continue
		}
		sameBits(t, wcols[i], got[i], schema.Field(i).Name)
	}

	// pqarrow alone
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	for i := range wcols {
		ch := tbl.Column(i).Data()
		if rows == 0 {
			require.Equal(t, 0, ch.Len())
			continue
		}
		c, err := arrowarray.Concatenate(ch.Chunks(), mem)
		require.NoError(t, err)
		sameBits(t, wcols[i], c, "pqarrow "+schema.Field(i).Name)
		c.Release()
	}
	tbl.Release()
	pf.Close()

	// statistics, row group by row group
	info, err := Info(bytes.NewReader(data))
	require.NoError(t, err)
	require.Equal(t, int64(rows), info.NumRows)
	at := int64(0)
	for g, grp := range info.RowGroups {
		require.LessOrEqual(t, grp.Rows, int64(rg))
		for i, f := range schema.Fields() {
			part := arrowarray.NewSlice(wcols[i], at, at+grp.Rows)
			want, ok := naiveStats(part)
			part.Release()
			if !ok {
				continue
			}
			got, has := grp.Stats[f.Name]
			require.True(t, has, "row group %d column %s: no statistics", g, f.Name)
			require.Equal(t, want, got, "row group %d column %s", g, f.Name)
		}
		at += grp.Rows
	}
	require.Equal(t, int64(rows), at)
}

// FuzzFastWriter fuzzes the table and the writer's options: the seed of
// the table, its rows, the row group and page sizes and the workers.
func FuzzFastWriter(f *testing.F) {
	f.Add(int64(1), uint16(100), uint16(7), uint16(0), uint8(2))
	f.Add(int64(2), uint16(9000), uint16(1000), uint16(1), uint8(1))
	f.Add(int64(3), uint16(0), uint16(1), uint16(300), uint8(0))
	f.Fuzz(func(t *testing.T, seed int64, rows, rg, page uint16, workers uint8) {
		rng := rand.New(rand.NewSource(seed))
		fastRoundTrip(t, rng, int(rows%20000), 1+int(rg), int(page), int(workers%5))
	})
}

// Files with properties, or with a column the fast writer does not take,
// go through pqarrow; the fast writer's file and pqarrow's read back the
// same.
func TestFastWriterFallbackAndSameAsPqarrow(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rng := rand.New(rand.NewSource(7))
	schema, recs := fastTable(t, mem, rng, 5000)
	defer arrowtest.ReleaseRecords(recs)
	fast := writePQ(t, mem, schema, recs, WithRowGroupRows(1500))
	slow := writePQ(t, mem, schema, recs, WithRowGroupRows(1500), WithProperties(parquet.WithStats(true)))
	require.True(t, fastWritten(t, fast))
	require.False(t, fastWritten(t, slow))
	a, sa := pqColumns(t, fast)
	b, sb := pqColumns(t, slow)
	defer releaseArrow(a)
	defer releaseArrow(b)
	require.True(t, sa.Equal(sb), "%v vs %v", sa, sb)
	for i := range a {
		sameBits(t, b[i], a[i], sa.Field(i).Name)
	}
	ia, err := Info(bytes.NewReader(fast))
	require.NoError(t, err)
	ib, err := Info(bytes.NewReader(slow))
	require.NoError(t, err)
	require.Equal(t, len(ib.RowGroups), len(ia.RowGroups))
	for g := range ia.RowGroups {
		require.Equal(t, ib.RowGroups[g].Rows, ia.RowGroups[g].Rows)
		for name, st := range ib.RowGroups[g].Stats {
			if st.HasMinMax {
				require.Equal(t, st, ia.RowGroups[g].Stats[name], "row group %d column %s", g, name)
			}
		}
	}

	// a timestamp column: pqarrow
	ts := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true}}, nil)
	require.Nil(t, fastColumns(ts))
}

// A writer error of the sink sticks and is returned; nothing leaks.
func TestFastWriterSinkError(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rng := rand.New(rand.NewSource(3))
	schema, recs := fastTable(t, mem, rng, 3000)
	defer arrowtest.ReleaseRecords(recs)
	for _, limit := range []int{0, 3, 100, 1 << 30} {
		w := &failWriter{left: limit}
		pw, err := NewWriter(w, schema, WithWriteAllocator(mem), WithRowGroupRows(1000))
		require.NoError(t, err)
		var werr error
		for _, r := range recs {
			if werr = pw.Write(r); werr != nil {
				break
			}
		}
		cerr := pw.Close()
		if limit < 1<<30 {
			require.True(t, werr != nil || cerr != nil, "limit %d: no error", limit)
		} else {
			require.NoError(t, werr)
			require.NoError(t, cerr)
		}
	}
}

type failWriter struct{ left int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n := w.left
		w.left = 0
		return n, fmt.Errorf("disk full")
	}
	w.left -= len(p)
	return len(p), nil
}

// appendBitPacked against a naive bit-by-bit packer, for every width and
// lengths around the group of 8 and the 64-bit word.
func TestFastBitPacked(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for bw := 1; bw <= 32; bw++ {
		for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, rng.Intn(5000) + 1} {
			vals := make([]uint32, n)
			for i := range vals {
				vals[i] = uint32(rng.Uint64() & (1<<uint(bw) - 1))
			}
			prefix := []byte{0xaa, 0xbb}
			got := appendBitPacked(append([]byte{}, prefix...), vals, bw)
			groups := (n + 7) / 8
			want := binary.AppendUvarint(append([]byte{}, prefix...), uint64(groups)<<1|1)
			bitsOut := make([]byte, groups*bw)
			for i, v := range vals {
				for k := 0; k < bw; k++ {
					if v>>uint(k)&1 == 1 {
						p := i*bw + k
						bitsOut[p/8] |= 1 << uint(p%8)
					}
				}
			}
			want = append(want, bitsOut...)
			require.Equal(t, want, got, "width %d, %d values", bw, n)
		}
	}
}

// The Thrift compact writer's field headers: a delta of 1..15 in the
// header byte, else the type byte and the zigzag id; nested structs keep
// their own last id; lists of 15 or more elements take a varint size.
func TestThriftCompactWriter(t *testing.T) {
	w := &thriftW{}
	w.begin()
	w.i32(1, -3)  // 0x15, zigzag(-3)=5
	w.i64(20, 64) // delta 19: 0x06, zigzag(20)=40, zigzag(64)=128 -> 0x80 0x01
	w.beginField(21)
	w.boolean(1, true) // 0x11
	w.end()
	w.list(22, tcI32, 15) // 0x19, 0xf5, 15
	for i := 0; i < 15; i++ {
		w.listI32(int32(i))
	}
	w.str(23, "ab")
	w.end()
	want := []byte{0x15, 0x05, 0x06, 0x28, 0x80, 0x01, 0x1c, 0x11, 0x00, 0x19, 0xf5, 0x0f}
	for i := 0; i < 15; i++ {
		want = append(want, byte(2*i))
	}
	want = append(want, 0x18, 0x02, 'a', 'b', 0x00)
	require.Equal(t, want, w.b)
}
