package parquetio

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/metadata"
	"github.com/stretchr/testify/require"
)

// statGroup is one row group of a statistics test column: its values
// (nil a null), padded to statRows rows with nulls (the chunk is then a
// dictionary: few values) or with distinct values strictly between lo
// and hi (PLAIN: the dictionary does not pay).
type statGroup struct {
	vals   []any
	fill   bool
	lo, hi float64
}

const statRows = 64

// The fast writer's statistics follow the Parquet spec, so that a reader
// that skips row groups by them (frame's filters, DuckDB, Spark) skips no
// row group that holds a matching row: for each column of each row group
// of a file written through it, min_value and max_value bound every value
// under the column's type-defined order (floats: NaN never in them, a
// chunk of NaN and nulls without them, a zero min written -0 and a zero
// max +0; unsigned integers compared unsigned, uint64 above 2^63
// included; strings and binary by their bytes, unsigned), the null count
// is the nulls, and an all-null chunk has no min/max, in dictionary and
// PLAIN chunks alike. Read from the footer by arrow-go, and through Info,
// which leaves unsigned columns out (a signed reading of their
// statistics would misplace them).
func TestFastWriterStatsSpec(t *testing.T) {
	nan := math.NaN()
	neg0 := math.Copysign(0, -1)
	big := uint64(1<<63 + 5)
	cols := []struct {
		name   string
		typ    arrow.DataType
		groups []statGroup
	}{
		{"f64", arrow.PrimitiveTypes.Float64, []statGroup{
			{vals: []any{nan, 1.0, 2.0, nil}}, {vals: []any{nan, 1.0, 2.0}, fill: true, lo: 1, hi: 2},
			{vals: []any{nan, nan, nil, nan}}, {vals: []any{neg0, 5.0, 3.0, 1.0}}, {vals: []any{neg0, 5.0}, fill: true, lo: 1, hi: 5},
			{vals: []any{0.0, -3.0, -1.0, nil}}, {vals: []any{0.0, -3.0}, fill: true, lo: -3, hi: -1}, {vals: nil},
			{vals: []any{neg0, 0.0, neg0, 0.0}}, {vals: []any{0.0, 0.0, 0.0, nan}}, {vals: []any{neg0, neg0}},
			{vals: []any{math.Inf(-1), math.Inf(1), nan, 7.0}}, {vals: []any{math.Inf(-1), math.Inf(1), nan}, fill: true, lo: -1e300, hi: 1e300},
		}},
		{"f32", arrow.PrimitiveTypes.Float32, []statGroup{
			{vals: []any{nan, 1.0, 2.0, nil}}, {vals: []any{nan, nan}}, {vals: []any{neg0, 5.0}, fill: true, lo: 1, hi: 5},
			{vals: []any{0.0, -3.0}, fill: true, lo: -3, hi: -1}, {vals: []any{0.0, 0.0}}, {vals: nil}, {vals: []any{neg0}},
			{vals: []any{math.Inf(-1), nan}, fill: true, lo: -1e30, hi: 1e30}, {vals: []any{0.0, 0.0, 0.0, nan}},
			{vals: []any{nan}, fill: true, lo: 0, hi: 1}, {vals: []any{1.0, 2.0}}, {vals: []any{1.0}, fill: true, lo: -1, hi: 1},
			{vals: []any{2.0}},
		}},
		{"u64", arrow.PrimitiveTypes.Uint64, []statGroup{
			{vals: []any{uint64(1), big}}, {vals: []any{uint64(1), big}, fill: true, lo: 2, hi: 1 << 62}, {vals: []any{uint64(math.MaxUint64), uint64(0)}},
			{vals: []any{uint64(math.MaxUint64), uint64(0)}, fill: true, lo: 1, hi: 1 << 40}, {vals: []any{uint64(1 << 63)}}, {vals: nil},
			{vals: []any{uint64(5), uint64(6)}}, {vals: []any{big, big + 1}, fill: true, lo: 1 << 62, hi: 1 << 63},
			{vals: []any{uint64(1 << 63)}, fill: true, lo: 1, hi: 1 << 62}, {vals: []any{uint64(0)}}, {vals: []any{uint64(7)}},
			{vals: []any{uint64(7)}}, {vals: []any{uint64(7)}},
		}},
		{"u32", arrow.PrimitiveTypes.Uint32, []statGroup{
			{vals: []any{uint32(1<<31 + 1), uint32(3)}}, {vals: []any{uint32(1<<31 + 1), uint32(3)}, fill: true, lo: 4, hi: 1 << 30}, {vals: []any{uint32(math.MaxUint32)}},
			{vals: nil}, {vals: []any{uint32(0), uint32(math.MaxUint32)}, fill: true, lo: 1, hi: 1 << 31}, {vals: []any{uint32(0)}},
			{vals: []any{uint32(0)}}, {vals: []any{uint32(0)}}, {vals: []any{uint32(0)}}, {vals: []any{uint32(0)}}, {vals: []any{uint32(0)}},
			{vals: []any{uint32(0)}}, {vals: []any{uint32(0)}},
		}},
		{"i64", arrow.PrimitiveTypes.Int64, []statGroup{
			{vals: []any{int64(-5), int64(3)}}, {vals: []any{int64(math.MinInt64), int64(math.MaxInt64)}}, {vals: []any{int64(math.MinInt64), int64(math.MaxInt64)}, fill: true, lo: -1e18, hi: 1e18},
			{vals: nil}, {vals: []any{int64(-1)}, fill: true, lo: -100, hi: -2}, {vals: []any{int64(0)}}, {vals: []any{int64(0)}}, {vals: []any{int64(0)}},
			{vals: []any{int64(0)}}, {vals: []any{int64(0)}}, {vals: []any{int64(0)}}, {vals: []any{int64(0)}}, {vals: []any{int64(0)}},
		}},
		{"s", arrow.BinaryTypes.String, []statGroup{
			{vals: []any{"a", "Z", "", "é"}}, {vals: []any{"a", "Z", "", "é"}, fill: true}, {vals: []any{"\xff", "zz", "~"}}, {vals: nil},
			{vals: []any{strings.Repeat("x", 5000), "a"}}, {vals: []any{"same", "same"}}, {vals: []any{"b"}, fill: true},
			{vals: []any{"", ""}}, {vals: []any{"é", "e"}}, {vals: []any{"a"}}, {vals: []any{"a"}}, {vals: []any{"a"}}, {vals: []any{"a"}},
		}},
		{"bin", arrow.BinaryTypes.Binary, []statGroup{
			{vals: []any{"\x00", "\xff", "\x80"}}, {vals: []any{"\x00\x01", "\x00"}, fill: true}, {vals: nil}, {vals: []any{"\x7f", "\x80"}},
			{vals: []any{""}}, {vals: []any{"a"}}, {vals: []any{"a"}}, {vals: []any{"a"}}, {vals: []any{"a"}}, {vals: []any{"a"}}, {vals: []any{"a"}},
			{vals: []any{"a"}}, {vals: []any{"a"}},
		}},
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ngroups := len(cols[0].groups)
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	want := make([][]arrow.Array, len(cols)) // each row group's values
	for c, col := range cols {
		require.Len(t, col.groups, ngroups, col.name)
		fields[c] = arrow.Field{Name: col.name, Type: col.typ, Nullable: true}
		b := arrowarray.NewBuilder(mem, col.typ)
		for _, g := range col.groups {
			vals := append([]any{}, g.vals...)
			for i := 0; len(vals) < statRows; i++ {
				if !g.fill {
					vals = append(vals, nil)
					continue
				}
				x := g.lo + (g.hi-g.lo)*float64(i+1)/float64(statRows+1)
				switch col.typ.ID() {
				case arrow.STRING, arrow.BINARY:
					vals = append(vals, "b"+strings.Repeat("c", i+1)) // between "b" and "bd"
				case arrow.UINT64:
					vals = append(vals, uint64(x))
				case arrow.UINT32:
					vals = append(vals, uint32(x))
				case arrow.INT64:
					vals = append(vals, int64(x))
				default:
					vals = append(vals, x)
				}
			}
			for _, v := range vals {
				switch bb := b.(type) {
				case *arrowarray.Float64Builder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append(v.(float64))
					}
				case *arrowarray.Float32Builder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append(float32(v.(float64)))
					}
				case *arrowarray.Uint64Builder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append(v.(uint64))
					}
				case *arrowarray.Uint32Builder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append(v.(uint32))
					}
				case *arrowarray.Int64Builder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append(v.(int64))
					}
				case *arrowarray.StringBuilder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append(v.(string))
					}
				case *arrowarray.BinaryBuilder:
					if v == nil {
						bb.AppendNull()
					} else {
						bb.Append([]byte(v.(string)))
					}
				}
			}
		}
		arrs[c] = b.NewArray()
		b.Release()
		for g := 0; g < ngroups; g++ {
			want[c] = append(want[c], arrowarray.NewSlice(arrs[c], int64(g*statRows), int64((g+1)*statRows)))
		}
	}
	schema := arrow.NewSchema(fields, nil)
	rec := arrowarray.NewRecord(schema, arrs, int64(ngroups*statRows))
	releaseArrow(arrs)
	defer rec.Release()
	data := writePQ(t, mem, schema, []arrow.Record{rec}, WithRowGroupRows(statRows))
	require.True(t, fastWritten(t, data))
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	info, err := Info(bytes.NewReader(data))
	require.NoError(t, err)
	dicts := 0
	for g := 0; g < ngroups; g++ {
		rg := pf.MetaData().RowGroup(g)
		for c, col := range cols {
			a := want[c][g]
			cc, err := rg.ColumnChunk(c)
			require.NoError(t, err)
			if cc.HasDictionaryPage() {
				dicts++
			}
			st, err := cc.Statistics()
			require.NoError(t, err)
			require.NotNil(t, st, "%s row group %d: no statistics", col.name, g)
			require.Equal(t, int64(a.NullN()), st.NullCount(), "%s row group %d", col.name, g)
			mn, mx, have := naiveOrder(t, a)
			require.Equal(t, have, st.HasMinMax(), "%s row group %d: min/max present", col.name, g)
			if have {
				gotMin, gotMax := statBits(t, st, col.typ)
				require.Equal(t, mn, gotMin, "%s row group %d: min", col.name, g)
				require.Equal(t, mx, gotMax, "%s row group %d: max", col.name, g)
			}
			is, inInfo := info.RowGroups[g].Stats[col.name]
			switch col.typ.ID() {
			case arrow.UINT64, arrow.UINT32, arrow.BINARY:
				require.True(t, !inInfo || !is.HasMinMax, "%s row group %d: Info gives statistics of unsigned or binary column", col.name, g)
			case arrow.FLOAT64, arrow.FLOAT32:
				require.True(t, inInfo)
				require.Equal(t, have, is.HasMinMax)
				if have {
					require.Equal(t, math.Signbit(is.Min.(float64)), mn[0] == '-', "%s row group %d: sign of Info's min %v", col.name, g, is.Min)
				}
			}
		}
	}
	for c := range want {
		releaseArrow(want[c])
	}
	// both kinds of chunk were written
	require.Greater(t, dicts, 10)
	require.Less(t, dicts, ngroups*len(cols)-10)
}

// naiveOrder is the min and max a row group's statistics must record for
// a (as text, so that -0 and +0 differ), and whether it records them.
func naiveOrder(t *testing.T, a arrow.Array) (string, string, bool) {
	var fs []float64
	var us []uint64
	var is []int64
	var ss []string
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		switch c := a.(type) {
		case *arrowarray.Float64:
			if !math.IsNaN(c.Value(i)) {
				fs = append(fs, c.Value(i))
			}
		case *arrowarray.Float32:
			if v := float64(c.Value(i)); !math.IsNaN(v) {
				fs = append(fs, v)
			}
		case *arrowarray.Uint64:
			us = append(us, c.Value(i))
		case *arrowarray.Uint32:
			us = append(us, uint64(c.Value(i)))
		case *arrowarray.Int64:
			is = append(is, c.Value(i))
		case *arrowarray.String:
			ss = append(ss, c.Value(i))
		case *arrowarray.Binary:
			ss = append(ss, string(c.Value(i)))
		default:
			t.Fatalf("%T", a)
		}
	}
	bits := 64
	if a.DataType().ID() == arrow.FLOAT32 {
		bits = 32
	}
	switch {
	case len(fs) > 0:
		mn, mx := fs[0], fs[0]
		for _, v := range fs {
			mn, mx = math.Min(mn, v), math.Max(mx, v)
		}
		if mn == 0 {
			mn = math.Copysign(0, -1) // a zero min is written -0
		}
		if mx == 0 {
			mx = 0 // a zero max +0
		}
		return strconv.FormatFloat(mn, 'g', -1, bits), strconv.FormatFloat(mx, 'g', -1, bits), true
	case len(us) > 0:
		mn, mx := us[0], us[0]
		for _, v := range us {
			mn, mx = min(mn, v), max(mx, v)
		}
		return strconv.FormatUint(mn, 10), strconv.FormatUint(mx, 10), true
	case len(is) > 0:
		mn, mx := is[0], is[0]
		for _, v := range is {
			mn, mx = min(mn, v), max(mx, v)
		}
		return strconv.FormatInt(mn, 10), strconv.FormatInt(mx, 10), true
	case len(ss) > 0:
		mn, mx := ss[0], ss[0]
		for _, v := range ss {
			mn, mx = min(mn, v), max(mx, v) // Go compares strings by their bytes
		}
		if len(mn) > fastMaxStat || len(mx) > fastMaxStat {
			return "", "", false // left out, as Arrow C++ does
		}
		return strconv.Quote(mn), strconv.Quote(mx), true
	}
	return "", "", false
}

// statBits is the min and max of st as naiveOrder writes them, read under
// the column's type typ (unsigned integers as unsigned).
func statBits(t *testing.T, st metadata.TypedStatistics, typ arrow.DataType) (string, string) {
	switch s := st.(type) {
	case *metadata.Float64Statistics:
		return strconv.FormatFloat(s.Min(), 'g', -1, 64), strconv.FormatFloat(s.Max(), 'g', -1, 64)
	case *metadata.Float32Statistics:
		return strconv.FormatFloat(float64(s.Min()), 'g', -1, 32), strconv.FormatFloat(float64(s.Max()), 'g', -1, 32)
	case *metadata.Int64Statistics:
		if typ.ID() == arrow.UINT64 {
			return strconv.FormatUint(uint64(s.Min()), 10), strconv.FormatUint(uint64(s.Max()), 10)
		}
		return strconv.FormatInt(s.Min(), 10), strconv.FormatInt(s.Max(), 10)
	case *metadata.Int32Statistics:
		return strconv.FormatUint(uint64(uint32(s.Min())), 10), strconv.FormatUint(uint64(uint32(s.Max())), 10)
	case *metadata.ByteArrayStatistics:
		return strconv.Quote(string(s.Min())), strconv.Quote(string(s.Max()))
	}
	t.Fatalf("statistics %T", st)
	return "", ""
}

// Info gives no statistics for a name two columns share (a reader
// filtering by name could prune by the other column's), nor for a decimal
// column (its statistics are unscaled integers).
func TestInfoStatsAmbiguous(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := arrowarray.NewInt64Builder(mem)
	a.AppendValues([]int64{1, 2, 3}, nil)
	x1 := a.NewArray()
	a.AppendValues([]int64{100, 200, 300}, nil)
	x2 := a.NewArray()
	a.AppendValues([]int64{7, 8, 9}, nil)
	y := a.NewArray()
	a.Release()
	dt := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	db := arrowarray.NewDecimal128Builder(mem, dt)
	for _, v := range []int64{150, 250, 350} {
		db.Append(decimal128.FromI64(v))
	}
	d := db.NewArray()
	db.Release()
	cols := []arrow.Array{x1, x2, y, d}
	defer releaseArrow(cols)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: x1.DataType()}, {Name: "x", Type: x2.DataType()}, {Name: "y", Type: y.DataType()}, {Name: "d", Type: dt}}, nil)
	rec := arrowarray.NewRecord(schema, cols, 3)
	defer rec.Release()
	data := writePQ(t, mem, schema, []arrow.Record{rec})
	info, err := Info(bytes.NewReader(data))
	require.NoError(t, err)
	st := info.RowGroups[0].Stats
	require.NotContains(t, st, "x")
	require.True(t, !st["d"].HasMinMax, "decimal statistics: %+v", st["d"])
	require.True(t, st["y"].HasMinMax)
	require.Equal(t, int64(7), st["y"].Min)
}
