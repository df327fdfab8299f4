package arrowio

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arrowtest"
)

// randStream is a stream of random batches (sizes 0..maxRows, some empty)
// and the concatenation of its columns, as in-memory arrays:
//
//	i  int32 [rows], null 1 in 7, values -50..50
//	u  uint8 [rows], values 0..255
//	f  float64 [rows, 3], null 1 in 11, small integers (exact sums)
//	p  float64 [rows], values ±1, ±2, ±0.5 (exact products)
//	t  float32 [rows, 3, 4] tensor, 1e4 + normal noise (a large mean)
//	b  bool [rows], true 1 in 50
//	h  float16 [rows, 2], null 1 in 13, values -8..8
type randStream struct {
	schema *arrow.Schema
	recs   []arrow.Record
	all    map[string]*array.Array
}

func newRandStream(t testing.TB, mem memory.Allocator, seed int64, batches, maxRows int) *randStream {
	rng := rand.New(rand.NewSource(seed))
	type col struct {
		dt    array.DType
		row   []int
		gen   func() float64
		nullP int // 1 in nullP is null (0: none)
	}
	pvals := []float64{1, -1, 2, -2, 0.5, -0.5}
	cols := []struct {
		name string
		c    col
	}{
		{"i", col{array.Int32, nil, func() float64 { return float64(rng.Intn(101) - 50) }, 7}},
		{"u", col{array.Uint8, nil, func() float64 { return float64(rng.Intn(256)) }, 0}},
		{"f", col{array.Float64, []int{3}, func() float64 { return float64(rng.Intn(2001) - 1000) }, 11}},
		{"p", col{array.Float64, nil, func() float64 { return pvals[rng.Intn(len(pvals))] }, 0}},
		{"t", col{array.Float32, []int{3, 4}, func() float64 { return 1e4 + 3*rng.NormFloat64() }, 0}},
		{"b", col{array.Bool, nil, func() float64 { return float64(rng.Intn(50) / 49) }, 0}},
		{"h", col{array.Float16, []int{2}, func() float64 { return float64(rng.Intn(17) - 8) }, 13}},
	}
	vals := make([][]float64, len(cols))
	valid := make([][]bool, len(cols))
	total := 0
	s := &randStream{all: map[string]*array.Array{}}
	for k := 0; k < batches; k++ {
		n := rng.Intn(maxRows + 1)
		if k%10 == 3 {
			n = 0
		}
		var arrs []arrow.Array
		var fields []arrow.Field
		for j, c := range cols {
			lanes := 1
			for _, d := range c.c.row {
				lanes *= d
			}
			v := make([]float64, n*lanes)
			ok := make([]bool, n*lanes)
			for e := range v {
				v[e] = c.c.gen()
				ok[e] = c.c.nullP == 0 || rng.Intn(c.c.nullP) != 0
			}
			vals[j] = append(vals[j], v...)
			valid[j] = append(valid[j], ok...)
			a := makeArray(t, mem, c.c.dt, v, ok, append([]int{n}, c.c.row...))
			var col arrow.Array
			var err error
			if len(c.c.row) == 0 {
				col, err = ToArrow(mem, a)
			} else {
				col, err = ToTensorColumn(mem, a)
			}
			a.Release()
			require.NoError(t, err)
			arrs = append(arrs, col)
			fields = append(fields, arrow.Field{Name: c.name, Type: col.DataType(), Nullable: true})
		}
		if s.schema == nil {
			s.schema = arrow.NewSchema(fields, nil)
		}
		s.recs = append(s.recs, arrowarray.NewRecord(s.schema, arrs, int64(n)))
		for _, a := range arrs {
			a.Release()
		}
		total += n
	}
	for j, c := range cols {
		s.all[c.name] = makeArray(t, mem, c.c.dt, vals[j], valid[j], append([]int{total}, c.c.row...))
	}
	return s
}

// makeArray builds an array of dtype dt from float64 values and validity.
func makeArray(t testing.TB, mem memory.Allocator, dt array.DType, v []float64, ok []bool, shape []int) *array.Array {
	f, err := array.FromSliceValid(mem, v, ok, shape...)
	require.NoError(t, err)
	defer f.Release()
	a, err := expr.Eval(expr.Cast(expr.Leaf(f), dt), expr.WithAllocator(mem))
	require.NoError(t, err)
	return a
}

func (s *randStream) reader() arrowarray.RecordReader {
	rr, _ := arrowarray.NewRecordReader(s.schema, s.recs)
	return rr
}

func (s *randStream) release() {
	for _, r := range s.recs {
		r.Release()
	}
	for _, a := range s.all {
		a.Release()
	}
}

// inMemory evaluates r's reduction over axis 0 of the concatenated data
// with expr's in-memory reductions (Count: the valid elements of the
// evaluated expression, counted one by one).
func inMemory(t testing.TB, mem memory.Allocator, s *randStream, r Reduction) *array.Array {
	var n *expr.Node
	axis0 := []int{0}
	switch r.Op {
	case Sum:
		n = expr.ReduceSum(r.Expr, axis0, false)
	case Prod:
		n = expr.ReduceProd(r.Expr, axis0, false)
	case Mean:
		n = expr.ReduceMean(r.Expr, axis0, false)
	case Var:
		n = expr.ReduceVar(r.Expr, axis0, r.Ddof, false)
	case Std:
		n = expr.ReduceStd(r.Expr, axis0, r.Ddof, false)
	case Min:
		n = expr.ReduceMin(r.Expr, axis0, false)
	case Max:
		n = expr.ReduceMax(r.Expr, axis0, false)
	case Any:
		n = expr.Any(r.Expr, axis0, false)
	case All:
		n = expr.All(r.Expr, axis0, false)
	case Count:
		v, err := expr.Compile(r.Expr, expr.WithAllocator(mem))
		require.NoError(t, err)
		e, err := v.Eval(expr.Bindings(s.all))
		require.NoError(t, err)
		defer e.Release()
		ok, err := array.ValidSlice(e)
		require.NoError(t, err)
		lanes := e.Len() / e.Dim(0)
		cnt := make([]int64, lanes)
		for k, b := range ok {
			if b {
				cnt[k%lanes]++
			}
		}
		c, err := array.FromSlice(mem, cnt)
		require.NoError(t, err)
		c2, err := c.Reshaped(e.Shape()[1:]...)
		c.Release()
		require.NoError(t, err)
		return c2
	}
	p, err := expr.Compile(n, expr.WithAllocator(mem))
	require.NoError(t, err)
	a, err := p.Eval(expr.Bindings(s.all))
	require.NoError(t, err)
	return a
}

// agreeCase is a reduction and its relative tolerance against the
// in-memory reduction (0: exact).
type agreeCase struct {
	r   Reduction
	tol float64
}

// agreeCases are the reductions TestReduceAgrees and the Reducer merge
// tests check over a randStream: every op, every dtype of the stream, row
// shapes [], [3], [3, 4] and [2]. Release the returned leaf.
func agreeCases(t testing.TB, mem memory.Allocator, s *randStream) ([]agreeCase, *array.Array) {
	v := func(name string) *expr.Node {
		n, err := SchemaVar(s.schema, name)
		require.NoError(t, err)
		return n
	}
	i, u, f, p, tt, b, h := v("i"), v("u"), v("f"), v("p"), v("t"), v("b"), v("h")
	scale, err := array.FromSlice(mem, []float64{1, -2, 3})
	require.NoError(t, err)
	fs := expr.Sub(expr.Mul(f, expr.Leaf(scale)), expr.Const(7)) // [rows, 3]
	mix := expr.Add(expr.ReduceSum(f, []int{1}, false), i)       // [rows]
	dev := expr.Sub(tt, expr.ReduceMean(tt, []int{2}, true))     // [rows, 3, 4]
	type tc = agreeCase
	cases := []tc{
		{Reduction{Name: "sum i", Expr: i, Op: Sum}, 0},
		{Reduction{Name: "sum u", Expr: u, Op: Sum}, 0},
		{Reduction{Name: "sum fs", Expr: fs, Op: Sum}, 0},
		{Reduction{Name: "sum mix", Expr: mix, Op: Sum}, 0},
		{Reduction{Name: "sum b", Expr: b, Op: Sum}, 0},
		{Reduction{Name: "prod i", Expr: expr.Add(expr.Mul(i, expr.Const(2)), expr.Const(1)), Op: Prod}, 0}, // odd: wraps, never 0
		{Reduction{Name: "prod u", Expr: expr.Add(expr.Mul(u, expr.Const(2)), expr.Const(1)), Op: Prod}, 0},
		{Reduction{Name: "prod p", Expr: p, Op: Prod}, 0},
		{Reduction{Name: "min i", Expr: i, Op: Min}, 0},
		{Reduction{Name: "max fs", Expr: fs, Op: Max}, 0},
		{Reduction{Name: "min t", Expr: tt, Op: Min}, 0},
		{Reduction{Name: "max u", Expr: u, Op: Max}, 0},
		{Reduction{Name: "count f", Expr: f, Op: Count}, 0},
		{Reduction{Name: "count mix", Expr: mix, Op: Count}, 0},
		{Reduction{Name: "any b", Expr: b, Op: Any}, 0},
		{Reduction{Name: "all b", Expr: b, Op: All}, 0},
		{Reduction{Name: "any f>990", Expr: expr.Greater(f, expr.Const(990)), Op: Any}, 0},
		{Reduction{Name: "all f>-1000", Expr: expr.GreaterEqual(f, expr.Const(-1000)), Op: All}, 0},
		{Reduction{Name: "mean i", Expr: i, Op: Mean}, 1e-9},
		{Reduction{Name: "mean fs", Expr: fs, Op: Mean}, 1e-9},
		{Reduction{Name: "var fs", Expr: fs, Op: Var}, 1e-9},
		{Reduction{Name: "std mix ddof 1", Expr: mix, Op: Std, Ddof: 1}, 1e-9},
		{Reduction{Name: "var u ddof 1", Expr: u, Op: Var, Ddof: 1}, 1e-9},
		{Reduction{Name: "mean t", Expr: tt, Op: Mean}, 1e-5},
		{Reduction{Name: "var t", Expr: tt, Op: Var}, 1e-5},
		{Reduction{Name: "std t ddof 1", Expr: tt, Op: Std, Ddof: 1}, 1e-5},
		{Reduction{Name: "std dev", Expr: dev, Op: Std}, 1e-5},
		{Reduction{Name: "max h", Expr: h, Op: Max}, 0},
		{Reduction{Name: "count h", Expr: h, Op: Count}, 0},
		{Reduction{Name: "any h", Expr: h, Op: Any}, 0},
		{Reduction{Name: "var h", Expr: h, Op: Var, Ddof: 1}, 1e-3}, // float16 results
		{Reduction{Name: "mean h/8", Expr: expr.Div(h, expr.Const(8)), Op: Mean}, 1e-3},
	}
	return cases, scale
}

// checkAgree asserts that got (one array per case, released here) equals
// the in-memory reductions of s's concatenated columns, within each case's
// tolerance, with their dtypes and shapes.
func checkAgree(t testing.TB, mem memory.Allocator, s *randStream, cases []agreeCase, got []*array.Array) {
	require.Len(t, got, len(cases))
	for k, c := range cases {
		want := inMemory(t, mem, s, c.r)
		g := got[k]
		assert.Equal(t, want.DType(), g.DType(), c.r.Name)
		assert.Equal(t, want.Shape(), g.Shape(), c.r.Name)
		wv, err := array.ToSlice[float64](want)
		require.NoError(t, err)
		gv, err := array.ToSlice[float64](g)
		require.NoError(t, err)
		if c.tol == 0 {
			assert.Equal(t, wv, gv, c.r.Name)
			if c.r.Op == Prod {
				assert.NotEqual(t, 0.0, gv[0], "%s: a product of nonzero values", c.r.Name)
			}
		} else {
			for e := range wv {
				assert.InEpsilon(t, wv[e], gv[e], c.tol, "%s [%d]", c.r.Name, e)
			}
		}
		assert.False(t, g.HasNulls(), c.r.Name)
		if c.r.Name == "std dev" {
			assert.Equal(t, []int{3, 4}, g.Shape(), "a [rows, 3, 4] expression reduces to [3, 4]")
		}
		want.Release()
		g.Release()
	}
}

// TestReduceAgrees: Reduce over 3,000 random batches (sizes 0..24, every
// tenth empty, nulls) equals the in-memory reductions of the concatenated
// columns: exactly for sums and products of exact values, ints, bools,
// min, max, count, any and all; within a relative 1e-9 (float64 data),
// 1e-5 (float32 data of mean 1e4 and spread 3) or 1e-3 (float16) for mean,
// var and std. The
// results have the in-memory reductions' dtypes and shapes.
func TestReduceAgrees(t *testing.T) {
	mem := arrowtest.NewMem(t)
	s := newRandStream(t, mem, 12, 3000, 24)
	defer s.release()
	cases, scale := agreeCases(t, mem, s)
	defer scale.Release()
	var reds []Reduction
	for _, c := range cases {
		reds = append(reds, c.r)
	}
	rr := s.reader()
	defer rr.Release()
	got, err := Reduce(mem, rr, reds...)
	require.NoError(t, err)
	checkAgree(t, mem, s, cases, got)
}

// TestReduceEmpty: a stream of no rows (no batches, or empty batches)
// gives NumPy's values of empty reductions, and an error for min and max.
func TestReduceEmpty(t *testing.T) {
	mem := arrowtest.NewMem(t)
	for _, batches := range []int{0, 3} {
		t.Run(fmt.Sprint("batches=", batches), func(t *testing.T) {
			s := newRandStream(t, mem, 1, batches, 0)
			defer s.release()
			if s.schema == nil { // no batch: take the schema of another stream
				o := newRandStream(t, mem, 1, 1, 0)
				s.schema = o.schema
				o.release()
			}
			f, err := SchemaVar(s.schema, "f")
			require.NoError(t, err)
			i, err := SchemaVar(s.schema, "i")
			require.NoError(t, err)
			rr := s.reader()
			defer rr.Release()
			got, err := Reduce(mem, rr,
				Reduction{Name: "sum", Expr: i, Op: Sum},
				Reduction{Name: "prod", Expr: f, Op: Prod},
				Reduction{Name: "mean", Expr: f, Op: Mean},
				Reduction{Name: "var", Expr: i, Op: Var},
				Reduction{Name: "std", Expr: f, Op: Std, Ddof: 1},
				Reduction{Name: "count", Expr: f, Op: Count},
				Reduction{Name: "any", Expr: i, Op: Any},
				Reduction{Name: "all", Expr: f, Op: All})
			require.NoError(t, err)
			want := [][]float64{{0}, {1, 1, 1}, nan(3), nan(1), nan(3), {0, 0, 0}, {0}, {1, 1, 1}}
			dts := []array.DType{array.Int64, array.Float64, array.Float64, array.Float64, array.Float64, array.Int64, array.Bool, array.Bool}
			for k, g := range got {
				v, err := array.ToSlice[float64](g)
				require.NoError(t, err)
				if math.IsNaN(want[k][0]) {
					for _, x := range v {
						assert.True(t, math.IsNaN(x), "%d: %v", k, v)
					}
				} else {
					assert.Equal(t, want[k], v, k)
				}
				assert.Equal(t, dts[k], g.DType(), k)
				g.Release()
			}
			for _, op := range []ReduceOp{Min, Max} {
				rr := s.reader()
				_, err = Reduce(mem, rr, Reduction{Name: "s", Expr: i, Op: Sum}, Reduction{Name: op.String(), Expr: f, Op: op})
				rr.Release()
				assert.ErrorIs(t, err, ErrEmpty)
				assert.ErrorIs(t, err, expr.ErrArgument)
			}
		})
	}
}

func nan(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

// streamOf is a stream of [rows, 3] float64 batches (6 values each; valid
// nil: no nulls) and their concatenation.
func streamOf(t testing.TB, mem memory.Allocator, batches [][]float64, valid [][]bool) *randStream {
	s := &randStream{all: map[string]*array.Array{}}
	var all []float64
	var allOK []bool
	for k, v := range batches {
		ok := make([]bool, len(v))
		for i := range ok {
			ok[i] = valid == nil || valid[k][i]
		}
		all, allOK = append(all, v...), append(allOK, ok...)
		a, err := array.FromSliceValid(mem, v, ok, len(v)/3, 3)
		require.NoError(t, err)
		if valid == nil {
			a.Release()
			a, err = array.FromSlice(mem, v, len(v)/3, 3)
			require.NoError(t, err)
		}
		col, err := ToTensorColumn(mem, a)
		a.Release()
		require.NoError(t, err)
		s.schema = arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType(), Nullable: true}}, nil)
		s.recs = append(s.recs, arrowarray.NewRecord(s.schema, []arrow.Array{col}, int64(len(v)/3)))
		col.Release()
	}
	a, err := array.FromSliceValid(mem, all, allOK, len(all)/3, 3)
	require.NoError(t, err)
	s.all["x"] = a
	return s
}

// TestReduceSpecialValues: NaN propagates through min, max, mean and var
// as in memory, with and without nulls (the partials of min, max, any and
// all of a batch without nulls are computed in Go, the others by expr); a
// lane whose values are all null gives the in-memory result (identity,
// NaN).
func TestReduceSpecialValues(t *testing.T) {
	mem := arrowtest.NewMem(t)
	nanv := math.NaN()
	b1 := []float64{1, nanv, 3, 4, 0, 6}
	b2 := []float64{7, 8, 9, -1, 11, 12}
	b3 := []float64{-7, 1, 0, nanv, 1, 2}
	ok := []bool{true, true, false, true, true, false} // lane 2 is all null
	for _, valid := range [][][]bool{nil, {ok, ok, ok}} {
		s := streamOf(t, mem, [][]float64{b1, b2, b3}, valid)
		x, err := SchemaVar(s.schema, "x")
		require.NoError(t, err)
		var reds []Reduction
		for _, op := range []ReduceOp{Sum, Prod, Mean, Var, Std, Min, Max, Count, Any, All} {
			reds = append(reds, Reduction{Name: op.String(), Expr: x, Op: op})
		}
		rr := s.reader()
		got, err := Reduce(mem, rr, reds...)
		rr.Release()
		require.NoError(t, err)
		for k, g := range got {
			want := inMemory(t, mem, s, reds[k])
			assert.Equal(t, want.DType(), g.DType())
			wv, _ := array.ToSlice[float64](want)
			gv, _ := array.ToSlice[float64](g)
			for e := range wv {
				if math.IsNaN(wv[e]) {
					assert.True(t, math.IsNaN(gv[e]), "nulls %v: %v [%d]: %v", valid != nil, reds[k].Op, e, gv)
				} else {
					assert.InDelta(t, wv[e], gv[e], 1e-12, "nulls %v: %v [%d]", valid != nil, reds[k].Op, e)
				}
			}
			want.Release()
			g.Release()
		}
		s.release()
	}
}

// brokenReader yields the batches of rr, then fails.
type brokenReader struct {
	arrowarray.RecordReader
	left int
	err  error
}

func (f *brokenReader) Next() bool {
	if f.left == 0 {
		f.err = errors.New("disk on fire")
		return false
	}
	f.left--
	return f.RecordReader.Next()
}

func (f *brokenReader) Err() error { return f.err }

// TestReduceErrors: every error is typed, names what was wrong, and leaves
// nothing allocated (the checked allocator is empty at the end).
func TestReduceErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	s := newRandStream(t, mem, 3, 20, 10)
	defer s.release()
	x, err := SchemaVar(s.schema, "f")
	require.NoError(t, err)
	rr := s.reader()
	defer rr.Release()

	_, err = Reduce(mem, nil, Reduction{Expr: x, Op: Sum})
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = Reduce(mem, rr, Reduction{Name: "no op", Expr: x})
	assert.ErrorIs(t, err, expr.ErrArgument)
	_, err = Reduce(mem, rr, Reduction{Name: "nil", Op: Sum})
	assert.Error(t, err)
	_, err = Reduce(mem, rr, Reduction{Name: "over rows", Expr: expr.Cumsum(x, []int{0}), Op: Sum})
	assert.ErrorIs(t, err, expr.ErrArgument)
	assert.ErrorContains(t, err, "row axis")
	_, err = Reduce(mem, rr, Reduction{Name: "ddof", Expr: x, Op: Var, Ddof: -1})
	assert.ErrorIs(t, err, expr.ErrArgument)
	other := expr.Var("nope", array.Float32, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim()}, RankKnown: true})
	_, err = Reduce(mem, rr, Reduction{Name: "no column", Expr: other, Op: Sum})
	assert.ErrorIs(t, err, ErrNoColumn)
	assert.ErrorContains(t, err, `"nope"`)

	// A column of a type with no dtype.
	sb := arrowarray.NewStringBuilder(mem)
	sb.Append("a")
	str := sb.NewArray()
	sb.Release()
	strSchema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	strRec := arrowarray.NewRecord(strSchema, []arrow.Array{str}, 1)
	str.Release()
	strRR, _ := arrowarray.NewRecordReader(strSchema, []arrow.Record{strRec})
	strRec.Release()
	sv := expr.Var("s", array.Float64, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim()}, RankKnown: true})
	_, err = Reduce(mem, strRR, Reduction{Name: "string", Expr: sv, Op: Max})
	assert.ErrorIs(t, err, ErrUnsupported)
	strRR.Release()

	// The reader fails mid-stream while min and max hold accumulators.
	for _, left := range []int{0, 7} {
		fr := &brokenReader{RecordReader: s.reader(), left: left}
		res, err := Reduce(mem, fr, Reduction{Name: "min", Expr: x, Op: Min}, Reduction{Name: "var", Expr: x, Op: Var})
		assert.ErrorContains(t, err, "disk on fire")
		assert.Nil(t, res)
		fr.Release()
	}

	// A batch whose column does not have the schema's type.
	i32 := arrowtest.BuildArrow(t, mem, array.Int32, []float64{1, 2}, nil)
	badSchema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: arrow.PrimitiveTypes.Float64}}, nil)
	badRec := arrowarray.NewRecord(arrow.NewSchema([]arrow.Field{{Name: "f", Type: arrow.PrimitiveTypes.Int32}}, nil), []arrow.Array{i32}, 2)
	i32.Release()
	badRR := &fixedReader{schema: badSchema, rec: badRec}
	fv, err := SchemaVar(badSchema, "f")
	require.NoError(t, err)
	_, err = Reduce(mem, badRR, Reduction{Name: "max", Expr: fv, Op: Max}, Reduction{Name: "sum", Expr: fv, Op: Sum})
	assert.Error(t, err)
	badRec.Release()
}

// fixedReader yields one record whose schema may differ from its own.
type fixedReader struct {
	schema *arrow.Schema
	rec    arrow.Record
	done   bool
}

func (f *fixedReader) Retain()               {}
func (f *fixedReader) Release()              {}
func (f *fixedReader) Schema() *arrow.Schema { return f.schema }
func (f *fixedReader) Record() arrow.Record  { return f.rec }
func (f *fixedReader) Err() error            { return nil }
func (f *fixedReader) Next() bool {
	if f.done {
		return false
	}
	f.done = true
	return true
}

// streamReductions: the statistics of the generated stream's x ([rows, 4]
// float32) and y (float64, nulls).
func streamReductions(t testing.TB, s *arrow.Schema) []Reduction {
	x, err := SchemaVar(s, "x")
	require.NoError(t, err)
	y, err := SchemaVar(s, "y")
	require.NoError(t, err)
	return []Reduction{
		{Name: "mean x", Expr: x, Op: Mean},
		{Name: "std x", Expr: x, Op: Std, Ddof: 1},
		{Name: "min x", Expr: x, Op: Min},
		{Name: "max x", Expr: x, Op: Max},
		{Name: "sum y2", Expr: expr.Mul(y, y), Op: Sum},
		{Name: "count y", Expr: y, Op: Count},
	}
}

// TestReduceStreamingBounded: the peak of bytes outstanding in the
// allocator is the same for 50 batches and for 3000, as for Evaluate, and
// the results are right (the generator's values are known).
func TestReduceStreamingBounded(t *testing.T) {
	const rows = 512
	batchBytes := int64(rows * (4*4 + 8 + 1 + 4*8 + 8)) // inputs and the evaluated expressions of one batch
	peak := func(batches int) int64 {
		checked := arrowtest.NewMem(t)
		mem := &peakAllocator{mem: checked}
		g := newGenReader(t, mem, batches, rows)
		defer g.Release()
		res, err := Reduce(mem, g, streamReductions(t, g.Schema())...)
		require.NoError(t, err)
		n := batches * rows
		mean, _ := array.ToSlice[float64](res[0])
		mn, _ := array.ToSlice[float64](res[2])
		mx, _ := array.ToSlice[float64](res[3])
		cnt, _ := array.ToSlice[int64](res[5])
		for j := 0; j < 4; j++ {
			assert.InEpsilon(t, float64(n-1)/2+float64(j), mean[j], 1e-6) // x[r,j] = r + j
			assert.Equal(t, float64(j), mn[j])
			assert.Equal(t, float64(n-1+j), mx[j])
		}
		assert.Equal(t, int64(n-(n+4)/5), cnt[0]) // y null every 5th row
		for _, a := range res {
			a.Release()
		}
		return mem.max.Load()
	}
	small, large := peak(50), peak(3000)
	t.Logf("peak %d bytes over 50 batches, %d over 3000 (one batch: %d)", small, large, batchBytes)
	assert.LessOrEqual(t, large, small+batchBytes, "memory grows with the stream")
	assert.Less(t, large, 8*batchBytes, "more than a few batches held")
}

// BenchmarkReduce: mean, std, min, max of a [rows, 4] float32 column and
// sum and count of a float64 column (null 1 in 5), over 64 batches of 4096
// rows held in memory.
func BenchmarkReduce(b *testing.B) {
	const batches, rows = 64, 4096
	mem := memory.NewGoAllocator()
	g := newGenReader(b, mem, batches, rows)
	var recs []arrow.Record
	for g.Next() {
		g.Record().Retain()
		recs = append(recs, g.Record())
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	reds := streamReductions(b, g.Schema())
	b.SetBytes(int64(batches * rows * (4*4 + 8)))
	b.ReportAllocs()
	for b.Loop() {
		rr, _ := arrowarray.NewRecordReader(g.Schema(), recs)
		res, err := Reduce(mem, rr, reds...)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range res {
			a.Release()
		}
		rr.Release()
	}
	g.Release()
}

// TestReduceHugeRowShape: a schema may declare rows of 2^27 elements;
// nothing is allocated for them before a batch shows the data exists, and a
// result of that size over no rows is refused rather than allocated.
func TestReduceHugeRowShape(t *testing.T) {
	mem := arrowtest.NewMem(t)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.FixedSizeListOf(1<<27, arrow.PrimitiveTypes.Float64)}}, nil)
	x, err := SchemaVar(schema, "x")
	require.NoError(t, err)
	for _, op := range []ReduceOp{Sum, Mean, Count, All} {
		rr, err := arrowarray.NewRecordReader(schema, nil)
		require.NoError(t, err)
		res, err := Reduce(mem, rr, Reduction{Name: "big", Expr: x, Op: op})
		rr.Release()
		assert.ErrorIs(t, err, ErrUnsupported, op)
		assert.ErrorContains(t, err, "134217728 elements")
		assert.Nil(t, res)
	}
}
