package expr_test

// Bad input never panics: every constructor records an error that names
// the op and the shapes and matches the right sentinel, and so do Compile,
// Eval and EvalInto, without leaking memory.

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// errCase is one bad expression: the error it must record, matched with
// errors.Is against every sentinel in is, and containing every string in
// names (the op and the shapes).
type errCase struct {
	name  string
	build func() *expr.Node
	is    []error
	names []string
}

func checkErr(t *testing.T, err error, is []error, names []string) {
	t.Helper()
	require.Error(t, err)
	for _, s := range is {
		require.ErrorIs(t, err, s, "%v", err)
	}
	for _, n := range names {
		require.Contains(t, err.Error(), n, "%v", err)
	}
}

func TestConstructorErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the other cleanups
	arr := func(shape ...int) *array.Array {
		a, err := array.New(mem, array.Float32, shape...)
		require.NoError(t, err)
		t.Cleanup(a.Release)
		return a
	}
	ints := func(dt array.DType, v ...int64) *array.Array {
		a, err := array.FromSlice(mem, v)
		require.NoError(t, err)
		t.Cleanup(a.Release)
		if dt == array.Int64 {
			return a
		}
		b, err := expr.Eval(expr.Cast(expr.Leaf(a), dt), expr.WithAllocator(mem))
		require.NoError(t, err)
		t.Cleanup(b.Release)
		return b
	}
	released := arr(2)
	released.Release()
	x34 := expr.Leaf(arr(3, 4))
	x4 := expr.Leaf(arr(4))
	x3 := expr.Leaf(arr(3))
	x234 := expr.Leaf(arr(2, 3, 4))
	b := expr.Leaf(func() *array.Array {
		a, err := array.New(mem, array.Bool, 3)
		require.NoError(t, err)
		t.Cleanup(a.Release)
		return a
	}())
	u8 := func() *array.Array {
		a, err := array.New(mem, array.Uint8, 3)
		require.NoError(t, err)
		t.Cleanup(a.Release)
		return a
	}()
	bad := expr.Leaf(nil)
	dyn := expr.Var("d", array.Float32, broadcast.DynamicShape())

	cases := []errCase{
		// leaves
		{"Leaf(nil)", func() *expr.Node { return expr.Leaf(nil) }, []error{array.ErrNil}, []string{"expr.Leaf"}},
		{"Leaf(released)", func() *expr.Node { return expr.Leaf(released) }, []error{array.ErrReleased}, []string{"expr.Leaf"}},
		{"Var empty name", func() *expr.Node { return expr.Var("", array.Float32, broadcast.StaticShape(2)) }, []error{expr.ErrArgument}, []string{"expr.Var"}},
		{"Var invalid dtype", func() *expr.Node { return expr.Var("v", array.Invalid, broadcast.StaticShape(2)) }, []error{expr.ErrDType}, []string{"expr.Var", `"v"`}},
		{"Var dtype out of range", func() *expr.Node { return expr.Var("v", array.DType(77), broadcast.StaticShape(2)) }, []error{expr.ErrDType}, []string{"expr.Var"}},
		{"Scalar invalid dtype", func() *expr.Node { return expr.Scalar(1, array.Invalid) }, []error{expr.ErrDType}, []string{"expr.Scalar"}},

		// nil and failed operands: every op reports them
		{"Add(nil, x)", func() *expr.Node { return expr.Add(nil, x4) }, []error{expr.ErrNilNode}, nil},
		{"Mul(x, nil)", func() *expr.Node { return expr.Mul(x4, nil) }, []error{expr.ErrNilNode}, nil},
		{"Neg(nil)", func() *expr.Node { return expr.Neg(nil) }, []error{expr.ErrNilNode}, nil},
		{"Cast(nil)", func() *expr.Node { return expr.Cast(nil, array.Int8) }, []error{expr.ErrNilNode}, nil},
		{"Where(nil, x, y)", func() *expr.Node { return expr.Where(nil, x4, x4) }, []error{expr.ErrNilNode}, nil},
		{"Where(c, x, nil)", func() *expr.Node { return expr.Where(b, x3, nil) }, []error{expr.ErrNilNode}, nil},
		{"BroadcastNumpy(nil)", func() *expr.Node { return expr.BroadcastNumpy(nil, []int{2}) }, []error{expr.ErrNilNode}, nil},
		{"ReduceSum(nil)", func() *expr.Node { return expr.ReduceSum(nil, nil, false) }, []error{expr.ErrNilNode}, nil},
		{"ReduceTo(nil)", func() *expr.Node { return expr.ReduceTo(nil, []int{1}) }, []error{expr.ErrNilNode}, nil},
		{"ReduceAxes(nil)", func() *expr.Node { return expr.ReduceAxes(nil, []int{0}) }, []error{expr.ErrNilNode}, nil},
		{"SumOf(x, nil)", func() *expr.Node { return expr.SumOf(x4, nil) }, []error{expr.ErrNilNode}, nil},
		{"MeanOf(nil)", func() *expr.Node { return expr.MeanOf(nil) }, []error{expr.ErrNilNode}, nil},
		{"PRelu(nil, x)", func() *expr.Node { return expr.PRelu(nil, x4) }, []error{expr.ErrNilNode}, nil},
		{"error propagates", func() *expr.Node { return expr.Exp(expr.Add(expr.Sqrt(bad), x4)) }, []error{array.ErrNil}, []string{"expr.Leaf"}},
		{"error propagates through a reduction", func() *expr.Node { return expr.ReduceMax(expr.Neg(bad), []int{0}, true) }, []error{array.ErrNil}, nil},

		// elementwise shapes under every rule
		{"numpy [3 4] and [3]", func() *expr.Node { return expr.Add(x34, x3) }, []error{broadcast.ErrIncompatible}, []string{"add", "[3 4]", "[3]"}},
		{"numpy [3] and [4] (where)", func() *expr.Node { return expr.Where(b, x3, x4) }, []error{broadcast.ErrIncompatible}, []string{"select", "[3]", "[4]"}},
		{"none [3 4] and [4]", func() *expr.Node { return expr.Sub(x34, x4, expr.NoBroadcast) }, []error{broadcast.ErrRank}, []string{"subtract", "[3 4]", "[4]"}},
		{"none [3] and [4]", func() *expr.Node { return expr.Greater(x3, x4, expr.NoBroadcast) }, []error{broadcast.ErrIncompatible}, []string{"greater", "[3]", "[4]"}},
		{"pdpd B does not fit", func() *expr.Node { return expr.Mul(x34, x3, expr.PDPD(-1)) }, []error{broadcast.ErrIncompatible}, []string{"multiply", "[3 4]", "[3]"}},
		{"pdpd axis beyond", func() *expr.Node { return expr.Mul(x34, x3, expr.PDPD(2)) }, []error{broadcast.ErrAxes}, []string{"multiply", "[3 4]", "[3]"}},
		{"pdpd axis < -1", func() *expr.Node { return expr.Div(x34, x3, expr.PDPD(-2)) }, []error{broadcast.ErrAxes}, []string{"divide"}},
		{"pdpd B of larger rank", func() *expr.Node { return expr.Power(x4, x34, expr.PDPD(0)) }, []error{broadcast.ErrRank}, []string{"power", "[4]", "[3 4]"}},
		{"pdpd B onto A only", func() *expr.Node { return expr.Maximum(x4, expr.Leaf(arr(3, 4)), expr.PDPD(-1)) }, []error{broadcast.ErrRank}, []string{"maximum"}},
		{"unidirectional B larger", func() *expr.Node { return expr.Minimum(x4, x34, expr.Unidirectional) }, []error{broadcast.ErrRank}, []string{"minimum", "[3 4]", "[4]"}},
		{"unidirectional B incompatible", func() *expr.Node { return expr.Fmod(x34, x3, expr.Unidirectional) }, []error{broadcast.ErrIncompatible}, []string{"mod", "[3 4]", "[3]"}},
		{"prelu slope larger", func() *expr.Node { return expr.PRelu(x4, x34) }, []error{broadcast.ErrRank}, []string{"prelu", "[4]", "[3 4]"}},
		{"prelu slope incompatible", func() *expr.Node { return expr.PRelu(x34, x3) }, []error{broadcast.ErrIncompatible}, []string{"prelu", "[3 4]", "[3]"}},
		{"select pdpd", func() *expr.Node { return expr.Where(expr.Leaf(arr(3)), x34, x4, expr.PDPD(-1)) }, []error{broadcast.ErrIncompatible}, []string{"select", "[3 4]", "[3]"}},
		{"select none", func() *expr.Node { return expr.Where(b, x4, x4, expr.NoBroadcast) }, []error{broadcast.ErrIncompatible}, []string{"select", "[3]", "[4]"}},
		{"two rules", func() *expr.Node { return expr.Add(x4, x4, expr.Numpy, expr.NoBroadcast) }, []error{expr.ErrArgument}, []string{"add", "2 rules"}},
		{"select two rules", func() *expr.Node { return expr.Where(b, x3, x3, expr.Numpy, expr.Numpy) }, []error{expr.ErrArgument}, []string{"select"}},

		// dtypes
		{"bool - bool", func() *expr.Node { return expr.Sub(b, b) }, []error{expr.ErrDType}, []string{"subtract", "bool", "[3]"}},
		{"bitwise and of floats", func() *expr.Node { return expr.BitwiseAnd(x3, b) }, []error{expr.ErrDType}, []string{"bitwise_and", "float32", "[3]"}},
		{"shift of bool by float", func() *expr.Node { return expr.LeftShift(b, x3) }, []error{expr.ErrDType}, []string{"left_shift", "float32"}},
		{"invert float", func() *expr.Node { return expr.Invert(x4) }, []error{expr.ErrDType}, []string{"invert", "float32", "[4]"}},
		{"weak int out of range", func() *expr.Node { return expr.Add(expr.Leaf(u8), expr.Const(300)) }, []error{expr.ErrOverflow}, []string{"add", "300", "uint8"}},
		{"scalar out of range", func() *expr.Node { return expr.Scalar(300, array.Int8) }, []error{expr.ErrOverflow}, []string{"300", "int8"}},
		{"scalar NaN to int", func() *expr.Node { return expr.Scalar(math.NaN(), array.Int64) }, []error{expr.ErrOverflow}, []string{"NaN", "int64"}},
		{"-bool", func() *expr.Node { return expr.Neg(b) }, []error{expr.ErrDType}, []string{"negative", "bool", "[3]"}},
		{"+bool", func() *expr.Node { return expr.Positive(b) }, []error{expr.ErrDType}, []string{"positive", "bool", "[3]", "cast to an integer"}},
		{"cast to invalid", func() *expr.Node { return expr.Cast(x4, array.Invalid) }, []error{expr.ErrDType}, []string{"Cast"}},

		// variadic
		{"SumOf()", func() *expr.Node { return expr.SumOf() }, []error{expr.ErrArgument}, []string{"SumOf"}},
		{"MaxOf()", func() *expr.Node { return expr.MaxOf() }, []error{expr.ErrArgument}, []string{"MaxOf"}},
		{"MinOf()", func() *expr.Node { return expr.MinOf() }, []error{expr.ErrArgument}, []string{"MinOf"}},
		{"MeanOf()", func() *expr.Node { return expr.MeanOf() }, []error{expr.ErrArgument}, []string{"MeanOf"}},
		{"MaxOf shapes", func() *expr.Node { return expr.MaxOf(x4, x4, x3) }, []error{broadcast.ErrIncompatible}, []string{"maximum", "[4]", "[3]"}},

		// Broadcast, every mode
		{"numpy incompatible", func() *expr.Node { return expr.BroadcastNumpy(x3, []int{2, 4}) }, []error{broadcast.ErrIncompatible}, []string{"Broadcast(numpy)", "[3]", "[2 4]"}},
		{"numpy rank", func() *expr.Node { return expr.BroadcastNumpy(x34, []int{4}) }, []error{broadcast.ErrRank}, []string{"numpy", "[3 4]", "[4]"}},
		{"numpy negative target", func() *expr.Node { return expr.BroadcastNumpy(x4, []int{-4}) }, []error{broadcast.ErrShape}, []string{"numpy"}},
		{"bidirectional", func() *expr.Node { return expr.BroadcastBidirectional(x34, []int{2, 1}) }, []error{broadcast.ErrIncompatible}, []string{"bidirectional", "[3 4]", "[2 1]"}},
		{"explicit unsorted", func() *expr.Node { return expr.BroadcastExplicit(x34, []int{3, 4, 5}, []int{1, 0}) }, []error{broadcast.ErrAxes}, []string{"explicit", "[3 4]", "[3 4 5]"}},
		{"explicit count", func() *expr.Node { return expr.BroadcastExplicit(x34, []int{3, 4, 5}, []int{0}) }, []error{broadcast.ErrAxes}, []string{"explicit"}},
		{"explicit range", func() *expr.Node { return expr.BroadcastExplicit(x4, []int{4, 5}, []int{2}) }, []error{broadcast.ErrAxes}, []string{"explicit"}},
		{"explicit dims", func() *expr.Node { return expr.BroadcastExplicit(x4, []int{4, 5}, []int{1}) }, []error{broadcast.ErrIncompatible}, []string{"explicit", "[4]", "[4 5]"}},
		{"explicit nil mapping for data", func() *expr.Node { return expr.BroadcastExplicit(x4, []int{4}, nil) }, []error{broadcast.ErrAxes}, []string{"explicit"}},
		{"pdpd axis", func() *expr.Node { return expr.BroadcastPDPD(x4, []int{2, 4}, 3) }, []error{broadcast.ErrAxes}, []string{"pdpd", "[4]", "[2 4]"}},
		{"pdpd rank", func() *expr.Node { return expr.BroadcastPDPD(x34, []int{2, 3, 4}, 0) }, []error{broadcast.ErrRank}, []string{"pdpd"}},
		{"pdpd dims", func() *expr.Node { return expr.BroadcastPDPD(x3, []int{2, 4}, 1) }, []error{broadcast.ErrIncompatible}, []string{"pdpd", "[3]", "[2 4]"}},
		{"ngraph dims", func() *expr.Node { return expr.BroadcastNGraph(x3, []int{2, 4}, []int{0}) }, []error{broadcast.ErrIncompatible}, []string{"ngraph", "[3]", "[2 4]"}},
		{"ngraph rank", func() *expr.Node { return expr.BroadcastNGraph(x3, []int{2, 3}, nil) }, []error{broadcast.ErrRank}, []string{"ngraph"}},
		{"ngraph repeated axis", func() *expr.Node { return expr.BroadcastNGraph(x3, []int{2, 2, 3}, []int{0, 0}) }, []error{broadcast.ErrAxes}, []string{"ngraph"}},
		{"Broadcast array target float", func() *expr.Node {
			f, _ := array.FromSlice(mem, []float32{2, 3})
			defer f.Release()
			return expr.Broadcast(x3, expr.ModeNumpy, f, nil, 0)
		}, []error{expr.ErrDType}, []string{"Broadcast(numpy)", "target_shape", "float32"}},
		{"Broadcast array target 2-D", func() *expr.Node {
			f, _ := array.FromSlice(mem, []int32{2, 3}, 1, 2)
			defer f.Release()
			return expr.Broadcast(x3, expr.ModeNumpy, f, nil, 0)
		}, []error{expr.ErrArgument}, []string{"target_shape", "[1 2]"}},
		{"Broadcast nil target", func() *expr.Node { return expr.Broadcast(x3, expr.ModeNumpy, nil, nil, 0) }, []error{array.ErrNil}, []string{"Broadcast(numpy)"}},
		{"Broadcast released target", func() *expr.Node { return expr.Broadcast(x3, expr.ModeNumpy, released, nil, 0) }, []error{array.ErrReleased}, nil},
		{"Broadcast explicit without axes", func() *expr.Node { return expr.Broadcast(x3, expr.ModeExplicit, ints(array.Int64, 2, 3), nil, 0) }, []error{expr.ErrArgument}, []string{"explicit", "axes_mapping"}},
		{"Broadcast axes for numpy", func() *expr.Node {
			return expr.Broadcast(x3, expr.ModeNumpy, ints(array.Int64, 2, 3), ints(array.Int64, 1), 0)
		}, []error{expr.ErrArgument}, []string{"numpy", "axes_mapping"}},
		{"Broadcast float axes", func() *expr.Node {
			f, _ := array.FromSlice(mem, []float64{1})
			defer f.Release()
			return expr.Broadcast(x3, expr.ModeExplicit, ints(array.Int64, 2, 3), f, 0)
		}, []error{expr.ErrDType}, []string{"axes_mapping"}},
		{"Broadcast uint64 huge", func() *expr.Node {
			return expr.Broadcast(x3, expr.ModeNumpy, ints(array.Uint64, 2, -1), nil, 0)
		}, []error{expr.ErrArgument}, []string{"too large"}},
		{"Broadcast int8 target incompatible", func() *expr.Node { return expr.Broadcast(x3, expr.ModeNumpy, ints(array.Int8, 2, 4), nil, 0) }, []error{broadcast.ErrIncompatible}, []string{"[3]", "[2 4]"}},
		{"Broadcast unknown mode", func() *expr.Node { return expr.Broadcast(x3, expr.Mode("sideways"), ints(array.Int16, 3), nil, 0) }, []error{expr.ErrArgument}, []string{"sideways"}},

		// reductions
		{"reduce axis out of range", func() *expr.Node { return expr.ReduceSum(x34, []int{2}, false) }, []error{broadcast.ErrAxes}, []string{"ReduceSum", "axis 2", "[3 4]"}},
		{"reduce negative axis out of range", func() *expr.Node { return expr.ReduceProd(x34, []int{-3}, false) }, []error{broadcast.ErrAxes}, []string{"ReduceProd", "[3 4]"}},
		{"reduce repeated axis", func() *expr.Node { return expr.ReduceMax(x34, []int{1, -1}, true) }, []error{broadcast.ErrAxes}, []string{"ReduceMax", "repeated"}},
		{"reduce scalar axis", func() *expr.Node { return expr.ReduceMin(expr.Const(1.5), []int{0}, false) }, []error{broadcast.ErrAxes}, []string{"ReduceMin", "[]"}},
		{"reduce unknown rank", func() *expr.Node { return expr.ReduceMean(dyn, []int{0}, false) }, []error{expr.ErrArgument}, []string{"ReduceMean", "rank"}},
		{"ReduceTo incompatible", func() *expr.Node { return expr.ReduceTo(x34, []int{3}) }, []error{broadcast.ErrIncompatible}, []string{"ReduceTo", "[3 4]", "[3]"}},
		{"ReduceTo larger rank", func() *expr.Node { return expr.ReduceTo(x4, []int{3, 4}) }, []error{broadcast.ErrRank}, []string{"ReduceTo", "[4]", "[3 4]"}},
		{"ReduceAxes out of range", func() *expr.Node { return expr.ReduceAxes(x234, []int{3}) }, []error{broadcast.ErrAxes}, []string{"[2 3 4]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n *expr.Node
			require.NotPanics(t, func() { n = c.build() })
			require.NotNil(t, n)
			checkErr(t, n.Err(), c.is, c.names)
			if testing.Verbose() {
				t.Log(n.Err())
			}
			// the same error from every entry point, and nothing leaks
			require.NotPanics(t, func() {
				_ = n.String()
				_ = n.Shape()
				_ = n.DType()
				_ = n.Vars()
			})
			_, err := expr.Compile(n)
			checkErr(t, err, c.is, c.names)
			out, err := expr.Eval(n, expr.WithAllocator(mem))
			require.Nil(t, out)
			checkErr(t, err, c.is, c.names)
			dst, _ := array.New(mem, array.Float32, 4)
			defer dst.Release()
			checkErr(t, expr.EvalInto(dst, n, expr.WithAllocator(mem)), c.is, c.names)
			// a node built on a failed one fails the same way
			checkErr(t, expr.Abs(expr.Add(n, x4)).Err(), c.is, nil)
		})
	}
}

// TestNilNodeMethods: the methods of a nil *Node do not panic.
func TestNilNodeMethods(t *testing.T) {
	var n *expr.Node
	require.NotPanics(t, func() {
		require.ErrorIs(t, n.Err(), expr.ErrNilNode)
		require.Equal(t, array.Invalid, n.DType())
		require.False(t, n.Shape().RankKnown)
		_, ok := n.StaticShape()
		require.False(t, ok)
		require.Equal(t, "<nil>", n.String())
		require.Empty(t, n.Vars())
	})
	_, err := expr.Compile(nil)
	require.ErrorIs(t, err, expr.ErrNilNode)
	_, err = expr.Eval(nil)
	require.ErrorIs(t, err, expr.ErrNilNode)
	var p *expr.Plan
	_, err = p.Eval(nil)
	require.ErrorIs(t, err, expr.ErrNilNode)
	require.ErrorIs(t, p.EvalInto(nil, nil), expr.ErrNilNode)
}

// TestEvalErrors: failures found only at evaluation (bindings, outputs,
// released leaves, shapes of variables) return errors and leak nothing.
func TestEvalErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the other cleanups
	f32 := func(shape ...int) *array.Array {
		a, err := array.New(mem, array.Float32, shape...)
		require.NoError(t, err)
		t.Cleanup(a.Release)
		return a
	}
	x := expr.Var("x", array.Float32, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(4)}, RankKnown: true})
	y := expr.Var("y", array.Float32, broadcast.Shape{Dims: []broadcast.Dim{broadcast.IntervalDim(1, 3)}, RankKnown: true})
	sum := expr.Add(x, y)
	require.NoError(t, sum.Err())
	p, err := expr.Compile(sum, expr.WithAllocator(mem))
	require.NoError(t, err)
	good := f32(2, 4)
	released := f32(3)
	released.Release()

	evalCases := []struct {
		name  string
		b     expr.Bindings
		is    []error
		names []string
	}{
		{"missing variable", expr.Bindings{"x": good}, []error{expr.ErrBinding}, []string{`"y"`, "not bound"}},
		{"no bindings", nil, []error{expr.ErrBinding}, []string{`"x"`}},
		{"wrong dtype", expr.Bindings{"x": good, "y": func() *array.Array {
			a, _ := array.New(mem, array.Float64, 3)
			t.Cleanup(a.Release)
			return a
		}()}, []error{expr.ErrBinding}, []string{`"y"`, "float32", "float64"}},
		{"wrong rank", expr.Bindings{"x": f32(4), "y": f32(1)}, []error{expr.ErrBinding}, []string{`"x"`, "[? 4]", "[4]"}},
		{"dim outside the declaration", expr.Bindings{"x": f32(2, 5), "y": f32(1)}, []error{expr.ErrBinding}, []string{`"x"`, "[? 4]", "[2 5]"}},
		{"dim outside the interval", expr.Bindings{"x": good, "y": f32(4)}, []error{expr.ErrBinding}, []string{`"y"`, "[1..3]", "[4]"}},
		{"released array", expr.Bindings{"x": good, "y": released}, []error{expr.ErrBinding, array.ErrReleased}, []string{`"y"`}},
		{"nil array", expr.Bindings{"x": good, "y": nil}, []error{expr.ErrBinding, array.ErrNil}, []string{`"y"`}},
		{"shapes that do not broadcast", expr.Bindings{"x": good, "y": f32(3)}, []error{broadcast.ErrIncompatible}, []string{"add", "[2 4]", "[3]"}},
	}
	for _, c := range evalCases {
		t.Run(c.name, func(t *testing.T) {
			var out *array.Array
			var err error
			require.NotPanics(t, func() { out, err = p.Eval(c.b) })
			require.Nil(t, out)
			checkErr(t, err, c.is, c.names)
			dst := f32(2, 4)
			require.NotPanics(t, func() { err = p.EvalInto(dst, c.b) })
			checkErr(t, err, c.is, c.names)
			out, err = expr.Eval(sum, expr.WithAllocator(mem), expr.WithBindings(c.b))
			require.Nil(t, out)
			checkErr(t, err, c.is, c.names)
		})
	}
	// after all of that the plan still works
	out, err := p.Eval(expr.Bindings{"x": good, "y": f32(1)})
	require.NoError(t, err)
	require.Equal(t, []int{2, 4}, out.Shape())
	out.Release()

	t.Run("variable declared with two dtypes", func(t *testing.T) {
		e := expr.Add(expr.Var("v", array.Float32, broadcast.StaticShape(2)), expr.Var("v", array.Int8, broadcast.StaticShape(2)))
		_, err := expr.Compile(e)
		checkErr(t, err, []error{expr.ErrBinding}, []string{`"v"`, "float32", "int8"})
	})
	t.Run("leaf released after building", func(t *testing.T) {
		a, err := array.New(mem, array.Float32, 3)
		require.NoError(t, err)
		e := expr.Exp(expr.Leaf(a))
		a.Release()
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		require.Nil(t, out)
		checkErr(t, err, []error{array.ErrReleased}, nil)
	})
	t.Run("reduction of an unbindable variable", func(t *testing.T) {
		e := expr.ReduceSum(expr.Mul(x, x), []int{0}, false)
		out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"x": f32(3)}))
		require.Nil(t, out)
		checkErr(t, err, []error{expr.ErrBinding}, []string{`"x"`})
	})
	t.Run("ReduceTo of a partial shape that does not fit", func(t *testing.T) {
		e := expr.ReduceTo(x, []int{3})
		require.NoError(t, e.Err())
		out, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"x": good}))
		require.Nil(t, out)
		checkErr(t, err, []error{broadcast.ErrIncompatible}, []string{"[2 4]", "[3]"})
	})
}

// TestEvalIntoErrors: a bad output array is an error, for elementwise and
// reduction roots alike, and the output is left alone.
func TestEvalIntoErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the other cleanups
	x, err := array.FromSlice(mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	defer x.Release()
	roots := map[string]*expr.Node{
		"elementwise": expr.Add(expr.Leaf(x), expr.Const(float32(1))),
		"reduction":   expr.ReduceSum(expr.Leaf(x), []int{1}, true),
		"ReduceTo":    expr.ReduceTo(expr.Leaf(x), []int{1, 3}),
	}
	for name, e := range roots {
		t.Run(name, func(t *testing.T) {
			shape, _ := e.StaticShape()
			wrongShape, err := array.New(mem, array.Float32, 7)
			require.NoError(t, err)
			defer wrongShape.Release()
			wrongDType, err := array.New(mem, array.Float64, shape...)
			require.NoError(t, err)
			defer wrongDType.Release()
			small, err := array.New(mem, array.Float32, 1)
			require.NoError(t, err)
			defer small.Release()
			readOnly, err := view.BroadcastTo(small, shape)
			require.NoError(t, err)
			defer readOnly.Release()
			released, err := array.New(mem, array.Float32, shape...)
			require.NoError(t, err)
			released.Release()
			for _, c := range []struct {
				name  string
				dst   *array.Array
				is    []error
				names []string
			}{
				{"wrong shape", wrongShape, []error{expr.ErrOutput}, []string{"EvalInto", "[7]"}},
				{"wrong dtype", wrongDType, []error{expr.ErrOutput}, []string{"EvalInto", "float64", "float32"}},
				{"read-only broadcast view", readOnly, []error{expr.ErrOutput, array.ErrReadOnly}, []string{"EvalInto"}},
				{"nil", nil, []error{expr.ErrOutput, array.ErrNil}, []string{"EvalInto"}},
				{"released", released, []error{expr.ErrOutput, array.ErrReleased}, []string{"EvalInto"}},
			} {
				var before []float32
				if c.dst.Live() {
					before, _ = array.ToSlice[float32](small)
				}
				var err error
				require.NotPanics(t, func() { err = expr.EvalInto(c.dst, e, expr.WithAllocator(mem)) }, c.name)
				checkErr(t, err, c.is, c.names)
				if c.dst.Live() {
					after, _ := array.ToSlice[float32](small)
					require.Equal(t, before, after, c.name)
				}
				p, err := expr.Compile(e, expr.WithAllocator(mem))
				require.NoError(t, err)
				checkErr(t, p.EvalInto(c.dst, nil), c.is, c.names)
			}
		})
	}
}

// TestErrorMessagesArePrefixed: every error string starts with a package
// name (DESIGN.md: "Error strings start with the package name").
func TestErrorMessagesArePrefixed(t *testing.T) {
	x, _ := array.FromSlice(nil, []float32{1, 2, 3})
	defer x.Release()
	for _, n := range []*expr.Node{
		expr.Add(expr.Leaf(x), expr.Leaf(nil)),
		expr.Sub(expr.Const(true), expr.Const(false)),
		expr.BroadcastNumpy(expr.Leaf(x), []int{4}),
		expr.ReduceSum(expr.Leaf(x), []int{5}, false),
		expr.SumOf(),
		expr.Var("", array.Bool, broadcast.StaticShape()),
		expr.Cast(expr.Leaf(x), array.DType(99)),
	} {
		msg := n.Err().Error()
		require.True(t, strings.HasPrefix(msg, "expr"), "%q", msg)
		require.False(t, errors.Is(n.Err(), nil))
	}
}

// TestNilOperandErrorNamesOp: the error of an op given a nil operand names
// the op, as every other construction error does.
func TestNilOperandErrorNamesOp(t *testing.T) {
	x := expr.Const(1.0)
	var bad []string
	for name, n := range map[string]*expr.Node{
		"add":       expr.Add(nil, x),
		"negative":  expr.Neg(nil),
		"select":    expr.Where(x, nil, x),
		"Cast":      expr.Cast(nil, array.Int8),
		"Broadcast": expr.BroadcastNumpy(nil, []int{2}),
		"ReduceSum": expr.ReduceSum(nil, nil, false),
	} {
		require.ErrorIs(t, n.Err(), expr.ErrNilNode)
		if !strings.Contains(n.Err().Error(), name) {
			bad = append(bad, fmt.Sprintf("%s: %q", name, n.Err()))
		}
	}
	require.Truef(t, len(bad) == 0, "errors of nil operands do not name the op: %v", bad)
}
