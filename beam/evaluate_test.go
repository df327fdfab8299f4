package beam

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestEvaluateErrors checks the errors of one Evaluate step, and that
// nothing is leaked on the error paths or the good one.
func TestEvaluateErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	rec := testRecord(t, mem, rng, 8)
	b, err := NewBatch(rec)
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	c := constBatch(t, 1.5, []float32{1, 2, 3, 4, 5, 6})
	two := testRecord(t, mem, rng, 2) // two rows: not a constants batch
	bad2, err := NewBatch(two)
	two.Release()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		b    Batch
		side []Batch
		outs []Output
		is   error
	}{
		{"syntax", b, nil, []Output{{Name: "y", Expr: "x +"}}, expr.ErrSyntax},
		{"unknown name", b, nil, []Output{{Name: "y", Expr: "x + mu"}}, nil},
		{"not per row", b, nil, []Output{{Name: "y", Expr: "sum(x)"}}, nil},
		// from arrowio's TestEvaluateRejectsNonRowOutput: a reduction over
		// the rows is refused, even over as many rows as its result has
		{"mean over the rows", b, nil, []Output{{Name: "y", Expr: "mean(t, axis=0)"}}, array.ErrShape},
		{"no column", b, []Batch{c}, []Output{{Name: "y", Expr: "mu * 2"}}, array.ErrShape},
		{"empty batch", Batch{}, nil, []Output{{Name: "y", Expr: "x"}}, ErrBatch},
		{"two-row constants", b, []Batch{bad2}, []Output{{Name: "y", Expr: "x"}}, ErrBatch},
		{"constant shadows a column", b, []Batch{b}, []Output{{Name: "y", Expr: "x"}}, ErrBatch},
		{"duplicate constants", b, []Batch{c, c}, []Output{{Name: "y", Expr: "x"}}, ErrBatch},
	}
	for _, tc := range cases {
		_, err := evaluate(context.Background(), mem, tc.b, tc.side, tc.outs)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v does not wrap %v", tc.name, err, tc.is)
		}
	}
	out, err := evaluate(context.Background(), mem, b, []Batch{c}, []Output{{Name: "y", Expr: "x * mu"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := out.Record(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	x, y := floats(got.Column(0)), floats(got.Column(2))
	for i := range x {
		if y[i] != x[i]*1.5 {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], x[i]*1.5)
		}
	}
}
