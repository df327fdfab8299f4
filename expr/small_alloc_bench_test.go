package expr_test

import (
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkSmallPlan is the shared workload W10: a compiled plan (one
// worker) of x[64,64] + b[64], float32, called in a loop. alloc: Eval and
// Release of the previous result (what the harness times); out: EvalInto an
// existing output. The difference is what a fresh small result costs.
func BenchmarkSmallPlan(b *testing.B) {
	x, _ := array.Full(nil, float32(1.5), 64, 64)
	bias, _ := array.Full(nil, float32(2), 64)
	defer x.Release()
	defer bias.Release()
	p, err := expr.Compile(expr.Add(expr.Leaf(x), expr.Leaf(bias)), expr.WithWorkers(1))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("alloc", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(64 * 64 * 4)
		var res *array.Array
		for i := 0; i < b.N; i++ {
			res.Release()
			if res, err = p.Eval(nil); err != nil {
				b.Fatal(err)
			}
		}
		res.Release()
	})
	b.Run("out", func(b *testing.B) {
		out, _ := array.Empty(nil, array.Float32, 64, 64)
		defer out.Release()
		b.ReportAllocs()
		b.SetBytes(64 * 64 * 4)
		for i := 0; i < b.N; i++ {
			if err := p.EvalInto(out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
