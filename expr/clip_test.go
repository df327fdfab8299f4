package expr_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// ints makes a 1-D array of the integer (or bool) dtype dt from exact
// values.
func ints(t *testing.T, mem memory.Allocator, dt array.DType, v ...int64) *array.Array {
	t.Helper()
	switch dt {
	case array.Int8:
		return mk(t, mem, mapInts(v, func(x int64) int8 { return int8(x) }), len(v))
	case array.Int16:
		return mk(t, mem, mapInts(v, func(x int64) int16 { return int16(x) }), len(v))
	case array.Int32:
		return mk(t, mem, mapInts(v, func(x int64) int32 { return int32(x) }), len(v))
	case array.Int64:
		return mk(t, mem, v, len(v))
	case array.Uint8:
		return mk(t, mem, mapInts(v, func(x int64) uint8 { return uint8(x) }), len(v))
	case array.Uint16:
		return mk(t, mem, mapInts(v, func(x int64) uint16 { return uint16(x) }), len(v))
	case array.Uint32:
		return mk(t, mem, mapInts(v, func(x int64) uint32 { return uint32(x) }), len(v))
	case array.Uint64:
		return mk(t, mem, mapInts(v, func(x int64) uint64 { return uint64(x) }), len(v))
	case array.Bool:
		return mk(t, mem, mapInts(v, func(x int64) bool { return x != 0 }), len(v))
	}
	t.Fatalf("ints: %v", dt)
	return nil
}

func mapInts[T any](v []int64, f func(int64) T) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

// TestClipOutOfRangeInts follows numpy.clip of NumPy 2.1 and later
// (numpy/numpy#26892, as in NumPy 2.5) for every integer dtype: a Python
// int lower bound at or below the dtype's minimum, or an upper bound at or
// above its maximum, bounds nothing and the dtype is kept; a Python int
// beyond the range on the other side is NumPy's OverflowError; floats
// promote (NEP 50: float64 for integers), NaN bounds give NaN, bool is
// never an integer dtype here. Each case is run through Clip and Parse's
// clip(), which must agree (issue 17 item 5: Clip(u8, Const(-2),
// Const(12)) was an error).
func TestClipOutOfRangeInts(t *testing.T) {
	mem := checkedMem(t)
	type rng struct{ lo, hi int64 } // hi: MaxInt64 stands for uint64's maximum too
	ranges := map[array.DType]rng{
		array.Int8: {math.MinInt8, math.MaxInt8}, array.Int16: {math.MinInt16, math.MaxInt16},
		array.Int32: {math.MinInt32, math.MaxInt32}, array.Int64: {math.MinInt64, math.MaxInt64},
		array.Uint8: {0, math.MaxUint8}, array.Uint16: {0, math.MaxUint16},
		array.Uint32: {0, math.MaxUint32}, array.Uint64: {0, math.MaxInt64},
	}
	for dt, r := range ranges {
		x := []int64{r.lo, r.lo + 1, 0, 5, 12, r.hi - 1, r.hi}
		xa := ints(t, mem, dt, x...)
		env := map[string]*expr.Node{"x": expr.Leaf(xa)}
		clamp := func(lo, hi int64) []int64 {
			out := make([]int64, len(x))
			for i, v := range x {
				out[i] = min(max(v, lo), hi)
			}
			return out
		}
		type want struct {
			vals     []int64 // in dt
			overflow bool
		}
		type clipCase struct {
			src    string
			lo, hi *expr.Node
			want   want
		}
		is64 := dt == array.Int64
		cases := []clipCase{
			// -2 is below every unsigned minimum: a lower bound of nothing
			{"clip(x, -2, 12)", expr.Const(-2), expr.Const(12), want{vals: clamp(max(-2, r.lo), 12)}},
			// both bounds at the dtype's limits or beyond: x itself
			{"clip(x, -9223372036854775808, 9223372036854775807)", expr.Const(math.MinInt64), expr.Const(math.MaxInt64), want{vals: x}},
			{"clip(x, None, 9223372036854775807)", nil, expr.Const(math.MaxInt64), want{vals: x}},
			{"clip(x, -9223372036854775808, None)", expr.Const(math.MinInt64), nil, want{vals: x}},
			{"clip(x, None, None)", nil, nil, want{vals: x}},
			{"clip(x, " + itoa(r.lo) + ", " + itoa(r.hi) + ")", expr.Const(int(r.lo)), expr.Const(int(r.hi)), want{vals: x}},
			// lo > hi: hi everywhere
			{"clip(x, 10, 3)", expr.Const(10), expr.Const(3), want{vals: clamp(10, 3)}},
			// an upper bound below the minimum: OverflowError, whatever
			// the lower one (int64's minimum is in range)
			{"clip(x, -1, -9223372036854775808)", expr.Const(-1), expr.Const(math.MinInt64), want{overflow: !is64, vals: clamp(-1, math.MinInt64)}},
			{"clip(x, None, -9223372036854775808)", nil, expr.Const(math.MinInt64), want{overflow: !is64, vals: clamp(r.lo, r.lo)}},
		}
		if r.hi < math.MaxInt64 {
			cases = append(cases,
				// a lower bound above the maximum: OverflowError
				clipCase{"clip(x, " + itoa(r.hi+1) + ", None)", expr.Const(int(r.hi + 1)), nil, want{overflow: true}},
				clipCase{"clip(x, " + itoa(r.hi+1) + ", 9223372036854775807)", expr.Const(int(r.hi + 1)), expr.Const(math.MaxInt64), want{overflow: true}},
				clipCase{"clip(x, 3, " + itoa(r.hi+1) + ")", expr.Const(3), expr.Const(int(r.hi + 1)), want{vals: clamp(3, r.hi)}},
			)
		}
		if r.lo > math.MinInt64 {
			cases = append(cases,
				clipCase{"clip(x, " + itoa(r.lo-1) + ", 7)", expr.Const(int(r.lo - 1)), expr.Const(7), want{vals: clamp(r.lo, 7)}},
				clipCase{"clip(x, None, " + itoa(r.lo-1) + ")", nil, expr.Const(int(r.lo - 1)), want{overflow: true}},
			)
		}
		for _, c := range cases {
			built := expr.Clip(env["x"], c.lo, c.hi)
			parsed, perr := expr.Parse(c.src, env)
			if c.want.overflow {
				require.ErrorIs(t, built.Err(), expr.ErrOverflow, "%v %s", dt, c.src)
				require.ErrorIs(t, perr, expr.ErrOverflow, "%v %s", dt, c.src)
				continue
			}
			require.NoError(t, built.Err(), "%v %s", dt, c.src)
			require.NoError(t, perr, "%v %s", dt, c.src)
			require.Equal(t, expr.Structure(built), expr.Structure(parsed), "%v %s", dt, c.src)
			want := evalOutcome(mem, expr.Leaf(ints(t, mem, dt, c.want.vals...)), nil)
			require.Equal(t, want, evalOutcome(mem, built, nil), "%v %s", dt, c.src)
			require.Equal(t, want, evalOutcome(mem, parsed, nil), "%v %s", dt, c.src)
		}
		// Python ints beyond int64 (Parse only): dropped on their side
		for src, vals := range map[string][]int64{
			"clip(x, -2**70, 2**70)": x, "clip(x, -2**64, 12)": clamp(r.lo, 12), "clip(x, None, 2**64)": x,
		} {
			e, err := expr.Parse(src, env)
			require.NoError(t, err, "%v %s", dt, src)
			require.Equal(t, evalOutcome(mem, expr.Leaf(ints(t, mem, dt, vals...)), nil), evalOutcome(mem, e, nil), "%v %s", dt, src)
		}
		_, err := expr.Parse("clip(x, 2**70, None)", env)
		require.ErrorIs(t, err, expr.ErrOverflow, "%v", dt)
		// a float bound promotes to float64 (NEP 50), even out of range
		e, err := expr.Parse("clip(x, -1e300, 2.5)", env)
		require.NoError(t, err)
		require.Equal(t, array.Float64, e.DType(), "%v", dt)
		require.Equal(t, expr.Structure(expr.Clip(env["x"], expr.Const(-1e300), expr.Const(2.5))), expr.Structure(e))
		got := evalAs[float64](t, mem, e, array.Float64, len(x))
		for i, v := range x {
			require.Equal(t, math.Min(float64(v), 2.5), got[i], "%v %d", dt, v)
		}
		// a bool bound is not a Python int: never dropped
		e, err = expr.Parse("clip(x, False, True)", env)
		require.NoError(t, err)
		require.Equal(t, dt, e.DType())
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestClipFloatsAndBool: NaN bounds give NaN and keep the float dtype; weak
// floats beyond float32's range become ±inf (NEP 50's float32(3) + 3e100);
// bool with ints computes in int64, with bools in bool, and with no bound is
// an error (numpy.positive has no bool loop).
func TestClipFloatsAndBool(t *testing.T) {
	mem := checkedMem(t)
	f := expr.Leaf(mk(t, mem, []float32{-2, 0.5, 3}, 3))
	nan := expr.Const(math.NaN())
	for _, e := range []*expr.Node{expr.Clip(f, nan, expr.Const(1)), expr.Clip(f, expr.Const(0), nan), expr.Clip(f, nan, nil), expr.Clip(f, nil, nan)} {
		got := evalAs[float32](t, mem, e, array.Float32, 3)
		for _, v := range got {
			require.True(t, math.IsNaN(float64(v)), "%v: %v", e, got)
		}
	}
	require.Equal(t, []float32{-2, 0.5, 3}, evalAs[float32](t, mem, expr.Clip(f, expr.Const(-1e300), expr.Const(1e300)), array.Float32, 3))
	require.Equal(t, []float32{-2, 0.5, 3}, evalAs[float32](t, mem, expr.Clip(f, nil, nil), array.Float32, 3))
	require.Equal(t, []float32{-1, 0.5, 1}, evalAs[float32](t, mem, expr.Clip(f, expr.Const(-1), expr.Const(1)), array.Float32, 3))

	b := expr.Leaf(mk(t, mem, []bool{false, true}, 2))
	require.Equal(t, []int64{1, 1}, evalAs[int64](t, mem, expr.Clip(b, expr.Const(1), expr.Const(5)), array.Int64, 2))
	require.Equal(t, []int64{-1, -1}, evalAs[int64](t, mem, expr.Clip(b, expr.Const(-3), expr.Const(-1)), array.Int64, 2))
	require.Equal(t, []bool{true, true}, evalAs[bool](t, mem, expr.Clip(b, expr.Const(true), nil), array.Bool, 2))
	require.Equal(t, []float64{0.5, 1}, evalAs[float64](t, mem, expr.Clip(b, expr.Const(0.5), expr.Const(2.5)), array.Float64, 2))
	require.ErrorIs(t, expr.Clip(b, nil, nil).Err(), expr.ErrDType)
	_, err := expr.Parse("clip(b, None, None)", map[string]*expr.Node{"b": b})
	require.ErrorIs(t, err, expr.ErrDType)

	// bounds of variables, and a variable x of unknown dims
	v := expr.Var("v", array.Uint8, broadcast.DynamicShape())
	require.NoError(t, expr.Clip(v, expr.Const(-1), expr.Const(256)).Err())
	require.Equal(t, array.Uint8, expr.Clip(v, expr.Const(-1), expr.Const(256)).DType())
	require.Equal(t, array.Int16, expr.Clip(v, expr.Const(-1), expr.Var("w", array.Int16, broadcast.DynamicShape())).DType())
}
