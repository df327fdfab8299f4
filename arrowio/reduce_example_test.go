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

// A Reducer is Reduce's state: partial Reducers over parts of the data
// (here two workers' batches), one of them sent as bytes, merge into the
// statistics of the whole, equal to Reduce over every batch.
func ExampleReducer_Merge() {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	batch := func(v ...float64) arrow.Record {
		b := arrowarray.NewFloat64Builder(mem)
		defer b.Release()
		b.AppendValues(v, nil)
		col := b.NewArray()
		defer col.Release()
		return arrowarray.NewRecord(schema, []arrow.Array{col}, int64(len(v)))
	}
	x, _ := arrowio.SchemaVar(schema, "x")
	reds := []arrowio.Reduction{
		{Name: "mean", Expr: x, Op: arrowio.Mean},
		{Name: "var", Expr: x, Op: arrowio.Var, Ddof: 1},
		{Name: "max", Expr: x, Op: arrowio.Max},
	}

	// Worker 1 reduces its batch and encodes the state.
	w1, _ := arrowio.NewReducer(mem, schema, reds...)
	rec1 := batch(1, 2, 3)
	_ = w1.Add(rec1)
	state, _ := w1.MarshalBinary()
	w1.Release()
	rec1.Release()

	// Worker 2 reduces its batch, decodes worker 1's state and merges it.
	w2, _ := arrowio.NewReducer(mem, schema, reds...)
	defer w2.Release()
	rec2 := batch(10, 20)
	_ = w2.Add(rec2)
	rec2.Release()
	partial, _ := arrowio.NewReducer(mem, schema, reds...)
	defer partial.Release()
	if err := partial.UnmarshalBinary(state); err != nil {
		fmt.Println(err)
		return
	}
	if err := w2.Merge(partial); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := w2.Result(mem)
	fmt.Printf("%d bytes of state; rows %d\n", len(state), w2.Rows())
	for i, a := range res {
		fmt.Printf("%s %v\n", reds[i].Name, a)
		a.Release()
	}
	// Output:
	// 80 bytes of state; rows 5
	// mean 7.2
	// var 63.7
	// max 20.
}
