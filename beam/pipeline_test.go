package beam

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
)

// constBatch is a one-row batch of a float64 constant mu and a float32
// tensor constant w [2, 3].
func constBatch(t *testing.T, mu float64, w []float32) Batch {
	t.Helper()
	mem := memory.DefaultAllocator
	ma, err := array.FromSlice(mem, []float64{mu}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ma.Release()
	wa, err := array.FromSlice(mem, w, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer wa.Release()
	rec := recordOf(t, mem, column{"mu", ma, false}, column{"w", wa, false})
	defer rec.Release()
	b, err := NewBatch(rec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testOutputs = []Output{
	{Name: "y", Expr: "(x - mu) / 5"},
	{Name: "u", Expr: "t * w + mu", DimNames: []string{"a", "b"}},
}

// singleProcess evaluates testOutputs over the files in one process
// (frame's WithColumns with the constants as Leaf nodes) and returns the values
// of y and u.
func singleProcess(t *testing.T, names []string, mu float64, w []float32) (y, u []float64) {
	t.Helper()
	mem := memory.DefaultAllocator
	wa, err := array.FromSlice(mem, w, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer wa.Release()
	ma, err := array.FromSlice(mem, []float64{mu}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ma.Release()
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := arrowio.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fr := frame.FromReader(rr)
		yn := expr.Div(expr.Sub(fr.Col("x"), expr.Leaf(ma)), expr.Const(5))
		un := expr.Add(expr.Mul(fr.Col("t"), expr.Leaf(wa)), expr.Leaf(ma))
		er, err := fr.WithColumns(frame.LetExpr("y", yn), frame.LetExpr("u", un)).Reader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for er.Next() {
			rec := er.Record()
			y = append(y, floats(rec.Column(2))...)
			u = append(u, floats(rec.Column(3))...)
		}
		if err := er.Err(); err != nil {
			t.Fatal(err)
		}
		er.Release()
		rr.Release()
		f.Close()
	}
	return y, u
}

// evalPipeline reads the files of dir, evaluates testOutputs with the
// constants as a side input, writes the result under out, and asserts the
// values of y and u are wantY and wantU.
func evalPipeline(t *testing.T, dir, out string, c Batch, wantY, wantU []float64) *abeam.Pipeline {
	p, s := abeam.NewPipelineWithRoot()
	in := ReadIPC(s, filepath.Join(dir, "*.arrow"))
	consts := abeam.CreateList(s, []Batch{c})
	res := Evaluate(s, in, testOutputs, consts)
	passert.Equals(s, abeam.ParDo(s, &valuesFn{Col: "y"}, res), toAny(wantY)...)
	passert.Equals(s, abeam.ParDo(s, &valuesFn{Col: "u"}, res), toAny(wantU)...)
	passert.Count(s, WriteIPC(s, out, 2, res), "files", 2)
	return p
}

func TestEvaluatePipeline(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 7, 3, 3, 50)
	mu, w := 99.5, []float32{1, -2, 0.5, 3, 0, -1}
	wantY, wantU := singleProcess(t, names, mu, w)
	outDir := t.TempDir()
	p := evalPipeline(t, dir, filepath.Join(outDir, "res"), constBatch(t, mu, w), wantY, wantU)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	// The written files hold the same values (in some order of batches).
	written, err := filepath.Glob(filepath.Join(outDir, "res-*.arrow"))
	if err != nil || len(written) != 2 {
		t.Fatalf("written files %v, %v", written, err)
	}
	if got, want := sortedCopy(fileValues(t, written, "y")), sortedCopy(wantY); !equalFloats(got, want) {
		t.Fatalf("written y: %d values, want %d (or values differ)", len(got), len(want))
	}
	if got, want := sortedCopy(fileValues(t, written, "x")), sortedCopy(fileValues(t, names, "x")); !equalFloats(got, want) {
		t.Fatalf("written x differs from the input")
	}

	// A wrong expected value must fail the pipeline.
	bad := append([]float64(nil), wantY...)
	bad[len(bad)/2] += 1e-9
	p = evalPipeline(t, dir, filepath.Join(t.TempDir(), "res"), constBatch(t, mu, w), bad, wantU)
	if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), "does not match expected values") {
		t.Fatalf("pipeline with a wrong expected value of y: err = %v, want passert's mismatch", err)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadIPCNoMatch(t *testing.T) {
	p, s := abeam.NewPipelineWithRoot()
	passert.Empty(s, ReadIPC(s, filepath.Join(t.TempDir(), "*.arrow")))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

func TestReadIPCBadFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.arrow"), []byte("ARROW1\x00\x00garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, s := abeam.NewPipelineWithRoot()
	passert.Empty(s, ReadIPC(s, filepath.Join(dir, "*.arrow")))
	err := ptest.Run(p)
	if err == nil || !strings.Contains(err.Error(), "bad.arrow") {
		t.Fatalf("err = %v, want an error naming bad.arrow", err)
	}
}

func TestEvaluateParseErrorFailsPipeline(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, 3, 1, 1, 5)
	p, s := abeam.NewPipelineWithRoot()
	res := Evaluate(s, ReadIPC(s, filepath.Join(dir, "*.arrow")), []Output{{Name: "y", Expr: "x + nosuch"}})
	passert.Empty(s, res)
	err := ptest.Run(p)
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("err = %v, want an error naming nosuch", err)
	}
}
