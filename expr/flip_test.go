package expr_test

import (
	"math/rand"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestFlipIntoRandom evaluates Flip of 2-D arrays of 4- and 8-byte
// elements (the stride -1 gather: compute's reverseCopy and its AVX2
// kernels) into an existing output, over random shapes, source offsets and
// output offsets (fixed seed), against a naive index loop; the elements
// around the output view must stay untouched.
func TestFlipIntoRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	t.Run("float32", func(t *testing.T) { flipIntoRandom[float32](t, rng, array.Float32) })
	t.Run("int64", func(t *testing.T) { flipIntoRandom[int64](t, rng, array.Int64) })
	t.Run("float64", func(t *testing.T) { flipIntoRandom[float64](t, rng, array.Float64) })
	t.Run("int32", func(t *testing.T) { flipIntoRandom[int32](t, rng, array.Int32) })
}

func flipIntoRandom[T float32 | float64 | int32 | int64](t *testing.T, rng *rand.Rand, dt array.DType) {
	const pad = 40
	for trial := 0; trial < 60; trial++ {
		r, c := 1+rng.Intn(12), rng.Intn(300)
		if trial%10 == 9 {
			c = 1000 + rng.Intn(5000)
		}
		so, do := rng.Intn(9), rng.Intn(9)
		src := make([]T, so+r*c+pad)
		for i := range src {
			src[i] = T(rng.Intn(1 << 20))
		}
		sa, err := array.FromSlice(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		x, err := sa.View([]int{r, c}, array.ContiguousStrides([]int{r, c}), so)
		if err != nil {
			t.Fatal(err)
		}
		for _, axes := range [][]int{{1}, nil, {0}} {
			buf := make([]T, do+r*c+pad)
			for i := range buf {
				buf[i] = -1
			}
			ba, err := array.FromSlice(nil, buf)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ba.View([]int{r, c}, array.ContiguousStrides([]int{r, c}), do)
			if err != nil {
				t.Fatal(err)
			}
			if err := expr.EvalInto(out, expr.Flip(expr.Leaf(x), axes...), expr.WithWorkers(1+trial%2)); err != nil {
				t.Fatal(err)
			}
			got, err := array.ToSlice[T](ba)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				want := T(-1)
				if k := i - do; k >= 0 && k < r*c {
					y, z := k/c, k%c
					if axes == nil || axes[0] == 1 {
						z = c - 1 - z
					}
					if axes == nil || axes[0] == 0 {
						y = r - 1 - y
					}
					want = src[so+y*c+z]
				}
				if got[i] != want {
					t.Fatalf("%v [%d %d] axes %v, src offset %d, out offset %d: element %d of the buffer = %v, want %v",
						dt, r, c, axes, so, do, i-do, got[i], want)
				}
			}
			ba.Release()
		}
		sa.Release()
	}
}
