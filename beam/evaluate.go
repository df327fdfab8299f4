package beam

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*evalFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*evalSideFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*Output)(nil)).Elem())
}

// Output is one column that Evaluate computes, as frame.Let computes it in
// one process: Expr, in expr.Parse's language, over the batch's columns and
// the constants, named Name. Its row i must depend on row i only
// (elementwise ops, casts, where, reductions over element axes: see
// expr.Node.RowWise), since each batch is computed alone; a rank > 1 result
// is a fixed_shape_tensor column with DimNames as its dim names if given.
type Output struct {
	Name     string
	Expr     string
	DimNames []string
}

// Evaluate returns col's batches (a PCollection of Batch) each with one more
// column per output, as frame's WithColumns computes them (each batch goes
// through frame.FromRecords(batch).WithColumns(...)). Expressions travel
// as text: on the worker, each batch's columns become variables
// (arrowio.SchemaVar; columns without a dtype, such as strings, are passed
// through and cannot be named) and the expressions are parsed against them.
//
// consts are optional side inputs: PCollections of Batch, each batch of
// exactly one row, whose columns become constants of the expressions named
// after the column (a primitive column a [1] array, a tensor column a
// [1, shape...] array, which broadcast along the rows). They are read whole
// by every worker, so keep them small. A constant may not have the name of
// a column of the batch or of another constant.
//
// Errors fail the pipeline: an expression that does not parse or whose
// names are unknown (the *expr.ParseError, with its byte offset), a result
// that is not one value (or tensor) per row, a constant batch of other than
// one row.
func Evaluate(s abeam.Scope, col abeam.PCollection, outputs []Output, consts ...abeam.PCollection) abeam.PCollection {
	s = s.Scope("stride0.Evaluate")
	outs := append([]Output(nil), outputs...)
	switch len(consts) {
	case 0:
		return abeam.ParDo(s, &evalFn{Outputs: outs}, col)
	case 1:
		return abeam.ParDo(s, &evalSideFn{Outputs: outs}, col, abeam.SideInput{Input: consts[0]})
	default:
		return abeam.ParDo(s, &evalSideFn{Outputs: outs}, col, abeam.SideInput{Input: abeam.Flatten(s, consts...)})
	}
}

type evalFn struct {
	Outputs []Output
}

func (f *evalFn) ProcessElement(ctx context.Context, b Batch, emit func(Batch)) error {
	out, err := evaluate(ctx, memory.DefaultAllocator, b, nil, f.Outputs)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

type evalSideFn struct {
	Outputs []Output
}

func (f *evalSideFn) ProcessElement(ctx context.Context, b Batch, consts func(*Batch) bool, emit func(Batch)) error {
	var side []Batch
	var c Batch
	for consts(&c) {
		side = append(side, c)
	}
	out, err := evaluate(ctx, memory.DefaultAllocator, b, side, f.Outputs)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// evaluate is one Evaluate step over one batch.
func evaluate(ctx context.Context, mem memory.Allocator, b Batch, side []Batch, outputs []Output) (Batch, error) {
	rec, err := b.Record(mem)
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Evaluate: %w", err)
	}
	defer rec.Release()
	env := map[string]*expr.Node{}
	for _, fld := range rec.Schema().Fields() {
		if _, _, err := arrowio.ColumnShape(fld.Type); err != nil {
			continue // passed through; not a variable
		}
		v, err := arrowio.SchemaVar(rec.Schema(), fld.Name)
		if err != nil {
			return Batch{}, fmt.Errorf("beam.Evaluate: %w", err)
		}
		env[fld.Name] = v
	}
	names := map[string]bool{}
	for _, fld := range rec.Schema().Fields() {
		names[fld.Name] = true
	}
	for i, sb := range side {
		rec, err := sb.Record(mem)
		if err != nil {
			return Batch{}, fmt.Errorf("beam.Evaluate: constants batch %d: %w", i, err)
		}
		defer rec.Release()
		if rec.NumRows() != 1 {
			return Batch{}, fmt.Errorf("beam.Evaluate: constants batch %d: %w: %d rows, want 1", i, ErrBatch, rec.NumRows())
		}
		for j, fld := range rec.Schema().Fields() {
			if names[fld.Name] {
				return Batch{}, fmt.Errorf("beam.Evaluate: constants batch %d: %w: constant %q has the name of a column or of another constant", i, ErrBatch, fld.Name)
			}
			names[fld.Name] = true
			a, err := arrowio.FromArrow(mem, rec.Column(j))
			if err != nil {
				return Batch{}, fmt.Errorf("beam.Evaluate: constant %q: %w", fld.Name, err)
			}
			defer a.Release()
			env[fld.Name] = expr.Leaf(a)
		}
	}
	lets := make([]frame.Binding, len(outputs))
	for i, o := range outputs {
		n, err := expr.Parse(o.Expr, env)
		if err != nil {
			return Batch{}, fmt.Errorf("beam.Evaluate %q: %w", o.Name, err)
		}
		// Each batch is evaluated alone, so row i of a result must depend
		// on row i only (frame would evaluate a reduction over the rows
		// over this batch, not over the data).
		if err := n.RowWise(); err != nil {
			return Batch{}, fmt.Errorf("beam.Evaluate %q: %w: the result is not computed row by row: %w", o.Name, array.ErrShape, err)
		}
		if len(n.Vars()) == 0 {
			return Batch{}, fmt.Errorf("beam.Evaluate %q: %w: the result uses no column, so it has no row axis", o.Name, array.ErrShape)
		}
		lets[i] = frame.LetExpr(o.Name, n)
		if o.DimNames != nil {
			lets[i] = lets[i].WithDimNames(o.DimNames...)
		}
	}
	t, err := frame.FromRecords(rec).WithColumns(lets...).Collect(ctx, frame.WithWorkers(1), frame.WithAllocator(mem))
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Evaluate: %w", err)
	}
	defer t.Release()
	out, err := NewBatch(t.Record())
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Evaluate: %w", err)
	}
	return out, nil
}
