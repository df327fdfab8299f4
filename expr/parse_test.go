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

// parseVars are the names the Parse tests use: variables, so that a parsed
// tree and a hand-built one print alike (Node.String names them).
func parseVars() map[string]*expr.Node {
	s := broadcast.StaticShape(4, 5)
	return map[string]*expr.Node{
		"x": expr.Var("x", array.Float64, s), "y": expr.Var("y", array.Float64, s),
		"z": expr.Var("z", array.Float64, s), "f": expr.Var("f", array.Float32, s),
		"i": expr.Var("i", array.Int32, s), "j": expr.Var("j", array.Int32, s),
		"k": expr.Var("k", array.Int8, s), "u": expr.Var("u", array.Uint8, broadcast.StaticShape(5)),
		"b": expr.Var("b", array.Bool, s), "c": expr.Var("c", array.Bool, s),
	}
}

// parseBindings binds parseVars to random data (fixed seed): x, y in
// (0.05, 0.95) (every math function is defined there), z in (-3, 3), j
// never 0.
func parseBindings(t *testing.T, mem memory.Allocator) expr.Bindings {
	r := rand.New(rand.NewPCG(12, 1))
	const n = 20
	fl := func(lo, hi float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = lo + (hi-lo)*r.Float64()
		}
		return v
	}
	f32 := make([]float32, n)
	i32, j32, i8 := make([]int32, n), make([]int32, n), make([]int8, n)
	b1, b2 := make([]bool, n), make([]bool, n)
	for e := range n {
		f32[e] = float32(r.NormFloat64())
		i32[e] = int32(r.IntN(201) - 100)
		j32[e] = int32(r.IntN(15) + 1)
		if r.IntN(2) == 0 {
			j32[e] = -j32[e]
		}
		i8[e] = int8(r.IntN(256) - 128)
		b1[e], b2[e] = r.IntN(2) == 0, r.IntN(3) == 0
	}
	u8 := []uint8{0, 1, 7, 200, 255}
	return expr.Bindings{
		"x": mk(t, mem, fl(0.05, 0.95), 4, 5), "y": mk(t, mem, fl(0.05, 0.95), 4, 5),
		"z": mk(t, mem, fl(-3, 3), 4, 5), "f": mk(t, mem, f32, 4, 5),
		"i": mk(t, mem, i32, 4, 5), "j": mk(t, mem, j32, 4, 5), "k": mk(t, mem, i8, 4, 5),
		"u": mk(t, mem, u8, 5), "b": mk(t, mem, b1, 4, 5), "c": mk(t, mem, b2, 4, 5),
	}
}

// evalText evaluates e and renders its dtype, shape and values exactly
// (Go's shortest float formatting, NaN included).
func evalText(t *testing.T, mem memory.Allocator, e *expr.Node, b expr.Bindings) string {
	t.Helper()
	out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(b))
	require.NoError(t, err, "%v", e)
	defer out.Release()
	var v any
	switch out.DType() {
	case array.Bool:
		v, err = array.ToSlice[bool](out)
	case array.Int8:
		v, err = array.ToSlice[int8](out)
	case array.Int16:
		v, err = array.ToSlice[int16](out)
	case array.Int32:
		v, err = array.ToSlice[int32](out)
	case array.Int64:
		v, err = array.ToSlice[int64](out)
	case array.Uint8:
		v, err = array.ToSlice[uint8](out)
	case array.Uint16:
		v, err = array.ToSlice[uint16](out)
	case array.Uint32:
		v, err = array.ToSlice[uint32](out)
	case array.Uint64:
		v, err = array.ToSlice[uint64](out)
	case array.Float32:
		v, err = array.ToSlice[float32](out)
	case array.Float64:
		v, err = array.ToSlice[float64](out)
	default:
		c, cerr := expr.Eval(expr.Cast(expr.Leaf(out), array.Float32), expr.WithAllocator(mem))
		require.NoError(t, cerr)
		defer c.Release()
		v, err = array.ToSlice[float32](c)
	}
	require.NoError(t, err)
	return fmt.Sprintf("%v%v %v", out.DType(), out.Shape(), v)
}

// checkParse parses src and requires the hand-built tree: the same
// structure (String) and the same values on random data.
func checkParse(t *testing.T, mem memory.Allocator, b expr.Bindings, src string, want *expr.Node) {
	t.Helper()
	got, err := expr.Parse(src, parseVars())
	require.NoError(t, err, "%s", src)
	require.NoError(t, want.Err(), "%s: the hand-built tree", src)
	require.Equal(t, want.String(), got.String(), "%s", src)
	require.Equal(t, want.DType(), got.DType(), "%s", src)
	require.Equal(t, evalText(t, mem, want, b), evalText(t, mem, got, b), "%s", src)
}

type parseCase struct {
	src  string
	want func(v map[string]*expr.Node) *expr.Node
}

func TestParseOperators(t *testing.T) {
	mem := checkedMem(t)
	b := parseBindings(t, mem)
	C := func(v int) *expr.Node { return expr.Const(v) }
	F := func(v float64) *expr.Node { return expr.Const(v) }
	for _, c := range []parseCase{
		// every operator
		{"x + y", func(v map[string]*expr.Node) *expr.Node { return expr.Add(v["x"], v["y"]) }},
		{"x - y", func(v map[string]*expr.Node) *expr.Node { return expr.Sub(v["x"], v["y"]) }},
		{"x * y", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["x"], v["y"]) }},
		{"x / y", func(v map[string]*expr.Node) *expr.Node { return expr.Div(v["x"], v["y"]) }},
		{"i / j", func(v map[string]*expr.Node) *expr.Node { return expr.Div(v["i"], v["j"]) }},
		{"z // y", func(v map[string]*expr.Node) *expr.Node { return expr.FloorDiv(v["z"], v["y"]) }},
		{"i // j", func(v map[string]*expr.Node) *expr.Node { return expr.FloorDiv(v["i"], v["j"]) }},
		{"z % y", func(v map[string]*expr.Node) *expr.Node { return expr.Remainder(v["z"], v["y"]) }},
		{"i % j", func(v map[string]*expr.Node) *expr.Node { return expr.Remainder(v["i"], v["j"]) }},
		{"x ** y", func(v map[string]*expr.Node) *expr.Node { return expr.Power(v["x"], v["y"]) }},
		{"i ** 2", func(v map[string]*expr.Node) *expr.Node { return expr.Power(v["i"], C(2)) }},
		{"i << 3", func(v map[string]*expr.Node) *expr.Node { return expr.LeftShift(v["i"], C(3)) }},
		{"i >> 2", func(v map[string]*expr.Node) *expr.Node { return expr.RightShift(v["i"], C(2)) }},
		{"i & j", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseAnd(v["i"], v["j"]) }},
		{"i | j", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseOr(v["i"], v["j"]) }},
		{"i ^ j", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseXor(v["i"], v["j"]) }},
		{"b & c", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseAnd(v["b"], v["c"]) }},
		{"b | c", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseOr(v["b"], v["c"]) }},
		{"b ^ c", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseXor(v["b"], v["c"]) }},
		{"~i", func(v map[string]*expr.Node) *expr.Node { return expr.Invert(v["i"]) }},
		{"~b", func(v map[string]*expr.Node) *expr.Node { return expr.Invert(v["b"]) }},
		{"-x", func(v map[string]*expr.Node) *expr.Node { return expr.Neg(v["x"]) }},
		{"+x", func(v map[string]*expr.Node) *expr.Node { return v["x"] }},
		{"x < y", func(v map[string]*expr.Node) *expr.Node { return expr.Less(v["x"], v["y"]) }},
		{"x <= y", func(v map[string]*expr.Node) *expr.Node { return expr.LessEqual(v["x"], v["y"]) }},
		{"x > y", func(v map[string]*expr.Node) *expr.Node { return expr.Greater(v["x"], v["y"]) }},
		{"x >= y", func(v map[string]*expr.Node) *expr.Node { return expr.GreaterEqual(v["x"], v["y"]) }},
		{"i == j", func(v map[string]*expr.Node) *expr.Node { return expr.Equal(v["i"], v["j"]) }},
		{"i != j", func(v map[string]*expr.Node) *expr.Node { return expr.NotEqual(v["i"], v["j"]) }},
		{"not b", func(v map[string]*expr.Node) *expr.Node { return expr.LogicalNot(v["b"]) }},
		{"b and c", func(v map[string]*expr.Node) *expr.Node { return expr.LogicalAnd(v["b"], v["c"]) }},
		{"b or c", func(v map[string]*expr.Node) *expr.Node { return expr.LogicalOr(v["b"], v["c"]) }},
		// precedence and associativity (Python's)
		{"x + y * z", func(v map[string]*expr.Node) *expr.Node { return expr.Add(v["x"], expr.Mul(v["y"], v["z"])) }},
		{"(x + y) * z", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(expr.Add(v["x"], v["y"]), v["z"]) }},
		{"x - y - z", func(v map[string]*expr.Node) *expr.Node { return expr.Sub(expr.Sub(v["x"], v["y"]), v["z"]) }},
		{"x / y / z", func(v map[string]*expr.Node) *expr.Node { return expr.Div(expr.Div(v["x"], v["y"]), v["z"]) }},
		{"x / y * z", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(expr.Div(v["x"], v["y"]), v["z"]) }},
		{"z // y % x", func(v map[string]*expr.Node) *expr.Node {
			return expr.Remainder(expr.FloorDiv(v["z"], v["y"]), v["x"])
		}},
		{"-x**2", func(v map[string]*expr.Node) *expr.Node { return expr.Neg(expr.Power(v["x"], C(2))) }},
		{"x**y**z", func(v map[string]*expr.Node) *expr.Node { return expr.Power(v["x"], expr.Power(v["y"], v["z"])) }},
		{"x**-y", func(v map[string]*expr.Node) *expr.Node { return expr.Power(v["x"], expr.Neg(v["y"])) }},
		{"-x*y", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(expr.Neg(v["x"]), v["y"]) }},
		{"--x", func(v map[string]*expr.Node) *expr.Node { return expr.Neg(expr.Neg(v["x"])) }},
		{"-+-x", func(v map[string]*expr.Node) *expr.Node { return expr.Neg(expr.Neg(v["x"])) }},
		{"~-i", func(v map[string]*expr.Node) *expr.Node { return expr.Invert(expr.Neg(v["i"])) }},
		{"x * -2", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["x"], C(-2)) }},
		{"i + 1 << 2", func(v map[string]*expr.Node) *expr.Node { return expr.LeftShift(expr.Add(v["i"], C(1)), C(2)) }},
		{"i << 1 & j", func(v map[string]*expr.Node) *expr.Node { return expr.BitwiseAnd(expr.LeftShift(v["i"], C(1)), v["j"]) }},
		{"i | j ^ i & j", func(v map[string]*expr.Node) *expr.Node {
			return expr.BitwiseOr(v["i"], expr.BitwiseXor(v["j"], expr.BitwiseAnd(v["i"], v["j"])))
		}},
		{"i & j == j", func(v map[string]*expr.Node) *expr.Node { return expr.Equal(expr.BitwiseAnd(v["i"], v["j"]), v["j"]) }},
		{"(x > y) & (y > z)", func(v map[string]*expr.Node) *expr.Node {
			return expr.BitwiseAnd(expr.Greater(v["x"], v["y"]), expr.Greater(v["y"], v["z"]))
		}},
		{"x < y < z", func(v map[string]*expr.Node) *expr.Node {
			return expr.LogicalAnd(expr.Less(v["x"], v["y"]), expr.Less(v["y"], v["z"]))
		}},
		{"x < y <= z != x", func(v map[string]*expr.Node) *expr.Node {
			return expr.LogicalAnd(expr.LogicalAnd(expr.Less(v["x"], v["y"]), expr.LessEqual(v["y"], v["z"])), expr.NotEqual(v["z"], v["x"]))
		}},
		{"x > 0.5 and not y > 0.5 or b", func(v map[string]*expr.Node) *expr.Node {
			return expr.LogicalOr(expr.LogicalAnd(expr.Greater(v["x"], F(0.5)), expr.LogicalNot(expr.Greater(v["y"], F(0.5)))), v["b"])
		}},
		{"not x + y > z", func(v map[string]*expr.Node) *expr.Node {
			return expr.LogicalNot(expr.Greater(expr.Add(v["x"], v["y"]), v["z"]))
		}},
		{"b or c and b", func(v map[string]*expr.Node) *expr.Node {
			return expr.LogicalOr(v["b"], expr.LogicalAnd(v["c"], v["b"]))
		}},
		{"\t( x\n+ y )*\r\nz", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(expr.Add(v["x"], v["y"]), v["z"]) }},
		// numbers: weak scalars, folded as Python does
		{"f * 2.5", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["f"], F(2.5)) }},
		{"f * -2.5", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["f"], F(-2.5)) }},
		{"f * (1/4)", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["f"], F(0.25)) }},
		{"u + 2*3", func(v map[string]*expr.Node) *expr.Node { return expr.Add(v["u"], C(6)) }},
		{"k - 2**6", func(v map[string]*expr.Node) *expr.Node { return expr.Sub(v["k"], C(64)) }},
		{"k * 2.5", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["k"], F(2.5)) }},
		{"b + True", func(v map[string]*expr.Node) *expr.Node { return expr.Add(v["b"], expr.Const(true)) }},
		{"f + 1_000", func(v map[string]*expr.Node) *expr.Node { return expr.Add(v["f"], C(1000)) }},
		{"i + 0x1F - 0o17 + 0b11", func(v map[string]*expr.Node) *expr.Node {
			return expr.Add(expr.Sub(expr.Add(v["i"], C(31)), C(15)), C(3))
		}},
		{"x * 1e-3 + .5 - 2.", func(v map[string]*expr.Node) *expr.Node {
			return expr.Sub(expr.Add(expr.Mul(v["x"], F(1e-3)), F(0.5)), F(2))
		}},
		{"x**2 + -1", func(v map[string]*expr.Node) *expr.Node { return expr.Add(expr.Power(v["x"], C(2)), C(-1)) }},
		{"x * (-9223372036854775807 - 1)", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["x"], C(-9223372036854775808)) }},
		{"x * -2**63", func(v map[string]*expr.Node) *expr.Node { return expr.Mul(v["x"], C(-9223372036854775808)) }},
		{"2**3**2", func(v map[string]*expr.Node) *expr.Node { return C(512) }},
		{"2**-1", func(v map[string]*expr.Node) *expr.Node { return F(0.5) }},
		{"-2**2", func(v map[string]*expr.Node) *expr.Node { return C(-4) }},
		{"(-2)**2", func(v map[string]*expr.Node) *expr.Node { return C(4) }},
		{"True", func(v map[string]*expr.Node) *expr.Node { return expr.Const(true) }},
		{"1 < 2 < 3", func(v map[string]*expr.Node) *expr.Node { return expr.Const(true) }},
	} {
		checkParse(t, mem, b, c.src, c.want(parseVars()))
	}
}

// BenchmarkParse parses a numexpr-sized expression (a standardization and a
// mask): the cost of the text form over the builder calls.
func BenchmarkParse(b *testing.B) {
	env := parseVars()
	const src = "where(((x - mean(x, axis=0)) / max(abs(x - mean(x, axis=0)), axis=0) > 0.5) & ~b, sqrt(x), -x**2)"
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for range b.N {
		if _, err := expr.Parse(src, env); err != nil {
			b.Fatal(err)
		}
	}
}
