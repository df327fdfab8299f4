package expr_test

import (
	"fmt"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// BenchmarkConcatVocab is the vocabulary harness's concat case: four
// [2048, 2048] pieces, contiguous views at offsets of one array, joined
// along axis 0 and axis 1 into an existing output (128 MiB of float64,
// 64 MiB of float32), on one worker. Bytes are read plus written.
// Run: go test -run '^$' -bench ConcatVocab -benchtime 20x ./expr/
func BenchmarkConcatVocab(b *testing.B) {
	const side, k = 2048, 4
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		u, _ := array.Full(nil, 1.5, k*side*side)
		uc, _ := expr.Eval(expr.Cast(expr.Leaf(u), dt))
		u.Release()
		pieces := make([]*expr.Node, k)
		for i := range pieces {
			p, err := view.Slice(uc, view.Span(i*side*side, (i+1)*side*side))
			if err != nil {
				b.Fatal(err)
			}
			p2, err := view.Reshape(p, side, side)
			if err != nil {
				b.Fatal(err)
			}
			p.Release()
			defer p2.Release()
			pieces[i] = expr.Leaf(p2)
		}
		for _, axis := range []int{0, 1} {
			e := expr.Concatenate(pieces, axis)
			s, _ := e.StaticShape()
			out, _ := array.Full(nil, float64(0), s...)
			oc, _ := expr.Eval(expr.Cast(expr.Leaf(out), dt))
			out.Release()
			p, err := expr.Compile(e, expr.WithWorkers(1))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%v/axis%d", dt, axis), func(b *testing.B) {
				b.SetBytes(int64(2 * k * side * side * dt.Size()))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := p.EvalInto(oc, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
			oc.Release()
		}
		uc.Release()
	}
}
