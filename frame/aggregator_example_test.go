package frame_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
)

// An Aggregator per part of the data (here two batches, as two workers
// would see them), one moved as bytes, merged: the result is the aggregate
// of all the rows.
func ExampleAggregator() {
	mem := memory.NewGoAllocator()
	batch := func(v ...float64) arrow.Record {
		b := arrowarray.NewFloat64Builder(mem)
		defer b.Release()
		b.AppendValues(v, nil)
		c := b.NewArray()
		defer c.Release()
		s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
		return arrowarray.NewRecord(s, []arrow.Array{c}, int64(len(v)))
	}
	b1, b2 := batch(1, 2, 3), batch(4, 5)
	defer b1.Release()
	defer b2.Release()
	aggs := []frame.Agg{frame.Count(), frame.Mean("x"), frame.Std("x", 1).As("sd"), frame.Max("x").As("max")}

	w1, _ := frame.NewAggregator(b1.Schema(), aggs...)
	_ = w1.Add(b1)
	w2, _ := frame.NewAggregator(b2.Schema(), aggs...)
	_ = w2.Add(b2)
	state, _ := w2.MarshalBinary() // sent to w1's process
	got, _ := frame.NewAggregator(b2.Schema(), aggs...)
	_ = got.UnmarshalBinary(state)
	_ = w1.Merge(got)

	res, _ := w1.Result(mem)
	defer res.Release()
	for i, f := range res.Schema().Fields() {
		fmt.Println(f.Name, res.Column(i))
	}
	// Output:
	// count [5]
	// x [3]
	// sd [1.5811388300841898]
	// max [5]
}

// A stream gets a computed column batch by batch (arrowio.Evaluate's job
// before it moved to frame): here from an IPC stream, with a constant.
func ExampleFromReader() {
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
	f := frame.FromReader(in)
	scale, _ := array.FromSlice(mem, []float64{10, 100})
	defer scale.Release()
	out, _ := f.WithColumns(frame.LetExpr("y", expr.Mul(f.Col("x"), expr.Leaf(scale)))).Reader(context.Background())
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
