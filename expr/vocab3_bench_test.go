package expr_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkVocabIntDivNaN evaluates the vocab harness's floor_divide and
// remainder (int64 by the scalar 7, int32 array by array) and isnan cases
// over 4096×4096 inputs drawn as the harness's (A in [-1000, 1000], B in
// ±[1, 100], 1% NaN) on one worker: "into" a preallocated result, and
// "fresh" (Eval) for the scalar division.
func BenchmarkVocabIntDivNaN(b *testing.B) {
	const N = 4096 * 4096
	rng := rand.New(rand.NewSource(20261125))
	a32, b32 := make([]int32, N), make([]int32, N)
	a64 := make([]int64, N)
	f32, f64 := make([]float32, N), make([]float64, N)
	for i := range a32 {
		a32[i] = int32(rng.Intn(2001) - 1000)
		a64[i] = int64(a32[i])
		b32[i] = int32(rng.Intn(100) + 1)
		if rng.Intn(2) == 0 {
			b32[i] = -b32[i]
		}
		f64[i] = rng.Float64()
		if rng.Intn(100) == 0 {
			f64[i] = math.NaN()
		}
		f32[i] = float32(f64[i])
	}
	leaf := func(a *array.Array, err error) *array.Array {
		if err != nil {
			b.Fatal(err)
		}
		return a
	}
	A32, B32, A64 := leaf(array.FromSlice(nil, a32)), leaf(array.FromSlice(nil, b32)), leaf(array.FromSlice(nil, a64))
	F32, F64 := leaf(array.FromSlice(nil, f32)), leaf(array.FromSlice(nil, f64))
	L := expr.Leaf
	for _, c := range []struct {
		name  string
		n     *expr.Node
		bytes int
		fresh bool
	}{
		{"floordiv_scalar_int64", expr.FloorDiv(L(A64), expr.Const(7)), 16, true},
		{"floordiv_array_int32", expr.FloorDiv(L(A32), L(B32)), 12, false},
		{"remainder_array_int32", expr.Remainder(L(A32), L(B32)), 12, false},
		{"isnan_float32", expr.IsNaN(L(F32)), 5, false},
		{"isnan_float64", expr.IsNaN(L(F64)), 9, false},
	} {
		out := leaf(array.Empty(nil, c.n.DType(), N))
		b.Run(c.name+"/into", func(b *testing.B) {
			b.SetBytes(int64(c.bytes * N))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := expr.EvalInto(out, c.n, expr.WithWorkers(1)); err != nil {
					b.Fatal(err)
				}
			}
		})
		out.Release()
		if c.fresh {
			b.Run(c.name+"/fresh", func(b *testing.B) {
				b.SetBytes(int64(c.bytes * N))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					r, err := expr.Eval(c.n, expr.WithWorkers(1))
					if err != nil {
						b.Fatal(err)
					}
					r.Release()
				}
			})
		}
	}
}
