package expr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkTakeInto times EvalInto of Take(u, idx, 0) with u 16M random
// float32 or float64 elements and idx 4M random int64 indices into a
// preallocated output: the vocab harness's take (and fancy_index) case,
// one worker. Bytes are the indices and elements read plus written.
// Run: go test -run '^$' -bench TakeInto ./expr/
func BenchmarkTakeInto(b *testing.B) {
	const n, m = 1 << 24, 4 << 20
	r := rand.New(rand.NewPCG(1, 3))
	iv := make([]int64, m)
	for i := range iv {
		iv[i] = int64(r.IntN(n))
	}
	idx, err := array.FromSlice(nil, iv)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Release()
	bench := func(b *testing.B, u *array.Array, sz int) {
		defer u.Release()
		e := expr.Take(expr.Leaf(u), expr.Leaf(idx), 0)
		out, err := array.Empty(nil, u.DType(), m)
		if err != nil {
			b.Fatal(err)
		}
		defer out.Release()
		opt := expr.WithWorkers(1)
		if err := expr.EvalInto(out, e, opt); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(m * (8 + 2*sz)))
		b.ReportAllocs()
		for b.Loop() {
			if err := expr.EvalInto(out, e, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("f32", func(b *testing.B) {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32()
		}
		u, err := array.FromSlice(nil, v)
		if err != nil {
			b.Fatal(err)
		}
		bench(b, u, 4)
	})
	b.Run("f64", func(b *testing.B) {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Float64()
		}
		u, err := array.FromSlice(nil, v)
		if err != nil {
			b.Fatal(err)
		}
		bench(b, u, 8)
	})
}
