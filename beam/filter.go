package beam

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/stride0/stride0/frame"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*filterFn)(nil)).Elem())
}

// Filter keeps, in each batch of col (a PCollection of Batch), the rows
// where predicate holds, exactly as frame's Filter does in one process (the
// same text: expr.Parse's syntax over the column names, quoted literals for
// strings, dates and times, is_null; SQL's nulls: a row whose predicate is
// null is dropped). A batch left without rows is not emitted. The
// predicate travels as text and is checked against each batch's schema on
// the worker: an unknown column or a predicate that is not boolean fails
// the pipeline, naming the column.
func Filter(s abeam.Scope, col abeam.PCollection, predicate string) abeam.PCollection {
	s = s.Scope("stride0.Filter")
	return abeam.ParDo(s, &filterFn{Predicate: predicate}, col)
}

type filterFn struct {
	Predicate string
}

func (f *filterFn) ProcessElement(ctx context.Context, b Batch, emit func(Batch)) error {
	out, ok, err := filterBatch(ctx, memory.DefaultAllocator, b, f.Predicate)
	if err != nil {
		return err
	}
	if ok {
		emit(out)
	}
	return nil
}

// filterBatch applies the predicate to one batch; ok is false when no row
// is left.
func filterBatch(ctx context.Context, mem memory.Allocator, b Batch, predicate string) (Batch, bool, error) {
	rec, err := b.Record(mem)
	if err != nil {
		return Batch{}, false, fmt.Errorf("beam.Filter: %w", err)
	}
	defer rec.Release()
	t, err := frame.FromRecords(rec).Filter(predicate).Collect(ctx, frame.WithWorkers(1), frame.WithAllocator(mem))
	if err != nil {
		return Batch{}, false, fmt.Errorf("beam.Filter: %w", err)
	}
	defer t.Release()
	if t.NumRows() == 0 {
		return Batch{}, false, nil
	}
	out, err := NewBatch(t.Record())
	if err != nil {
		return Batch{}, false, fmt.Errorf("beam.Filter: %w", err)
	}
	return out, true, nil
}
