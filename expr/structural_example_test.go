package expr_test

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Joins and reshapes are lazy: nothing is copied until Eval, and then each
// piece is written once, straight into its place in the result.
func ExampleConcatenate() {
	a, _ := array.FromNested(nil, [][]int64{{1, 2}, {3, 4}})
	b, _ := array.FromNested(nil, [][]int64{{5, 6}})
	defer a.Release()
	defer b.Release()
	e := expr.Concatenate([]*expr.Node{expr.Leaf(a), expr.Transpose(expr.Leaf(b))}, 1)
	out, err := expr.Eval(e)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(e)
	fmt.Println(out)
	// Output:
	// concatenate(array<int64[2 2]>, transpose(array<int64[1 2]>), axis=1)
	// [[1 2 5]
	//  [3 4 6]]
}

// Sort and Argsort are stable and put NaNs last, as NumPy does; Take
// gathers with negative indices counting from the end.
func ExampleArgsort() {
	x, _ := array.FromSlice(nil, []float64{3, 1, 2, 1})
	defer x.Release()
	order, _ := expr.Eval(expr.Argsort(expr.Leaf(x), 0))
	defer order.Release()
	last, _ := expr.Eval(expr.Take(expr.Leaf(x), expr.Leaf(order), 0))
	defer last.Release()
	fmt.Println(order, last)
	// Output:
	// [1 3 2 0] [1. 1. 2. 3.]
}

// Compress is eager: the size of its result depends on the mask's values.
func ExampleCompress() {
	a, _ := array.FromNested(nil, [][]int64{{1, 2}, {3, 4}, {5, 6}})
	defer a.Release()
	x := expr.Leaf(a)
	rows, err := expr.Compress(expr.Greater(expr.ReduceSum(x, []int{1}, false), expr.Const(4)), x, 0)
	if err != nil {
		panic(err)
	}
	defer rows.Release()
	fmt.Println(rows)
	// Output:
	// [[3 4]
	//  [5 6]]
}
