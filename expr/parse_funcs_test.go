package expr_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
)

type (
	unaryFn  func(*expr.Node) *expr.Node
	binaryFn func(a, b *expr.Node, rule ...expr.Rule) *expr.Node
)

// The builder of each function name Parse knows.
var (
	parseUnaryFns = map[string]unaryFn{
		"negative": expr.Neg, "absolute": expr.Abs, "abs": expr.Abs, "sign": expr.Sign,
		"square": expr.Square, "reciprocal": expr.Reciprocal, "sqrt": expr.Sqrt,
		"exp": expr.Exp, "exp2": expr.Exp2, "expm1": expr.Expm1, "log": expr.Log,
		"log2": expr.Log2, "log10": expr.Log10, "log1p": expr.Log1p, "sin": expr.Sin,
		"cos": expr.Cos, "tan": expr.Tan, "arcsin": expr.Arcsin, "asin": expr.Arcsin,
		"arccos": expr.Arccos, "acos": expr.Arccos, "arctan": expr.Arctan, "atan": expr.Arctan,
		"sinh": expr.Sinh, "cosh": expr.Cosh, "tanh": expr.Tanh, "floor": expr.Floor,
		"ceil": expr.Ceil, "trunc": expr.Trunc, "rint": expr.Rint, "isnan": expr.IsNaN,
		"isinf": expr.IsInf, "isfinite": expr.IsFinite, "logical_not": expr.LogicalNot,
		"invert": expr.Invert, "bitwise_not": expr.Invert, "bitwise_invert": expr.Invert,
		"arcsinh": expr.Arcsinh, "asinh": expr.Arcsinh, "arccosh": expr.Arccosh, "acosh": expr.Arccosh,
		"arctanh": expr.Arctanh, "atanh": expr.Arctanh, "cbrt": expr.Cbrt, "deg2rad": expr.Deg2rad,
		"radians": expr.Deg2rad, "rad2deg": expr.Rad2deg, "degrees": expr.Rad2deg, "fabs": expr.Fabs,
		"signbit": expr.Signbit, "positive": expr.Positive,
	}
	parseBinaryFns = map[string]binaryFn{
		"add": expr.Add, "subtract": expr.Sub, "multiply": expr.Mul, "true_divide": expr.Div,
		"divide": expr.Div, "floor_divide": expr.FloorDiv, "trunc_divide": expr.TruncDiv,
		"remainder": expr.Remainder, "mod": expr.Remainder, "fmod": expr.Fmod,
		"power": expr.Power, "pow": expr.Power, "maximum": expr.Maximum, "minimum": expr.Minimum,
		"fmax": expr.Fmax, "fmin": expr.Fmin, "arctan2": expr.Arctan2, "atan2": expr.Arctan2,
		"hypot": expr.Hypot, "copysign": expr.Copysign, "squared_difference": expr.SquaredDiff,
		"prelu": func(a, b *expr.Node, _ ...expr.Rule) *expr.Node { return expr.PRelu(a, b) },
		"equal": expr.Equal, "not_equal": expr.NotEqual, "greater": expr.Greater,
		"greater_equal": expr.GreaterEqual, "less": expr.Less, "less_equal": expr.LessEqual,
		"logical_and": expr.LogicalAnd, "logical_or": expr.LogicalOr, "logical_xor": expr.LogicalXor,
		"bitwise_and": expr.BitwiseAnd, "bitwise_or": expr.BitwiseOr, "bitwise_xor": expr.BitwiseXor,
		"left_shift": expr.LeftShift, "bitwise_left_shift": expr.LeftShift,
		"right_shift": expr.RightShift, "bitwise_right_shift": expr.RightShift,
		"logaddexp": expr.Logaddexp, "logaddexp2": expr.Logaddexp2, "heaviside": expr.Heaviside,
		"float_power": expr.FloatPower,
	}
	parseOtherFns = []string{"where", "clip", "round", "around", "sum", "prod", "min", "max", "mean", "std", "var",
		"any", "all", "argmin", "argmax", "count_nonzero", "nansum", "nanmean", "nanmin", "nanmax"}
)

// operandsFor picks variables an op has a loop for: floats in (0.05, 0.95)
// unless the op is integer-only.
func operandsFor(name string) (string, string) {
	switch name {
	case "invert", "bitwise_not", "bitwise_invert", "bitwise_and", "bitwise_or", "bitwise_xor",
		"left_shift", "bitwise_left_shift", "right_shift", "bitwise_right_shift":
		return "i", "j"
	}
	return "x", "y"
}

// TestParseFunctions calls every function of ParseFunctions and compares
// with the builder: each elementwise name must be in the tables above (a
// new op-table ufunc is callable at once; this test asks for its row).
func TestParseFunctions(t *testing.T) {
	mem := checkedMem(t)
	b := parseBindings(t, mem)
	names := expr.ParseFunctions()
	require.True(t, slices.IsSorted(names))
	for _, op := range compute.Ops() {
		require.Contains(t, names, op.String(), "every op of the table is callable")
	}
	for _, name := range names {
		a1, a2 := operandsFor(name)
		v := parseVars()
		switch {
		case parseUnaryFns[name] != nil:
			checkParse(t, mem, b, name+"("+a1+")", parseUnaryFns[name](v[a1]))
			checkParse(t, mem, b, name+"(-"+a1+" * 2)", parseUnaryFns[name](expr.Mul(expr.Neg(v[a1]), expr.Const(2))))
		case parseBinaryFns[name] != nil:
			checkParse(t, mem, b, name+"("+a1+", "+a2+")", parseBinaryFns[name](v[a1], v[a2]))
			checkParse(t, mem, b, name+"( "+a2+" ,"+a1+" , )", parseBinaryFns[name](v[a2], v[a1]))
			checkParse(t, mem, b, name+"("+a1+", 3)", parseBinaryFns[name](v[a1], expr.Const(3)))
		default:
			require.Contains(t, parseOtherFns, name, "a function Parse knows without a test row")
		}
	}
	// float32 stays float32 through a function with a weak operand
	e, err := expr.Parse("maximum(f, 0.5)", parseVars())
	require.NoError(t, err)
	require.Equal(t, array.Float32, e.DType())

	v := parseVars()
	for _, c := range []struct {
		src  string
		want *expr.Node
	}{
		{"where(b, x, y)", expr.Where(v["b"], v["x"], v["y"])},
		{"where(x > 0.5, x, -1)", expr.Where(expr.Greater(v["x"], expr.Const(0.5)), v["x"], expr.Const(-1))},
		{"where(b, f, 2.5)", expr.Where(v["b"], v["f"], expr.Const(2.5))},
		{"clip(z, -1, 1.5)", expr.Clip(v["z"], expr.Const(-1), expr.Const(1.5))},
		{"clip(z, x, y)", expr.Clip(v["z"], v["x"], v["y"])},
		{"clip(z, None, 1)", expr.Minimum(v["z"], expr.Const(1))},
		{"clip(z, 0, None)", expr.Maximum(v["z"], expr.Const(0))},
		{"round(z)", expr.Round(v["z"], 0)},
		{"round(z * 100, 1)", expr.Round(expr.Mul(v["z"], expr.Const(100)), 1)},
		{"round(z, decimals=-1)", expr.Round(v["z"], -1)},
		{"around(i, -1)", expr.Round(v["i"], -1)},
		{"sqrt(abs(z)) + exp(-x**2/2)", expr.Add(expr.Sqrt(expr.Abs(v["z"])), expr.Exp(expr.Div(expr.Neg(expr.Power(v["x"], expr.Const(2))), expr.Const(2))))},
		// reductions
		{"sum(x)", expr.ReduceSum(v["x"], nil, false)},
		{"sum(i)", expr.ReduceSum(v["i"], nil, false)},
		{"prod(x, axis=None)", expr.ReduceProd(v["x"], nil, false)},
		{"min(z, axis=0)", expr.ReduceMin(v["z"], []int{0}, false)},
		{"max(z, 1)", expr.ReduceMax(v["z"], []int{1}, false)},
		{"mean(x, axis=-1, keepdims=True)", expr.ReduceMean(v["x"], []int{-1}, true)},
		{"mean(x, keepdims=False, axis=(1, 0))", expr.ReduceMean(v["x"], []int{1, 0}, false)},
		{"sum(x, axis=(0,))", expr.ReduceSum(v["x"], []int{0}, false)},
		{"sum(x, axis=())", expr.ReduceSum(v["x"], []int{}, false)},
		{"sum(b, axis=1 - 2)", expr.ReduceSum(v["b"], []int{-1}, false)},
		{"(x - mean(x)) / max(abs(x - mean(x)))", expr.Div(expr.Sub(v["x"], expr.ReduceMean(v["x"], nil, false)),
			expr.ReduceMax(expr.Abs(expr.Sub(v["x"], expr.ReduceMean(v["x"], nil, false))), nil, false))},
		{"x - mean(x, axis=1, keepdims=True)", expr.Sub(v["x"], expr.ReduceMean(v["x"], []int{1}, true))},
		{"std(x)", expr.ReduceStd(v["x"], nil, 0, false)},
		{"std(z, axis=0, ddof=1)", expr.ReduceStd(v["z"], []int{0}, 1, false)},
		{"var(z, 1, keepdims=True, ddof=2)", expr.ReduceVar(v["z"], []int{1}, 2, true)},
		{"(x - mean(x, 0)) / std(x, 0)", expr.Div(expr.Sub(v["x"], expr.ReduceMean(v["x"], []int{0}, false)), expr.ReduceStd(v["x"], []int{0}, 0, false))},
		{"any(b)", expr.Any(v["b"], nil, false)},
		{"all(x > 0.5, axis=1)", expr.All(expr.Greater(v["x"], expr.Const(0.5)), []int{1}, false)},
		{"argmin(z)", expr.Argmin(v["z"], nil, false)},
		{"argmax(z, axis=1)", expr.Argmax(v["z"], []int{1}, false)},
		{"count_nonzero(i, axis=0)", expr.CountNonzero(v["i"], []int{0}, false)},
		{"nansum(log(x))", expr.Nansum(expr.Log(v["x"]), nil, false)},
		{"nanmean(z, axis=-1)", expr.Nanmean(v["z"], []int{-1}, false)},
		{"nanmin(z)", expr.Nanmin(v["z"], nil, false)},
		{"nanmax(z, keepdims=True)", expr.Nanmax(v["z"], nil, true)},
	} {
		checkParse(t, mem, b, c.src, c.want)
	}
}

// TestComparison: the comparisons Parse builds between a variable and a
// number are reported with the variable on the left; nothing else is.
func TestComparison(t *testing.T) {
	x := expr.Var("x", array.Float64, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim()}, RankKnown: true})
	env := map[string]*expr.Node{"x": x}
	for src, want := range map[string][3]any{
		"x > 0.5": {">", "x", 0.5}, "3 <= x": {">=", "x", 3.0}, "x == -2": {"==", "x", -2.0},
		"x != 1": {"!=", "x", 1.0}, "1e3 > x": {"<", "x", 1000.0}, "x < 7": {"<", "x", 7.0},
	} {
		n, err := expr.Parse(src, env)
		if err != nil {
			t.Fatal(err)
		}
		op, name, v, ok := n.Comparison()
		if !ok || op != want[0] || name != want[1] || v != want[2] {
			t.Errorf("%s: %q %q %v %v, want %v", src, op, name, v, ok, want)
		}
	}
	for _, src := range []string{"x + 1", "x > x", "(x > 1) & (x < 2)", "x"} {
		n, err := expr.Parse(src, env)
		if err != nil {
			continue
		}
		if _, _, _, ok := n.Comparison(); ok {
			t.Errorf("%s: reported as a comparison", src)
		}
	}
}

// TestParseReductionScalarAxis: NumPy lets axis=0 and axis=-1 (an int, not
// a tuple) through for a 0-d operand in the reductions made of a ufunc's
// reduce and in argmin/argmax, reducing nothing; mean, std and var (and
// nanmean of integers, which is mean) raise, as every reduction does for a
// tuple or another axis. The table is NumPy's (1.24 and 2.x agree: the
// rule is in PyArray_ConvertMultiAxis and in _methods.py).
func TestParseReductionScalarAxis(t *testing.T) {
	mem := checkedMem(t)
	f := scalar(t, mem, 2.5)
	z := scalar(t, mem, int64(0))
	lets := map[string]bool{"sum": true, "prod": true, "min": true, "max": true, "any": true, "all": true,
		"count_nonzero": true, "nansum": true, "nanmin": true, "nanmax": true, "argmin": true, "argmax": true,
		"nanmean": true, "mean": false, "std": false, "var": false}
	for name, ok := range lets {
		for _, x := range []*array.Array{f, z} {
			env := map[string]*expr.Node{"x": expr.Leaf(x)}
			want, err := expr.Parse(name+"(x)", env) // axis=None: the value NumPy gives
			require.NoError(t, err)
			wantV := evalAs[float64](t, mem, expr.Cast(want, array.Float64), array.Float64)
			letThrough := ok && (name != "nanmean" || x.DType().IsFloat())
			for _, axis := range []string{"0", "-1"} {
				src := name + "(x, axis=" + axis + ")"
				e, err := expr.Parse(src, env)
				if !letThrough {
					require.ErrorIs(t, err, broadcast.ErrAxes, "%s on %v", src, x.DType())
					continue
				}
				require.NoError(t, err, "%s on %v", src, x.DType())
				require.Equal(t, want.DType(), e.DType(), src)
				got := evalAs[float64](t, mem, expr.Cast(e, array.Float64), array.Float64)
				require.Equal(t, wantV, got, "%s on %v", src, x.DType())
			}
			for _, axis := range []string{"(0,)", "1", "-2", "(0, -1)"} {
				_, err := expr.Parse(name+"(x, axis="+axis+")", env)
				require.Error(t, err, "%s(x, axis=%s) on %v", name, axis, x.DType())
			}
		}
	}
}
