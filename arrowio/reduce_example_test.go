package arrowio_test

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
)

// Reduce computes statistics of a whole stream of batches in one pass: here
// the per-feature mean, sample standard deviation and maximum of a [rows, 2]
// column given in two batches, and whether any row has x0 + x1 > 10.
func ExampleReduce() {
	mem := memory.NewGoAllocator()
	var recs []arrow.Record
	var schema *arrow.Schema
	for _, batch := range [][]float64{{1, 10, 2, 20}, {3, 30, 4, 40, 5, 50}} {
		a, _ := array.FromSlice(mem, batch, len(batch)/2, 2)
		col, _ := arrowio.ToTensorColumn(mem, a)
		a.Release()
		schema = arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType()}}, nil)
		recs = append(recs, arrowarray.NewRecord(schema, []arrow.Array{col}, int64(len(batch)/2)))
		col.Release()
	}
	rr, _ := arrowarray.NewRecordReader(schema, recs)
	defer rr.Release()

	x, _ := arrowio.SchemaVar(rr.Schema(), "x") // [?, 2]
	stats, err := arrowio.Reduce(mem, rr,
		arrowio.Reduction{Name: "mean", Expr: x, Op: arrowio.Mean},
		arrowio.Reduction{Name: "std", Expr: x, Op: arrowio.Std, Ddof: 1},
		arrowio.Reduction{Name: "max", Expr: x, Op: arrowio.Max},
		arrowio.Reduction{Name: "big", Expr: expr.Greater(expr.ReduceSum(x, []int{1}, false), expr.Const(10)), Op: arrowio.Any})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range stats {
		fmt.Printf("%v %v\n", s.Shape(), s)
		s.Release()
	}
	for _, r := range recs {
		r.Release()
	}
	// Output:
	// [2] [ 3. 30.]
	// [2] [ 1.58113883 15.8113883 ]
	// [2] [ 5. 50.]
	// [] True
}
