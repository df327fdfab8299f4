package expr_test

// Nulls: an elementwise result is valid where every broadcast operand is
// valid (Arrow's rule), null slots hold 0, masks are broadcast like the
// data, and reductions skip null elements.

import (
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

func mkValid[T array.Element](t *testing.T, mem memory.Allocator, v []T, valid []bool, shape ...int) *array.Array {
	t.Helper()
	a, err := array.FromSliceValid(mem, v, valid, shape...)
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

// evalValid evaluates e with 1 and 3 workers and returns values and
// validity, checking that both runs agree.
func evalValid[T array.Element](t *testing.T, e *expr.Node, opts ...expr.Option) ([]T, []bool) {
	t.Helper()
	require.NoError(t, e.Err())
	var vals []T
	var valid []bool
	for i, w := range []int{1, 3} {
		out, err := expr.Eval(e, append(opts, expr.WithWorkers(w), expr.WithTileSize(16))...)
		require.NoError(t, err)
		v, err := array.ToSlice[T](out)
		require.NoError(t, err)
		ok, err := array.ValidSlice(out)
		require.NoError(t, err)
		out.Release()
		if i == 0 {
			vals, valid = v, ok
			continue
		}
		require.Equal(t, fmt.Sprint(vals), fmt.Sprint(v)) // NaN-aware: NaN prints alike
		require.Equal(t, valid, ok)
	}
	return vals, valid
}

func TestNullsIntersectUnderBroadcasting(t *testing.T) {
	mem := checkedMem(t)
	x := mkValid(t, mem, []float32{1, 2, 3, 4, 5, 6}, []bool{true, false, true, true, true, true}, 2, 3)
	y := mkValid(t, mem, []float32{10, 20, 30}, []bool{true, true, false}, 3)
	v, ok := evalValid[float32](t, expr.Add(expr.Leaf(x), expr.Leaf(y)), expr.WithAllocator(mem))
	require.Equal(t, []bool{true, false, false, true, true, false}, ok)
	require.Equal(t, []float32{11, 0, 0, 14, 25, 0}, v, "null slots hold 0")

	// an op that is not 0 at 0 still leaves 0 in null slots
	v, ok = evalValid[float32](t, expr.Exp(expr.Leaf(y)), expr.WithAllocator(mem))
	require.Equal(t, []bool{true, true, false}, ok)
	require.Equal(t, float32(0), v[2])

	// a constant has no nulls; a cast keeps them
	v, ok = evalValid[float32](t, expr.Mul(expr.Cast(expr.Leaf(x), array.Float32), expr.Const(float32(2))), expr.WithAllocator(mem))
	require.Equal(t, []bool{true, false, true, true, true, true}, ok)
	require.Equal(t, []float32{2, 0, 6, 8, 10, 12}, v)
	i, iok := evalValid[int8](t, expr.Cast(expr.Leaf(x), array.Int8), expr.WithAllocator(mem))
	require.Equal(t, []bool{true, false, true, true, true, true}, iok)
	require.Equal(t, []int8{1, 0, 3, 4, 5, 6}, i)
}

func TestNullsThroughViewsAndBroadcastNodes(t *testing.T) {
	mem := checkedMem(t)
	col := mkValid(t, mem, []int32{1, 2, 3}, []bool{true, false, true}, 3, 1)
	// a broadcast view carries the mask with stride 0
	bv, err := view.BroadcastTo(col, []int{3, 4})
	require.NoError(t, err)
	defer bv.Release()
	v, ok := evalValid[int32](t, expr.Neg(expr.Leaf(bv)), expr.WithAllocator(mem))
	require.Equal(t, []int32{-1, -1, -1, -1, 0, 0, 0, 0, -3, -3, -3, -3}, v)
	require.Equal(t, []bool{true, true, true, true, false, false, false, false, true, true, true, true}, ok)
	// so does a Broadcast node, and a transposed view: col[i] + col[j]
	tr, err := view.Transpose(col)
	require.NoError(t, err)
	defer tr.Release()
	e := expr.Add(expr.BroadcastNumpy(expr.Leaf(col), []int{3, 3}), expr.Leaf(tr))
	v, ok = evalValid[int32](t, e, expr.WithAllocator(mem))
	require.Equal(t, []int32{2, 0, 4, 0, 0, 0, 4, 0, 6}, v)
	require.Equal(t, []bool{true, false, true, false, false, false, true, false, true}, ok)
	// a masked subexpression that is evaluated once and then broadcast
	sub := expr.BroadcastNumpy(expr.Mul(expr.Leaf(col), expr.Leaf(col)), []int{2, 3, 2})
	v, ok = evalValid[int32](t, sub, expr.WithAllocator(mem))
	require.Equal(t, []int32{1, 1, 0, 0, 9, 9, 1, 1, 0, 0, 9, 9}, v)
	require.Equal(t, []bool{true, true, false, false, true, true, true, true, false, false, true, true}, ok)
}

// TestWhereNulls: a select result is null where any of cond, x and y is
// null, even in the branch not taken (Arrow's rule for all operands).
func TestWhereNulls(t *testing.T) {
	mem := checkedMem(t)
	c := mkValid(t, mem, []bool{true, false, true, false}, []bool{true, true, true, false}, 4)
	x := mkValid(t, mem, []int64{1, 2, 3, 4}, []bool{true, true, false, true}, 4)
	y := mkValid(t, mem, []int64{-1, -2, -3, -4}, []bool{false, true, true, true}, 4)
	v, ok := evalValid[int64](t, expr.Where(expr.Leaf(c), expr.Leaf(x), expr.Leaf(y)), expr.WithAllocator(mem))
	require.Equal(t, []bool{false, true, false, false}, ok)
	require.Equal(t, []int64{0, -2, 0, 0}, v)
}

func TestReductionsSkipNulls(t *testing.T) {
	mem := checkedMem(t)
	x := mkValid(t, mem, []float64{1, -7, 3, -5, 8, 2}, []bool{true, false, true, true, false, true}, 2, 3)
	sum, ok := evalValid[float64](t, expr.ReduceSum(expr.Leaf(x), []int{1}, false), expr.WithAllocator(mem))
	require.Equal(t, []float64{4, -3}, sum)
	require.Equal(t, []bool{true, true}, ok, "reductions give no nulls")
	prod, _ := evalValid[float64](t, expr.ReduceProd(expr.Leaf(x), []int{1}, false), expr.WithAllocator(mem))
	require.Equal(t, []float64{3, -10}, prod)
	// a null's zero slot must not win a max or a min
	mx, _ := evalValid[float64](t, expr.ReduceMax(expr.Leaf(mkValid(t, mem, []float64{-5, 0, -3}, []bool{true, false, true}, 3)), nil, false), expr.WithAllocator(mem))
	require.Equal(t, []float64{-3}, mx)
	mn, _ := evalValid[float64](t, expr.ReduceMin(expr.Leaf(mkValid(t, mem, []float64{5, 0, 3}, []bool{true, false, true}, 3)), nil, false), expr.WithAllocator(mem))
	require.Equal(t, []float64{3}, mn)
	// all null: the identity
	none := mkValid(t, mem, []int16{0, 0}, []bool{false, false}, 2)
	s, _ := evalValid[int64](t, expr.ReduceSum(expr.Leaf(none), nil, false), expr.WithAllocator(mem))
	require.Equal(t, []int64{0}, s)
	m, _ := evalValid[int16](t, expr.ReduceMax(expr.Leaf(none), nil, false), expr.WithAllocator(mem))
	require.Equal(t, []int16{math.MinInt16}, m)
	// ReduceTo: nulls count as zero
	rt, rok := evalValid[float64](t, expr.ReduceTo(expr.Leaf(x), []int{3}), expr.WithAllocator(mem))
	require.Equal(t, []float64{-4, 0, 5}, rt)
	require.Equal(t, []bool{true, true, true}, rok)
	// nulls below an elementwise op below the reduction
	s2, _ := evalValid[float64](t, expr.ReduceSum(expr.Mul(expr.Leaf(x), expr.Const(2.0)), nil, false), expr.WithAllocator(mem))
	require.Equal(t, []float64{2}, s2)
}

// TestReduceMeanSkipsNulls: the mean of the valid elements, divided by
// their count.
func TestReduceMeanSkipsNulls(t *testing.T) {
	mem := checkedMem(t)
	x := mkValid(t, mem, []float64{1, 0, 3, 4}, []bool{true, false, true, true}, 2, 2)
	m, _ := evalValid[float64](t, expr.ReduceMean(expr.Leaf(x), []int{1}, false), expr.WithAllocator(mem))
	all := mkValid(t, mem, []float32{0, 0}, []bool{false, false}, 2)
	a, _ := evalValid[float32](t, expr.ReduceMean(expr.Leaf(all), nil, false), expr.WithAllocator(mem))
	require.Truef(t, m[0] == 1 && m[1] == 3.5 && a[0] != a[0], "ReduceMean([[1 null] [3 4]], axis 1) = %v; want [1 3.5]; mean of [null null] = %v; want NaN", m, a)
}

// TestEvalIntoMasks: an output gets a mask when the result has nulls, and
// an output with a mask gets every element's validity written, nulls or
// not.
func TestEvalIntoMasks(t *testing.T) {
	mem := checkedMem(t)
	x := mkValid(t, mem, []float32{1, 2, 3}, []bool{true, false, true}, 3)
	plain := mk(t, mem, []float32{9, 9, 9})
	require.False(t, plain.HasNulls())
	require.NoError(t, expr.EvalInto(plain, expr.Neg(expr.Leaf(x)), expr.WithAllocator(mem)))
	require.True(t, plain.HasNulls())
	ok, _ := array.ValidSlice(plain)
	require.Equal(t, []bool{true, false, true}, ok)
	v, _ := array.ToSlice[float32](plain)
	require.Equal(t, []float32{-1, 0, -3}, v)

	// the same output again with a result that has no nulls: all valid
	y := mk(t, mem, []float32{4, 5, 6})
	require.NoError(t, expr.EvalInto(plain, expr.Neg(expr.Leaf(y)), expr.WithAllocator(mem)))
	ok, _ = array.ValidSlice(plain)
	require.Equal(t, []bool{true, true, true}, ok)

	// a reduction into an output with nulls
	masked := mkValid(t, mem, []float32{0, 0}, []bool{false, true}, 2)
	m := mk(t, mem, []float32{1, 2, 3, 4}, 2, 2)
	require.NoError(t, expr.EvalInto(masked, expr.ReduceSum(expr.Leaf(m), []int{1}, false), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[float32](masked)
	require.Equal(t, []float32{3, 7}, v)
	ok, _ = array.ValidSlice(masked)
	require.Truef(t, ok[0] && ok[1], "ReduceSum into an output whose mask has a null leaves the null: validity %v; want [true true]", ok)
}

// TestNullsLarge: masks in a parallel evaluation (more than 65536
// elements, several workers and tile boundaries).
func TestNullsLarge(t *testing.T) {
	mem := checkedMem(t)
	const rows, cols = 300, 250
	v := make([]int32, rows*cols)
	valid := make([]bool, rows*cols)
	for i := range v {
		v[i] = int32(i % 97)
		valid[i] = i%7 != 3
	}
	x := mkValid(t, mem, v, valid, rows, cols)
	cv := make([]int32, cols)
	cvalid := make([]bool, cols)
	for j := range cv {
		cv[j] = int32(j)
		cvalid[j] = j%11 != 5
	}
	c := mkValid(t, mem, cv, cvalid, cols)
	got, ok := evalValid[int32](t, expr.Sub(expr.Leaf(x), expr.Leaf(c)), expr.WithAllocator(mem))
	for i := range got {
		j := i % cols
		wantOK := valid[i] && cvalid[j]
		want := int32(0)
		if wantOK {
			want = v[i] - cv[j]
		}
		if ok[i] != wantOK || got[i] != want {
			t.Fatalf("element %d: got %d (valid %v); want %d (valid %v)", i, got[i], ok[i], want, wantOK)
		}
	}
	s, _ := evalValid[int64](t, expr.ReduceSum(expr.Leaf(x), []int{0}, false), expr.WithAllocator(mem))
	for j := 0; j < cols; j++ {
		var want int64
		for r := 0; r < rows; r++ {
			if valid[r*cols+j] {
				want += int64(v[r*cols+j])
			}
		}
		require.Equal(t, want, s[j], "column %d", j)
	}
}
