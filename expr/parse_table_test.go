package expr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// The operators of Parse and the constructor each must build.
var (
	parseBinaryOps = map[string]binaryFn{
		"+": expr.Add, "-": expr.Sub, "*": expr.Mul, "/": expr.Div, "//": expr.FloorDiv,
		"%": expr.Remainder, "**": expr.Power, "<<": expr.LeftShift, ">>": expr.RightShift,
		"&": expr.BitwiseAnd, "|": expr.BitwiseOr, "^": expr.BitwiseXor,
		"<": expr.Less, "<=": expr.LessEqual, ">": expr.Greater, ">=": expr.GreaterEqual,
		"==": expr.Equal, "!=": expr.NotEqual, "and": expr.LogicalAnd, "or": expr.LogicalOr,
	}
	parseUnaryOps = map[string]unaryFn{"-": expr.Neg, "~": expr.Invert, "not ": expr.LogicalNot}
	// the reductions, as name(x, axis, keepdims[, ddof])
	parseReductionFns = map[string]func(x *expr.Node, axes []int, ddof int, keep bool) *expr.Node{
		"sum":           func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.ReduceSum(x, ax, k) },
		"prod":          func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.ReduceProd(x, ax, k) },
		"min":           func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.ReduceMin(x, ax, k) },
		"max":           func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.ReduceMax(x, ax, k) },
		"mean":          func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.ReduceMean(x, ax, k) },
		"var":           expr.ReduceVar,
		"std":           expr.ReduceStd,
		"any":           func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Any(x, ax, k) },
		"all":           func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.All(x, ax, k) },
		"argmin":        func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Argmin(x, ax, k) },
		"argmax":        func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Argmax(x, ax, k) },
		"count_nonzero": func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.CountNonzero(x, ax, k) },
		"nansum":        func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Nansum(x, ax, k) },
		"nanmean":       func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Nanmean(x, ax, k) },
		"nanmin":        func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Nanmin(x, ax, k) },
		"nanmax":        func(x *expr.Node, ax []int, _ int, k bool) *expr.Node { return expr.Nanmax(x, ax, k) },
	}
)

// randomOf is a [3 4] array of dt with small values, negatives included
// for signed types (so that integer powers meet negative exponents).
func randomOf(t *testing.T, mem memory.Allocator, r *rand.Rand, dt array.DType) *array.Array {
	t.Helper()
	v := make([]float64, 12)
	for i := range v {
		switch {
		case dt == array.Bool:
			v[i] = float64(r.IntN(2))
		case dt.IsUnsigned():
			v[i] = float64(r.IntN(8))
		case dt.IsInteger():
			v[i] = float64(r.IntN(11) - 5)
		default:
			v[i] = float64(r.IntN(25)-12) / 4
		}
	}
	f, err := array.FromSlice(mem, v, 3, 4)
	require.NoError(t, err)
	defer f.Release()
	out, err := expr.Eval(expr.Cast(expr.Leaf(f), dt), expr.WithAllocator(mem))
	require.NoError(t, err)
	return out
}

// evalOutcome evaluates e and renders its values, or its error.
func evalOutcome(mem memory.Allocator, e *expr.Node, b expr.Bindings) string {
	out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(b))
	if err != nil {
		return "error: " + err.Error()
	}
	defer out.Release()
	dt := out.DType()
	var v any
	switch {
	case dt == array.Bool:
		v, err = array.ToSlice[bool](out)
	case dt.IsUnsigned():
		v, err = array.ToSlice[uint64](out)
	case dt.IsInteger():
		v, err = array.ToSlice[int64](out)
	default:
		v, err = array.ToSlice[float64](out)
	}
	if err != nil {
		return "read error: " + err.Error()
	}
	return fmt.Sprintf("%v%v %v", dt, out.Shape(), v)
}

// TestParseBuildsConstructors walks Parse's function table and its
// operators: each call over variables must be the node the Go constructor
// of that name builds (the same structure, Power's refusal of negative
// integer powers included), with the same values or the same error on
// random data of several dtypes, integers with negative exponents among
// them (issue 17 item 2: a ** b, power() and pow() built the truncating
// power, so 2 ** i gave 0 where NumPy and expr.Power refuse).
func TestParseBuildsConstructors(t *testing.T) {
	mem := checkedMem(t)
	r := rand.New(rand.NewPCG(17, 2))
	pairs := [][2]array.DType{
		{array.Bool, array.Bool}, {array.Int8, array.Int8}, {array.Uint8, array.Uint8},
		{array.Int16, array.Int16}, {array.Int32, array.Int32}, {array.Int64, array.Int64},
		{array.Uint64, array.Uint64}, {array.Float16, array.Float16}, {array.Float32, array.Float32},
		{array.Float64, array.Float64}, {array.Int8, array.Uint8}, {array.Int32, array.Float32},
		{array.Bool, array.Int64}, {array.Uint16, array.Int8},
	}
	names := map[string]bool{}
	for _, n := range expr.ParseFunctions() {
		names[n] = true
	}
	checked := 0
	for _, dts := range pairs {
		s := broadcast.StaticShape(3, 4)
		env := map[string]*expr.Node{"a": expr.Var("a", dts[0], s), "b": expr.Var("b", dts[1], s)}
		a, b := env["a"], env["b"]
		da, db := randomOf(t, mem, r, dts[0]), randomOf(t, mem, r, dts[1])
		bind := expr.Bindings{"a": da, "b": db}
		check := func(src string, want *expr.Node) {
			t.Helper()
			checked++
			got, err := expr.Parse(src, env)
			if werr := want.Err(); werr != nil {
				require.Error(t, err, "%s %v: the constructor fails: %v", src, dts, werr)
				require.Contains(t, err.Error(), werr.Error(), "%s %v", src, dts)
				return
			}
			require.NoError(t, err, "%s %v", src, dts)
			require.Equal(t, expr.Structure(want), expr.Structure(got), "%s %v", src, dts)
			require.Equal(t, evalOutcome(mem, want, bind), evalOutcome(mem, got, bind), "%s %v", src, dts)
		}
		for name, f := range parseBinaryFns {
			require.True(t, names[name], name)
			check(name+"(a, b)", f(a, b))
			check(name+"(b, a)", f(b, a))
			check(name+"(a, -2)", f(a, expr.Const(-2)))
			check(name+"(3, a)", f(expr.Const(3), a))
			check(name+"(a, 2.5)", f(a, expr.Const(2.5)))
			check(name+"(True, b)", f(expr.Const(true), b))
		}
		for name, f := range parseUnaryFns {
			require.True(t, names[name], name)
			check(name+"(a)", f(a))
			check(name+"(-a)", f(expr.Neg(a)))
		}
		for op, f := range parseBinaryOps {
			check("a "+op+" b", f(a, b))
			check("b "+op+" a", f(b, a))
			check("a "+op+" -1", f(a, expr.Const(-1)))
			check("2 "+op+" a", f(expr.Const(2), a))
			check("a "+op+" 0.5", f(a, expr.Const(0.5)))
		}
		for op, f := range parseUnaryOps {
			check(op+"a", f(a))
			check(op+"(a + b)", f(expr.Add(a, b)))
		}
		// the functions with their own argument lists
		check("where(a > 0, a, b)", expr.Where(expr.Greater(a, expr.Const(0)), a, b))
		check("where(b, -1, 2.5)", expr.Where(b, expr.Const(-1), expr.Const(2.5)))
		check("clip(a, -2, 3)", expr.Clip(a, expr.Const(-2), expr.Const(3)))
		check("clip(a, -1000, 1000)", expr.Clip(a, expr.Const(-1000), expr.Const(1000)))
		check("clip(a, b, None)", expr.Clip(a, b, nil))
		check("clip(a, None, 0.5)", expr.Clip(a, nil, expr.Const(0.5)))
		check("clip(a, None, None)", expr.Clip(a, nil, nil))
		check("clip(a, 3, -2)", expr.Clip(a, expr.Const(3), expr.Const(-2)))
		check("round(a)", expr.Round(a, 0))
		check("round(a, 1)", expr.Round(a, 1))
		check("around(a, decimals=-1)", expr.Round(a, -1))
		for name, f := range parseReductionFns {
			require.True(t, names[name], name)
			check(name+"(a)", f(a, nil, 0, false))
			check(name+"(a, 1)", f(a, []int{1}, 0, false))
			check(name+"(a, axis=(0, -1), keepdims=True)", f(a, []int{0, -1}, 0, true))
			if name == "std" || name == "var" {
				check(name+"(a, axis=0, ddof=1)", f(a, []int{0}, 1, false))
			}
		}
		da.Release()
		db.Release()
	}
	// every function name of the table has a constructor row
	for n := range names {
		_, bin := parseBinaryFns[n]
		_, un := parseUnaryFns[n]
		_, red := parseReductionFns[n]
		special := n == "where" || n == "clip" || n == "round" || n == "around"
		require.True(t, bin || un || red || special, "%s: no constructor row", n)
	}
	t.Logf("%d parses compared with their constructors", checked)
}

// TestParsePowerIsNumpys: the cases. 2 ** i and i ** -1 with i an
// int64 holding negatives are errors at evaluation (NumPy's ValueError),
// as expr.Power; nonnegative exponents compute; floats are unaffected.
func TestParsePowerIsNumpys(t *testing.T) {
	mem := checkedMem(t)
	iv := mk(t, mem, []int64{-2, -1, 0, 1, 2}, 5)
	nv := mk(t, mem, []int64{0, 1, 2, 3, 4}, 5)
	env := map[string]*expr.Node{"i": expr.Leaf(iv), "n": expr.Leaf(nv)}
	for _, src := range []string{"2 ** i", "i ** -1", "power(2, i)", "pow(i, -1)", "i ** i", "(-3) ** i"} {
		e, err := expr.Parse(src, env)
		require.NoError(t, err, "%s", src)
		_, err = expr.Eval(e, expr.WithAllocator(mem))
		require.ErrorIs(t, err, expr.ErrArgument, "%s: integers to negative integer powers", src)
		require.Contains(t, err.Error(), "negative integer powers", "%s", src)
	}
	for src, want := range map[string][]int64{
		"2 ** n": {1, 2, 4, 8, 16}, "i ** 2": {4, 1, 0, 1, 4}, "power(i, n)": {1, -1, 0, 1, 16}, "pow(-1, n)": {1, -1, 1, -1, 1},
	} {
		e, err := expr.Parse(src, env)
		require.NoError(t, err, "%s", src)
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		require.NoError(t, err, "%s", src)
		got, err := array.ToSlice[int64](out)
		require.NoError(t, err)
		require.Equal(t, want, got, "%s", src)
		out.Release()
	}
	e, err := expr.Parse("2.0 ** i", env)
	require.NoError(t, err)
	out, err := expr.Eval(e, expr.WithAllocator(mem))
	require.NoError(t, err)
	got, err := array.ToSlice[float64](out)
	require.NoError(t, err)
	require.Equal(t, []float64{0.25, 0.5, 1, 2, 4}, got)
	out.Release()
}
