package expr_test

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Standardizing the columns of a matrix and taking the argmax of each row:
// every node is lazy, the mean and the standard deviation are reductions
// evaluated once, then read by the fused elementwise pass.
func ExampleReduceStd() {
	x, _ := array.FromSlice(nil, []float64{1, 10, 2, 20, 3, 60}, 3, 2)
	defer x.Release()
	m := expr.Leaf(x)
	z := expr.Div(expr.Sub(m, expr.ReduceMean(m, []int{0}, true)), expr.ReduceStd(m, []int{0}, 0, true))
	out, _ := expr.Eval(z)
	defer out.Release()
	fmt.Printf("%.3f\n", out)
	best, _ := expr.Eval(expr.Argmax(z, []int{1}, false))
	defer best.Release()
	fmt.Println(best)
	// Output:
	// [[-1.225 -0.926]
	//  [ 0.000 -0.463]
	//  [ 1.225  1.389]]
	// [1 0 1]
}

// Var and Std take ddof as NumPy does; Cumsum keeps the shape.
func ExampleCumsum() {
	x, _ := array.FromSlice(nil, []int32{1, 2, 3, 4, 5, 6}, 2, 3)
	defer x.Release()
	c, _ := expr.Eval(expr.Cumsum(expr.Leaf(x), []int{1}))
	defer c.Release()
	v, _ := expr.Eval(expr.ReduceVar(expr.Leaf(x), nil, 1, false))
	defer v.Release()
	fmt.Println(c.DType(), c)
	fmt.Println(v.DType(), v)
	// Output:
	// int64 [[ 1  3  6]
	//  [ 4  9 15]]
	// float64 3.5
}
