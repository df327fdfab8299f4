package beam

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*aggregateFn)(nil)).Elem())
	abeam.RegisterCoder(reflect.TypeOf(aggAcc{}), encodeAggAcc, decodeAggAcc)
}

// ErrAggregate is wrapped by the errors of Aggregate's steps: an
// accumulator whose bytes do not decode, an output asked of an accumulator
// that has seen no batch.
var ErrAggregate = errors.New("invalid aggregate state")

// Aggregate returns a PCollection of one Batch of one row: package frame's
// aggregates (frame.Sum, Mean, Var, Std, Min, Max, Count, CountOf, First,
// Last, Any, All, CountDistinct, Median, Quantile, Corr) over every row of
// every batch of col (a PCollection of Batch), exactly as
// frame.GroupBy().Agg(aggs...) gives them in one process: one column per
// aggregate, named as frame names it (the column, or As), a tensor
// column's aggregate a fixed_shape_tensor column of one row. That is the
// form Evaluate takes as a constants side input, so
//
//	stats := sbeam.Aggregate(s, batches, frame.Mean("x").As("mu"), frame.Std("x", 0).As("sd"))
//	z := sbeam.Evaluate(s, batches, []sbeam.Output{{Name: "z", Expr: "(x - mu) / sd"}}, stats)
//
// standardizes x in two passes. Aggregates of expressions are Evaluate
// then Aggregate.
//
// It is a beam.Combine whose accumulator is a frame.Aggregator: each
// worker folds its batches into one, and accumulators merge as frame's
// group-by merges its workers' tables (integer sums, counts, Min, Max,
// Any, All, CountDistinct, Quantile exact; Mean, Var, Std, Corr by Chan's
// merge). Between workers an accumulator is encoded as its aggregates
// (JSON), its schema and the Aggregator's binary state (a few bytes per
// element; Quantile, Median and CountDistinct carry their values, so keep
// them for data whose values fit in a worker). Beam's merges have no
// order, so First and Last give the first (last) row of some bundle, not
// of the input.
//
// Every batch must have the schema of the first (its columns may come in
// another order). Batches of no rows give the aggregates over no rows
// (Count 0, the others null). An empty PCollection (no batch at all) gives
// an empty PCollection: Beam's global Combine in Go makes no output for an
// empty input, and without a batch there is no schema to type the results.
//
// Errors fail the pipeline: an unknown column (named, with the nearest),
// an aggregate the column's type cannot take, batches of different
// schemas.
func Aggregate(s abeam.Scope, col abeam.PCollection, aggs ...frame.Agg) abeam.PCollection {
	s = s.Scope("stride0.Aggregate")
	return abeam.Combine(s, &aggregateFn{Aggs: append([]frame.Agg(nil), aggs...)}, col)
}

// AggregatePerKey is Aggregate per key: kvs is a PCollection of KV<K,
// Batch> and the result a PCollection of KV<K, Batch>, for each key one
// Batch of one row holding the aggregates over that key's batches (see
// KeyByColumn, and GroupBy, which keeps the key columns).
func AggregatePerKey(s abeam.Scope, kvs abeam.PCollection, aggs ...frame.Agg) abeam.PCollection {
	s = s.Scope("stride0.AggregatePerKey")
	return abeam.CombinePerKey(s, &aggregateFn{Aggs: append([]frame.Agg(nil), aggs...)}, kvs)
}

// aggAcc is Aggregate's accumulator: nil a until the first batch (which
// gives the schema).
type aggAcc struct {
	aggs []frame.Agg
	a    *frame.Aggregator
}

// aggregateFn is Aggregate's CombineFn. Its aggregates travel as JSON
// (frame.Agg's MarshalJSON).
type aggregateFn struct {
	Aggs []frame.Agg
	mem  memory.Allocator // nil: memory.DefaultAllocator (tests set a checked one)
}

func (f *aggregateFn) alloc() memory.Allocator {
	if f.mem == nil {
		return memory.DefaultAllocator
	}
	return f.mem
}

func (f *aggregateFn) CreateAccumulator() aggAcc { return aggAcc{} }

func (f *aggregateFn) AddInput(a aggAcc, b Batch) (aggAcc, error) {
	rec, err := b.Record(f.alloc())
	if err != nil {
		return a, fmt.Errorf("beam.Aggregate: %w", err)
	}
	defer rec.Release()
	if a.a == nil {
		ag, err := frame.NewAggregator(rec.Schema(), f.Aggs...)
		if err != nil {
			return a, fmt.Errorf("beam.Aggregate: %w", err)
		}
		a = aggAcc{aggs: f.Aggs, a: ag}
	}
	if err := a.a.Add(rec); err != nil {
		return a, fmt.Errorf("beam.Aggregate: %w", err)
	}
	return a, nil
}

func (f *aggregateFn) MergeAccumulators(a, b aggAcc) (aggAcc, error) {
	switch {
	case b.a == nil:
		return a, nil
	case a.a == nil:
		return b, nil
	}
	if err := a.a.Merge(b.a); err != nil {
		return a, fmt.Errorf("beam.Aggregate: merging accumulators (are the batches of one schema?): %w", err)
	}
	return a, nil
}

func (f *aggregateFn) ExtractOutput(a aggAcc) (Batch, error) {
	if a.a == nil {
		return Batch{}, fmt.Errorf("beam.Aggregate: %w: no batch was aggregated, so no schema gives the results' types", ErrAggregate)
	}
	rec, err := a.a.Result(f.alloc())
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Aggregate: %w", err)
	}
	defer rec.Release()
	out, err := NewBatch(rec)
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Aggregate: %w", err)
	}
	return out, nil
}

// The accumulator's encoding:
//
//	u8 0: no batch seen (end), or 1 and then:
//	uvarint len, the aggregates as JSON
//	uvarint len, the schema as an Arrow IPC stream of no batch
//	the Aggregator's state (frame.Aggregator.MarshalBinary), to the end
func encodeAggAcc(a aggAcc) ([]byte, error) {
	if a.a == nil {
		return []byte{0}, nil
	}
	out := []byte{1}
	js, err := json.Marshal(a.aggs)
	if err != nil {
		return nil, fmt.Errorf("beam.Aggregate: encoding the accumulator's aggregates: %w", err)
	}
	out = binary.AppendUvarint(out, uint64(len(js)))
	out = append(out, js...)
	var sch bytes.Buffer
	if err := arrowio.WriteRecords(&sch, false, a.a.Schema(), nil); err != nil {
		return nil, fmt.Errorf("beam.Aggregate: encoding the accumulator's schema: %w", err)
	}
	out = binary.AppendUvarint(out, uint64(sch.Len()))
	out = append(out, sch.Bytes()...)
	state, err := a.a.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("beam.Aggregate: encoding the accumulator: %w", err)
	}
	return append(out, state...), nil
}

func decodeAggAcc(p []byte) (aggAcc, error) {
	total := len(p)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("beam.Aggregate: %w: accumulator of %d bytes: %s", ErrAggregate, total, fmt.Sprintf(format, a...))
	}
	part := func(what string) ([]byte, error) {
		n, k := binary.Uvarint(p)
		if k <= 0 {
			return nil, bad("truncated %s length", what)
		}
		p = p[k:]
		if n > uint64(len(p)) {
			return nil, bad("%s of %d bytes, %d left", what, n, len(p))
		}
		b := p[:n]
		p = p[n:]
		return b, nil
	}
	if len(p) < 1 {
		return aggAcc{}, bad("empty")
	}
	switch p[0] {
	case 0:
		if len(p) != 1 {
			return aggAcc{}, bad("%d trailing bytes", len(p)-1)
		}
		return aggAcc{}, nil
	case 1:
	default:
		return aggAcc{}, bad("flag %d", p[0])
	}
	p = p[1:]
	js, err := part("aggregates")
	if err != nil {
		return aggAcc{}, err
	}
	var aggs []frame.Agg
	if err := json.Unmarshal(js, &aggs); err != nil {
		return aggAcc{}, fmt.Errorf("beam.Aggregate: %w: the accumulator's aggregates: %w", ErrAggregate, err)
	}
	sch, err := part("schema")
	if err != nil {
		return aggAcc{}, err
	}
	rr, err := arrowio.ReadStream(bytes.NewReader(sch))
	if err != nil {
		return aggAcc{}, fmt.Errorf("beam.Aggregate: %w: the accumulator's schema: %w", ErrAggregate, err)
	}
	schema := rr.Schema()
	rr.Release()
	a, err := frame.NewAggregator(schema, aggs...)
	if err != nil {
		return aggAcc{}, fmt.Errorf("beam.Aggregate: %w: %w", ErrAggregate, err)
	}
	if err := a.UnmarshalBinary(p); err != nil {
		return aggAcc{}, fmt.Errorf("beam.Aggregate: %w: %w", ErrAggregate, err)
	}
	return aggAcc{aggs: aggs, a: a}, nil
}
