package arrowio_test

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
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

// Evaluate computes a column from each batch of a stream.
func ExampleEvaluate() {
	mem := memory.NewGoAllocator()
	v, _ := array.FromSlice(mem, []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	defer v.Release()
	col, _ := arrowio.ToTensorColumn(mem, v)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType()}}, nil)
	rec := arrowarray.NewRecord(schema, []arrow.Array{col}, 3)
	defer rec.Release()
	var buf bytes.Buffer
	_ = arrowio.WriteRecords(&buf, false, schema, []arrow.Record{rec})

	in, _ := arrowio.ReadStream(&buf, arrowio.WithAllocator(mem))
	defer in.Release()
	x, _ := arrowio.SchemaVar(in.Schema(), "x")
	scale, _ := array.FromSlice(mem, []float64{10, 100})
	defer scale.Release()
	out, _ := arrowio.Evaluate(mem, in, arrowio.Output{Name: "y", Expr: expr.Mul(x, expr.Leaf(scale))})
	defer out.Release()
	for out.Next() {
		y, _ := arrowio.FromArrow(mem, out.Record().Column(1))
		vals, _ := array.ToSlice[float64](y)
		fmt.Println(out.Schema().Field(1).Name, y.Shape(), vals)
		y.Release()
	}
	// Output:
	// y [3 2] [10 200 30 400 50 600]
}
