package expr_test

import (
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkSumF32 measures ReduceSum of a [4096 4096] float32 matrix (16M
// elements, 64 MiB) at one worker along axis 0, axis 1 and both, into a
// preallocated result: the cost of the accurate (float64) accumulation.
// Bytes per op are the input read once.
// Run: go test -run '^$' -bench SumF32 -benchtime 20x ./expr/
func BenchmarkSumF32(b *testing.B) {
	const R, C = 4096, 4096
	vals := make([]float32, R*C)
	for i := range vals {
		vals[i] = float32(i%997)*0.25 - 100
	}
	x, err := array.FromSlice(nil, vals, R, C)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	for _, c := range []struct {
		name string
		axes []int
	}{{"axis0", []int{0}}, {"axis1", []int{1}}, {"all", nil}} {
		e := expr.ReduceSum(expr.Leaf(x), c.axes, false)
		p, err := expr.Compile(e, expr.WithWorkers(1))
		if err != nil {
			b.Fatal(err)
		}
		shape, _ := e.StaticShape()
		out, err := array.Empty(nil, array.Float32, shape...)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(R * C * 4)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := p.EvalInto(out, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		out.Release()
	}
}
