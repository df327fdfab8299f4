package arrowio

import (
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// ColumnShape returns the dtype of a column type's values and the shape of
// one row: [] for a primitive column, the logical tensor shape for a
// fixed_shape_tensor column (or [k] for a FixedSizeList<primitive>[k]).
func ColumnShape(t arrow.DataType) (array.DType, []int, error) {
	switch tt := t.(type) {
	case arrow.ExtensionType:
		if tt.ExtensionName() != ExtensionName {
			return array.Invalid, nil, fmt.Errorf("arrowio: %w: extension type %q", ErrUnsupported, tt.ExtensionName())
		}
		ft, err := asTensorType(tt)
		if err != nil {
			return array.Invalid, nil, err
		}
		dt, err := valueDType(ft.ValueType())
		return dt, ft.LogicalShape(), err
	case *arrow.FixedSizeListType:
		dt, err := valueDType(tt.Elem())
		return dt, []int{int(tt.Len())}, err
	}
	dt, err := valueDType(t)
	return dt, []int{}, err
}

func valueDType(t arrow.DataType) (array.DType, error) {
	dt, err := array.FromArrowType(t)
	if err != nil || !arrow.TypeEqual(t, dt.ArrowType()) {
		return array.Invalid, fmt.Errorf("arrowio: %w: Arrow type %v has no dtype", ErrUnsupported, t)
	}
	return dt, nil
}

// SchemaVar returns the expression variable that stands for the column
// name of s: its dtype, and shape [?, row shape...] where ? is the row
// count, unknown until a batch arrives (broadcast.UnknownDim). Evaluate
// binds it to each batch's column.
func SchemaVar(s *arrow.Schema, name string) (*expr.Node, error) {
	if s == nil {
		return nil, fmt.Errorf("arrowio.SchemaVar: %w: nil schema", array.ErrNil)
	}
	idx := s.FieldIndices(name)
	if len(idx) == 0 {
		return nil, noColumn("arrowio.SchemaVar", name, names(s.Fields()))
	}
	dt, row, err := ColumnShape(s.Field(idx[0]).Type)
	if err != nil {
		return nil, fmt.Errorf("arrowio.SchemaVar %q: %w", name, err)
	}
	dims := []broadcast.Dim{broadcast.UnknownDim()}
	for _, d := range row {
		dims = append(dims, broadcast.StaticDim(d))
	}
	return expr.Var(name, dt, broadcast.Shape{Dims: dims, RankKnown: true}), nil
}

// Output is one column that Evaluate computes: Expr evaluated per batch,
// its variables bound to the batch's columns of the same names. Its shape
// must be [rows, row shape...] with the row shape static (a rank-1 result
// is a primitive column, a higher rank a fixed_shape_tensor column, with
// DimNames as its dim names if given). Axis 0 must be the batch's row axis,
// whose length is unknown when planning (SchemaVar): a result whose axis 0
// has a fixed length (a reduction over the rows, a constant) is refused by
// Evaluate, even where a batch happens to have that many rows.
type Output struct {
	Name     string
	Expr     *expr.Node
	DimNames []string
}

// Evaluate returns a RecordReader whose batches are rr's batches with one
// more column per output. The plans are made once, from rr's schema, before
// any batch is read: every variable must name a column of a type with a
// dtype, and every output's type is known then (so the output schema is
// fixed). Each batch is bound to the schema by name, not position: its
// columns may come in another order (the output keeps the schema's), but a
// batch that lacks a column of the schema (ErrNoColumn, listing the batch's
// columns), has one more, or has a column of another type (ErrInvalid), or
// whose columns do not fit the plan, makes Next return false and Err name
// the column. A variable that names no column of the schema is
// ErrNoColumn, with the columns listed and the nearest suggested.
//
// Memory stays bounded whatever the stream's length: Evaluate reads one
// batch at a time, converts the columns the expressions use without copying
// (FromArrow), evaluates into new buffers from mem, and releases the
// previous output batch on each Next, so it holds one input batch (inside
// rr) and one output batch, plus what the caller Retains. The returned
// reader holds a reference to rr until it is released.
func Evaluate(mem memory.Allocator, rr arrowarray.RecordReader, outputs ...Output) (arrowarray.RecordReader, error) {
	if rr == nil {
		return nil, fmt.Errorf("arrowio.Evaluate: %w: nil reader", array.ErrNil)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	in := rr.Schema()
	fields := in.Fields()
	e := &evaluator{rr: rr, mem: mem, in: in, vars: map[string]int{}}
	for _, o := range outputs {
		if err := o.Expr.Err(); err != nil {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w", o.Name, err)
		}
		for _, v := range o.Expr.Vars() {
			idx := in.FieldIndices(v)
			if len(idx) == 0 {
				return nil, noColumn(fmt.Sprintf("arrowio.Evaluate %q", o.Name), v, names(in.Fields()))
			}
			if _, _, err := ColumnShape(in.Field(idx[0]).Type); err != nil {
				return nil, fmt.Errorf("arrowio.Evaluate %q: column %q: %w", o.Name, v, err)
			}
			e.vars[v] = idx[0]
		}
		sh := o.Expr.Shape()
		if !sh.RankKnown || len(sh.Dims) < 1 {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w: result shape %v has no row axis", o.Name, array.ErrShape, sh)
		}
		if d := sh.Dims[0]; d.Hi >= 0 && d.Lo == d.Hi {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w: result shape %v: axis 0 has a fixed length (%d), so it is not the batch's row axis (a reduction over the rows?)", o.Name, array.ErrShape, sh, d.Lo)
		}
		// Row i of the output must depend on row i of the columns only,
		// or evaluating batch by batch would give per-batch answers
		// (x - mean(x, axis 0) has a row axis, but its mean is the batch's).
		if err := o.Expr.RowWise(); err != nil {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w", o.Name, err)
		}
		row, ok := broadcast.Shape{Dims: sh.Dims[1:], RankKnown: true}.Static()
		if !ok {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w: result shape %v: the row shape must be static", o.Name, array.ErrShape, sh)
		}
		var t arrow.DataType = o.Expr.DType().ArrowType()
		if len(row) > 0 {
			tt, err := NewFixedShapeTensorType(t, row, o.DimNames, nil)
			if err != nil {
				return nil, fmt.Errorf("arrowio.Evaluate %q: %w", o.Name, err)
			}
			t = tt
		}
		p, err := expr.Compile(o.Expr, expr.WithAllocator(mem))
		if err != nil {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w", o.Name, err)
		}
		e.plans = append(e.plans, p)
		e.outs = append(e.outs, o)
		fields = append(fields, arrow.Field{Name: o.Name, Type: t, Nullable: true})
	}
	md := in.Metadata()
	e.schema = arrow.NewSchema(fields, &md)
	e.refs.Store(1)
	rr.Retain()
	return e, nil
}

type evaluator struct {
	refs   atomic.Int64
	rr     arrowarray.RecordReader
	mem    memory.Allocator
	schema *arrow.Schema
	in     *arrow.Schema // rr's: each batch is bound to it by name
	outs   []Output
	plans  []*expr.Plan
	vars   map[string]int // variable name -> column index in the schema
	cur    arrow.Record
	err    error
}

func (e *evaluator) Retain()               { e.refs.Add(1) }
func (e *evaluator) Schema() *arrow.Schema { return e.schema }
func (e *evaluator) Record() arrow.Record  { return e.cur }

func (e *evaluator) Release() {
	if e.refs.Add(-1) == 0 {
		if e.cur != nil {
			e.cur.Release()
			e.cur = nil
		}
		e.rr.Release()
	}
}

func (e *evaluator) Err() error {
	if e.err != nil {
		return e.err
	}
	return e.rr.Err()
}

func (e *evaluator) Next() bool {
	if e.cur != nil {
		e.cur.Release()
		e.cur = nil
	}
	if e.err != nil || !e.rr.Next() {
		return false
	}
	rec, err := e.evaluate(e.rr.Record())
	if err != nil {
		e.err = err
		return false
	}
	e.cur = rec
	return true
}

// evaluate computes the outputs for one batch.
func (e *evaluator) evaluate(rec arrow.Record) (arrow.Record, error) {
	n := int(rec.NumRows())
	in, err := batchColumns("arrowio.Evaluate", e.in, rec)
	if err != nil {
		return nil, err
	}
	b := expr.Bindings{}
	defer func() {
		for _, a := range b {
			a.Release()
		}
	}()
	for name, i := range e.vars {
		a, err := FromArrow(e.mem, in[i])
		if err != nil {
			return nil, fmt.Errorf("arrowio.Evaluate: column %q: %w", name, err)
		}
		b[name] = a
	}
	cols := append([]arrow.Array{}, in...)
	var made []arrow.Array
	defer func() {
		for _, c := range made {
			c.Release()
		}
	}()
	for k, p := range e.plans {
		o := e.outs[k]
		res, err := p.Eval(b)
		if err != nil {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w", o.Name, err)
		}
		if res.Rank() < 1 || res.Dim(0) != n {
			res.Release()
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w: result %v for a batch of %d rows", o.Name, array.ErrShape, res.Shape(), n)
		}
		var col arrow.Array
		if res.Rank() == 1 {
			col, err = ToArrow(e.mem, res)
		} else {
			var opts []TensorOption
			if o.DimNames != nil {
				opts = append(opts, WithDimNames(o.DimNames...))
			}
			col, err = ToTensorColumn(e.mem, res, opts...)
		}
		res.Release()
		if err != nil {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w", o.Name, err)
		}
		made = append(made, col)
		want := e.schema.Field(len(in) + k).Type
		if !arrow.TypeEqual(col.DataType(), want) {
			return nil, fmt.Errorf("arrowio.Evaluate %q: %w: result type %v, planned %v", o.Name, array.ErrShape, col.DataType(), want)
		}
		cols = append(cols, col)
	}
	return arrowarray.NewRecord(e.schema, cols, int64(n)), nil
}
