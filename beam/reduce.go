package beam

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*reduceFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*Reduction)(nil)).Elem())
	abeam.RegisterCoder(reflect.TypeOf(reduceAcc{}), encodeReduceAcc, decodeReduceAcc)
}

// ErrReduce is wrapped by the errors of Reduce's steps: a reduction list
// that cannot be encoded, an accumulator whose bytes do not decode, an
// output asked of an accumulator that has seen no batch.
var ErrReduce = errors.New("invalid reduce state")

// Reduction is one result of Reduce: Op (arrowio.Sum, Mean, Var, ...) over
// the rows of Expr, an expression in expr.Parse's language over the
// batch's columns computed row by row (see arrowio.Reduction), named Name
// in the output batch. Ddof is Var's and Std's delta degrees of freedom.
type Reduction struct {
	Name string
	Expr string
	Op   arrowio.ReduceOp
	Ddof int
}

// Reduce returns a PCollection of one Batch of one row: for each
// reduction, a column named by its Name holding arrowio.Reduce's result
// over every row of every batch of col (a PCollection of Batch). A rank-0
// result is a primitive column; a [3, 4] result an arrow.fixed_shape_tensor
// column of one [3, 4] row. That is the form Evaluate takes as a constants
// side input, so
//
//	stats := sbeam.Reduce(s, batches,
//		sbeam.Reduction{Name: "mu", Expr: "x", Op: arrowio.Mean},
//		sbeam.Reduction{Name: "sd", Expr: "x", Op: arrowio.Std})
//	z := sbeam.Evaluate(s, batches, []sbeam.Output{{Name: "z", Expr: "(x - mu) / sd"}}, stats)
//
// standardizes x in two passes.
//
// It is a beam.Combine whose accumulator is an arrowio.Reducer: each worker
// folds its batches into one, and accumulators merge exactly as in one
// process (integer sums, counts, Min, Max, Any, All exact; Mean, Var, Std
// by Chan's merge of count, mean and M2). Between workers an accumulator
// is encoded as its reductions' text, its schema and the Reducer's binary
// state (about 8 bytes per result element, 24 for Mean, Var and Std).
//
// Every batch must have the schema of the first (names and types of the
// columns the reductions use). A PCollection of batches of no rows gives
// the results over no rows (Sum 0, Mean NaN, ...; Min and Max fail the
// pipeline with arrowio.ErrEmpty). An empty PCollection (no batch at all)
// gives an empty PCollection: Beam's global Combine in Go makes no output
// for an empty input, and without a batch there is no schema to give the
// results their dtypes and shapes. An Evaluate using it as side input then
// fails, naming the missing constant.
//
// Errors fail the pipeline: an expression that does not parse or names no
// column, a reduction the data cannot take (arrowio.Reduce's errors),
// batches of different schemas.
func Reduce(s abeam.Scope, col abeam.PCollection, reductions ...Reduction) abeam.PCollection {
	s = s.Scope("stride0.Reduce")
	return abeam.Combine(s, &reduceFn{Reductions: append([]Reduction(nil), reductions...)}, col)
}

// ReducePerKey is Reduce per key: kvs is a PCollection of KV<K, Batch>
// and the result a PCollection of KV<K, Batch>, for each key one Batch of
// one row holding the reductions over that key's batches (see KeyByColumn).
func ReducePerKey(s abeam.Scope, kvs abeam.PCollection, reductions ...Reduction) abeam.PCollection {
	s = s.Scope("stride0.ReducePerKey")
	return abeam.CombinePerKey(s, &reduceFn{Reductions: append([]Reduction(nil), reductions...)}, kvs)
}

// reduceAcc is Reduce's accumulator: nil st until the first batch (which
// gives the schema).
type reduceAcc struct {
	st *accState
}

type accState struct {
	reds []Reduction
	r    *arrowio.Reducer
}

// reduceFn is Reduce's CombineFn.
type reduceFn struct {
	Reductions []Reduction
	mem        memory.Allocator // nil: memory.DefaultAllocator (tests set a checked one)
}

func (f *reduceFn) alloc() memory.Allocator {
	if f.mem == nil {
		return memory.DefaultAllocator
	}
	return f.mem
}

func (f *reduceFn) CreateAccumulator() reduceAcc { return reduceAcc{} }

func (f *reduceFn) AddInput(a reduceAcc, b Batch) (reduceAcc, error) {
	rec, err := b.Record(f.alloc())
	if err != nil {
		return a, fmt.Errorf("beam.Reduce: %w", err)
	}
	defer rec.Release()
	if a.st == nil {
		r, err := newReducer(f.alloc(), rec.Schema(), f.Reductions)
		if err != nil {
			return a, err
		}
		a.st = &accState{reds: f.Reductions, r: r}
	}
	if err := a.st.r.Add(rec); err != nil {
		return a, fmt.Errorf("beam.Reduce: %w", err)
	}
	return a, nil
}

func (f *reduceFn) MergeAccumulators(a, b reduceAcc) (reduceAcc, error) {
	switch {
	case b.st == nil:
		return a, nil
	case a.st == nil:
		return b, nil
	}
	if err := a.st.r.Merge(b.st.r); err != nil {
		return a, fmt.Errorf("beam.Reduce: merging accumulators (are the batches of one schema?): %w", err)
	}
	return a, nil
}

func (f *reduceFn) ExtractOutput(a reduceAcc) (Batch, error) {
	if a.st == nil {
		return Batch{}, fmt.Errorf("beam.Reduce: %w: no batch was reduced, so no schema gives the results' dtypes and shapes", ErrReduce)
	}
	return resultBatch(f.alloc(), a.st.r, a.st.reds)
}

// newReducer parses the reductions against schema and makes the Reducer.
func newReducer(mem memory.Allocator, schema *arrow.Schema, reds []Reduction) (*arrowio.Reducer, error) {
	rs, err := parseReductions(schema, reds)
	if err != nil {
		return nil, err
	}
	red, err := arrowio.NewReducer(mem, schema, rs...)
	if err != nil {
		return nil, fmt.Errorf("beam.Reduce: %w", err)
	}
	return red, nil
}

// parseReductions parses the reductions' expressions against schema's
// columns. One expression text gives one node, evaluated once per batch
// however many reductions use it.
func parseReductions(schema *arrow.Schema, reds []Reduction) ([]arrowio.Reduction, error) {
	env := map[string]*expr.Node{}
	for _, fld := range schema.Fields() {
		if _, _, err := arrowio.ColumnShape(fld.Type); err != nil {
			continue // not a variable (a string column, ...)
		}
		v, err := arrowio.SchemaVar(schema, fld.Name)
		if err != nil {
			return nil, fmt.Errorf("beam.Reduce: %w", err)
		}
		env[fld.Name] = v
	}
	nodes := map[string]*expr.Node{}
	rs := make([]arrowio.Reduction, len(reds))
	for i, r := range reds {
		n := nodes[r.Expr]
		if n == nil {
			var err error
			if n, err = expr.Parse(r.Expr, env); err != nil {
				return nil, fmt.Errorf("beam.Reduce %q: %w", r.Name, err)
			}
			nodes[r.Expr] = n
		}
		rs[i] = arrowio.Reduction{Name: r.Name, Expr: n, Op: r.Op, Ddof: r.Ddof}
	}
	return rs, nil
}

// resultBatch is the one-row batch of r's results, one column per
// reduction named by its Name.
func resultBatch(mem memory.Allocator, r *arrowio.Reducer, reds []Reduction) (Batch, error) {
	res, err := r.Result(mem)
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Reduce: %w", err)
	}
	defer func() {
		for _, a := range res {
			a.Release()
		}
	}()
	fields := make([]arrow.Field, len(res))
	cols := make([]arrow.Array, 0, len(res))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for i, a := range res {
		row, err := a.Reshaped(append([]int{1}, a.Shape()...)...)
		if err != nil {
			return Batch{}, fmt.Errorf("beam.Reduce %q: %w", reds[i].Name, err)
		}
		var c arrow.Array
		if a.Rank() == 0 {
			c, err = arrowio.ToArrow(mem, row)
		} else {
			c, err = arrowio.ToTensorColumn(mem, row)
		}
		row.Release()
		if err != nil {
			return Batch{}, fmt.Errorf("beam.Reduce %q: %w", reds[i].Name, err)
		}
		cols = append(cols, c)
		fields[i] = arrow.Field{Name: reds[i].Name, Type: c.DataType()}
	}
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), cols, 1)
	defer rec.Release()
	b, err := NewBatch(rec)
	if err != nil {
		return Batch{}, fmt.Errorf("beam.Reduce: %w", err)
	}
	return b, nil
}

// The accumulator's encoding:
//
//	uvarint n, then n reductions: uvarint len, Name, uvarint len, Expr, u8 Op, varint Ddof
//	u8 0: no batch seen (end), or 1 and then:
//	uvarint len, the schema as an Arrow IPC stream of no batch
//	the Reducer's state (arrowio.Reducer.MarshalBinary), to the end
func encodeReduceAcc(a reduceAcc) ([]byte, error) {
	var out []byte
	if a.st == nil {
		return append(binary.AppendUvarint(out, 0), 0), nil
	}
	out = binary.AppendUvarint(out, uint64(len(a.st.reds)))
	for _, r := range a.st.reds {
		out = binary.AppendUvarint(out, uint64(len(r.Name)))
		out = append(out, r.Name...)
		out = binary.AppendUvarint(out, uint64(len(r.Expr)))
		out = append(out, r.Expr...)
		out = append(out, byte(r.Op))
		out = binary.AppendVarint(out, int64(r.Ddof))
	}
	out = append(out, 1)
	var sch bytes.Buffer
	if err := arrowio.WriteRecords(&sch, false, a.st.r.Schema(), nil); err != nil {
		return nil, fmt.Errorf("beam.Reduce: encoding the accumulator's schema: %w", err)
	}
	out = binary.AppendUvarint(out, uint64(sch.Len()))
	out = append(out, sch.Bytes()...)
	state, err := a.st.r.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("beam.Reduce: encoding the accumulator: %w", err)
	}
	return append(out, state...), nil
}

func decodeReduceAcc(p []byte) (reduceAcc, error) {
	total := len(p)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("beam.Reduce: %w: accumulator of %d bytes: %s", ErrReduce, total, fmt.Sprintf(format, a...))
	}
	uvarint := func(what string) (uint64, error) {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			return 0, bad("truncated %s", what)
		}
		p = p[n:]
		return v, nil
	}
	str := func(what string) (string, error) {
		n, err := uvarint(what + " length")
		if err != nil {
			return "", err
		}
		if n > uint64(len(p)) {
			return "", bad("%s of %d bytes, %d left", what, n, len(p))
		}
		s := string(p[:n])
		p = p[n:]
		return s, nil
	}
	n, err := uvarint("reduction count")
	if err != nil {
		return reduceAcc{}, err
	}
	if n > uint64(len(p))/4 { // each reduction takes at least 4 bytes
		return reduceAcc{}, bad("%d reductions", n)
	}
	reds := make([]Reduction, n)
	for i := range reds {
		if reds[i].Name, err = str("name"); err != nil {
			return reduceAcc{}, err
		}
		if reds[i].Expr, err = str("expression"); err != nil {
			return reduceAcc{}, err
		}
		if len(p) < 1 {
			return reduceAcc{}, bad("truncated op")
		}
		reds[i].Op = arrowio.ReduceOp(p[0])
		p = p[1:]
		d, k := binary.Varint(p)
		if k <= 0 || d < math.MinInt32 || d > math.MaxInt32 {
			return reduceAcc{}, bad("bad ddof")
		}
		reds[i].Ddof = int(d)
		p = p[k:]
	}
	if len(p) < 1 {
		return reduceAcc{}, bad("truncated")
	}
	if p[0] == 0 {
		if len(p) != 1 {
			return reduceAcc{}, bad("%d trailing bytes", len(p)-1)
		}
		return reduceAcc{}, nil
	}
	if p[0] != 1 {
		return reduceAcc{}, bad("flag %d", p[0])
	}
	p = p[1:]
	sl, err := uvarint("schema length")
	if err != nil {
		return reduceAcc{}, err
	}
	if sl > uint64(len(p)) {
		return reduceAcc{}, bad("schema of %d bytes, %d left", sl, len(p))
	}
	rr, err := arrowio.ReadStream(bytes.NewReader(p[:sl]))
	if err != nil {
		return reduceAcc{}, fmt.Errorf("beam.Reduce: %w: the accumulator's schema: %w", ErrReduce, err)
	}
	schema := rr.Schema()
	rr.Release()
	p = p[sl:]
	r, err := newReducer(memory.DefaultAllocator, schema, reds)
	if err != nil {
		return reduceAcc{}, fmt.Errorf("beam.Reduce: %w: %w", ErrReduce, err)
	}
	if err := r.UnmarshalBinary(p); err != nil {
		r.Release()
		return reduceAcc{}, fmt.Errorf("beam.Reduce: %w: %w", ErrReduce, err)
	}
	return reduceAcc{st: &accState{reds: reds, r: r}}, nil
}
