package expr_test

// Focused tests of each op's documented semantics, with expected values
// worked out by hand (the differential tests cover the combinations), and
// of the engine bugs the differential tests found (all fixed).

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/view"
)

func checkedMem(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func mk[T array.Element](t *testing.T, mem memory.Allocator, v []T, shape ...int) *array.Array {
	t.Helper()
	a, err := array.FromSlice(mem, v, shape...)
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

// evalAs evaluates e (with workers 1 and 3) and returns its values as T,
// checking the dtype and shape.
func evalAs[T array.Element](t *testing.T, mem memory.Allocator, e *expr.Node, dt array.DType, shape ...int) []T {
	t.Helper()
	require.NoError(t, e.Err())
	var first []T
	for _, w := range []int{1, 3} {
		out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(w), expr.WithTileSize(16))
		require.NoError(t, err)
		require.Equal(t, dt, out.DType(), "%v", e)
		if shape == nil {
			shape = []int{}
		}
		require.Equal(t, shape, out.Shape(), "%v", e)
		v, err := array.ToSlice[T](out)
		require.NoError(t, err)
		out.Release()
		if first == nil {
			first = v
		}
	}
	return first
}

func TestPromoteTable(t *testing.T) {
	// NumPy's numpy.promote_types for the 12 dtypes, row by row
	const (
		b   = array.Bool
		i8  = array.Int8
		i16 = array.Int16
		i32 = array.Int32
		i64 = array.Int64
		u8  = array.Uint8
		u16 = array.Uint16
		u32 = array.Uint32
		u64 = array.Uint64
		f16 = array.Float16
		f32 = array.Float32
		f64 = array.Float64
	)
	order := []array.DType{b, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64}
	table := [][]array.DType{
		/* b   */ {b, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64},
		/* i8  */ {i8, i8, i16, i32, i64, i16, i32, i64, f64, f16, f32, f64},
		/* i16 */ {i16, i16, i16, i32, i64, i16, i32, i64, f64, f32, f32, f64},
		/* i32 */ {i32, i32, i32, i32, i64, i32, i32, i64, f64, f64, f64, f64},
		/* i64 */ {i64, i64, i64, i64, i64, i64, i64, i64, f64, f64, f64, f64},
		/* u8  */ {u8, i16, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64},
		/* u16 */ {u16, i32, i32, i32, i64, u16, u16, u32, u64, f32, f32, f64},
		/* u32 */ {u32, i64, i64, i64, i64, u32, u32, u32, u64, f64, f64, f64},
		/* u64 */ {u64, f64, f64, f64, f64, u64, u64, u64, u64, f64, f64, f64},
		/* f16 */ {f16, f16, f32, f64, f64, f16, f32, f64, f64, f16, f32, f64},
		/* f32 */ {f32, f32, f32, f64, f64, f32, f32, f64, f64, f32, f32, f64},
		/* f64 */ {f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64},
	}
	for i, a := range order {
		for j, c := range order {
			require.Equal(t, table[i][j], expr.Promote(a, c), "promote(%v, %v)", a, c)
		}
	}
}

func TestIntegerDivisionAndModulo(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []int32{7, -7, 7, -7, 7, 0, math.MinInt32, math.MinInt32, 5})
	y := mk(t, mem, []int32{2, 2, -2, -2, 0, 0, -1, 1, 5})
	n := x.Len()
	require.Equal(t, []int32{3, -4, -4, 3, 0, 0, math.MinInt32, math.MinInt32, 1},
		evalAs[int32](t, mem, expr.FloorDiv(expr.Leaf(x), expr.Leaf(y)), array.Int32, n), "floor division")
	require.Equal(t, []int32{3, -3, -3, 3, 0, 0, math.MinInt32, math.MinInt32, 1},
		evalAs[int32](t, mem, expr.TruncDiv(expr.Leaf(x), expr.Leaf(y)), array.Int32, n), "truncated division")
	require.Equal(t, []int32{1, 1, -1, -1, 0, 0, 0, 0, 0},
		evalAs[int32](t, mem, expr.Remainder(expr.Leaf(x), expr.Leaf(y)), array.Int32, n), "floor mod: sign of y")
	require.Equal(t, []int32{1, -1, 1, -1, 0, 0, 0, 0, 0},
		evalAs[int32](t, mem, expr.Fmod(expr.Leaf(x), expr.Leaf(y)), array.Int32, n), "mod: sign of x")
	// unsigned: x/0 = 0, no floor subtleties
	u := mk(t, mem, []uint8{7, 200, 9})
	v := mk(t, mem, []uint8{2, 0, 3})
	require.Equal(t, []uint8{3, 0, 3}, evalAs[uint8](t, mem, expr.FloorDiv(expr.Leaf(u), expr.Leaf(v)), array.Uint8, 3))
	require.Equal(t, []uint8{1, 0, 0}, evalAs[uint8](t, mem, expr.Remainder(expr.Leaf(u), expr.Leaf(v)), array.Uint8, 3))
	// the zero divisor as a broadcast scalar
	require.Equal(t, []int32{0, 0, 0, 0, 0, 0, 0, 0, 0}, evalAs[int32](t, mem, expr.FloorDiv(expr.Leaf(x), expr.Const(int32(0))), array.Int32, n))
	// true division of integers is float64
	require.Equal(t, []float64{3.5, -3.5, -3.5, 3.5}, evalAs[float64](t, mem, expr.Div(expr.Leaf(x), expr.Leaf(y)), array.Float64, n)[:4])
	require.Equal(t, []int32{0, 0, 0, 0, 0, 0, 0, 0, 0}, evalAs[int32](t, mem, expr.Fmod(expr.Leaf(x), expr.Const(int32(0))), array.Int32, n))
}

func TestFloatDivisionAndModulo(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []float64{7.5, -7.5, 7.5, -7.5, 1, -1, 0})
	y := mk(t, mem, []float64{2, 2, -2, -2, 0, 0, 0})
	d := evalAs[float64](t, mem, expr.Div(expr.Leaf(x), expr.Leaf(y)), array.Float64, 7)
	require.Equal(t, []float64{3.75, -3.75, -3.75, 3.75, math.Inf(1), math.Inf(-1)}, d[:6])
	require.True(t, math.IsNaN(d[6]))
	fm := evalAs[float64](t, mem, expr.Remainder(expr.Leaf(x), expr.Leaf(y)), array.Float64, 7)
	require.Equal(t, []float64{1.5, 0.5, -0.5, -1.5}, fm[:4])
	m := evalAs[float64](t, mem, expr.Fmod(expr.Leaf(x), expr.Leaf(y)), array.Float64, 7)
	require.Equal(t, []float64{1.5, -1.5, 1.5, -1.5}, m[:4])
	require.True(t, math.IsNaN(fm[4]) && math.IsNaN(m[4]))
}

// TestFloorModZeroSign: a zero floor-mod result has the divisor's sign, as
// Python's % and numpy.remainder give it (-4.0 % 2.0 == 0.0, 4.0 % -2.0 ==
// -0.0), so that 1/FloorMod keeps the right infinity.
func TestFloorModZeroSign(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []float64{-4, 4, 4, -4})
	y := mk(t, mem, []float64{2, -2, 2, -2})
	got := evalAs[float64](t, mem, expr.Remainder(expr.Leaf(x), expr.Leaf(y)), array.Float64, 4)
	want := []bool{false, true, false, true} // sign bits
	ok := true
	for i := range got {
		ok = ok && got[i] == 0 && math.Signbit(got[i]) == want[i]
	}
	require.Truef(t, ok, "FloorMod(%v, %v) = %v; want [0 -0 0 -0]",
		[]float64{-4, 4, 4, -4}, []float64{2, -2, 2, -2}, got)
}

func TestIntegerPowAbsNeg(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []int8{2, 2, -1, -1, 1, 0, 0, 3, -2, math.MinInt8})
	y := mk(t, mem, []int8{3, -1, -3, -4, -9, 0, -1, 5, 7, 1})
	require.Equal(t, []int8{8, 0, -1, 1, 1, 1, 0, -13, -128, math.MinInt8},
		evalAs[int8](t, mem, expr.PowerTruncating(expr.Leaf(x), expr.Leaf(y)), array.Int8, 10))
	// numpy.power refuses negative integer exponents (ValueError), and so
	// does Power, whatever the base; without a negative one it agrees
	_, err := expr.Eval(expr.Power(expr.Leaf(x), expr.Leaf(y)), expr.WithAllocator(mem))
	require.ErrorIs(t, err, expr.ErrArgument)
	require.Contains(t, err.Error(), "negative integer powers")
	yp := mk(t, mem, []int8{3, 1, 3, 4, 9, 0, 1, 5, 7, 1})
	require.Equal(t, []int8{8, 2, -1, 1, 1, 1, 0, -13, -128, math.MinInt8},
		evalAs[int8](t, mem, expr.Power(expr.Leaf(x), expr.Leaf(yp)), array.Int8, 10))
	require.Equal(t, []int8{2, 2, 1, 1, 1, 0, 0, 3, 2, math.MinInt8},
		evalAs[int8](t, mem, expr.Abs(expr.Leaf(x)), array.Int8, 10), "abs(MinInt8) stays MinInt8")
	require.Equal(t, []int8{-2, -2, 1, 1, -1, 0, 0, -3, 2, math.MinInt8},
		evalAs[int8](t, mem, expr.Neg(expr.Leaf(x)), array.Int8, 10))
	u := mk(t, mem, []uint8{0, 1, 255})
	require.Equal(t, []uint8{0, 255, 1}, evalAs[uint8](t, mem, expr.Neg(expr.Leaf(u)), array.Uint8, 3), "unsigned negation wraps")
	require.Equal(t, []uint8{0, 1, 255}, evalAs[uint8](t, mem, expr.Abs(expr.Leaf(u)), array.Uint8, 3))
	require.Equal(t, []uint8{0, 1, 1}, evalAs[uint8](t, mem, expr.Mul(expr.Leaf(u), expr.Leaf(u)), array.Uint8, 3), "255*255 wraps to 1")
}

func TestMaximumMinimumNaN(t *testing.T) {
	mem := checkedMem(t)
	nan := math.NaN()
	x := mk(t, mem, []float32{float32(nan), 1, 2, float32(math.Inf(-1))})
	y := mk(t, mem, []float32{1, float32(nan), 3, float32(nan)})
	mx := evalAs[float32](t, mem, expr.Maximum(expr.Leaf(x), expr.Leaf(y)), array.Float32, 4)
	mn := evalAs[float32](t, mem, expr.Minimum(expr.Leaf(x), expr.Leaf(y)), array.Float32, 4)
	for _, i := range []int{0, 1, 3} {
		require.True(t, mx[i] != mx[i] && mn[i] != mn[i], "element %d: %v %v", i, mx[i], mn[i])
	}
	require.Equal(t, float32(3), mx[2])
	require.Equal(t, float32(2), mn[2])
	// the variadic forms and the reductions propagate NaN too
	v := evalAs[float32](t, mem, expr.MaxOf(expr.Leaf(y), expr.Const(float32(0)), expr.Leaf(x)), array.Float32, 4)
	require.True(t, v[0] != v[0] && v[1] != v[1] && v[2] == 3)
	r := evalAs[float32](t, mem, expr.ReduceMax(expr.Leaf(y), nil, false), array.Float32)
	require.True(t, r[0] != r[0])
	r = evalAs[float32](t, mem, expr.ReduceMin(expr.Leaf(x), nil, false), array.Float32)
	require.True(t, r[0] != r[0])
}

func TestPReluAndSquaredDiff(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []float32{-2, 3, -4, 5, -6, 0}, 2, 3)
	slope := mk(t, mem, []float32{0.5, 2, 10}, 3)
	require.Equal(t, []float32{-1, 3, -40, 5, -12, 0},
		evalAs[float32](t, mem, expr.PRelu(expr.Leaf(x), expr.Leaf(slope)), array.Float32, 2, 3))
	// a per-channel slope [2 1] under unidirectional broadcasting
	ch := mk(t, mem, []float32{0.5, 3}, 2, 1)
	require.Equal(t, []float32{-1, 3, -2, 5, -18, 0},
		evalAs[float32](t, mem, expr.PRelu(expr.Leaf(x), expr.Leaf(ch)), array.Float32, 2, 3))
	i := mk(t, mem, []int16{-3, 4})
	require.Equal(t, []int16{-6, 4}, evalAs[int16](t, mem, expr.PRelu(expr.Leaf(i), expr.Const(int16(2))), array.Int16, 2))
	require.Equal(t, []int16{25, 4}, evalAs[int16](t, mem, expr.SquaredDiff(expr.Leaf(i), expr.Const(int16(2)), expr.Numpy), array.Int16, 2))
}

func TestComparisonsAndLogic(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []int32{1, 2, 3})
	y := mk(t, mem, []float64{2, 2, math.NaN()})
	cases := map[string]struct {
		e    *expr.Node
		want []bool
	}{
		"equal":         {expr.Equal(expr.Leaf(x), expr.Leaf(y)), []bool{false, true, false}},
		"not_equal":     {expr.NotEqual(expr.Leaf(x), expr.Leaf(y)), []bool{true, false, true}},
		"greater":       {expr.Greater(expr.Leaf(x), expr.Leaf(y)), []bool{false, false, false}},
		"greater_equal": {expr.GreaterEqual(expr.Leaf(x), expr.Leaf(y)), []bool{false, true, false}},
		"less":          {expr.Less(expr.Leaf(x), expr.Leaf(y)), []bool{true, false, false}},
		"less_equal":    {expr.LessEqual(expr.Leaf(x), expr.Leaf(y)), []bool{true, true, false}},
		// logical ops read numbers as x != 0 (NaN is true)
		"and": {expr.LogicalAnd(expr.Sub(expr.Leaf(x), expr.Const(int32(1))), expr.Leaf(y)), []bool{false, true, true}},
		"or":  {expr.LogicalOr(expr.Const(0.0), expr.Sub(expr.Leaf(x), expr.Const(int32(2)))), []bool{true, false, true}},
		"xor": {expr.LogicalXor(expr.Leaf(x), expr.Sub(expr.Leaf(x), expr.Const(int32(1)))), []bool{true, false, false}},
		"not": {expr.LogicalNot(expr.Sub(expr.Leaf(x), expr.Const(int32(2)))), []bool{false, true, false}},
	}
	for name, c := range cases {
		require.Equal(t, c.want, evalAs[bool](t, mem, c.e, array.Bool, 3), name)
	}
	// bool arithmetic (NumPy): + and max are or, * and min are and
	p := mk(t, mem, []bool{false, false, true, true})
	q := mk(t, mem, []bool{false, true, false, true})
	require.Equal(t, []bool{false, true, true, true}, evalAs[bool](t, mem, expr.Add(expr.Leaf(p), expr.Leaf(q)), array.Bool, 4))
	require.Equal(t, []bool{false, false, false, true}, evalAs[bool](t, mem, expr.Mul(expr.Leaf(p), expr.Leaf(q)), array.Bool, 4))
	require.Equal(t, []bool{false, true, true, true}, evalAs[bool](t, mem, expr.Maximum(expr.Leaf(p), expr.Leaf(q)), array.Bool, 4))
	require.Equal(t, []bool{false, false, false, true}, evalAs[bool](t, mem, expr.Minimum(expr.Leaf(p), expr.Leaf(q)), array.Bool, 4))
	require.Equal(t, []bool{true, false, false, true}, evalAs[bool](t, mem, expr.Equal(expr.Leaf(p), expr.Leaf(q)), array.Bool, 4))
	require.Equal(t, []bool{false, false, true, false}, evalAs[bool](t, mem, expr.Greater(expr.Leaf(p), expr.Leaf(q)), array.Bool, 4))
	// bool with a number promotes to the number
	require.Equal(t, []int8{0, 0, 1, 1}, evalAs[int8](t, mem, expr.Add(expr.Leaf(p), expr.Const(int8(0))), array.Int8, 4))
}

func TestUnaryFloatDTypes(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range []struct {
		x  *array.Array
		dt array.DType
	}{
		{mk(t, mem, []int8{4}), array.Float16},
		{mk(t, mem, []uint8{4}), array.Float16},
		{mk(t, mem, []bool{true}), array.Float16},
		{mk(t, mem, []int16{4}), array.Float32},
		{mk(t, mem, []uint16{4}), array.Float32},
		{mk(t, mem, []int32{4}), array.Float64},
		{mk(t, mem, []uint64{4}), array.Float64},
		{mk(t, mem, []float16.Num{float16.New(4)}), array.Float16},
		{mk(t, mem, []float32{4}), array.Float32},
	} {
		s := evalAs[float64](t, mem, expr.Sqrt(expr.Leaf(c.x)), c.dt, 1)
		require.Equal(t, math.Sqrt(arraytest.At[float64](t, c.x, 0)), s[0], "sqrt of %v", c.x.DType())
		e := evalAs[float64](t, mem, expr.Exp(expr.Leaf(c.x)), c.dt, 1)
		require.InEpsilon(t, math.Exp(float64(arraytest.At[float64](t, c.x, 0))), e[0], 1e-3)
	}
	l := evalAs[float64](t, mem, expr.Log(expr.Leaf(mk(t, mem, []float64{0, -1, 1}))), array.Float64, 3)
	require.True(t, math.IsInf(l[0], -1) && math.IsNaN(l[1]) && l[2] == 0)
}

// TestHalfSignOps: float16 absolute value and negation are sign-bit ops, as
// NumPy's half loops: a signalling NaN keeps its payload and signalling
// bit (the float32 kernels, reached through F16C, would quiet it).
func TestHalfSignOps(t *testing.T) {
	mem := checkedMem(t)
	bits := []uint16{0x7c01, 0xfd55, 0x7e00, 0x8000, 0xbc00, 0x0001, 0xfc00}
	h := make([]float16.Num, 40) // past a vector
	for i := range h {
		h[i] = float16.FromBits(bits[i%len(bits)])
	}
	x := mk(t, mem, h)
	abs := evalAs[float16.Num](t, mem, expr.Abs(expr.Leaf(x)), array.Float16, len(h))
	neg := evalAs[float16.Num](t, mem, expr.Neg(expr.Leaf(x)), array.Float16, len(h))
	for i, v := range h {
		require.Equal(t, v.Uint16()&0x7fff, abs[i].Uint16(), "abs %#04x", v.Uint16())
		require.Equal(t, v.Uint16()^0x8000, neg[i].Uint16(), "negative %#04x", v.Uint16())
	}
}

func TestCastSemantics(t *testing.T) {
	mem := checkedMem(t)
	f := mk(t, mem, []float64{2.7, -2.7, 0, -0.5, 255.9})
	require.Equal(t, []int32{2, -2, 0, 0, 255}, evalAs[int32](t, mem, expr.Cast(expr.Leaf(f), array.Int32), array.Int32, 5), "truncation toward zero")
	require.Equal(t, []uint8{2, 0, 0, 0, 255}, evalAs[uint8](t, mem, expr.Cast(expr.Leaf(mk(t, mem, []float64{2.7, 0, 0, 0.5, 255.9})), array.Uint8), array.Uint8, 5))
	b := evalAs[bool](t, mem, expr.Cast(expr.Leaf(mk(t, mem, []float32{0, float32(math.Copysign(0, -1)), 0.1, float32(math.NaN())})), array.Bool), array.Bool, 4)
	require.Equal(t, []bool{false, false, true, true}, b, "x != 0, NaN is true")
	require.Equal(t, []float32{0, 1}, evalAs[float32](t, mem, expr.Cast(expr.Leaf(mk(t, mem, []bool{false, true})), array.Float32), array.Float32, 2))
	require.Equal(t, []int8{-1, 0, 127, -128}, evalAs[int8](t, mem, expr.Cast(expr.Leaf(mk(t, mem, []int32{255, 256, 127, 128})), array.Int8), array.Int8, 4), "integers wrap")
	// to float16: round to nearest even, subnormals kept
	h := evalAs[float16.Num](t, mem, expr.Cast(expr.Leaf(mk(t, mem, []float32{1 + 3.0/2048, float32(math.Ldexp(1, -24)), 65520})), array.Float16), array.Float16, 3)
	require.Equal(t, []uint16{0x3c02, 0x0001, 0x7c00}, []uint16{h[0].Uint16(), h[1].Uint16(), h[2].Uint16()})
}

func TestWhereSemantics(t *testing.T) {
	mem := checkedMem(t)
	c := mk(t, mem, []int32{0, 5, -1, 0}, 2, 2) // any non-zero is true
	x := mk(t, mem, []uint8{1, 2}, 2)
	y := mk(t, mem, []float32{10, 20}, 2, 1)
	require.Equal(t, []float32{10, 2, 1, 20}, evalAs[float32](t, mem, expr.Where(expr.Leaf(c), expr.Leaf(x), expr.Leaf(y)), array.Float32, 2, 2))
	// pdpd: cond and y onto x's shape
	x2 := mk(t, mem, []int64{1, 2, 3, 4, 5, 6}, 2, 3)
	y2 := mk(t, mem, []int64{-1, -2}, 2)
	c2 := mk(t, mem, []bool{true, false}, 2)
	require.Equal(t, []int64{1, 2, 3, -2, -2, -2}, evalAs[int64](t, mem, expr.Where(expr.Leaf(c2), expr.Leaf(x2), expr.Leaf(y2), expr.PDPD(0)), array.Int64, 2, 3))
}

// TestSelectPDPDAxisMinusOne: with pdpd and axis -1 the build-time check
// and the evaluation must agree: a node that builds must evaluate.
// OpenVINO's Select resolves axis -1 from else's rank and pads cond with
// 1s, so cond may have x's full shape.
func TestSelectPDPDAxisMinusOne(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y := mk(t, mem, []float32{10, 20, 30}, 3)
	c := mk(t, mem, []bool{true, false, true, false, true, false}, 2, 3)
	e := expr.Where(expr.Leaf(c), expr.Leaf(x), expr.Leaf(y), expr.PDPD(-1))
	require.NoError(t, e.Err())
	out, err := expr.Eval(e, expr.WithAllocator(mem))
	if err == nil {
		got, _ := array.ToSlice[float32](out)
		out.Release()
		require.Equal(t, []float32{1, 20, 3, 10, 5, 30}, got)
		return
	}
	require.Truef(t, false, "Where(cond [2 3], x [2 3], y [3], PDPD(-1)) builds but Eval fails: %v", err)
}

func TestVariadicOps(t *testing.T) {
	mem := checkedMem(t)
	a := mk(t, mem, []int8{1, 2, 3}, 3)
	b := mk(t, mem, []int16{10, 20}, 2, 1)
	c := mk(t, mem, []uint8{100})
	require.Equal(t, []int16{111, 112, 113, 121, 122, 123}, evalAs[int16](t, mem, expr.SumOf(expr.Leaf(a), expr.Leaf(b), expr.Leaf(c)), array.Int16, 2, 3))
	require.Equal(t, []int16{100, 100, 100, 100, 100, 100}, evalAs[int16](t, mem, expr.MaxOf(expr.Leaf(a), expr.Leaf(b), expr.Leaf(c)), array.Int16, 2, 3))
	require.Equal(t, []int16{1, 2, 3, 1, 2, 3}, evalAs[int16](t, mem, expr.MinOf(expr.Leaf(a), expr.Leaf(b), expr.Leaf(c)), array.Int16, 2, 3))
	// mean of integers in their float dtype (int16 -> float32)
	want := []float32{111, 112, 113, 121, 122, 123}
	for i := range want {
		want[i] /= 3 // in float32, as the op computes it
	}
	require.Equal(t, want, evalAs[float32](t, mem, expr.MeanOf(expr.Leaf(a), expr.Leaf(b), expr.Leaf(c)), array.Float32, 2, 3))
	// one operand: itself
	require.Equal(t, []int8{1, 2, 3}, evalAs[int8](t, mem, expr.SumOf(expr.Leaf(a)), array.Int8, 3))
	require.Equal(t, []int8{1, 2, 3}, evalAs[int8](t, mem, expr.MaxOf(expr.Leaf(a)), array.Int8, 3))
	require.Equal(t, []float16.Num{float16.New(1), float16.New(2), float16.New(3)}, evalAs[float16.Num](t, mem, expr.MeanOf(expr.Leaf(a)), array.Float16, 3))
}

func TestBroadcastModes(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []int32{1, 2, 3}, 3)
	x1 := mk(t, mem, []int32{7, 8}, 2, 1)
	cases := []struct {
		name  string
		e     *expr.Node
		shape []int
		want  []int32
	}{
		{"numpy", expr.BroadcastNumpy(expr.Leaf(x), []int{2, 3}), []int{2, 3}, []int32{1, 2, 3, 1, 2, 3}},
		{"bidirectional grows", expr.BroadcastBidirectional(expr.Leaf(x1), []int{3}), []int{2, 3}, []int32{7, 7, 7, 8, 8, 8}},
		{"bidirectional target 1", expr.BroadcastBidirectional(expr.Leaf(x), []int{2, 1}), []int{2, 3}, []int32{1, 2, 3, 1, 2, 3}},
		{"explicit", expr.BroadcastExplicit(expr.Leaf(x), []int{3, 2}, []int{0}), []int{3, 2}, []int32{1, 1, 2, 2, 3, 3}},
		{"explicit stretch", expr.BroadcastExplicit(expr.Leaf(x1), []int{2, 2, 3}, []int{0, 2}), []int{2, 2, 3}, []int32{7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8}},
		{"pdpd", expr.BroadcastPDPD(expr.Leaf(x1), []int{2, 2, 3}, 1), []int{2, 2, 3}, []int32{7, 7, 7, 8, 8, 8, 7, 7, 7, 8, 8, 8}},
		{"pdpd -1", expr.BroadcastPDPD(expr.Leaf(x), []int{2, 3}, -1), []int{2, 3}, []int32{1, 2, 3, 1, 2, 3}},
		{"pdpd target 1 takes data", expr.BroadcastPDPD(expr.Leaf(x), []int{2, 1}, 1), []int{2, 3}, []int32{1, 2, 3, 1, 2, 3}},
		{"ngraph", expr.BroadcastNGraph(expr.Leaf(x), []int{3, 2}, []int{1}), []int{3, 2}, []int32{1, 1, 2, 2, 3, 3}},
		{"ngraph axes unordered", expr.BroadcastNGraph(expr.Leaf(x), []int{2, 3, 2}, []int{2, 0}), []int{2, 3, 2}, []int32{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}},
		{"scalar", expr.BroadcastNumpy(expr.Const(int32(5)), []int{2}), []int{2}, []int32{5, 5}},
		{"zero-size", expr.BroadcastNumpy(expr.Leaf(x), []int{0, 3}), []int{0, 3}, []int32{}},
		{"broadcast of a subexpression", expr.BroadcastNumpy(expr.Mul(expr.Leaf(x), expr.Leaf(x)), []int{2, 3}), []int{2, 3}, []int32{1, 4, 9, 1, 4, 9}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, evalAs[int32](t, mem, c.e, array.Int32, c.shape...), c.name)
	}
	// the op with its shape inputs as arrays of every integer dtype
	for _, dt := range []array.DType{array.Int8, array.Int16, array.Int32, array.Int64, array.Uint8, array.Uint16, array.Uint32, array.Uint64} {
		target, err := expr.Eval(expr.Cast(expr.Leaf(mk(t, mem, []int64{3, 2})), dt), expr.WithAllocator(mem))
		require.NoError(t, err)
		axes, err := expr.Eval(expr.Cast(expr.Leaf(mk(t, mem, []int64{0})), dt), expr.WithAllocator(mem))
		require.NoError(t, err)
		require.Equal(t, []int32{1, 1, 2, 2, 3, 3}, evalAs[int32](t, mem, expr.Broadcast(expr.Leaf(x), expr.ModeExplicit, target, axes, 0), array.Int32, 3, 2), "%v", dt)
		require.Equal(t, []int32{1, 1, 2, 2, 3, 3}, evalAs[int32](t, mem, expr.Broadcast(expr.Leaf(x), expr.ModeNGraph, target, mk(t, mem, []int8{1}), 0), array.Int32, 3, 2), "%v", dt)
		target.Release()
		axes.Release()
	}
}

func TestReductions(t *testing.T) {
	mem := checkedMem(t)
	i8 := mk(t, mem, []int8{100, 100, -128, 1, 2, 3}, 2, 3)
	require.Equal(t, []int64{72, 6}, evalAs[int64](t, mem, expr.ReduceSum(expr.Leaf(i8), []int{1}, false), array.Int64, 2), "int8 sums in int64")
	require.Equal(t, []int64{-1280000, 6}, evalAs[int64](t, mem, expr.ReduceProd(expr.Leaf(i8), []int{-1}, false), array.Int64, 2))
	require.Equal(t, []int8{100, 3}, evalAs[int8](t, mem, expr.ReduceMax(expr.Leaf(i8), []int{1}, false), array.Int8, 2))
	require.Equal(t, []int8{1, 2, -128}, evalAs[int8](t, mem, expr.ReduceMin(expr.Leaf(i8), []int{0}, true), array.Int8, 1, 3))
	require.Equal(t, []float64{13}, evalAs[float64](t, mem, expr.ReduceMean(expr.Leaf(i8), nil, false), array.Float64))
	u16 := mk(t, mem, []uint16{65535, 65535})
	require.Equal(t, []uint64{131070}, evalAs[uint64](t, mem, expr.ReduceSum(expr.Leaf(u16), nil, false), array.Uint64), "unsigned sums in uint64")
	b := mk(t, mem, []bool{true, false, true, true}, 2, 2)
	require.Equal(t, []int64{3}, evalAs[int64](t, mem, expr.ReduceSum(expr.Leaf(b), nil, false), array.Int64), "bool sums count")
	require.Equal(t, []bool{true, true}, evalAs[bool](t, mem, expr.ReduceMax(expr.Leaf(b), []int{1}, false), array.Bool, 2))
	require.Equal(t, []bool{false, true}, evalAs[bool](t, mem, expr.ReduceMin(expr.Leaf(b), []int{1}, false), array.Bool, 2))
	require.Equal(t, []float64{0.5, 1}, evalAs[float64](t, mem, expr.ReduceMean(expr.Leaf(b), []int{1}, false), array.Float64, 2))
	// empty axes: identities; the mean is NaN
	empty := mk(t, mem, []float32{}, 2, 0)
	require.Equal(t, []float32{0, 0}, evalAs[float32](t, mem, expr.ReduceSum(expr.Leaf(empty), []int{1}, false), array.Float32, 2))
	require.Equal(t, []float32{1, 1}, evalAs[float32](t, mem, expr.ReduceProd(expr.Leaf(empty), []int{1}, false), array.Float32, 2))
	// max and min have no identity: NumPy's ValueError (zero-size array to
	// reduction operation maximum which has no identity)
	require.ErrorIs(t, expr.ReduceMax(expr.Leaf(empty), []int{1}, false).Err(), expr.ErrArgument)
	require.ErrorIs(t, expr.ReduceMin(expr.Leaf(empty), nil, false).Err(), expr.ErrArgument)
	require.Equal(t, []float32{}, evalAs[float32](t, mem, expr.ReduceMax(expr.Leaf(empty), []int{0}, false), array.Float32, 0), "a non-empty reduced axis with an empty result is fine")
	m := evalAs[float32](t, mem, expr.ReduceMean(expr.Leaf(empty), []int{1}, true), array.Float32, 2, 1)
	require.True(t, m[0] != m[0] && m[1] != m[1])
	require.Equal(t, []float32{}, evalAs[float32](t, mem, expr.ReduceSum(expr.Leaf(empty), []int{0}, false), array.Float32, 0))
	ei := mk(t, mem, []int16{}, 0)
	require.ErrorIs(t, expr.ReduceMax(expr.Leaf(ei), nil, false).Err(), expr.ErrArgument)
	require.ErrorIs(t, expr.ReduceMin(expr.Leaf(mk(t, mem, []uint8{}, 0)), nil, false).Err(), expr.ErrArgument)
	// no axes: every element is its own group, in NumPy's dtype
	require.Equal(t, []int64{100, 100, -128, 1, 2, 3}, evalAs[int64](t, mem, expr.ReduceSum(expr.Leaf(i8), []int{}, false), array.Int64, 2, 3))
	// float16 sums accumulate in float32: 2048 + 1 + 1 ... stays exact
	h := make([]float16.Num, 9)
	h[0] = float16.New(2048)
	for i := 1; i < 9; i++ {
		h[i] = float16.New(1)
	}
	require.Equal(t, []float16.Num{float16.New(2056)}, evalAs[float16.Num](t, mem, expr.ReduceSum(expr.Leaf(mk(t, mem, h)), nil, false), array.Float16))
}

// TestReduceToIsTheAdjoint: ReduceTo undoes the replication of a broadcast:
// <broadcast(x), g> == <x, ReduceTo(g)> for every x and g, checked on
// integers (exact).
func TestReduceToIsTheAdjoint(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []int64{1, -2, 3}, 3, 1)
	g := mk(t, mem, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}, 2, 3, 4)
	bx := expr.BroadcastNumpy(expr.Leaf(x), []int{2, 3, 4})
	lhs := evalAs[int64](t, mem, expr.ReduceSum(expr.Mul(bx, expr.Leaf(g)), nil, false), array.Int64)
	rg := expr.ReduceTo(expr.Leaf(g), []int{3, 1})
	// row j sums g[i, j, k] over i and k: 68 + 32j
	require.Equal(t, []int64{68, 100, 132}, evalAs[int64](t, mem, rg, array.Int64, 3, 1))
	rhs := evalAs[int64](t, mem, expr.ReduceSum(expr.Mul(expr.Leaf(x), rg), nil, false), array.Int64)
	require.Equal(t, []int64{1*68 - 2*100 + 3*132}, lhs)
	require.Equal(t, lhs, rhs)
	// ReduceTo keeps the operand's dtype (sums wrap), and [] reduces to a scalar
	i8 := mk(t, mem, []int8{100, 100, 100}, 3)
	require.Equal(t, []int8{44}, evalAs[int8](t, mem, expr.ReduceTo(expr.Leaf(i8), []int{}), array.Int8))
	require.Equal(t, []int8{44}, evalAs[int8](t, mem, expr.ReduceTo(expr.Leaf(i8), []int{1}), array.Int8, 1))
	// ReduceAxes is the adjoint of BroadcastNGraph
	y := mk(t, mem, []int32{1, 2}, 2)
	bn := expr.BroadcastNGraph(expr.Leaf(y), []int{3, 2, 4}, []int{0, 2})
	require.Equal(t, []int32{12, 24}, evalAs[int32](t, mem, expr.ReduceAxes(bn, []int{0, 2}), array.Int32, 2))
	// bool: the sum is an or
	bb := mk(t, mem, []bool{false, false, true, false}, 2, 2)
	require.Equal(t, []bool{true, false}, evalAs[bool](t, mem, expr.ReduceTo(expr.Leaf(bb), []int{2}), array.Bool, 2))
}

// TestPlanReuse: one plan serves many bindings of different shapes, also
// concurrently.
func TestPlanReuse(t *testing.T) {
	mem := checkedMem(t)
	x := expr.Var("x", array.Float64, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(3)}, RankKnown: true})
	w := expr.Var("w", array.Float64, broadcast.StaticShape(3))
	e := expr.ReduceSum(expr.Mul(x, w), []int{1}, false)
	p, err := expr.Compile(e, expr.WithAllocator(mem))
	require.NoError(t, err)
	wa := mk(t, mem, []float64{1, 10, 100})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rows := 0; rows < 20; rows++ {
				v := make([]float64, rows*3)
				want := make([]float64, rows)
				for i := range v {
					v[i] = float64(i)
					want[i/3] += float64(i) * []float64{1, 10, 100}[i%3]
				}
				xa, err := array.FromSlice(mem, v, rows, 3)
				if err != nil {
					t.Error(err)
					return
				}
				out, err := p.Eval(expr.Bindings{"x": xa, "w": wa})
				if err != nil {
					t.Error(err)
					xa.Release()
					return
				}
				got, _ := array.ToSlice[float64](out)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("rows %d: got %v; want %v", rows, got, want)
				}
				out.Release()
				xa.Release()
			}
		}()
	}
	wg.Wait()
}

// TestEvalIntoOverlap: outputs sharing memory with the inputs, exactly or
// shifted by one element (a[1:] = a[:-1] + 1), or transposed
// (a = a.T + a), are evaluated as if the inputs were read first.
func TestEvalIntoOverlap(t *testing.T) {
	mem := checkedMem(t)
	a := mk(t, mem, []int32{0, 10, 20, 30, 40, 50, 60, 70})
	src, err := view.Slice(a, view.Span(0, 7))
	require.NoError(t, err)
	defer src.Release()
	dst, err := view.Slice(a, view.From(1))
	require.NoError(t, err)
	defer dst.Release()
	require.NoError(t, expr.EvalInto(dst, expr.Add(expr.Leaf(src), expr.Const(int32(1))), expr.WithAllocator(mem)))
	got, _ := array.ToSlice[int32](a)
	require.Equal(t, []int32{0, 1, 11, 21, 31, 41, 51, 61}, got)

	// backwards: a[:-1] = a[1:] * 2
	require.NoError(t, expr.EvalInto(src, expr.Mul(expr.Leaf(dst), expr.Const(int32(2))), expr.WithAllocator(mem)))
	got, _ = array.ToSlice[int32](a)
	require.Equal(t, []int32{2, 22, 42, 62, 82, 102, 122, 61}, got)

	// a square matrix and its transpose
	m := mk(t, mem, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3)
	mt, err := view.Transpose(m)
	require.NoError(t, err)
	defer mt.Release()
	require.NoError(t, expr.EvalInto(m, expr.Add(expr.Leaf(mt), expr.Leaf(m)), expr.WithAllocator(mem), expr.WithTileSize(16)))
	gm, _ := array.ToSlice[float64](m)
	require.Equal(t, []float64{2, 6, 10, 6, 10, 14, 10, 14, 18}, gm)

	// in place, large enough for several workers and tiles
	n := 1 << 17
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i % 1000)
	}
	big := mk(t, mem, v)
	rev, err := view.Slice(big, view.Reverse())
	require.NoError(t, err)
	defer rev.Release()
	require.NoError(t, expr.EvalInto(big, expr.Sub(expr.Leaf(big), expr.Leaf(rev)), expr.WithAllocator(mem), expr.WithWorkers(3), expr.WithTileSize(100)))
	gb, _ := array.ToSlice[float32](big)
	for i := range gb {
		if want := float32(i%1000) - float32((n-1-i)%1000); gb[i] != want {
			t.Fatalf("element %d: got %v; want %v", i, gb[i], want)
		}
	}
}

// TestRepeatedEvalIntoAllocatesNothing: a small plan evaluated again and
// again into a preallocated output allocates nothing (issue 3).
func TestEvalIntoWhereAllocatesNothing(t *testing.T) {
	if raceOn {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	mem := checkedMem(t)
	x := mk(t, mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y := mk(t, mem, []float32{1, 2, 3}, 3)
	for name, e := range map[string]*expr.Node{
		"elementwise": expr.Mul(expr.Add(expr.Leaf(x), expr.Leaf(y)), expr.Const(float32(2))),
		"where":       expr.Where(expr.Greater(expr.Leaf(x), expr.Leaf(y)), expr.Leaf(x), expr.Leaf(y)),
	} {
		p, err := expr.Compile(e, expr.WithAllocator(mem), expr.WithWorkers(1))
		require.NoError(t, err)
		out, err := array.New(mem, array.Float32, 2, 3)
		require.NoError(t, err)
		require.NoError(t, p.EvalInto(out, nil))
		allocs := testing.AllocsPerRun(50, func() { _ = p.EvalInto(out, nil) })
		out.Release()
		if allocs != 0 {
			t.Errorf("%s: %v allocations per EvalInto; want 0", name, allocs)
		}
	}
}

// TestReduceIntoOffsetOutput: a reduction evaluated into a view that starts
// at a non-zero offset of its buffer writes exactly the view's elements.
func TestReduceIntoOffsetOutput(t *testing.T) {
	mem := checkedMem(t)
	x := mk(t, mem, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	base := mk(t, mem, []float64{-1, -1, -1, -1, -1})
	dst, err := view.Slice(base, view.Span(2, 4))
	require.NoError(t, err)
	defer dst.Release()
	require.NoError(t, expr.EvalInto(dst, expr.ReduceSum(expr.Leaf(x), []int{1}, false), expr.WithAllocator(mem)))
	got, _ := array.ToSlice[float64](base)
	require.Truef(t, fmt.Sprint(got) == fmt.Sprint([]float64{-1, -1, 6, 15, -1}), "sum into base[2:4] of a 5-element buffer gives buffer %v; want [-1 -1 6 15 -1]", got)
}

// TestBroadcastPDPDPartialDim: a variable whose dim may be 1 (interval
// 1..2) can be broadcast by pdpd onto 8 (it is, when bound to 1), as it can
// by every other mode; the node must not be rejected when built.
func TestBroadcastPDPDPartialDim(t *testing.T) {
	mem := checkedMem(t)
	shape := broadcast.Shape{Dims: []broadcast.Dim{broadcast.IntervalDim(1, 2)}, RankKnown: true}
	v := expr.Var("x", array.Float32, shape)
	require.NoError(t, expr.BroadcastNumpy(v, []int{3, 1, 1, 8}).Err())
	require.NoError(t, expr.BroadcastExplicit(v, []int{3, 1, 1, 8}, []int{3}).Err())
	require.NoError(t, expr.BroadcastBidirectional(v, []int{3, 1, 1, 8}).Err())
	// Broadcast pdpd stretches only a data dim that is statically 1 and
	// merges any other with the target dim, as OpenVINO's shape inference
	// does (get_result_shape_pdpd: arg_dim == 1, else Dimension::merge), so
	// [1..2] onto 8 is rejected when built; with a static 1 it is accepted.
	e := expr.BroadcastPDPD(v, []int{3, 1, 1, 8}, 3)
	require.ErrorIs(t, e.Err(), broadcast.ErrIncompatible)
	one := expr.Var("x", array.Float32, broadcast.StaticShape(1))
	e = expr.BroadcastPDPD(one, []int{3, 1, 1, 8}, 3)
	require.NoError(t, e.Err())
	out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"x": mk(t, mem, []float32{5})}))
	require.NoError(t, err)
	require.Equal(t, []int{3, 1, 1, 8}, out.Shape())
	out.Release()
}
