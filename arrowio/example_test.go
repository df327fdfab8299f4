package arrowio_test

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// A [rows, 2, 3] array becomes a fixed_shape_tensor column without a copy;
// a transposed view becomes the same data with a permutation.
func ExampleToTensorColumn() {
	mem := memory.NewGoAllocator()
	a, _ := array.Arange(mem, array.Float32, 0, 12, 1)
	defer a.Release()
	x, _ := a.View([]int{2, 2, 3}, []int{6, 3, 1}, 0)
	defer x.Release()
	col, _ := arrowio.ToTensorColumn(mem, x)
	defer col.Release()
	fmt.Println(col.TensorType().Serialize())

	xt, _ := a.View([]int{2, 3, 2}, []int{6, 1, 3}, 0) // each tensor transposed
	defer xt.Release()
	colT, _ := arrowio.ToTensorColumn(mem, xt)
	defer colT.Release()
	fmt.Println(colT.TensorType().Serialize(), colT.TensorType().LogicalShape())

	back, _ := arrowio.FromArrow(mem, colT)
	defer back.Release()
	fmt.Println(back.Shape(), back.Strides())
	// Output:
	// {"shape":[2,3]}
	// {"shape":[2,3],"permutation":[1,0]} [3 2]
	// [2 3 2] [6 1 3]
}
