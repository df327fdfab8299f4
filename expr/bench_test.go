package expr_test

import (
	"fmt"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkEval measures one evaluation into a preallocated output, per op
// and per kind of second operand:
//
//	contiguous   x[R C] op y[R C]
//	scalar       x[R C] op constant
//	inner0       x[R C] op y[R 1]   (stride 0 along the inner axis)
//	outer0       x[R C] op y[C]     (stride 0 along the outer axis)
//
// Bytes per op are the inputs read once plus the output written once.
// Run: go test -run '^$' -bench Eval ./expr/
func BenchmarkEval(b *testing.B) {
	const R, C = 512, 1024 // 2 MiB of float32 per operand: L2/L3, not DRAM
	ops := []struct {
		name string
		f    func(x, y *expr.Node) *expr.Node
	}{
		{"add", func(x, y *expr.Node) *expr.Node { return expr.Add(x, y) }},
		{"mul", func(x, y *expr.Node) *expr.Node { return expr.Mul(x, y) }},
		{"div", func(x, y *expr.Node) *expr.Node { return expr.Div(x, y) }},
		{"greater", func(x, y *expr.Node) *expr.Node { return expr.Greater(x, y) }},
		{"maximum", func(x, y *expr.Node) *expr.Node { return expr.Maximum(x, y) }},
		{"where", func(x, y *expr.Node) *expr.Node { return expr.Where(expr.Greater(x, y), x, y) }},
		{"fused3", func(x, y *expr.Node) *expr.Node { return expr.Sub(expr.Mul(expr.Add(x, y), y), x) }},
	}
	for _, dt := range []array.DType{array.Float32, array.Float64, array.Int32} {
		x, _ := array.Full(nil, 1.5, R, C)
		xc, _ := castTo(x, dt)
		x.Release()
		kinds := []struct {
			name  string
			shape []int
		}{{"contiguous", []int{R, C}}, {"scalar", nil}, {"inner0", []int{R, 1}}, {"outer0", []int{C}}}
		for _, op := range ops {
			for _, k := range kinds {
				var y *expr.Node
				var ya *array.Array
				if k.shape == nil {
					y = expr.Scalar(2.5, dt)
				} else {
					f, _ := array.Full(nil, 2.5, k.shape...)
					ya, _ = castTo(f, dt)
					f.Release()
					y = expr.Leaf(ya)
				}
				e := op.f(expr.Leaf(xc), y)
				p, err := expr.Compile(e, expr.WithWorkers(1))
				if err != nil {
					b.Fatal(err)
				}
				out, _ := array.Empty(nil, e.DType(), R, C)
				bytes := int64(R*C*(dt.Size()+e.DType().Size()) + ya.Len()*dt.Size())
				b.Run(fmt.Sprintf("%s/%v/%s", op.name, dt, k.name), func(b *testing.B) {
					b.SetBytes(bytes)
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if err := p.EvalInto(out, nil); err != nil {
							b.Fatal(err)
						}
					}
				})
				out.Release()
				ya.Release()
			}
		}
		xc.Release()
	}
}

// castTo returns a copy of a (float64) in dtype dt.
func castTo(a *array.Array, dt array.DType) (*array.Array, error) {
	return expr.Eval(expr.Cast(expr.Leaf(a), dt))
}
