package beam

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*anyValuesFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*keyValuesFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*keyByRowsFn)(nil)).Elem())
}

// testReductions: every kind of accumulator over the test files' x
// (float64) and t (float32 [2, 3]), and an expression of both.
var testReductions = []Reduction{
	{Name: "mean_x", Expr: "x", Op: arrowio.Mean},
	{Name: "var_x", Expr: "x", Op: arrowio.Var, Ddof: 1},
	{Name: "std_t", Expr: "t", Op: arrowio.Std},
	{Name: "mean_t", Expr: "t", Op: arrowio.Mean},
	{Name: "sum_xt", Expr: "sum(t, axis=(1, 2)) * x", Op: arrowio.Sum},
	{Name: "min_t", Expr: "t", Op: arrowio.Min},
	{Name: "max_x", Expr: "x", Op: arrowio.Max},
	{Name: "count_x", Expr: "x", Op: arrowio.Count},
	{Name: "any_big", Expr: "x > 115", Op: arrowio.Any},
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

// inProcess reduces the records with arrowio.Reduce (the reductions parsed
// against their schema) and returns each result's values and shape.
func inProcess(t testing.TB, recs []arrow.Record, reds []Reduction) (vals [][]float64, shapes [][]int) {
	t.Helper()
	mem := memory.DefaultAllocator
	schema := recs[0].Schema()
	env := map[string]*expr.Node{}
	for _, f := range schema.Fields() {
		v, err := arrowio.SchemaVar(schema, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		env[f.Name] = v
	}
	var rs []arrowio.Reduction
	for _, r := range reds {
		n, err := expr.Parse(r.Expr, env)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, arrowio.Reduction{Name: r.Name, Expr: n, Op: r.Op, Ddof: r.Ddof})
	}
	rr, err := arrowarray.NewRecordReader(schema, recs)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	res, err := arrowio.Reduce(mem, rr, rs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res {
		v, err := array.ToSlice[float64](a)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
		shapes = append(shapes, a.Shape())
		a.Release()
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
		return fmt.Errorf("a Reduce output of %d rows", rec.NumRows())
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

// reducePipeline reads the files of dir, reduces them, and asserts each
// result column equals want (in testReductions' order).
func reducePipeline(dir string, want [][]float64) *abeam.Pipeline {
	p, s := abeam.NewPipelineWithRoot()
	res := Reduce(s, ReadIPC(s, filepath.Join(dir, "*.arrow")), testReductions...)
	passert.Count(s, res, "batches", 1)
	for i, r := range testReductions {
		got := abeam.ParDo(s, &anyValuesFn{Col: r.Name}, res)
		passert.EqualsFloat(s, got, abeam.CreateList(s, want[i]), threshold(want[i]))
	}
	return p
}

// TestReducePipeline: Reduce over 6 files of 4 batches on prism equals
// arrowio.Reduce over the same batches in one process (within float
// rounding of the merge order), and a wrong expected value fails it.
func TestReducePipeline(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 17, 6, 4, 40)
	recs := fileRecords(t, names)
	defer releaseAll(recs)
	want, shapes := inProcess(t, recs, testReductions)
	if len(shapes[2]) != 2 || len(shapes[0]) != 0 {
		t.Fatalf("result shapes %v", shapes)
	}
	if err := ptest.Run(reducePipeline(dir, want)); err != nil {
		t.Fatalf("pipeline: %v", err)
	}

	for _, k := range []int{0, 3} { // mean_x, mean_t
		bad := make([][]float64, len(want))
		copy(bad, want)
		bad[k] = append([]float64(nil), want[k]...)
		bad[k][len(bad[k])-1] += 1e-6 * math.Abs(bad[k][0])
		err := ptest.Run(reducePipeline(dir, bad))
		if err == nil || !strings.Contains(err.Error(), "expected") {
			t.Fatalf("pipeline with a wrong %s: err = %v, want passert's mismatch", testReductions[k].Name, err)
		}
	}
}

// TestReduceThenEvaluate: Reduce's batch is Evaluate's constants side
// input: x standardized by its mean and std computed in the pipeline.
func TestReduceThenEvaluate(t *testing.T) {
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
	stats := Reduce(s, in, Reduction{Name: "mu", Expr: "x", Op: arrowio.Mean}, Reduction{Name: "sd", Expr: "x", Op: arrowio.Std})
	z := Evaluate(s, in, []Output{{Name: "z", Expr: "(x - mu) / sd"}}, stats)
	passert.EqualsFloat(s, abeam.ParDo(s, &valuesFn{Col: "z"}, z), abeam.CreateList(s, want), 1e-9)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
}

// TestReducePerKeyPipeline: ReducePerKey with batches keyed by their row
// count mod 3 equals arrowio.Reduce over each key's batches.
func TestReducePerKeyPipeline(t *testing.T) {
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
		want[k], _ = inProcess(t, rs, testReductions)
	}
	run := func(want map[string][][]float64) error {
		p, s := abeam.NewPipelineWithRoot()
		kvs := abeam.ParDo(s, &keyByRowsFn{}, ReadIPC(s, filepath.Join(dir, "*.arrow")))
		res := ReducePerKey(s, kvs, testReductions...)
		passert.Count(s, res, "keys", len(want))
		for k, w := range want {
			for i, r := range testReductions {
				got := abeam.ParDo(s, &keyValuesFn{Key: k, Col: r.Name}, res)
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

// TestReduceEmptyInput: an empty PCollection gives no batch; batches of no
// rows give the results over no rows; Min over them fails the pipeline
// with arrowio.ErrEmpty's message.
func TestReduceEmptyInput(t *testing.T) {
	p, s := abeam.NewPipelineWithRoot()
	passert.Empty(s, Reduce(s, ReadIPC(s, filepath.Join(t.TempDir(), "*.arrow")), testReductions...))
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
	res := Reduce(s, abeam.CreateList(s, []Batch{b, b}),
		Reduction{Name: "sum", Expr: "x", Op: arrowio.Sum}, Reduction{Name: "count", Expr: "t", Op: arrowio.Count})
	passert.EqualsFloat(s, abeam.ParDo(s, &anyValuesFn{Col: "sum"}, res), abeam.CreateList(s, []float64{0}), 0)
	passert.EqualsFloat(s, abeam.ParDo(s, &anyValuesFn{Col: "count"}, res), abeam.CreateList(s, make([]float64, 6)), 0)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}

	p, s = abeam.NewPipelineWithRoot()
	Reduce(s, abeam.CreateList(s, []Batch{b}), Reduction{Name: "min", Expr: "x", Op: arrowio.Min})
	if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), "no identity") {
		t.Fatalf("min over no rows: err = %v, want arrowio.ErrEmpty's message", err)
	}
}

// TestReduceErrorsFailPipeline: a parse error and batches of two schemas
// fail the pipeline with errors naming them.
func TestReduceErrorsFailPipeline(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, 3, 2, 2, 5)
	p, s := abeam.NewPipelineWithRoot()
	Reduce(s, ReadIPC(s, filepath.Join(dir, "*.arrow")), Reduction{Name: "y", Expr: "x + nosuch", Op: arrowio.Sum})
	if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("err = %v, want an error naming nosuch", err)
	}
}
