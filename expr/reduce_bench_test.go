package expr_test

import (
	"fmt"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkStd compares Std (two-pass blocks merged by Chan's formulas)
// with ReduceSum, a single memory pass, over the same [16000 1000] float32
// matrix along axis 0 and axis 1. Bytes per op are the input read once.
// Run: go test -run '^$' -bench Std -benchtime 20x ./expr/
func BenchmarkStd(b *testing.B) {
	const R, C = 16000, 1000
	vals := make([]float32, R*C)
	for i := range vals {
		vals[i] = float32(i%997) * 0.25
	}
	x, err := array.FromSlice(nil, vals, R, C)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	for _, axis := range []int{0, 1} {
		for _, f := range []struct {
			name string
			e    *expr.Node
		}{
			{"sum", expr.ReduceSum(expr.Leaf(x), []int{axis}, false)},
			{"std", expr.ReduceStd(expr.Leaf(x), []int{axis}, 0, false)},
		} {
			p, err := expr.Compile(f.e)
			if err != nil {
				b.Fatal(err)
			}
			shape, _ := f.e.StaticShape()
			out, err := array.Empty(nil, f.e.DType(), shape...)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("axis%d/%s", axis, f.name), func(b *testing.B) {
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
}
