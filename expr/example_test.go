package expr_test

import (
	"fmt"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// An expression is built first and evaluated in one fused pass when asked.
func Example() {
	x, _ := array.FromSlice(nil, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	bias, _ := array.FromSlice(nil, []float32{10, 20, 30}, 3)
	defer x.Release()
	defer bias.Release()

	e := expr.Mul(expr.Add(expr.Leaf(x), expr.Leaf(bias)), expr.Const(float32(0.5)))
	fmt.Println(e, e.DType(), e.Shape())

	y, err := expr.Eval(e)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer y.Release()
	v, _ := array.ToSlice[float32](y)
	fmt.Println(v)
	// Output:
	// multiply(add(array<float32[2 3]>, array<float32[3]>), 0.5) float32 [2 3]
	// [5.5 11 16.5 7 12.5 18]
}

// Errors are recorded in the node and reported once, naming the op and the
// shapes.
func ExampleNode_Err() {
	a, _ := array.New(nil, array.Int32, 3)
	b, _ := array.New(nil, array.Int32, 2)
	e := expr.Neg(expr.Add(expr.Leaf(a), expr.Leaf(b)))
	fmt.Println(e.Err())
	// Output:
	// expr.add: broadcast multidirectional: cannot broadcast [3] and [2]: dim 0 is 3 in the shapes before and 2 in shape 1
}

// A plan over a variable with an unknown row count is checked before any
// data exists and evaluated for each binding.
func ExamplePlan() {
	rows := broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(2)}, RankKnown: true}
	x := expr.Var("x", array.Int64, rows)
	p, err := expr.Compile(expr.Remainder(x, expr.Const(int64(3))))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("planned shape:", p.Root().Shape())
	for _, vals := range [][]int64{{-4, 5}, {7, -8, 9, 10}} {
		a, _ := array.FromSlice(nil, vals, len(vals)/2, 2)
		r, err := p.Eval(expr.Bindings{"x": a})
		if err != nil {
			fmt.Println(err)
			return
		}
		v, _ := array.ToSlice[int64](r)
		fmt.Println(r.Shape(), v)
		r.Release()
		a.Release()
	}
	// Output:
	// planned shape: [? 2]
	// [1 2] [2 2]
	// [2 2] [1 1 0 1]
}

// Explain shows the passes: here the small exp(c) is evaluated once because
// it is broadcast over the rows, and the rest is one fused pass.
func ExampleExplain() {
	x, _ := array.New(nil, array.Float32, 4, 64)
	c, _ := array.New(nil, array.Float32, 4, 1)
	defer x.Release()
	defer c.Release()
	s, err := expr.Explain(expr.Mul(expr.Leaf(x), expr.Exp(expr.Leaf(c))), expr.WithWorkers(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "row-looped") {
			continue // present where the CPU has the assembly kernels
		}
		if strings.HasPrefix(line, "pass") || strings.HasPrefix(line, "kernel") {
			fmt.Println(line)
		}
	}
	// Output:
	// pass 1 (hoisted (evaluated once, then read as a leaf)): elementwise exp(array<float32[4 1]>)
	// kernel: exp float32
	// pass 2 (root): elementwise multiply(array<float32[4 64]>, exp(array<float32[4 1]>))
	// kernel: multiply float32 vs
}

// Nulls follow Arrow's rule: a result is valid where every broadcast operand
// is valid, and null slots hold zero.
func Example_nulls() {
	x, _ := array.FromSlice(nil, []float64{1, 2, 3, 4}, 2, 2)
	s, _ := array.FromSlice(nil, []float64{10, 100}, 2)
	defer x.Release()
	defer s.Release()
	_ = x.SetNull(0, 1)
	_ = s.SetNull(0) // column 0 of every row

	y, _ := expr.Eval(expr.Mul(expr.Leaf(x), expr.Leaf(s)))
	defer y.Release()
	v, _ := array.ToSlice[float64](y)
	ok, _ := array.ValidSlice(y)
	fmt.Println(v, ok)
	// Output:
	// [0 0 0 400] [false false false true]
}

// ReduceTo is the adjoint of broadcasting: the gradient of a broadcast
// result is summed back over the axes the broadcast created or stretched.
func ExampleReduceTo() {
	bias, _ := array.FromSlice(nil, []float32{1, 2, 3}, 3, 1)
	defer bias.Release()
	// forward: [3 1] broadcast to [2 3 4]
	fwd := expr.BroadcastNumpy(expr.Leaf(bias), []int{2, 3, 4})
	grad, _ := expr.Eval(expr.Mul(fwd, expr.Const(float32(0.5)))) // some upstream gradient
	defer grad.Release()

	back, _ := expr.Eval(expr.ReduceTo(expr.Leaf(grad), []int{3, 1}))
	defer back.Release()
	v, _ := array.ToSlice[float32](back)
	axes, _ := broadcast.ReduceTo([]int{2, 3, 4}, []int{3, 1})
	fmt.Println(back.Shape(), v, "summed over axes", axes)
	// Output:
	// [3 1] [4 8 12] summed over axes [0 2]
}
