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
// one worker; f32_idx32 takes at int32 indices (the general gather
// path, which converts them first). Bytes are the indices and elements
// read plus written.
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
	i32 := make([]int32, m)
	for i, v := range iv {
		i32[i] = int32(v)
	}
	idx32, err := array.FromSlice(nil, i32)
	if err != nil {
		b.Fatal(err)
	}
	defer idx32.Release()
	bench := func(b *testing.B, u, idx *array.Array, sz int) {
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
		b.SetBytes(int64(m * (idx.DType().Size() + 2*sz)))
		b.ReportAllocs()
		for b.Loop() {
			if err := expr.EvalInto(out, e, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
	f32 := make([]float32, n)
	for i := range f32 {
		f32[i] = r.Float32()
	}
	u32, err := array.FromSlice(nil, f32)
	if err != nil {
		b.Fatal(err)
	}
	defer u32.Release()
	f64 := make([]float64, n)
	for i := range f64 {
		f64[i] = r.Float64()
	}
	u64, err := array.FromSlice(nil, f64)
	if err != nil {
		b.Fatal(err)
	}
	defer u64.Release()
	b.Run("f32", func(b *testing.B) { bench(b, u32, idx, 4) })
	b.Run("f32_idx32", func(b *testing.B) { bench(b, u32, idx32, 4) })
	b.Run("f64", func(b *testing.B) { bench(b, u64, idx, 8) })
}
