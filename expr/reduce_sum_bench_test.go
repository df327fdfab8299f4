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
func BenchmarkSumF32(b *testing.B) { benchSum(b, array.Float32) }

// BenchmarkSumF64 is BenchmarkSumF32 for float64 (128 MiB; TwoSum
// accumulation).
func BenchmarkSumF64(b *testing.B) { benchSum(b, array.Float64) }

func benchSum(b *testing.B, dt array.DType) {
	const R, C = 4096, 4096
	vals := make([]float64, R*C)
	for i := range vals {
		vals[i] = float64(i%997)*0.25 - 100
	}
	x64, err := array.FromSlice(nil, vals, R, C)
	if err != nil {
		b.Fatal(err)
	}
	defer x64.Release()
	x, err := expr.Eval(expr.Cast(expr.Leaf(x64), dt))
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
		out, err := array.Empty(nil, dt, shape...)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(R * C * dt.Size()))
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
