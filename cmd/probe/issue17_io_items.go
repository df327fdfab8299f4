package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
)

// Issue 17, the arrowio items (3, 4, 8, 11).
func init() {
	probes = append(probes,
		probe{"17.3a", "Evaluate a - b over a stream (a, b) whose second batch is (b, a)", swappedBatch},
		probe{"17.3b", "Evaluate over a stream whose second batch's pass-through column changed type", retypedBatch},
		probe{"17.4a", "Reducer.UnmarshalBinary of a Var state with a negative M2", negativeM2},
		probe{"17.4b", "Reducer.Merge of valid states of 2^62-1 rows, three times", mergeOverflow},
		probe{"17.8", "every method of nil, zero and released FixedShapeTensorArray and Type", nilTensorAll},
		probe{"17.11a", "C Data import of a schema whose metadata says 2^31-1 pairs in 8 bytes", cMetadataCount},
		probe{"17.11b", "C Data import of a schema whose metadata key length is 2^31-1", cMetadataKey},
	)
}

// listReader yields batches under a schema of its own.
type listReader struct {
	schema *arrow.Schema
	recs   []arrow.Record
	i      int
}

func (l *listReader) Retain()               {}
func (l *listReader) Release()              {}
func (l *listReader) Schema() *arrow.Schema { return l.schema }
func (l *listReader) Err() error            { return nil }
func (l *listReader) Next() bool            { l.i++; return l.i <= len(l.recs) }
func (l *listReader) Record() arrow.Record  { return l.recs[l.i-1] }

// batch makes a record of the named columns (float64 or int32 values).
func batch(mem memory.Allocator, cols ...any) arrow.Record {
	var fields []arrow.Field
	var arrs []arrow.Array
	for i := 0; i < len(cols); i += 2 {
		var a arrow.Array
		switch v := cols[i+1].(type) {
		case []float64:
			b := arrowarray.NewFloat64Builder(mem)
			b.AppendValues(v, nil)
			a = b.NewArray()
			b.Release()
		case []int32:
			b := arrowarray.NewInt32Builder(mem)
			b.AppendValues(v, nil)
			a = b.NewArray()
			b.Release()
		}
		fields = append(fields, arrow.Field{Name: cols[i].(string), Type: a.DataType(), Nullable: true})
		arrs = append(arrs, a)
	}
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// evalDiff evaluates d = a - b over first then second and returns every
// d, or the error.
func evalDiff(mem memory.Allocator, first, second arrow.Record) ([]float64, error) {
	schema := first.Schema()
	f := frame.FromReader(&listReader{schema: schema, recs: []arrow.Record{first, second}})
	out, err := f.WithColumns(frame.LetExpr("d", expr.Sub(f.Col("a"), f.Col("b")))).Reader(context.Background(), frame.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	var got []float64
	for out.Next() {
		d := out.Record().Column(int(out.Record().NumCols()) - 1).(*arrowarray.Float64)
		got = append(got, d.Float64Values()...)
	}
	return got, out.Err()
}

func swappedBatch() (string, string) {
	mem := newTracker()
	first := batch(mem, "a", []float64{10, 20}, "b", []float64{1, 2})
	second := batch(mem, "b", []float64{3, 4}, "a", []float64{30, 40})
	got, err := evalDiff(mem, first, second)
	first.Release()
	second.Release()
	if mem.CurrentAlloc() != 0 {
		return vFailed, fmt.Sprintf("%d bytes leaked", mem.CurrentAlloc())
	}
	want := []float64{9, 18, 27, 36}
	switch {
	case err != nil:
		return vError, err.Error()
	case !reflect.DeepEqual(got, want):
		return vFailed, fmt.Sprintf("a - b = %v, want %v (columns bound by position?)", got, want)
	}
	return vRight, fmt.Sprintf("a - b = %v: the second batch bound by name", got)
}

func retypedBatch() (string, string) {
	mem := newTracker()
	first := batch(mem, "a", []float64{10, 20}, "b", []float64{1, 2}, "c", []float64{0, 0})
	second := batch(mem, "a", []float64{30, 40}, "b", []float64{3, 4}, "c", []int32{0, 0})
	_, err := evalDiff(mem, first, second)
	first.Release()
	second.Release()
	switch {
	case mem.CurrentAlloc() != 0:
		return vFailed, fmt.Sprintf("%d bytes leaked", mem.CurrentAlloc())
	case err == nil:
		return vFailed, "a batch whose column c changed type evaluated without error"
	case !strings.Contains(err.Error(), `"c"`):
		return vFailed, "the error does not name the column: " + err.Error()
	}
	return vError, err.Error()
}

// countState is the encoding of an Aggregator of one CountOf x that has
// seen rows rows and counted count, made by patching a real encoding.
func countState(r *frame.Aggregator, rows, count uint64) ([]byte, error) {
	enc, err := r.MarshalBinary() // magic 5, fingerprint 8, rows, n, kind, dtype, lanes, payload
	if err != nil {
		return nil, err
	}
	out := append([]byte{}, enc[:13]...)
	out = binary.AppendUvarint(out, rows)
	out = binary.AppendUvarint(out, 1)
	i := 13
	_, k := binary.Uvarint(enc[i:]) // rows
	i += k
	_, k = binary.Uvarint(enc[i:]) // n
	i += k
	out = append(out, enc[i], enc[i+1], 1) // kind, dtype, one element
	return binary.LittleEndian.AppendUint64(out, count), nil
}

func newXAggregator(agg frame.Agg) (*frame.Aggregator, error) {
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	return frame.NewAggregator(s, agg)
}

func negativeM2() (string, string) {
	mem := newTracker()
	r, err := newXAggregator(frame.Var("x", 0))
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	rec := batch(mem, "x", []float64{1, 2, 3})
	err = r.Add(rec)
	rec.Release()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	enc, err := r.MarshalBinary()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	binary.LittleEndian.PutUint64(enc[len(enc)-16:], math.Float64bits(-1)) // M2, before the pivot (the last field)
	if err := r.UnmarshalBinary(enc); err != nil {
		return vError, err.Error()
	}
	res, err := r.Result(mem)
	if err != nil {
		return vFailed, "accepted, then: " + err.Error()
	}
	v := fmt.Sprint(res.Column(0))
	res.Release()
	return vFailed, "a negative M2 accepted: variance " + v
}

func mergeOverflow() (string, string) {
	a, err := newXAggregator(frame.CountOf("x"))
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	b, err := newXAggregator(frame.CountOf("x"))
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	half := uint64(math.MaxInt64 / 2)
	st, err := countState(a, half, half)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	if err := a.UnmarshalBinary(st); err != nil {
		return vFailed, "a valid state of 2^62-1 rows refused: " + err.Error()
	}
	if err := b.UnmarshalBinary(st); err != nil {
		return vFailed, "a valid state of 2^62-1 rows refused: " + err.Error()
	}
	if err := a.Merge(b); err != nil {
		return vFailed, "2^62-1 + 2^62-1 rows refused: " + err.Error()
	}
	err = a.Merge(b)
	switch {
	case a.Rows() < 0:
		return vFailed, fmt.Sprintf("the row count wrapped to %d", a.Rows())
	case err == nil:
		return vFailed, fmt.Sprintf("three merges of 2^62-1 rows gave %d rows", a.Rows())
	case a.Rows() != int64(2*half):
		return vFailed, fmt.Sprintf("a failed Merge changed the rows to %d", a.Rows())
	case !errors.Is(err, frame.ErrOverflow):
		return vFailed, "an untyped error: " + err.Error()
	}
	return vError, err.Error()
}

// nilTensorAll calls every exported method, with zero arguments, of nil,
// zero and released tensor arrays and types.
func nilTensorAll() (string, string) {
	mem := newTracker()
	x, err := array.Arange(mem, array.Float32, 0, 6, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	col, err := arrowio.ToTensorColumn(mem, x)
	x.Release()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	col.Release()
	values := map[string]any{
		"nil array": (*arrowio.FixedShapeTensorArray)(nil), "zero array": &arrowio.FixedShapeTensorArray{},
		"released array": col,
		"nil type":       (*arrowio.FixedShapeTensorType)(nil), "zero type": &arrowio.FixedShapeTensorType{},
	}
	var bad []string
	n := 0
	for name, v := range values {
		rv := reflect.ValueOf(v)
		for i := 0; i < rv.NumMethod(); i++ {
			m := rv.Type().Method(i)
			args := make([]reflect.Value, m.Type.NumIn()-1)
			for k := range args {
				args[k] = reflect.Zero(m.Type.In(k + 1))
			}
			n++
			func() {
				defer func() {
					if p := recover(); p != nil {
						bad = append(bad, fmt.Sprintf("%s.%s: %v", name, m.Name, p))
					}
				}()
				rv.Method(i).Call(args)
			}()
		}
	}
	if len(bad) > 0 {
		return vFailed, fmt.Sprintf("%d of %d calls panic: %s", len(bad), n, strings.Join(bad, "; "))
	}
	var a *arrowio.FixedShapeTensorArray
	return vRight, fmt.Sprintf("%d calls answer; a nil array prints %s", n, a.String())
}
