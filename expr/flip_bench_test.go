package expr_test

import (
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkFlipLastAxis evaluates Flip(x, 1) of a 4096×4096 array into a
// preallocated result on one worker, as the vocab harness's flip_ax1: a
// gather at stride -1 (compute's reverseCopy) into each row.
func BenchmarkFlipLastAxis(b *testing.B) { benchFlip(b, 1) }

// BenchmarkFlipFirstAxis is BenchmarkFlipLastAxis for Flip(x, 0), the
// harness's flip_ax0: contiguous rows in reverse order (rowCopy).
func BenchmarkFlipFirstAxis(b *testing.B) { benchFlip(b, 0) }

func benchFlip(b *testing.B, axis int) {
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		x, err := array.Empty(nil, dt, 4096, 4096)
		if err != nil {
			b.Fatal(err)
		}
		out, err := array.Empty(nil, dt, 4096, 4096)
		if err != nil {
			b.Fatal(err)
		}
		n := expr.Flip(expr.Leaf(x), axis)
		b.Run(dt.String(), func(b *testing.B) {
			b.SetBytes(int64(2 * 4096 * 4096 * dt.Size()))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := expr.EvalInto(out, n, expr.WithWorkers(1)); err != nil {
					b.Fatal(err)
				}
			}
		})
		x.Release()
		out.Release()
	}
}
