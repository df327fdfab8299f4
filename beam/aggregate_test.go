package beam

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*anyValuesFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*keyValuesFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*keyByRowsFn)(nil)).Elem())
}

// aggOutputs are the computed columns testAggs read beside the test
// files' x (float64) and t (float32 [2, 3]): an expression of both, and a
// bool.
var aggOutputs = []Output{
	{Name: "xt", Expr: "sum(t, axis=(1, 2)) * x"},
	{Name: "big", Expr: "x > 115"},
}

// testAggs: every kind of accumulator over x, t and aggOutputs.
var testAggs = []frame.Agg{
	frame.Mean("x").As("mean_x"),
	frame.Var("x", 1).As("var_x"),
	frame.Std("t", 0).As("std_t"),
	frame.Mean("t").As("mean_t"),
	frame.Sum("xt").As("sum_xt"),
	frame.Min("t").As("min_t"),
	frame.Max("x").As("max_x"),
	frame.CountOf("x").As("count_x"),
	frame.Any("big").As("any_big"),
}

// aggNames are testAggs' output names.
var aggNames = []string{"mean_x", "var_x", "std_t", "mean_t", "sum_xt", "min_t", "max_x", "count_x", "any_big"}

// withOutputs returns recs with aggOutputs' columns, computed by frame in
// one process; the caller releases them.
func withOutputs(t testing.TB, recs []arrow.Record) []arrow.Record {
	t.Helper()
	var out []arrow.Record
	for _, r := range recs {
		lets := make([]frame.Binding, len(aggOutputs))
		for i, o := range aggOutputs {
			lets[i] = frame.Let(o.Name, o.Expr)
		}
		tb, err := frame.FromRecords(r).WithColumns(lets...).Collect(context.Background(), frame.WithWorkers(1))
		if err != nil {
			t.Fatal(err)
		}
		rec := tb.Record()
		rec.Retain()
		tb.Release()
		out = append(out, rec)
	}
	return out
}

// colValues returns the elements of a column of any dtype (primitive or
// tensor) as float64.
func colValues(t testing.TB, c arrow.Array) []float64 {
	t.Helper()
	a, err := arrowio.FromArrow(memory.DefaultAllocator, c)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	v, err := array.ToSlice[float64](a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// inProcess aggregates the records with frame's GroupBy().Agg, after
// aggOutputs, in one process, and returns each result's values and
// element shape.
func inProcess(t testing.TB, recs []arrow.Record, aggs []frame.Agg) (vals [][]float64, shapes [][]int) {
	t.Helper()
	ev := withOutputs(t, recs)
	defer releaseAll(ev)
	tb, err := frame.FromRecords(ev...).GroupBy().Agg(aggs...).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Release()
	rec := tb.Record()
	for c := 0; c < int(rec.NumCols()); c++ {
		vals = append(vals, colValues(t, rec.Column(c)))
		_, row, err := arrowio.ColumnShape(rec.Column(c).DataType())
		if err != nil {
			t.Fatal(err)
		}
		shapes = append(shapes, row)
	}
	return vals, shapes
}

// fileRecords reads every batch of the IPC files; the caller releases them.
func fileRecords(t testing.TB, names []string) []arrow.Record {
	t.Helper()
	var recs []arrow.Record
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := arrowio.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			rr.Record().Retain()
			recs = append(recs, rr.Record())
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		f.Close()
	}
	return recs
}

func releaseAll(recs []arrow.Record) {
	for _, r := range recs {
		r.Release()
	}
}

// anyValuesFn emits every element of column Col of each batch as float64
// (any dtype), and fails on a batch of other than one row.
type anyValuesFn struct{ Col string }

func (f *anyValuesFn) ProcessElement(b Batch, emit func(float64)) error {
	return emitColumn(b, f.Col, emit)
}

func emitColumn(b Batch, col string, emit func(float64)) error {
	rec, err := b.Record(nil)
	if err != nil {
		return err
	}
	defer rec.Release()
	if rec.NumRows() != 1 {
		return fmt.Errorf("an Aggregate output of %d rows", rec.NumRows())
	}
	idx := rec.Schema().FieldIndices(col)
	if len(idx) == 0 {
		return fmt.Errorf("no column %q", col)
	}
	a, err := arrowio.FromArrow(memory.DefaultAllocator, rec.Column(idx[0]))
	if err != nil {
		return err
	}
	defer a.Release()
	v, err := array.ToSlice[float64](a)
	if err != nil {
		return err
	}
	for _, x := range v {
		emit(x)
	}
	return nil
}

// keyValuesFn is anyValuesFn of the batches of key Key.
type keyValuesFn struct{ Key, Col string }

func (f *keyValuesFn) ProcessElement(k string, b Batch, emit func(float64)) error {
	if k != f.Key {
		return nil
	}
	return emitColumn(b, f.Col, emit)
}

// keyByRowsFn keys each batch by its row count mod 3.
type keyByRowsFn struct{}

func (f *keyByRowsFn) ProcessElement(b Batch) (string, Batch, error) {
	rec, err := b.Record(nil)
	if err != nil {
		return "", Batch{}, err
	}
	defer rec.Release()
	return rowKey(rec), b, nil
}

func rowKey(rec arrow.Record) string { return fmt.Sprintf("k%d", rec.NumRows()%3) }

// threshold is the absolute tolerance for want: float rounding of a merge
// in another order.
func threshold(want []float64) float64 {
	m := 0.0
	for _, v := range want {
		m = math.Max(m, math.Abs(v))
	}
	return 1e-10*m + 1e-300
}

// aggregatePipeline reads the files of dir, evaluates aggOutputs,
// aggregates, and asserts each result column equals want (in testAggs'
// order).
func aggregatePipeline(dir string, want [][]float64) *abeam.Pipeline {
	p, s := abeam.NewPipelineWithRoot()
	res := Aggregate(s, Evaluate(s, ReadIPC(s, filepath.Join(dir, "*.arrow")), aggOutputs), testAggs...)
	passert.Count(s, res, "batches", 1)
	for i, name := range aggNames {
		got := abeam.ParDo(s, &anyValuesFn{Col: name}, res)
		passert.EqualsFloat(s, got, abeam.CreateList(s, want[i]), threshold(want[i]))
	}
	return p
}

// TestAggregatePipeline: Evaluate then Aggregate over 6 files of 4
// batches on prism equals frame's WithColumns then GroupBy().Agg over the
// same batches in one process (within float rounding of the merge order),
// and a wrong expected value fails it.
func TestAggregatePipeline(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 17, 6, 4, 40)
	recs := fileRecords(t, names)
	defer releaseAll(recs)
	want, shapes := inProcess(t, recs, testAggs)
	if len(shapes[2]) != 2 || len(shapes[0]) != 0 {
		t.Fatalf("result shapes %v", shapes)
	}
	if err := ptest.Run(aggregatePipeline(dir, want)); err != nil {
		t.Fatalf("pipeline: %v", err)
	}

	for _, k := range []int{0, 3} { // mean_x, mean_t
		bad := make([][]float64, len(want))
		copy(bad, want)
		bad[k] = append([]float64(nil), want[k]...)
		bad[k][len(bad[k])-1] += 1e-6 * math.Abs(bad[k][0])
		err := ptest.Run(aggregatePipeline(dir, bad))
		if err == nil || !strings.Contains(err.Error(), "expected") {
			t.Fatalf("pipeline with a wrong %s: err = %v, want passert's mismatch", aggNames[k], err)
		}
	}
}

// TestAggregateThenEvaluate: Aggregate's batch is Evaluate's constants
// side input: x standardized by its mean and std computed in the pipeline.
func TestAggregateThenEvaluate(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 5, 3, 3, 30)
	xs := fileValues(t, names, "x")
	mu, m2 := 0.0, 0.0
	for _, x := range xs {
		mu += x
	}
	mu /= float64(len(xs))
	for _, x := range xs {
		m2 += (x - mu) * (x - mu)
	}
	sd := math.Sqrt(m2 / float64(len(xs)))
	want := make([]float64, len(xs))
	for i, x := range xs {
		want[i] = (x - mu) / sd
	}
	p, s := abeam.NewPipelineWithRoot()
	in := ReadIPC(s, filepath.Join(dir, "*.arrow"))
	stats := Aggregate(s, in, frame.Mean("x").As("mu"), frame.Std("x", 0).As("sd"))
	z := Evaluate(s, in, []Output{{Name: "z", Expr: "(x - mu) / sd"}}, stats)
	passert.EqualsFloat(s, abeam.ParDo(s, &valuesFn{Col: "z"}, z), abeam.CreateList(s, want), 1e-9)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
}

// TestAggregatePerKeyPipeline: AggregatePerKey with batches keyed by their
// row count mod 3 equals frame's aggregates over each key's batches.
func TestAggregatePerKeyPipeline(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 23, 4, 6, 40)
	recs := fileRecords(t, names)
	defer releaseAll(recs)
	byKey := map[string][]arrow.Record{}
	for _, r := range recs {
		byKey[rowKey(r)] = append(byKey[rowKey(r)], r)
	}
	if len(byKey) < 2 {
		t.Fatalf("keys %d", len(byKey))
	}
	want := map[string][][]float64{}
	for k, rs := range byKey {
		want[k], _ = inProcess(t, rs, testAggs)
	}
	run := func(want map[string][][]float64) error {
		p, s := abeam.NewPipelineWithRoot()
		kvs := abeam.ParDo(s, &keyByRowsFn{}, Evaluate(s, ReadIPC(s, filepath.Join(dir, "*.arrow")), aggOutputs))
		res := AggregatePerKey(s, kvs, testAggs...)
		passert.Count(s, res, "keys", len(want))
		for k, w := range want {
			for i, name := range aggNames {
				got := abeam.ParDo(s, &keyValuesFn{Key: k, Col: name}, res)
				passert.EqualsFloat(s, got, abeam.CreateList(s, w[i]), threshold(w[i]))
			}
		}
		return ptest.Run(p)
	}
	if err := run(want); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	// A wrong value of one key's variance fails it.
	bad := map[string][][]float64{}
	for k, w := range want {
		bad[k] = w
	}
	k0 := rowKey(recs[0])
	bad[k0] = append([][]float64(nil), want[k0]...)
	bad[k0][1] = []float64{want[k0][1][0] * (1 + 1e-6)}
	if err := run(bad); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Fatalf("pipeline with a wrong var_x of %s: err = %v, want passert's mismatch", k0, err)
	}
}

// TestAggregateEmptyInput: an empty PCollection gives no batch; batches of
// no rows give the aggregates over no rows (frame's: Count 0, the others
// null, where arrowio.Reduce gave Sum 0 and Min an error).
func TestAggregateEmptyInput(t *testing.T) {
	p, s := abeam.NewPipelineWithRoot()
	passert.Empty(s, Aggregate(s, ReadIPC(s, filepath.Join(t.TempDir(), "*.arrow")), testAggs...))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}

	rec := testRecord(t, memory.DefaultAllocator, nil, 0)
	defer rec.Release()
	b, err := NewBatch(rec)
	if err != nil {
		t.Fatal(err)
	}
	p, s = abeam.NewPipelineWithRoot()
	res := Aggregate(s, abeam.CreateList(s, []Batch{b, b}),
		frame.Sum("x").As("sum"), frame.CountOf("t").As("count"), frame.Min("x").As("min"), frame.Count().As("n"))
	passert.EqualsList(s, abeam.ParDo(s, &nullsFn{}, res), []string{"sum", "min"})
	passert.EqualsFloat(s, abeam.ParDo(s, &anyValuesFn{Col: "count"}, res), abeam.CreateList(s, []float64{0}), 0)
	passert.EqualsFloat(s, abeam.ParDo(s, &anyValuesFn{Col: "n"}, res), abeam.CreateList(s, []float64{0}), 0)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

func init() { abeam.RegisterType(reflect.TypeOf((*nullsFn)(nil)).Elem()) }

// nullsFn emits the names of the columns of each one-row batch whose value
// is null.
type nullsFn struct{}

func (f *nullsFn) ProcessElement(b Batch, emit func(string)) error {
	rec, err := b.Record(nil)
	if err != nil {
		return err
	}
	defer rec.Release()
	for c := 0; c < int(rec.NumCols()); c++ {
		if rec.Column(c).IsNull(0) {
			emit(rec.ColumnName(c))
		}
	}
	return nil
}

// TestAggregateErrorsFailPipeline: an unknown column and a column of a
// type the aggregate cannot take fail the pipeline with errors naming them.
func TestAggregateErrorsFailPipeline(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, 3, 2, 2, 5)
	for _, c := range []struct {
		agg  frame.Agg
		want string
	}{{frame.Sum("nosuch"), "nosuch"}, {frame.Var("x", -1), "ddof"}} {
		p, s := abeam.NewPipelineWithRoot()
		Aggregate(s, ReadIPC(s, filepath.Join(dir, "*.arrow")), c.agg)
		if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("err = %v, want an error naming %s", err, c.want)
		}
	}
}
