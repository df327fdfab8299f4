package expr_test

import (
	"fmt"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// BenchmarkUnalignedRuns: 16M float32 evaluated into an existing output on
// one worker, with streaming stores, where the output's runs are whole
// 32-byte units (rows of 1000) and where they are not (rows of 3, 1001,
// 4001; an output one element off alignment): x + row, sqrt(x * row), and
// a one-dimensional sqrt into the misaligned output.
func BenchmarkUnalignedRuns(b *testing.B) {
	for _, inner := range []int{3, 1000, 1001, 4001} {
		rows := 16_000_000 / inner
		x, _ := array.Full(nil, float32(1.5), rows, inner)
		row, _ := array.Full(nil, float32(2), inner)
		dst, _ := array.Empty(nil, array.Float32, rows, inner)
		for _, c := range []struct {
			name string
			e    *expr.Node
		}{
			{"add", expr.Add(expr.Leaf(x), expr.Leaf(row))},
			{"sqrtmul", expr.Sqrt(expr.Mul(expr.Leaf(x), expr.Leaf(row)))},
		} {
			b.Run(fmt.Sprintf("%s/rows=%d", c.name, inner), func(b *testing.B) {
				b.SetBytes(int64(2 * 4 * rows * inner))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := expr.EvalInto(dst, c.e, expr.WithWorkers(1)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		for _, a := range []*array.Array{x, row, dst} {
			a.Release()
		}
	}
	const n = 16_000_000
	x, _ := array.Full(nil, float32(1.5), n)
	defer x.Release()
	big, _ := array.Empty(nil, array.Float32, n+1)
	defer big.Release()
	off, _ := view.Slice(big, view.Range{Start: 1, Stop: n + 1, Step: 1})
	defer off.Release()
	x2, _ := x.Reshaped(16000, 1000)
	off2, _ := off.Reshaped(16000, 1000)
	row, _ := array.Full(nil, float32(2), 1000)
	defer row.Release()
	for _, c := range []struct {
		name string
		dst  *array.Array
		e    *expr.Node
	}{
		{"add/rows=1000/off-by-one", off2, expr.Add(expr.Leaf(x2), expr.Leaf(row))},
		{"sqrt/flat/off-by-one", off, expr.Sqrt(expr.Leaf(x))},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(2 * 4 * n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := expr.EvalInto(c.dst, c.e, expr.WithWorkers(1)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
