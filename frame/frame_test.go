package frame_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
)

// data is a test table: key int64, y float64 (with nulls), x [4,4]
// float32 tensors, w [4] float32 tensors, site utf8, ts timestamp[us, UTC];
// kept as Go slices for the naive reference.
type data struct {
	key   []int64
	y     []float64
	yOK   []bool
	x     [][16]float32
	w     [][4]float32
	site  []string
	ts    []int64
	sizes []int // batch lengths
}

func makeData(r *rand.Rand, rows int) *data {
	d := &data{}
	for i := 0; i < rows; i++ {
		d.key = append(d.key, int64(r.IntN(7)))
		d.y = append(d.y, r.NormFloat64()*3+0.5)
		d.yOK = append(d.yOK, r.IntN(10) != 0)
		var x [16]float32
		for j := range x {
			x[j] = float32(r.NormFloat64()*float64(j+1) + float64(j))
		}
		d.x = append(d.x, x)
		var w [4]float32
		for j := range w {
			w[j] = float32(r.IntN(5) - 2)
		}
		d.w = append(d.w, w)
		d.site = append(d.site, fmt.Sprintf("site%02d", r.IntN(12)))
		d.ts = append(d.ts, 1_700_000_000_000_000+int64(i)*1_000_000)
	}
	for left := rows; left > 0; {
		n := min(left, 1+r.IntN(max(1, rows/3)))
		d.sizes = append(d.sizes, n)
		left -= n
	}
	return d
}

var tensor44, tensor4 *arrowio.FixedShapeTensorType

func init() {
	var err error
	if tensor44, err = arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4, 4}, nil, nil); err != nil {
		panic(err)
	}
	if tensor4, err = arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4}, nil, nil); err != nil {
		panic(err)
	}
}

func schemaOf() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "key", Type: arrow.PrimitiveTypes.Int64},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "x", Type: tensor44, Nullable: true},
		{Name: "w", Type: tensor4, Nullable: true},
		{Name: "site", Type: arrow.BinaryTypes.String},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	}, nil)
}

// records builds d's batches with mem.
func (d *data) records(t testing.TB, mem memory.Allocator) []arrow.Record {
	var recs []arrow.Record
	at := 0
	for _, n := range d.sizes {
		b := arrowarray.NewRecordBuilder(mem, schemaOf())
		for i := at; i < at+n; i++ {
			b.Field(0).(*arrowarray.Int64Builder).Append(d.key[i])
			if d.yOK[i] {
				b.Field(1).(*arrowarray.Float64Builder).Append(d.y[i])
			} else {
				b.Field(1).(*arrowarray.Float64Builder).AppendNull()
			}
			xb := b.Field(2).(*arrowarray.ExtensionBuilder).Builder.(*arrowarray.FixedSizeListBuilder)
			xb.Append(true)
			xb.ValueBuilder().(*arrowarray.Float32Builder).AppendValues(d.x[i][:], nil)
			wb := b.Field(3).(*arrowarray.ExtensionBuilder).Builder.(*arrowarray.FixedSizeListBuilder)
			wb.Append(true)
			wb.ValueBuilder().(*arrowarray.Float32Builder).AppendValues(d.w[i][:], nil)
			b.Field(4).(*arrowarray.StringBuilder).Append(d.site[i])
			b.Field(5).(*arrowarray.TimestampBuilder).Append(arrow.Timestamp(d.ts[i]))
		}
		recs = append(recs, b.NewRecord())
		b.Release()
		at += n
	}
	return recs
}

func release(recs []arrow.Record) {
	for _, r := range recs {
		r.Release()
	}
}

func checked(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func collect(t *testing.T, f frame.Frame, opts ...frame.Option) *frame.Table {
	t.Helper()
	tb, err := f.Collect(context.Background(), opts...)
	require.NoError(t, err)
	return tb
}

func values[T array.Element](t *testing.T, tb *frame.Table, name string) []T {
	t.Helper()
	a, err := tb.Column(name)
	require.NoError(t, err)
	defer a.Release()
	v, err := array.ToSlice[T](a)
	require.NoError(t, err)
	return v
}

func strs(t *testing.T, tb *frame.Table, name string) []string {
	t.Helper()
	c, err := tb.Arrow(name)
	require.NoError(t, err)
	s := c.(*arrowarray.String)
	out := make([]string, s.Len())
	for i := range out {
		out[i] = s.Value(i)
	}
	return out
}

func TestProjectVerbs(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(1, 2)), 500)
	recs := d.records(t, mem)
	defer release(recs)
	f := frame.FromRecords(recs...)
	for _, workers := range []int{1, 2, 5} {
		g := f.Drop("x", "ts").Rename(map[string]string{"site": "place"}).Select("place", "key", "w")
		require.NoError(t, g.Err())
		assert.Equal(t, []string{"place", "key", "w"}, g.Columns())
		tb := collect(t, g, frame.WithWorkers(workers), frame.WithAllocator(mem))
		assert.Equal(t, int64(500), tb.NumRows())
		assert.Equal(t, d.site, strs(t, tb, "place"))
		assert.Equal(t, d.key, values[int64](t, tb, "key"))
		tb.Release()
	}
}

func TestFilterAndCompute(t *testing.T) {
	mem := checked(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, rows := range []int{0, 1, 7, 1000} {
		d := makeData(r, rows)
		recs := d.records(t, mem)
		if rows == 0 {
			recs = []arrow.Record{emptyRecord(mem)}
		}
		defer release(recs)
		f := frame.FromRecords(recs...)
		g := f.Filter("y > 0").WithColumns(frame.Let("xw", "x * 2 + 1"), frame.Let("key", "key * 10"))
		require.NoError(t, g.Err())
		for _, workers := range []int{1, 3} {
			tb := collect(t, g, frame.WithWorkers(workers), frame.WithAllocator(mem))
			var wantKey []int64
			var wantXW []float32
			var wantSite []string
			for i := 0; i < rows; i++ {
				if !d.yOK[i] || !(d.y[i] > 0) { // a null predicate drops the row
					continue
				}
				wantKey = append(wantKey, d.key[i]*10)
				wantSite = append(wantSite, d.site[i])
				for a := 0; a < 4; a++ {
					for b := 0; b < 4; b++ {
						wantXW = append(wantXW, d.x[i][a*4+b]*2+1)
					}
				}
			}
			require.Equal(t, int64(len(wantKey)), tb.NumRows(), "rows=%d workers=%d", rows, workers)
			assert.Equal(t, []string{"key", "y", "x", "w", "site", "ts", "xw"}, tb.Columns())
			if len(wantKey) > 0 {
				assert.Equal(t, wantKey, values[int64](t, tb, "key"))
				assert.Equal(t, wantXW, values[float32](t, tb, "xw"))
				assert.Equal(t, wantSite, strs(t, tb, "site"))
			}
			tb.Release()
		}
	}
}

func emptyRecord(mem memory.Allocator) arrow.Record {
	b := arrowarray.NewRecordBuilder(mem, schemaOf())
	defer b.Release()
	return b.NewRecord()
}

// TestColumnWide standardizes a tensor column over its rows (a step that
// holds its input) and compares with a float64 reference.
func TestColumnWide(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(5, 6)), 2000)
	recs := d.records(t, mem)
	defer release(recs)
	g := frame.FromRecords(recs...).WithColumns(frame.Let("z", "(x - mean(x, axis=0)) / std(x, axis=0)"))
	require.NoError(t, g.Err())
	assert.Contains(t, g.Explain(), "over whole columns")
	for _, workers := range []int{1, 2} {
		tb := collect(t, g, frame.WithWorkers(workers), frame.WithAllocator(mem))
		z := values[float32](t, tb, "z")
		require.Len(t, z, 2000*16)
		for j := 0; j < 16; j++ {
			var s, ss float64
			for i := range d.x {
				s += float64(d.x[i][j])
			}
			mean := s / float64(len(d.x))
			for i := range d.x {
				ss += (float64(d.x[i][j]) - mean) * (float64(d.x[i][j]) - mean)
			}
			std := math.Sqrt(ss / float64(len(d.x)))
			for i := range d.x {
				want := (float64(d.x[i][j]) - mean) / std
				require.InDelta(t, want, float64(z[i*16+j]), 1e-4*(1+math.Abs(want)), "row %d elem %d", i, j)
			}
		}
		tb.Release()
	}
}

// TestColumnWideFilter keeps the rows above the column's mean.
func TestColumnWideFilter(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(19, 20)), 777)
	recs := d.records(t, mem)
	defer release(recs)
	var s int64
	for _, k := range d.key {
		s += k
	}
	mean := float64(s) / float64(len(d.key))
	var want []int64
	for _, k := range d.key {
		if float64(k) > mean {
			want = append(want, k)
		}
	}
	for _, workers := range []int{1, 2} {
		tb := collect(t, frame.FromRecords(recs...).Filter("key > mean(key)").Select("key"), frame.WithWorkers(workers), frame.WithAllocator(mem))
		assert.Equal(t, want, values[int64](t, tb, "key"))
		tb.Release()
	}
}

func TestLimitKeepsOrder(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(7, 8)), 3000)
	recs := d.records(t, mem)
	defer release(recs)
	for _, n := range []int64{0, 1, 17, 2999, 3000, 5000} {
		for _, workers := range []int{1, 4} {
			tb := collect(t, frame.FromRecords(recs...).WithColumns(frame.Let("k2", "key + 1")).Limit(n), frame.WithWorkers(workers), frame.WithAllocator(mem))
			want := int(min(n, 3000))
			require.Equal(t, int64(want), tb.NumRows())
			got := values[int64](t, tb, "k2")
			for i := 0; i < want; i++ {
				require.Equal(t, d.key[i]+1, got[i], "n=%d row %d", n, i)
			}
			tb.Release()
		}
	}
}

func TestReaderEarlyReleaseAndCancel(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(9, 10)), 5000)
	d.sizes = nil
	for i := 0; i < 50; i++ {
		d.sizes = append(d.sizes, 100)
	}
	recs := d.records(t, mem)
	defer release(recs)
	f := frame.FromRecords(recs...).Filter("y > -100")
	rr, err := f.Reader(context.Background(), frame.WithWorkers(3), frame.WithAllocator(mem))
	require.NoError(t, err)
	require.True(t, rr.Next())
	rr.Release() // early: the workers stop, nothing leaks

	ctx, cancel := context.WithCancel(context.Background())
	rr, err = f.Reader(ctx, frame.WithWorkers(3), frame.WithAllocator(mem))
	require.NoError(t, err)
	require.True(t, rr.Next())
	cancel()
	for rr.Next() {
	}
	assert.ErrorIs(t, rr.Err(), context.Canceled)
	rr.Release()
}

func TestErrors(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(11, 12)), 10)
	recs := d.records(t, mem)
	defer release(recs)
	f := frame.FromRecords(recs...)
	for _, c := range []struct {
		name string
		f    frame.Frame
		is   error
		msg  string
	}{
		{"select", f.Select("sitee"), frame.ErrNoColumn, `did you mean "site"`},
		{"drop", f.Drop("kye"), frame.ErrNoColumn, `the columns are "key", "y", "x", "w", "site", "ts"`},
		{"rename", f.Rename(map[string]string{"nope": "x"}), frame.ErrNoColumn, "frame.Rename"},
		{"rename clash", f.Rename(map[string]string{"y": "key"}), frame.ErrDuplicate, `"key"`},
		{"select twice", f.Select("y", "y"), frame.ErrDuplicate, `"y"`},
		{"string in expr", f.WithColumns(frame.Let("s2", "site * 2")), frame.ErrType, `column "site" is str`},
		{"unknown in expr", f.Filter("yy > 0"), nil, `unknown name "yy" (did you mean "y"?)`},
		{"not bool", f.Filter("y + 1"), frame.ErrType, "not bool"},
		{"node var unknown", f.FilterExpr(f.Col("nope")), frame.ErrNoColumn, `"nope"`},
		{"literal alone", f.Filter(`"a" == "b"`), frame.ErrArgument, "compared with a column"},
		{"literal vs number", f.Filter(`key == "3"`), frame.ErrType, `column "key" is i64`},
		{"bad date", f.Filter(`ts > "yesterday"`), frame.ErrArgument, "not a time"},
		{"unterminated", f.Filter(`site == "a`), frame.ErrArgument, "unterminated"},
		{"negative limit", f.Limit(-1), frame.ErrArgument, "-1"},
		{"no name", f.WithColumns(frame.Let("", "y")), frame.ErrArgument, "name"},
		{"after error", f.Select("zz").Limit(3).Filter("y > 0"), frame.ErrNoColumn, "frame.Select"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.f.Err()
			require.Error(t, err)
			if c.is != nil {
				assert.ErrorIs(t, err, c.is)
			}
			assert.Contains(t, err.Error(), c.msg)
			tb, err2 := c.f.Collect(context.Background(), frame.WithAllocator(mem))
			assert.Nil(t, tb)
			assert.Equal(t, err, err2)
		})
	}
}

func TestReaderSourceOnce(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(13, 14)), 100)
	recs := d.records(t, mem)
	defer release(recs)
	rr, err := arrowarray.NewRecordReader(schemaOf(), recs)
	require.NoError(t, err)
	defer rr.Release()
	f := frame.FromReader(rr).Select("key")
	tb := collect(t, f, frame.WithAllocator(mem))
	assert.Equal(t, d.key, values[int64](t, tb, "key"))
	tb.Release()
	_, err = f.Collect(context.Background(), frame.WithAllocator(mem))
	assert.ErrorIs(t, err, frame.ErrSource)
}

func TestFromArrays(t *testing.T) {
	mem := checked(t)
	x, err := array.Arange(mem, array.Float32, 0, 24, 1)
	require.NoError(t, err)
	defer x.Release()
	x3 := mustReshape(t, x, 6, 2, 2)
	defer x3.Release()
	k, err := array.FromSlice(mem, []int32{1, 2, 3, 4, 5, 6})
	require.NoError(t, err)
	defer k.Release()
	f := frame.FromArrays([]string{"k", "x"}, []*array.Array{k, x3})
	require.NoError(t, f.Err())
	tb := collect(t, f.WithColumns(frame.Let("s", "sum(x, axis=(1, 2))")).Filter("k % 2 == 0"), frame.WithAllocator(mem))
	defer tb.Release()
	// rows 1, 3 and 5 (k = 2, 4, 6) hold 4i, ..., 4i+3: sums 16i + 6
	assert.Equal(t, []float32{22, 54, 86}, values[float32](t, tb, "s"))
	_, err = tb.Column("nope")
	assert.ErrorIs(t, err, frame.ErrNoColumn)

	assert.ErrorIs(t, frame.FromArrays([]string{"a"}, nil).Err(), frame.ErrArgument)
	assert.ErrorIs(t, frame.FromArrays([]string{"a", "a"}, []*array.Array{k, k}).Err(), frame.ErrDuplicate)
	short, _ := array.FromSlice(mem, []int32{1})
	defer short.Release()
	assert.ErrorIs(t, frame.FromArrays([]string{"a", "b"}, []*array.Array{k, short}).Err(), array.ErrShape)
}

func TestZeroValues(t *testing.T) {
	var f frame.Frame
	require.NoError(t, f.Err())
	tb, err := f.Collect(context.Background())
	require.NoError(t, err)
	assert.Equal(t, int64(0), tb.NumRows())
	assert.Equal(t, "shape: (0, 0)\n┌┐\n╞╡\n└┘", tb.String())
	tb.Release()
	var nt *frame.Table
	assert.Equal(t, int64(0), nt.NumRows())
	assert.Nil(t, nt.Record())
	assert.NotPanics(t, func() { _ = nt.String(); nt.Release(); _ = nt.Frame() })
	_, err = nt.Column("x")
	assert.ErrorIs(t, err, frame.ErrNoColumn)
	assert.ErrorIs(t, frame.FromRecords(nil).Err(), frame.ErrArgument)
	assert.ErrorIs(t, frame.FromReader(nil).Err(), frame.ErrArgument)
}

func TestPrint(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(15, 16)), 3)
	d.y = []float64{1, 2.5, -0.125}
	d.yOK = []bool{true, false, true}
	d.site = []string{"a", "bb", "a very long site name"}
	recs := d.records(t, mem)
	defer release(recs)
	tb := collect(t, frame.FromRecords(recs...).Select("y", "site"), frame.WithAllocator(mem))
	defer tb.Release()
	want := strings.Join([]string{
		"shape: (3, 2)",
		"┌────────┬────────────────────┐",
		"│ y      ┆ site               │",
		"│ ---    ┆ ---                │",
		"│ f64    ┆ str                │",
		"╞════════╪════════════════════╡",
		"│ 1.0    ┆ \"a\"                │",
		"│ null   ┆ \"bb\"               │",
		"│ -0.125 ┆ \"a very long sit…\" │",
		"└────────┴────────────────────┘",
	}, "\n")
	assert.Equal(t, want, tb.String())

	d = makeData(rand.New(rand.NewPCG(17, 18)), 25)
	recs2 := d.records(t, mem)
	defer release(recs2)
	tb2 := collect(t, frame.FromRecords(recs2...), frame.WithAllocator(mem))
	defer tb2.Release()
	s := tb2.String()
	lines := strings.Split(s, "\n")
	assert.Equal(t, "shape: (25, 6)", lines[0])
	assert.Len(t, lines, 1+1+3+1+11+1, s) // shape, top, 3 header lines, ╞, 5+1+5 rows, bottom
	assert.Contains(t, lines[4], "array[f32, (4, 4)]")
	assert.Contains(t, lines[4], "datetime[μs, UTC]")
	assert.Contains(t, s, "│ …")
}

func mustReshape(t *testing.T, a *array.Array, shape ...int) *array.Array {
	t.Helper()
	r, err := a.Reshaped(shape...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var _ = errors.Is

// TestFilterThreeValued checks SQL's truth tables: a row is kept where the
// predicate is true, and null | true is true, null & false is false.
func TestFilterThreeValued(t *testing.T) {
	mem := checked(t)
	s := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	vals := []*int32{nil, ptr(0), ptr(1)} // null, false (a > 0 is false), true
	for _, x := range vals {
		for _, y := range vals {
			for k, v := range []*int32{x, y} {
				if v == nil {
					b.Field(k).(*arrowarray.Int32Builder).AppendNull()
				} else {
					b.Field(k).(*arrowarray.Int32Builder).Append(*v)
				}
			}
		}
	}
	rec := b.NewRecord()
	b.Release()
	defer rec.Release()
	// 3-valued truth of "v > 0": -1 null, 0 false, 1 true
	truth := func(v *int32) int {
		if v == nil {
			return -1
		}
		return int(*v)
	}
	and := func(p, q int) int {
		switch {
		case p == 0 || q == 0:
			return 0
		case p == 1 && q == 1:
			return 1
		}
		return -1
	}
	or := func(p, q int) int {
		switch {
		case p == 1 || q == 1:
			return 1
		case p == 0 && q == 0:
			return 0
		}
		return -1
	}
	not := func(p int) int {
		if p < 0 {
			return p
		}
		return 1 - p
	}
	for src, fn := range map[string]func(p, q int) int{
		"(a > 0) | (b > 0)":       or,
		"(a > 0) & (b > 0)":       and,
		"(a > 0) or (b > 0)":      or,
		"~((a > 0) & (b > 0))":    func(p, q int) int { return not(and(p, q)) },
		"not ((a > 0) | (b > 0))": func(p, q int) int { return not(or(p, q)) },
		"(a > 0) | ~(b > 0)":      func(p, q int) int { return or(p, not(q)) },
	} {
		tb := collect(t, frame.FromRecords(rec).WithColumns(frame.Let("row", "a * 0")).Filter(src), frame.WithAllocator(mem))
		var want int64
		for _, x := range vals {
			for _, y := range vals {
				if fn(truth(x), truth(y)) == 1 {
					want++
				}
			}
		}
		assert.Equal(t, want, tb.NumRows(), src)
		tb.Release()
	}
}

func ptr(v int32) *int32 { return &v }

// TestLargeRecordSplit: a record of more rows than a batch takes is
// processed in slices, in order, with the same results at any worker count.
func TestLargeRecordSplit(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(91, 92)), 150_000)
	d.sizes = []int{150_000}
	recs := d.records(t, mem)
	defer release(recs)
	for _, workers := range []int{1, 3} {
		tb := collect(t, frame.FromRecords(recs...).Filter("key > 2").Select("key", "site"), frame.WithWorkers(workers), frame.WithAllocator(mem))
		var want []int64
		for _, k := range d.key {
			if k > 2 {
				want = append(want, k)
			}
		}
		assert.Equal(t, want, values[int64](t, tb, "key"))
		tb.Release()
	}
}

// TestMorselsRejoin: a query that passes a large record's rows through
// hands back the record's own buffers (the morsels are rejoined, not
// copied), and a column-wide step sees one column without a copy.
func TestMorselsRejoin(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(93, 94)), 200_000)
	d.sizes = []int{200_000}
	recs := d.records(t, mem)
	defer release(recs)
	for _, workers := range []int{1, 3} {
		tb := collect(t, frame.FromRecords(recs...).Select("x", "site", "key").Limit(150_000), frame.WithWorkers(workers), frame.WithAllocator(mem))
		for _, name := range []string{"x", "site", "key"} {
			got, err := tb.Arrow(name)
			require.NoError(t, err)
			want := recs[0].Column(recs[0].Schema().FieldIndices(name)[0])
			assert.Equal(t, 150_000, got.Len())
			assert.Same(t, want.Data().Buffers()[len(want.Data().Buffers())-1], got.Data().Buffers()[len(got.Data().Buffers())-1], "%s: copied", name)
			assert.True(t, arrowarray.SliceEqual(want, 0, 150_000, got, 0, 150_000), name)
		}
		tb.Release()
	}
	// the same run, then a copy: a filter's morsels are new arrays
	tb := collect(t, frame.FromRecords(recs...).Filter("key >= 0").Select("key"), frame.WithAllocator(mem))
	assert.Equal(t, d.key, values[int64](t, tb, "key"))
	tb.Release()
}
