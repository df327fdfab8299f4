package expr_test

// Table tests of the structural functions from NumPy's documented examples
// (numpy.transpose, reshape, flip, tile, repeat, concatenate, stack, take,
// compress, sort, argsort, matmul) and their edge cases: rank 0, zero-size
// dims, nulls, bad axes and shapes.

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

func arange(t *testing.T, mem interface{ Allocate(int) []byte }, n int, shape ...int) *array.Array {
	t.Helper()
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i)
	}
	return mk(t, nil, v, shape...)
}

type structCase struct {
	name  string
	e     *expr.Node
	shape []int
	want  []int64
}

func runStructCases(t *testing.T, cases []structCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			got := evalAs[int64](t, mem, c.e, c.e.DType(), c.shape...)
			require.Equal(t, c.want, got, "%v", c.e)
			// EvalInto a transposed output gives the same values
			rev := make([]int, len(c.shape))
			for i, d := range c.shape {
				rev[len(rev)-1-i] = d
			}
			base, err := array.New(mem, c.e.DType(), rev...)
			require.NoError(t, err)
			defer base.Release()
			dst, err := view.Transpose(base)
			require.NoError(t, err)
			defer dst.Release()
			require.NoError(t, expr.EvalInto(dst, c.e, expr.WithAllocator(mem)))
			v, err := array.ToSlice[int64](dst)
			require.NoError(t, err)
			require.Equal(t, c.want, v, "EvalInto %v", c.e)
		})
	}
}

func TestTransposeReshapeFlipDocs(t *testing.T) {
	a := expr.Leaf(arange(t, nil, 4, 2, 2))
	x6 := expr.Leaf(arange(t, nil, 6, 2, 3))
	a8 := expr.Leaf(arange(t, nil, 8, 2, 2, 2))
	s := expr.Const(int64(7))
	runStructCases(t, []structCase{
		{"transpose", expr.Transpose(a), []int{2, 2}, []int64{0, 2, 1, 3}},
		{"transpose perm", expr.Transpose(x6, 1, 0), []int{3, 2}, []int64{0, 3, 1, 4, 2, 5}},
		{"transpose negative perm", expr.Transpose(a8, -1, 0, 1), []int{2, 2, 2}, []int64{0, 2, 4, 6, 1, 3, 5, 7}},
		{"transpose scalar", expr.Transpose(s), []int{}, []int64{7}},
		{"reshape -1", expr.Reshape(x6, 3, -1), []int{3, 2}, []int64{0, 1, 2, 3, 4, 5}},
		{"reshape of a transpose copies", expr.Reshape(expr.Transpose(x6), -1), []int{6}, []int64{0, 3, 1, 4, 2, 5}},
		{"reshape of an expression", expr.Reshape(expr.Add(x6, expr.Const(1)), 6), []int{6}, []int64{1, 2, 3, 4, 5, 6}},
		{"reshape scalar", expr.Reshape(s, 1, 1), []int{1, 1}, []int64{7}},
		{"reshape to scalar", expr.Reshape(expr.Reshape(s, 1), []int{}...), []int{}, []int64{7}},
		{"flip 0", expr.Flip(a8, 0), []int{2, 2, 2}, []int64{4, 5, 6, 7, 0, 1, 2, 3}},
		{"flip 1", expr.Flip(a8, 1), []int{2, 2, 2}, []int64{2, 3, 0, 1, 6, 7, 4, 5}},
		{"flip all", expr.Flip(a8), []int{2, 2, 2}, []int64{7, 6, 5, 4, 3, 2, 1, 0}},
		{"flip 0 2", expr.Flip(a8, 0, 2), []int{2, 2, 2}, []int64{5, 4, 7, 6, 1, 0, 3, 2}},
		{"flip scalar", expr.Flip(s), []int{}, []int64{7}},
		{"flip twice", expr.Flip(expr.Flip(x6, 1), -1), []int{2, 3}, []int64{0, 1, 2, 3, 4, 5}},
	})
}

func TestTileRepeatDocs(t *testing.T) {
	a := expr.Leaf(mk(t, nil, []int64{0, 1, 2}))
	b := expr.Leaf(mk(t, nil, []int64{1, 2, 3, 4}, 2, 2))
	c := expr.Leaf(mk(t, nil, []int64{1, 2, 3, 4}))
	col := expr.Leaf(mk(t, nil, []int64{1, 2}, 2, 1))
	s := expr.Const(int64(3))
	runStructCases(t, []structCase{
		{"tile 2", expr.Tile(a, 2), []int{6}, []int64{0, 1, 2, 0, 1, 2}},
		{"tile 2 2", expr.Tile(a, 2, 2), []int{2, 6}, []int64{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}},
		{"tile 2 1 2", expr.Tile(a, 2, 1, 2), []int{2, 1, 6}, []int64{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}},
		{"tile matrix 2", expr.Tile(b, 2), []int{2, 4}, []int64{1, 2, 1, 2, 3, 4, 3, 4}},
		{"tile matrix 2 1", expr.Tile(b, 2, 1), []int{4, 2}, []int64{1, 2, 3, 4, 1, 2, 3, 4}},
		{"tile 4 1", expr.Tile(c, 4, 1), []int{4, 4}, []int64{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}},
		{"tile column (a view)", expr.Tile(col, 1, 3), []int{2, 3}, []int64{1, 1, 1, 2, 2, 2}},
		{"tile scalar 0", expr.Tile(s, 0), []int{0}, []int64{}},
		{"tile scalar 3 2", expr.Tile(s, 3, 2), []int{3, 2}, []int64{3, 3, 3, 3, 3, 3}},
		{"tile no reps", expr.Tile(b), []int{2, 2}, []int64{1, 2, 3, 4}},
		{"tile zero", expr.Tile(c, 3, 0), []int{3, 0}, []int64{}},
		{"repeat scalar", expr.RepeatFlat(s, 4), []int{4}, []int64{3, 3, 3, 3}},
		{"repeat flat", expr.RepeatFlat(b, 2), []int{8}, []int64{1, 1, 2, 2, 3, 3, 4, 4}},
		{"repeat axis 1", expr.Repeat(b, []int{3}, 1), []int{2, 6}, []int64{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}},
		{"repeat per element", expr.Repeat(b, []int{1, 2}, 0), []int{3, 2}, []int64{1, 2, 3, 4, 3, 4}},
		{"repeat size-1 axis (a view)", expr.Repeat(col, []int{3}, -1), []int{2, 3}, []int64{1, 1, 1, 2, 2, 2}},
		{"repeat 0", expr.Repeat(b, []int{0}, 1), []int{2, 0}, []int64{}},
		{"repeat of an expression", expr.Repeat(expr.Neg(c), []int{2}, 0), []int{8}, []int64{-1, -1, -2, -2, -3, -3, -4, -4}},
	})
}

func TestConcatenateStackDocs(t *testing.T) {
	a := expr.Leaf(mk(t, nil, []int64{1, 2, 3, 4}, 2, 2))
	b := expr.Leaf(mk(t, nil, []int64{5, 6}, 1, 2))
	v1 := expr.Leaf(mk(t, nil, []int64{1, 2, 3}))
	v2 := expr.Leaf(mk(t, nil, []int64{4, 5, 6}))
	e := expr.Leaf(mk(t, nil, []int64{}, 0, 2))
	s := expr.Const(int64(9))
	runStructCases(t, []structCase{
		{"concatenate 0", expr.Concatenate([]*expr.Node{a, b}, 0), []int{3, 2}, []int64{1, 2, 3, 4, 5, 6}},
		{"concatenate 1", expr.Concatenate([]*expr.Node{a, expr.Transpose(b)}, 1), []int{2, 3}, []int64{1, 2, 5, 3, 4, 6}},
		{"concatenate flat", expr.Concatenate([]*expr.Node{expr.Reshape(a, -1), expr.Reshape(b, -1)}, 0), []int{6}, []int64{1, 2, 3, 4, 5, 6}},
		{"concatenate empty piece", expr.Concatenate([]*expr.Node{e, a, e}, -2), []int{2, 2}, []int64{1, 2, 3, 4}},
		{"concatenate expressions", expr.Concatenate([]*expr.Node{expr.Mul(a, expr.Const(10)), expr.ReduceSum(a, []int{0}, true)}, 0), []int{3, 2}, []int64{10, 20, 30, 40, 4, 6}},
		{"concatenate one", expr.Concatenate([]*expr.Node{v1}, 0), []int{3}, []int64{1, 2, 3}},
		{"stack", expr.Stack([]*expr.Node{v1, v2}, 0), []int{2, 3}, []int64{1, 2, 3, 4, 5, 6}},
		{"stack -1", expr.Stack([]*expr.Node{v1, v2}, -1), []int{3, 2}, []int64{1, 4, 2, 5, 3, 6}},
		{"stack scalars", expr.Stack([]*expr.Node{s, s, s}, 0), []int{3}, []int64{9, 9, 9}},
		{"stack empty", expr.Stack([]*expr.Node{e, e}, 1), []int{0, 2, 2}, []int64{}},
	})
	// numpy.stack of 10 arrays of shape (3, 4)
	ten := make([]*expr.Node, 10)
	for i := range ten {
		ten[i] = expr.Leaf(arange(t, nil, 12, 3, 4))
	}
	for axis, want := range [][]int{{10, 3, 4}, {3, 10, 4}, {3, 4, 10}} {
		got, ok := expr.Stack(ten, axis).StaticShape()
		require.True(t, ok)
		require.Equal(t, want, got)
	}
}

func TestConcatenatePromotesAndKeepsNulls(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float16.Num{float16.New(1), float16.New(2)}, []bool{true, false}, 2)
	require.NoError(t, err)
	defer a.Release()
	b := mk(t, mem, []int32{3})
	e := expr.Concatenate([]*expr.Node{expr.Leaf(a), expr.Leaf(b)}, 0)
	require.Equal(t, array.Float64, e.DType()) // numpy.result_type(float16, int32)
	out, err := expr.Eval(e, expr.WithAllocator(mem))
	require.NoError(t, err)
	defer out.Release()
	v, _ := array.ToSlice[float64](out)
	valid, _ := array.ValidSlice(out)
	require.Equal(t, []float64{1, 0, 3}, v)
	require.Equal(t, []bool{true, false, true}, valid)
}

// TestJoinPromotesAsNumPy: three or more pieces promote by NumPy's n-ary
// rule, not a pairwise fold (numpy.result_type, as numpy.concatenate,
// numpy.stack and numpy.clip give them): uint8, int8 and float16 give
// float16 (pairwise: int16, then float32), int8, uint16 and float32 give
// float32 (pairwise: int32, then float64), int64, float32 and int8 give
// float64.
func TestJoinPromotesAsNumPy(t *testing.T) {
	mem := checkedMem(t)
	leaf := func(dt array.DType) *expr.Node {
		return expr.Cast(expr.Leaf(mk(t, mem, []int8{1, 2})), dt)
	}
	for _, c := range []struct {
		dts  []array.DType
		want array.DType
	}{
		{[]array.DType{array.Uint8, array.Int8, array.Float16}, array.Float16},
		{[]array.DType{array.Int8, array.Uint16, array.Float32}, array.Float32},
		{[]array.DType{array.Int64, array.Float32, array.Int8}, array.Float64},
		{[]array.DType{array.Int16, array.Float16, array.Int8}, array.Float32},
		{[]array.DType{array.Uint8, array.Int8}, array.Int16},
	} {
		var xs []*expr.Node
		for _, dt := range c.dts {
			xs = append(xs, leaf(dt))
		}
		want := make([]float64, 0, 2*len(c.dts))
		for range c.dts {
			want = append(want, 1, 2)
		}
		cat, st := expr.Concatenate(xs, 0), expr.Stack(xs, 0)
		require.Equal(t, c.want, cat.DType(), "concatenate %v", c.dts)
		require.Equal(t, c.want, st.DType(), "stack %v", c.dts)
		require.Equal(t, want, evalAs[float64](t, mem, expr.Cast(cat, array.Float64), array.Float64, len(want)))
		require.Equal(t, want, evalAs[float64](t, mem, expr.Cast(st, array.Float64), array.Float64, len(c.dts), 2))
		if len(c.dts) == 3 {
			require.Equal(t, c.want, expr.Clip(xs[0], xs[1], xs[2]).DType(), "clip %v", c.dts)
		}
	}
}

func TestTakeCompressDocs(t *testing.T) {
	a := expr.Leaf(mk(t, nil, []int64{4, 3, 5, 7, 6, 8}))
	m := expr.Leaf(mk(t, nil, []int64{1, 2, 3, 4, 5, 6}, 3, 2))
	idx := expr.Leaf(mk(t, nil, []int32{0, 1, 4}))
	idx2 := expr.Leaf(mk(t, nil, []uint8{0, 1, 2, 3}, 2, 2))
	neg := expr.Leaf(mk(t, nil, []int64{-1, -6}))
	runStructCases(t, []structCase{
		{"take", expr.Take(a, idx, 0), []int{3}, []int64{4, 3, 6}},
		{"take 2-D indices", expr.Take(a, idx2, 0), []int{2, 2}, []int64{4, 3, 5, 7}},
		{"take negative", expr.Take(a, neg, -1), []int{2}, []int64{8, 4}},
		{"take scalar index", expr.Take(m, expr.Const(1), 1), []int{3}, []int64{2, 4, 6}},
		{"take flat", expr.TakeFlat(m, expr.Leaf(mk(t, nil, []int16{5, 0}))), []int{2}, []int64{6, 1}},
		{"take rows", expr.Take(m, expr.Leaf(mk(t, nil, []int64{2, 2, 0})), 0), []int{3, 2}, []int64{5, 6, 5, 6, 1, 2}},
		{"take none", expr.Take(m, expr.Leaf(mk(t, nil, []int64{})), 1), []int{3, 0}, []int64{}},
	})
	mem := checkedMem(t)
	bools := func(v ...bool) *expr.Node { return expr.Leaf(mk(t, mem, v)) }
	for _, c := range []struct {
		name  string
		cond  *expr.Node
		axis  int
		flat  bool
		shape []int
		want  []int64
	}{
		{"rows", bools(false, true), 0, false, []int{1, 2}, []int64{3, 4}},
		{"rows 2", bools(false, true, true), 0, false, []int{2, 2}, []int64{3, 4, 5, 6}},
		{"columns", bools(false, true), 1, false, []int{3, 1}, []int64{2, 4, 6}},
		{"flat", bools(false, true), 0, true, []int{1}, []int64{2}},
		{"longer, false past the end", bools(true, false, false, false), 1, false, []int{3, 1}, []int64{1, 3, 5}},
		{"none", bools(), -1, false, []int{3, 0}, []int64{}},
	} {
		var out *array.Array
		var err error
		if c.flat {
			out, err = expr.CompressFlat(c.cond, m, expr.WithAllocator(mem))
		} else {
			out, err = expr.Compress(c.cond, m, c.axis, expr.WithAllocator(mem))
		}
		require.NoError(t, err, c.name)
		require.Equal(t, c.shape, out.Shape(), c.name)
		v, _ := array.ToSlice[int64](out)
		require.Equal(t, c.want, v, c.name)
		out.Release()
	}
}

func TestTakeCompressErrors(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []float32{1, 2, 3, 4}, 2, 2))
	for _, c := range []struct {
		idx  []int64
		axis int
		msg  string
	}{
		{[]int64{2}, 0, "index 2 is out of bounds for axis 0 with size 2"},
		{[]int64{0, -3}, 1, "index -3 is out of bounds for axis 1 with size 2"},
	} {
		_, err := expr.Eval(expr.Take(a, expr.Leaf(mk(t, mem, c.idx)), c.axis), expr.WithAllocator(mem))
		require.ErrorIs(t, err, array.ErrIndex)
		require.ErrorContains(t, err, c.msg)
	}
	require.ErrorIs(t, expr.Take(a, expr.Leaf(mk(t, mem, []int64{0})), 2).Err(), broadcast.ErrAxes)
	require.ErrorIs(t, expr.Take(a, expr.Leaf(mk(t, mem, []float32{0})), 0).Err(), expr.ErrDType)
	require.ErrorIs(t, expr.Take(expr.Leaf(mk(t, mem, []float32{}, 0)), expr.Leaf(mk(t, mem, []int64{0})), 0).Err(), array.ErrIndex)
	require.ErrorIs(t, expr.Take(nil, a, 0).Err(), expr.ErrNilNode)
	// a null index gives a null element
	idx, err := array.FromSliceValid(mem, []int64{1, 99}, []bool{true, false})
	require.NoError(t, err)
	defer idx.Release()
	out, err := expr.Eval(expr.Take(a, expr.Leaf(idx), 1), expr.WithAllocator(mem))
	require.NoError(t, err)
	valid, _ := array.ValidSlice(out)
	v, _ := array.ToSlice[float32](out)
	require.Equal(t, []bool{true, false, true, false}, valid)
	require.Equal(t, []float32{2, 0, 4, 0}, v)
	out.Release()

	cond := expr.Leaf(mk(t, mem, []bool{false, false, true}))
	_, err = expr.Compress(cond, a, 0, expr.WithAllocator(mem))
	require.ErrorIs(t, err, array.ErrIndex)
	require.ErrorContains(t, err, "true at 2, out of bounds for axis 0 with size 2")
	_, err = expr.Compress(cond, a, 2, expr.WithAllocator(mem))
	require.ErrorIs(t, err, broadcast.ErrAxes)
	_, err = expr.Compress(&expr.Node{}, a, 0, expr.WithAllocator(mem))
	require.ErrorIs(t, err, expr.ErrNilNode, "a zero Node is not a condition")
	// a condition of another dtype reads as cond != 0; bool indices as 0 and 1
	out, err = expr.Compress(expr.Leaf(mk(t, mem, []float32{0, -2})), a, 1, expr.WithAllocator(mem))
	require.NoError(t, err)
	v, _ = array.ToSlice[float32](out)
	require.Equal(t, []float32{2, 4}, v)
	out.Release()
	require.Equal(t, []float32{2, 1}, evalAs[float32](t, mem, expr.Take(a, expr.Leaf(mk(t, mem, []bool{true, false})), 1), array.Float32, 2, 2)[:2])
	_, err = expr.Compress(expr.Leaf(mk(t, mem, []bool{true, true}, 1, 2)), a, 0, expr.WithAllocator(mem))
	require.ErrorIs(t, err, expr.ErrArgument)
	_, err = expr.Compress(nil, a, 0)
	require.ErrorIs(t, err, expr.ErrNilNode)
	// a null in the condition counts as false
	cn, err := array.FromSliceValid(mem, []bool{true, true}, []bool{false, true})
	require.NoError(t, err)
	defer cn.Release()
	out, err = expr.Compress(expr.Leaf(cn), a, 0, expr.WithAllocator(mem))
	require.NoError(t, err)
	v, _ = array.ToSlice[float32](out)
	require.Equal(t, []float32{3, 4}, v)
	out.Release()
}

func TestSortArgsortDocs(t *testing.T) {
	a := expr.Leaf(mk(t, nil, []int64{1, 4, 3, 1}, 2, 2))
	x := expr.Leaf(mk(t, nil, []int64{3, 1, 2}))
	y := expr.Leaf(mk(t, nil, []int64{0, 3, 2, 2}, 2, 2))
	s := expr.Const(int64(5))
	runStructCases(t, []structCase{
		{"sort", expr.Sort(a, -1), []int{2, 2}, []int64{1, 4, 1, 3}},
		{"sort flat", expr.SortFlat(a), []int{4}, []int64{1, 1, 3, 4}},
		{"sort 0", expr.Sort(a, 0), []int{2, 2}, []int64{1, 1, 3, 4}},
		{"sort scalar flat", expr.SortFlat(s), []int{1}, []int64{5}},
		{"argsort", expr.Argsort(x, 0), []int{3}, []int64{1, 2, 0}},
		{"argsort 0", expr.Argsort(y, 0), []int{2, 2}, []int64{0, 1, 1, 0}},
		{"argsort 1", expr.Argsort(y, 1), []int{2, 2}, []int64{0, 1, 0, 1}},
		{"argsort stable ties", expr.Argsort(expr.Leaf(mk(t, nil, []int64{2, 1, 2, 1, 2})), 0), []int{5}, []int64{1, 3, 0, 2, 4}},
		{"argsort flat", expr.ArgsortFlat(y), []int{4}, []int64{0, 2, 3, 1}},
	})
}

func TestSortNaNsZerosFloat16Bool(t *testing.T) {
	mem := checkedMem(t)
	nan, inf := math.NaN(), math.Inf(1)
	// numpy.sort([nan, 1, -inf, nan, 0]): NaNs last
	f := mk(t, mem, []float64{nan, 1, -inf, nan, 0})
	got := evalAs[float64](t, mem, expr.Sort(expr.Leaf(f), 0), array.Float64, 5)
	require.Equal(t, []float64{-inf, 0, 1}, got[:3])
	require.True(t, math.IsNaN(got[3]) && math.IsNaN(got[4]))
	require.Equal(t, []int64{2, 4, 1, 0, 3}, evalAs[int64](t, mem, expr.Argsort(expr.Leaf(f), 0), array.Int64, 5))
	// -0.0 and 0.0 are equal: a stable sort keeps their order
	z := mk(t, mem, []float32{0, float32(math.Copysign(0, -1)), -1, 0})
	zs := evalAs[float32](t, mem, expr.Sort(expr.Leaf(z), 0), array.Float32, 4)
	require.Equal(t, []float32{-1, 0, 0, 0}, zs)
	require.Equal(t, []bool{true, false, true, false}, []bool{math.Signbit(float64(zs[0])), math.Signbit(float64(zs[1])), math.Signbit(float64(zs[2])), math.Signbit(float64(zs[3]))})
	require.Equal(t, []int64{2, 0, 1, 3}, evalAs[int64](t, mem, expr.Argsort(expr.Leaf(z), 0), array.Int64, 4))
	// float16 by value, NaN last
	h := mk(t, mem, []float16.Num{float16.New(2.5), float16.NaN(), float16.New(-1), float16.New(0.5)})
	require.Equal(t, []int64{2, 3, 0, 1}, evalAs[int64](t, mem, expr.Argsort(expr.Leaf(h), 0), array.Int64, 4))
	hs := evalAs[float32](t, mem, expr.Sort(expr.Leaf(h), 0), array.Float16, 4)
	require.Equal(t, []float32{-1, 0.5, 2.5}, hs[:3])
	// bool: false first
	b := mk(t, mem, []bool{true, false, true, false})
	require.Equal(t, []int64{1, 3, 0, 2}, evalAs[int64](t, mem, expr.Argsort(expr.Leaf(b), 0), array.Int64, 4))
	// nulls after the NaNs, in order, still null
	nv, err := array.FromSliceValid(mem, []float64{3, 9, nan, 1, 8}, []bool{true, false, true, true, false})
	require.NoError(t, err)
	defer nv.Release()
	require.Equal(t, []int64{3, 0, 2, 1, 4}, evalAs[int64](t, mem, expr.Argsort(expr.Leaf(nv), 0), array.Int64, 5))
	out, err := expr.Eval(expr.Sort(expr.Leaf(nv), 0), expr.WithAllocator(mem))
	require.NoError(t, err)
	valid, _ := array.ValidSlice(out)
	require.Equal(t, []bool{true, true, true, false, false}, valid)
	out.Release()
}

func TestStructuralZeroSize(t *testing.T) {
	mem := checkedMem(t)
	e := expr.Leaf(mk(t, mem, []float32{}, 3, 0, 2))
	for _, c := range []struct {
		e     *expr.Node
		shape []int
	}{
		{expr.Transpose(e), []int{2, 0, 3}},
		{expr.Reshape(e, 0, -1, 2), nil}, // -1 with zero elements elsewhere: error
		{expr.Reshape(e, 2, 0, 5), []int{2, 0, 5}},
		{expr.Flip(e, 1), []int{3, 0, 2}},
		{expr.Tile(e, 2, 1, 1), []int{6, 0, 2}},
		{expr.Repeat(e, []int{3}, 1), []int{3, 0, 2}},
		{expr.Sort(e, 1), []int{3, 0, 2}},
		{expr.Argsort(e, 0), []int{3, 0, 2}},
		{expr.Concatenate([]*expr.Node{e, e}, 1), []int{3, 0, 2}},
		{expr.Stack([]*expr.Node{e, e}, 3), []int{3, 0, 2, 2}},
		{expr.Take(e, expr.Leaf(mk(t, mem, []int64{2, 0})), 0), []int{2, 0, 2}},
		{expr.Matmul(e, expr.Leaf(mk(t, mem, []float32{}, 2, 0))), []int{3, 0, 0}},
	} {
		if c.shape == nil {
			require.ErrorIs(t, c.e.Err(), view.ErrShape, "%v", c.e)
			continue
		}
		out, err := expr.Eval(c.e, expr.WithAllocator(mem))
		require.NoError(t, err, "%v", c.e)
		require.Equal(t, c.shape, out.Shape(), "%v", c.e)
		out.Release()
	}
}

func TestStructuralErrors(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3))
	b := expr.Leaf(mk(t, mem, []float32{1, 2}, 2))
	s := expr.Const(float32(1))
	for _, c := range []struct {
		e   *expr.Node
		is  error
		msg string
	}{
		{expr.Transpose(a, 0), broadcast.ErrAxes, "1 axes for rank 2"},
		{expr.Transpose(a, 0, 0), broadcast.ErrAxes, "repeated"},
		{expr.Transpose(a, 0, 2), broadcast.ErrAxes, "axis 2 out of range"},
		{expr.Reshape(a, 4, -1), view.ErrShape, "6 elements cannot take a shape of [4 -1]"},
		{expr.Reshape(a, -1, -1), view.ErrShape, "both -1"},
		{expr.Reshape(a, 7), view.ErrShape, "6 elements"},
		{expr.Reshape(a, -2, 3), view.ErrShape, "negative"},
		{expr.Flip(a, 2), broadcast.ErrAxes, "axis 2 out of range"},
		{expr.Flip(a, 1, -1), broadcast.ErrAxes, "repeated"},
		{expr.Flip(s, 0), broadcast.ErrAxes, "out of range for rank 0"},
		{expr.Tile(a, -1), view.ErrShape, "negative"},
		{expr.Repeat(a, []int{-1}, 0), expr.ErrArgument, "negative"},
		{expr.Repeat(a, []int{2}, 2), broadcast.ErrAxes, "axis 2 out of range"},
		{expr.Repeat(a, []int{1, 2}, 1), expr.ErrArgument, "2 repeats for axis 1"},
		{expr.Repeat(a, []int{1, -2}, 0), expr.ErrArgument, "repeats[1] is negative"},
		{expr.Concatenate(nil, 0), expr.ErrArgument, "at least one"},
		{expr.Concatenate([]*expr.Node{a, b}, 0), broadcast.ErrIncompatible, "[2 3], piece 1 has shape [2] (another rank)"},
		{expr.Concatenate([]*expr.Node{a, expr.Transpose(a)}, 0), broadcast.ErrIncompatible, "axis 1 differs"},
		{expr.Concatenate([]*expr.Node{a, a}, 2), broadcast.ErrAxes, "axis 2 out of range"},
		{expr.Concatenate([]*expr.Node{s, s}, 0), broadcast.ErrIncompatible, "zero-dimensional"},
		{expr.Concatenate([]*expr.Node{a, nil}, 0), expr.ErrNilNode, "operand 1"},
		{expr.Stack([]*expr.Node{a, expr.Transpose(a)}, 0), broadcast.ErrIncompatible, "same shape"},
		{expr.Stack([]*expr.Node{a, a}, 3), broadcast.ErrAxes, "axis 3 out of range for rank 3"},
		{expr.Sort(a, 2), broadcast.ErrAxes, "axis 2 out of range"},
		{expr.Argsort(s, 1), broadcast.ErrAxes, "axis 1 out of range for shape [1]"},
		{expr.Sort(s, 0), broadcast.ErrAxes, "axis 0 out of range for shape []"},
		{expr.Take(a, expr.Leaf(mk(t, mem, []uint64{0})), 0), expr.ErrDType, "uint64"},
		{expr.Matmul(a, a), array.ErrShape, "[2 3] and [2 3] do not align"},
		{expr.Matmul(a, s), array.ErrShape, "scalar"},
		{expr.Matmul(expr.Leaf(mk(t, mem, make([]float32, 12), 2, 2, 3)), expr.Leaf(mk(t, mem, make([]float32, 18), 3, 3, 2))), array.ErrShape, "batch axes do not broadcast"},
	} {
		err := c.e.Err()
		require.ErrorIs(t, err, c.is, "%v", c.e)
		require.ErrorContains(t, err, c.msg)
		_, err = expr.Eval(c.e, expr.WithAllocator(mem))
		require.ErrorIs(t, err, c.is)
	}
	// errors found at evaluation: variables of unknown dims
	v := expr.Var("v", array.Float32, broadcast.Partial(-1, 3))
	for _, c := range []struct {
		e  *expr.Node
		is error
	}{
		{expr.Reshape(v, 4, -1), view.ErrShape},
		{expr.Concatenate([]*expr.Node{v, expr.Transpose(a)}, 0), broadcast.ErrIncompatible},
		{expr.Matmul(v, a), array.ErrShape},
	} {
		require.NoError(t, c.e.Err(), "%v", c.e)
		x := mk(t, mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
		_, err := expr.Eval(c.e, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"v": x}))
		require.ErrorIs(t, err, c.is, "%v", c.e)
	}
}

func TestStructuralOverVariables(t *testing.T) {
	mem := checkedMem(t)
	v := expr.Var("v", array.Int64, broadcast.Partial(-1, 2))
	e := expr.Concatenate([]*expr.Node{expr.Flip(v, 0), expr.Sort(v, 0)}, 1)
	require.Equal(t, 2, len(e.Shape().Dims))
	p, err := expr.Compile(e, expr.WithAllocator(mem))
	require.NoError(t, err)
	for _, n := range []int{1, 3} {
		vals := make([]int64, 2*n)
		for i := range vals {
			vals[i] = int64((i * 7) % 5)
		}
		x := mk(t, mem, vals, n, 2)
		out, err := p.Eval(expr.Bindings{"v": x})
		require.NoError(t, err)
		require.Equal(t, []int{n, 4}, out.Shape())
		out.Release()
	}
}

// A view node over an array is read in place by the pass that uses it:
// Explain shows the leaf with the view's strides (negative for Flip, 0 for
// a tile of a column, permuted for Transpose), not a copy.
func TestViewNodesAreNotCopied(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, make([]float32, 6), 2, 3))
	col := expr.Leaf(mk(t, mem, make([]float32, 2), 2, 1))
	for _, c := range []struct {
		e       *expr.Node
		strides string
	}{
		{expr.Add(expr.Flip(a), expr.Const(1)), "strides [-3 -1]"},
		{expr.Add(expr.Transpose(a), expr.Const(1)), "strides [1 3]"},
		{expr.Add(expr.Tile(col, 1, 5), expr.Const(1)), "strides [1 0]"},
		{expr.Add(expr.Repeat(col, []int{4}, 1), expr.Const(1)), "strides [1 0]"},
		{expr.ReduceSum(expr.Reshape(expr.Transpose(a), 3, 2, 1), nil, false), "strides [1 3 3]"},
	} {
		s, err := expr.Explain(c.e, expr.WithAllocator(mem))
		require.NoError(t, err)
		require.Contains(t, s, c.strides, s)
		require.NotContains(t, s, "elementwise array<", s) // no copy pass of an array
	}
}

func TestEvalIntoOverlappingConcatenate(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []int64{1, 2, 3, 4}, 4)
	head, err := view.Slice(x, view.Span(0, 1))
	require.NoError(t, err)
	defer head.Release()
	tail, err := view.Slice(x, view.From(1))
	require.NoError(t, err)
	defer tail.Release()
	// x = concatenate(x[1:], x[:1]), written over x itself
	require.NoError(t, expr.EvalInto(x, expr.Concatenate([]*expr.Node{expr.Leaf(tail), expr.Leaf(head)}, 0), expr.WithAllocator(mem)))
	v, _ := array.ToSlice[int64](x)
	require.Equal(t, []int64{2, 3, 4, 1}, v)
	// and a sort in place
	require.NoError(t, expr.EvalInto(x, expr.Sort(expr.Leaf(x), 0), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[int64](x)
	require.Equal(t, []int64{1, 2, 3, 4}, v)
	// views of the output itself: x = flip(x) + 0, x = flip(x), sq = sq.T
	require.NoError(t, expr.EvalInto(x, expr.Add(expr.Flip(expr.Leaf(x)), expr.Const(0)), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[int64](x)
	require.Equal(t, []int64{4, 3, 2, 1}, v)
	require.NoError(t, expr.EvalInto(x, expr.Flip(expr.Leaf(x)), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[int64](x)
	require.Equal(t, []int64{1, 2, 3, 4}, v)
	sq := mk(t, mem, []int64{1, 2, 3, 4}, 2, 2)
	require.NoError(t, expr.EvalInto(sq, expr.Transpose(expr.Leaf(sq)), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[int64](sq)
	require.Equal(t, []int64{1, 3, 2, 4}, v)
	head2, err := view.Slice(x, view.Span(0, 2))
	require.NoError(t, err)
	defer head2.Release()
	require.NoError(t, expr.EvalInto(x, expr.Tile(expr.Leaf(head2), 2), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[int64](x)
	require.Equal(t, []int64{1, 2, 1, 2}, v)
	require.NoError(t, expr.EvalInto(x, expr.Reshape(expr.Transpose(expr.Leaf(sq)), -1), expr.WithAllocator(mem)))
	v, _ = array.ToSlice[int64](x)
	require.Equal(t, []int64{1, 2, 3, 4}, v)
	// a wrong output is an error
	bad := mk(t, mem, []int64{0, 0, 0}, 3)
	err = expr.EvalInto(bad, expr.Flip(expr.Leaf(x)), expr.WithAllocator(mem))
	require.ErrorIs(t, err, expr.ErrOutput)
}

func TestMatmulNode(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []int64{1, 0, 0, 1}, 2, 2))
	b := expr.Leaf(mk(t, mem, []int64{4, 1, 2, 2}, 2, 2))
	v := expr.Leaf(mk(t, mem, []int64{1, 2}))
	runStructCases(t, []structCase{
		{"matmul", expr.Matmul(a, b), []int{2, 2}, []int64{4, 1, 2, 2}},
		{"matrix vector", expr.Matmul(a, v), []int{2}, []int64{1, 2}},
		{"vector matrix", expr.Matmul(v, b), []int{2}, []int64{8, 5}},
		{"vector vector", expr.Matmul(v, v), []int{}, []int64{5}},
		{"of expressions, inside one", expr.Add(expr.Matmul(expr.Mul(a, expr.Const(2)), expr.Transpose(b)), expr.Const(1)), []int{2, 2}, []int64{9, 5, 3, 5}},
	})
	// numpy.matmul(ones((9, 5, 7, 4)), ones((9, 5, 4, 3))).shape
	x := expr.Var("x", array.Float32, broadcast.StaticShape(9, 5, 7, 4))
	y := expr.Var("y", array.Float32, broadcast.StaticShape(9, 5, 4, 3))
	s, ok := expr.Matmul(x, y).StaticShape()
	require.True(t, ok)
	require.Equal(t, []int{9, 5, 7, 3}, s)
	s, _ = expr.Matmul(expr.Var("p", array.Float32, broadcast.StaticShape(3, 1, 5, 5)), expr.Var("q", array.Float32, broadcast.StaticShape(2, 5, 2))).StaticShape()
	require.Equal(t, []int{3, 2, 5, 2}, s)
	require.Equal(t, array.Float32, expr.Matmul(expr.Var("i", array.Int16, broadcast.StaticShape(2)), expr.Var("h", array.Float16, broadcast.StaticShape(2))).DType())
}

func TestStructuralString(t *testing.T) {
	a := expr.Var("a", array.Float32, broadcast.StaticShape(2, 3))
	i := expr.Var("i", array.Int64, broadcast.StaticShape(2))
	for _, c := range []struct {
		e    *expr.Node
		want string
	}{
		{expr.Transpose(a), "transpose(a)"},
		{expr.Transpose(a, 1, 0), "transpose(a, [1 0])"},
		{expr.Reshape(a, 3, -1), "reshape(a, [3 -1])"},
		{expr.Flip(a, 1), "flip(a, axes=[1])"},
		{expr.Tile(a, 2, 1), "tile(a, [2 1])"},
		{expr.Repeat(a, []int{2}, 1), "repeat(a, 2, axis=1)"},
		{expr.Concatenate([]*expr.Node{a, a}, 0), "concatenate(a, a, axis=0)"},
		{expr.Stack([]*expr.Node{a, a}, -1), "stack(a, a, axis=-1)"},
		{expr.Take(a, i, 1), "take(a, i, axis=1)"},
		{expr.Sort(a, -1), "sort(a, axis=-1)"},
		{expr.ArgsortFlat(a), "argsort(reshape(a, [-1]), axis=0)"},
		{expr.Matmul(a, expr.Transpose(a)), "matmul(a, transpose(a))"},
		{expr.Cast(expr.Sqrt(a), array.Float64), "cast(sqrt(a), float64)"},
	} {
		require.Equal(t, c.want, c.e.String())
	}
	// Explain names the operand of the copy into a strided output
	mem := checkedMem(t)
	x := mk(t, mem, []float32{1, 2, 3, 4}, 2, 2)
	out, err := expr.Eval(expr.ReduceMean(expr.Leaf(x), []int{0}, false), expr.WithAllocator(mem))
	require.NoError(t, err)
	out.Release()
	s, err := expr.Explain(expr.ReduceSum(expr.Leaf(mk(t, mem, []int8{1, 2}, 2)), nil, false), expr.WithAllocator(mem))
	require.NoError(t, err)
	require.NotContains(t, s, "(,")
	require.False(t, strings.Contains(s, "cast(,"), s)
	require.True(t, errors.Is(expr.Sort(nil, 0).Err(), expr.ErrNilNode))
}

func TestStructuralHugeShapes(t *testing.T) {
	v := expr.Var("v", array.Float32, broadcast.StaticShape(1<<30, 1<<10))
	for _, e := range []*expr.Node{
		expr.Tile(v, 1<<20, 1),
		expr.Repeat(v, []int{1 << 20}, 1),
		expr.Repeat(expr.Var("w", array.Int8, broadcast.StaticShape(3)), []int{1 << 39, 1 << 39, 1 << 39}, 0),
		expr.Concatenate(slices.Repeat([]*expr.Node{v}, 300), 0),
	} {
		require.Error(t, e.Err(), "%v", e)
	}
}

// Pieces that are arrays with long contiguous rows are copied by memmove:
// the same values and nulls as the fused copy pass, for both axes, with a
// piece with nulls next to one without, a reversed piece (not contiguous:
// the fused pass) and a strided output.
func TestConcatenateBlockCopy(t *testing.T) {
	mem := checkedMem(t)
	const R, C = 3, 100
	vals := func(off float64, n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = off + float64(i)
		}
		return v
	}
	a := mk(t, mem, vals(0, R*C), R, C)
	valid := make([]bool, R*C)
	for i := range valid {
		valid[i] = i%7 != 3
	}
	b, err := array.FromSliceValid(mem, vals(1000, R*C), valid, R, C)
	require.NoError(t, err)
	defer b.Release()
	c := mk(t, mem, vals(5000, R*C), R, C)
	rc, err := view.Flip(c, 1)
	require.NoError(t, err)
	defer rc.Release()
	for k := range 4 {
		axis, third, rev := k%2, rc, true
		if k >= 2 { // all contiguous: along axis 1, rows interleaved
			third, rev = c, false
		}
		e := expr.Concatenate([]*expr.Node{expr.Leaf(a), expr.Leaf(b), expr.Leaf(third)}, axis)
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		require.NoError(t, err)
		got, _ := array.ToSlice[float64](out)
		gotValid, _ := array.ValidSlice(out)
		s := out.Shape()
		for k := range got {
			i, j := k/s[1], k%s[1]
			piece, pi, pj := 0, i, j
			if axis == 0 {
				piece, pi = i/R, i%R
			} else {
				piece, pj = j/C, j%C
			}
			var want float64
			wantValid := true
			switch piece {
			case 0:
				want = float64(pi*C + pj)
			case 1:
				want, wantValid = float64(1000+pi*C+pj), valid[pi*C+pj]
			case 2:
				want = float64(5000 + pi*C + pj)
				if rev {
					want = float64(5000 + pi*C + (C - 1 - pj))
				}
			}
			require.Equal(t, wantValid, gotValid[k], "axis %d element %d", axis, k)
			if wantValid {
				require.Equal(t, want, got[k], "axis %d element %d", axis, k)
			}
		}
		// into a transposed output: the same
		base, err := array.New(mem, array.Float64, s[1], s[0])
		require.NoError(t, err)
		dst, err := view.Transpose(base)
		require.NoError(t, err)
		require.NoError(t, expr.EvalInto(dst, e, expr.WithAllocator(mem)))
		got2, _ := array.ToSlice[float64](dst)
		valid2, _ := array.ValidSlice(dst)
		require.Equal(t, gotValid, valid2)
		for k := range got {
			if gotValid[k] {
				require.Equal(t, got[k], got2[k])
			}
		}
		dst.Release()
		base.Release()
		out.Release()
	}
}

func TestExplainStructural(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []float32{3, 1, 2, 0}, 2, 2))
	for _, c := range []struct {
		e    *expr.Node
		want []string
	}{
		{expr.Concatenate([]*expr.Node{a, expr.Neg(a)}, 1), []string{"pass 1 (root): concatenate concatenate(array<float32[2 2]>, negative(array<float32[2 2]>), axis=1) -> float32 [2 4]", "2 pieces"}},
		{expr.Sort(expr.Neg(a), 0), []string{"(root): sort", "operand 0: array(float32 [2 2]", "lane along the axis"}},
		{expr.Matmul(a, a), []string{"(root): matmul", "linalg.Matmul"}},
		{expr.Take(a, expr.Const(0), 0), []string{"(root): take", "gathered"}},
		{expr.Flip(a), []string{"(root): flip", "a view of the operand"}},
	} {
		s, err := expr.Explain(c.e, expr.WithAllocator(mem))
		require.NoError(t, err)
		for _, w := range c.want {
			require.Contains(t, s, w)
		}
	}
}

// NumPy reads a rank-0 operand of take, repeat, argsort and compress as a
// 1-D array of one element (PyArray_CheckAxis); sort of one is an error.
func TestRankZeroAsOneElement(t *testing.T) {
	mem := checkedMem(t)
	s := expr.Const(int64(5))
	require.Equal(t, []int64{5, 5}, evalAs[int64](t, mem, expr.Take(s, expr.Leaf(mk(t, mem, []int64{0, -1})), 0), array.Int64, 2))
	require.Equal(t, []int64{5}, evalAs[int64](t, mem, expr.Take(s, expr.Const(0), -1), array.Int64))
	require.Equal(t, []int64{0}, evalAs[int64](t, mem, expr.Argsort(s, -1), array.Int64, 1))
	require.Equal(t, []int64{5, 5, 5}, evalAs[int64](t, mem, expr.Repeat(s, []int{3}, 0), array.Int64, 3))
	out, err := expr.Compress(expr.Leaf(mk(t, mem, []bool{true})), s, 0, expr.WithAllocator(mem))
	require.NoError(t, err)
	require.Equal(t, []int{1}, out.Shape())
	out.Release()
	require.ErrorIs(t, expr.Take(s, expr.Const(0), 1).Err(), broadcast.ErrAxes)
	require.ErrorIs(t, expr.Repeat(s, []int{2}, 1).Err(), broadcast.ErrAxes)
}

// Over variables of unknown dims, the dims that follow from the operands'
// are known when the node is built.
func TestStructuralPartialShapes(t *testing.T) {
	v := expr.Var("v", array.Float32, broadcast.Partial(-1, 3))
	i := expr.Var("i", array.Int64, broadcast.Partial(-1))
	for _, c := range []struct {
		e    *expr.Node
		want string
	}{
		{expr.Transpose(v), "[3 ?]"},
		{expr.Transpose(v, 0, 1), "[? 3]"},
		{expr.Flip(v, 0), "[? 3]"},
		{expr.Sort(v, 0), "[? 3]"},
		{expr.Reshape(v, -1, 6), "[? 6]"},
		{expr.Take(v, i, 1), "[? ?]"},
		{expr.Take(v, expr.Const(0), 0), "[3]"},
		{expr.Stack([]*expr.Node{v, v}, 1), "[? 2 3]"},
		{expr.Concatenate([]*expr.Node{v, v}, 0), "[? 3]"},
		{expr.Concatenate([]*expr.Node{v, v}, 1), "[? 6]"},
	} {
		require.NoError(t, c.e.Err())
		require.Equal(t, c.want, c.e.Shape().String(), "%v", c.e)
	}
}

// A join keeps its own list of pieces: the caller's slice is neither
// changed (the int32 piece is cast in the node, not in the slice) nor read
// again.
func TestConcatenateKeepsItsPieces(t *testing.T) {
	mem := checkedMem(t)
	a := expr.Leaf(mk(t, mem, []float32{1}))
	b := expr.Leaf(mk(t, mem, []int32{2}))
	xs := []*expr.Node{a, b}
	e := expr.Concatenate(xs, 0)
	require.Same(t, b, xs[1])
	xs[0] = nil
	require.Equal(t, []float64{1, 2}, evalAs[float64](t, mem, e, array.Float64, 2))
}

// A transposed view of 32 rows and columns or more is materialized in
// tiles (transposeCopy): the same values as element by element, for every
// element size, with an outer axis, ragged edges and into a transposed
// output.
func TestTransposeCopyTiles(t *testing.T) {
	mem := checkedMem(t)
	for _, dt := range []array.DType{array.Uint8, array.Int16, array.Float32, array.Float64} {
		const B, R, C = 2, 45, 70
		base, err := array.Arange(mem, array.Float64, 0, B*R*C, 1)
		require.NoError(t, err)
		x, err := expr.Eval(expr.Cast(expr.Reshape(expr.Leaf(base), B, R, C), dt), expr.WithAllocator(mem))
		base.Release()
		require.NoError(t, err)
		want, err := array.ToSlice[float64](x)
		require.NoError(t, err)
		for _, perm := range [][]int{{0, 2, 1}, {2, 1, 0}, {1, 2, 0}} {
			e := expr.Transpose(expr.Leaf(x), perm...)
			got := evalAs[float64](t, mem, e, dt, e.Shape().Dims[0].Lo, e.Shape().Dims[1].Lo, e.Shape().Dims[2].Lo)
			s, _ := e.StaticShape()
			for k, g := range got {
				o := unravelT(s, k)
				in := make([]int, 3)
				for a, p := range perm {
					in[p] = o[a]
				}
				require.Equal(t, want[(in[0]*R+in[1])*C+in[2]], g, "%v %v element %v", dt, perm, o)
			}
		}
		x.Release()
	}
}

func unravelT(shape []int, k int) []int {
	idx := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		idx[i] = k % shape[i]
		k /= shape[i]
	}
	return idx
}
