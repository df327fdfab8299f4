package expr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/naive"
)

// TestPrefetchMatches: with the software prefetch of streaming operands on
// (off by default) and every output streamed, (x + bias) * scale - y over
// random shapes, dtypes, tiles and workers gives what it gives without.
func TestPrefetchMatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	defer expr.SetStreamingThreshold(1)()
	r := rand.New(rand.NewPCG(41, 42))
	for i := 0; i < 100; i++ {
		dt := []array.DType{array.Float32, array.Float64, array.Int32}[r.IntN(3)]
		rows, cols := 1+r.IntN(40), 1+r.IntN(70)
		x := randArray(t, r, mem, dt, []int{rows, cols})
		y := randArray(t, r, mem, dt, []int{rows, cols})
		bias := randArray(t, r, mem, dt, []int{cols})
		scale := randArray(t, r, mem, dt, []int{cols})
		e := expr.Sub(expr.Mul(expr.Add(expr.Leaf(x), expr.Leaf(bias)), expr.Leaf(scale)), expr.Leaf(y))
		name := fmt.Sprintf("case %d: %v %dx%d", i, dt, rows, cols)
		opts := []expr.Option{expr.WithAllocator(mem), expr.WithWorkers(1 + r.IntN(3)), expr.WithTileSize(16 + r.IntN(200))}
		restore := expr.SetPrefetch(false)
		want, err := expr.Eval(e, opts...)
		restore()
		require.NoError(t, err, name)
		restore = expr.SetPrefetch(true)
		got, err := expr.Eval(e, opts...)
		restore()
		require.NoError(t, err, name)
		require.NoError(t, naive.Equal(want, got), name)
		for _, a := range []*array.Array{x, y, bias, scale, want, got} {
			a.Release()
		}
	}
}

// BenchmarkPrefetch evaluates W5's (x + bias) * scale - y over [16000,
// 1000] float32 (192 MB of traffic) into an existing output, with and
// without the software prefetch. (2026-11-22, one run: 9.2-10.2 ms
// without, 10.2-11.5 with, on one worker; over the shared workloads' own
// inputs the gap was larger, 10-12 against 15-16 ms.)
func BenchmarkPrefetch(b *testing.B) {
	mem := memory.DefaultAllocator
	r := rand.New(rand.NewPCG(5, 5))
	fill := func(shape ...int) *array.Array {
		a, err := array.New(mem, array.Float32, shape...)
		if err != nil {
			b.Fatal(err)
		}
		v, _ := array.Values[float32](a)
		for i := range v {
			v[i] = r.Float32()
		}
		return a
	}
	x, y, bias, scale := fill(16000, 1000), fill(16000, 1000), fill(1000), fill(1000)
	out := fill(16000, 1000)
	defer func() {
		for _, a := range []*array.Array{x, y, bias, scale, out} {
			a.Release()
		}
	}()
	e := expr.Sub(expr.Mul(expr.Add(expr.Leaf(x), expr.Leaf(bias)), expr.Leaf(scale)), expr.Leaf(y))
	for _, on := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			restore := expr.SetPrefetch(on)
			p, err := expr.Compile(e, expr.WithWorkers(workers))
			restore()
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("prefetch=%v/workers=%d", on, workers), func(b *testing.B) {
				b.SetBytes(3 * 16000 * 1000 * 4)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := p.EvalInto(out, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
