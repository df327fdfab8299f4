package frame_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/arrowtest"
)

// listReader reads recs, whatever their schemas, under schema.
type listReader struct {
	schema *arrow.Schema
	recs   []arrow.Record
	i      int
}

func (l *listReader) Retain()               {}
func (l *listReader) Release()              {}
func (l *listReader) Schema() *arrow.Schema { return l.schema }
func (l *listReader) Err() error            { return nil }
func (l *listReader) Next() bool            { l.i++; return l.i <= len(l.recs) }
func (l *listReader) Record() arrow.Record  { return l.recs[l.i-1] }

// bindBatch makes a record of the named columns (name, []float64 or
// []int32, ...).
func bindBatch(t testing.TB, mem memory.Allocator, cols ...any) arrow.Record {
	t.Helper()
	var fields []arrow.Field
	var arrs []arrow.Array
	rows := 0
	for i := 0; i < len(cols); i += 2 {
		var a *array.Array
		var err error
		switch v := cols[i+1].(type) {
		case []float64:
			a, err = array.FromSlice(mem, v)
			rows = len(v)
		case []int32:
			a, err = array.FromSlice(mem, v)
			rows = len(v)
		}
		require.NoError(t, err)
		c, err := arrowio.ToArrow(mem, a)
		require.NoError(t, err)
		a.Release()
		fields = append(fields, arrow.Field{Name: cols[i].(string), Type: c.DataType()})
		arrs = append(arrs, c)
	}
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(rows))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// Issue 17 item 3 (from arrowio.Evaluate): a batch whose columns come in
// another order than the schema's binds by name; one whose column changed
// type, lacks a column or has one more is refused with an error naming
// the column, never a panic, and nothing leaks. The same holds for an
// Aggregator's Add.
func TestReaderBindsByName(t *testing.T) {
	mem := checked(t)
	ctx := context.Background()
	first := bindBatch(t, mem, "a", []float64{10, 20}, "b", []float64{1, 2})
	defer first.Release()
	swapped := bindBatch(t, mem, "b", []float64{3, 4}, "a", []float64{30, 40})
	defer swapped.Release()
	schema := first.Schema()

	run := func(recs ...arrow.Record) ([][]float64, error) {
		rr := &listReader{schema: schema, recs: recs}
		f := frame.FromReader(rr)
		out, err := f.WithColumns(frame.LetExpr("d", expr.Sub(f.Col("a"), f.Col("b")))).Reader(ctx, frame.WithAllocator(mem), frame.WithWorkers(2))
		require.NoError(t, err)
		defer out.Release()
		var got [][]float64
		for out.Next() {
			rec := out.Record()
			require.Equal(t, "a", rec.ColumnName(0), "pass-through columns in the schema's order")
			av, _ := arrowtest.ArrowValues(t, rec.Column(0))
			d, _ := arrowtest.ArrowValues(t, rec.Column(2))
			got = append(got, av, d)
		}
		return got, out.Err()
	}
	got, err := run(first, swapped)
	require.NoError(t, err)
	assert.Equal(t, [][]float64{{10, 20}, {9, 18}, {30, 40}, {27, 36}}, got)

	bad := map[string]struct {
		rec  arrow.Record
		want []string
		is   error
	}{
		"type changed":   {bindBatch(t, mem, "a", []float64{1}, "b", []int32{1}), []string{`"b"`, "int32", "float64"}, frame.ErrSource},
		"pass-through":   {bindBatch(t, mem, "a", []float64{1}, "b", []float64{1}, "c", []int32{1}), []string{`"c"`}, frame.ErrSource},
		"missing column": {bindBatch(t, mem, "a", []float64{1}, "bb", []float64{1}), []string{`no such column "b"`, `the columns are "a", "bb"`}, frame.ErrNoColumn},
		"duplicate":      {bindBatch(t, mem, "b", []float64{1}, "a", []float64{1}, "a", []float64{1}), []string{`"a"`}, frame.ErrSource},
	}
	for name, c := range bad {
		_, err := run(first, c.rec)
		require.ErrorIs(t, err, c.is, name)
		for _, w := range c.want {
			assert.ErrorContains(t, err, w, name)
		}
		ag, err := frame.NewAggregator(schema, frame.Sum("a"))
		require.NoError(t, err)
		require.NoError(t, ag.Add(first))
		err = ag.Add(c.rec)
		require.ErrorIs(t, err, c.is, name)
		for _, w := range c.want {
			assert.ErrorContains(t, err, w, name)
		}
		assert.Equal(t, int64(2), ag.Rows(), "%s: a refused batch adds nothing", name)
		c.rec.Release()
	}

	// The aggregate of a - b over the swapped stream.
	sum, err := frame.FromReader(&listReader{schema: schema, recs: []arrow.Record{first, swapped}}).
		WithColumns(frame.Let("d", "a - b")).GroupBy().Agg(frame.Sum("d")).Collect(ctx, frame.WithAllocator(mem))
	require.NoError(t, err)
	v, _ := arrowtest.ArrowValues(t, sum.Record().Column(0))
	assert.Equal(t, []float64{9 + 18 + 27 + 36}, v)
	sum.Release()
}

// evalReader makes batches of x float32 [4] tensors (x[r, j] = r + j) and
// y float64 (y[r] = r, null where r % 5 == 0), numbered across batches.
type evalReader struct {
	mem           memory.Allocator
	schema        *arrow.Schema
	batches, rows int
	i             int
	cur           arrow.Record
}

func newEvalReader(mem memory.Allocator, batches, rows int) *evalReader {
	xt, err := arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4}, nil, nil)
	if err != nil {
		panic(err)
	}
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: xt, Nullable: true}, {Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	return &evalReader{mem: mem, schema: s, batches: batches, rows: rows}
}

func (g *evalReader) Retain()               {}
func (g *evalReader) Schema() *arrow.Schema { return g.schema }
func (g *evalReader) Record() arrow.Record  { return g.cur }
func (g *evalReader) Err() error            { return nil }
func (g *evalReader) Release() {
	if g.cur != nil {
		g.cur.Release()
		g.cur = nil
	}
}

func (g *evalReader) Next() bool {
	g.Release()
	if g.i >= g.batches {
		return false
	}
	r0 := g.i * g.rows
	x, _ := array.Empty(g.mem, array.Float32, g.rows, 4)
	xv, _ := array.Values[float32](x)
	y, _ := array.Empty(g.mem, array.Float64, g.rows)
	yv, _ := array.Values[float64](y)
	for r := 0; r < g.rows; r++ {
		for j := 0; j < 4; j++ {
			xv[4*r+j] = float32(r0 + r + j)
		}
		yv[r] = float64(r0 + r)
		if (r0+r)%5 == 0 {
			_ = y.SetNull(r)
		}
	}
	xc, _ := arrowio.ToTensorColumn(g.mem, x)
	yc, _ := arrowio.ToArrow(g.mem, y)
	x.Release()
	y.Release()
	g.cur = arrowarray.NewRecord(g.schema, []arrow.Array{xc, yc}, int64(g.rows))
	xc.Release()
	yc.Release()
	g.i++
	return true
}

// normalize: z = (x - mean) * inv with mean and inv [4] constants
// broadcast over the rows (dim names "feature"); hot = z > 1; y2 = y * y.
func normalize(t testing.TB, mem memory.Allocator, f frame.Frame) (frame.Frame, func()) {
	mean, err := array.FromSlice(mem, []float32{1, 2, 3, 4})
	require.NoError(t, err)
	inv, err := array.FromSlice(mem, []float32{0.5, 0.25, 2, 1})
	require.NoError(t, err)
	z := expr.Mul(expr.Sub(f.Col("x"), expr.Leaf(mean)), expr.Leaf(inv))
	return f.WithColumns(
			frame.LetExpr("z", z).WithDimNames("feature"),
			frame.LetExpr("hot", expr.Greater(z, expr.Scalar(1, array.Float32))),
			frame.Let("y2", "y * y"),
		), func() {
			mean.Release()
			inv.Release()
		}
}

// TestStreamWithColumns (from arrowio's TestEvaluate): three computed
// columns over a stream of batches, some of no rows, with constants bound
// to every batch: values, nulls, dim names, the output schema fixed before
// the first batch.
func TestStreamWithColumns(t *testing.T) {
	for _, rows := range []int{7, 0} {
		t.Run(fmt.Sprint("rows=", rows), func(t *testing.T) {
			mem := checked(t)
			g := newEvalReader(mem, 3, rows)
			f, done := normalize(t, mem, frame.FromReader(g))
			defer done()
			ev, err := f.Reader(context.Background(), frame.WithAllocator(mem))
			require.NoError(t, err)
			defer ev.Release()
			var names []string
			for _, fd := range ev.Schema().Fields() {
				names = append(names, fd.Name)
			}
			assert.Equal(t, []string{"x", "y", "z", "hot", "y2"}, names)
			zt := ev.Schema().Field(2).Type.(*arrowio.FixedShapeTensorType)
			assert.Equal(t, []int{4}, zt.Shape())
			assert.Equal(t, []string{"feature"}, zt.DimNames())
			assert.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Float64, ev.Schema().Field(4).Type))
			mean := []float32{1, 2, 3, 4}
			inv := []float32{0.5, 0.25, 2, 1}
			g0 := 0
			for ev.Next() {
				rec := ev.Record()
				require.True(t, arrow.TypeEqual(zt, rec.Column(2).DataType()), "the batch's type has the dim names")
				z, err := arrowio.FromArrow(mem, rec.Column(2))
				require.NoError(t, err)
				hot, err := arrowio.FromArrow(mem, rec.Column(3))
				require.NoError(t, err)
				y2 := rec.Column(4).(*arrowarray.Float64)
				for r := 0; r < int(rec.NumRows()); r++ {
					g := g0 + r
					for j := 0; j < 4; j++ {
						want := (float32(g+j) - mean[j]) * inv[j]
						assert.Equal(t, want, arraytest.At[float32](t, z, r, j))
						assert.Equal(t, want > 1, arraytest.At[bool](t, hot, r, j))
					}
					if g%5 == 0 {
						assert.True(t, y2.IsNull(r), "null y gives null y2")
					} else {
						assert.Equal(t, float64(g*g), y2.Value(r))
					}
				}
				g0 += int(rec.NumRows())
				z.Release()
				hot.Release()
			}
			require.NoError(t, ev.Err())
			assert.Equal(t, 3*rows, g0)
		})
	}
}

// TestWithColumnsErrors (from arrowio's TestEvaluateErrors): unknown
// variables, broken expressions and results without the input's rows.
func TestWithColumnsErrors(t *testing.T) {
	mem := checked(t)
	ctx := context.Background()
	g := newEvalReader(mem, 2, 3)
	defer g.Release()
	f := frame.FromReader(g)
	other := f.Col("nope")
	assert.ErrorIs(t, f.WithColumns(frame.LetExpr("o", other)).Err(), frame.ErrNoColumn)
	assert.ErrorContains(t, f.WithColumns(frame.Let("o", "x + nope")).Err(), `"nope"`)
	assert.Error(t, f.WithColumns(frame.LetExpr("bad", expr.Add(f.Col("x"), expr.Leaf(nil)))).Err())
	assert.ErrorIs(t, f.WithColumns(frame.LetExpr("", f.Col("x"))).Err(), frame.ErrArgument)

	// A result whose axis 0 has a fixed length other than the rows is
	// refused when it meets the data.
	fixed, err := array.New(mem, array.Float32, 2, 4)
	require.NoError(t, err)
	defer fixed.Release()
	_, err = f.WithColumns(frame.LetExpr("fixed", expr.Leaf(fixed))).Collect(ctx, frame.WithAllocator(mem))
	assert.ErrorIs(t, err, array.ErrShape)
}

// TestStreamWithColumnsBounded (from arrowio's TestEvaluateStreamingBounded):
// thousands of batches through WithColumns hold no more memory than a few
// batches per worker: the peak of bytes outstanding is about the same for
// 50 batches and for 3000.
func TestStreamWithColumnsBounded(t *testing.T) {
	const rows = 512
	batchBytes := int64(rows * (4*4 + 8 + 4*4 + 4 + 8)) // inputs and outputs of one batch
	peak := func(batches int) int64 {
		mem := &peakAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
		defer mem.AssertSize(t, 0)
		g := newEvalReader(mem, batches, rows)
		f, done := normalize(t, mem, frame.FromReader(g))
		defer done()
		ev, err := f.Reader(context.Background(), frame.WithAllocator(mem), frame.WithWorkers(2))
		require.NoError(t, err)
		n := 0
		for ev.Next() {
			n += int(ev.Record().NumRows())
		}
		require.NoError(t, ev.Err())
		require.Equal(t, batches*rows, n)
		ev.Release()
		g.Release()
		return mem.peak
	}
	small, large := peak(50), peak(3000)
	t.Logf("peak %d bytes over 50 batches, %d over 3000 (one batch: %d)", small, large, batchBytes)
	assert.LessOrEqual(t, large, small+2*batchBytes, "memory grows with the stream")
	assert.Less(t, large, 16*batchBytes, "more than a few batches held")
}
