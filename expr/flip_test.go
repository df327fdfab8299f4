package expr_test

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestFlipIntoRandom evaluates Flip of 2-D arrays of 4- and 8-byte
// elements (the stride -1 gather: compute's reverseCopy and its AVX2
// kernels) into an existing output, over random shapes, source offsets and
// output offsets (fixed seed), against a naive index loop; the elements
// around the output view must stay untouched. Run twice: as is, and with
// every output streamed (non-temporal stores: compute.ReverseStream, whose
// head and tail go through StreamPiece).
func TestFlipIntoRandom(t *testing.T) {
	for _, stream := range []bool{false, true} {
		if stream {
			defer expr.SetStreamingThreshold(1)()
		}
		rng := rand.New(rand.NewSource(41))
		t.Run("float32", func(t *testing.T) { flipIntoRandom[float32](t, rng, array.Float32) })
		t.Run("int64", func(t *testing.T) { flipIntoRandom[int64](t, rng, array.Int64) })
		t.Run("float64", func(t *testing.T) { flipIntoRandom[float64](t, rng, array.Float64) })
		t.Run("int32", func(t *testing.T) { flipIntoRandom[int32](t, rng, array.Int32) })
	}
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

// TestFlipRowCopy covers the row-at-a-time copy of a flipped last axis
// and of contiguous rows under flipped outer axes (rowCopy, which walks
// those forwards in the source): rank 1 to 3, every element size, every
// combination of flipped axes at rank 3, rows shorter and longer than
// minRowCopy, a fresh result, a contiguous out and an out whose rows are
// padded (a column slice of a wider array), source views at an offset, and
// sizes that the workers share (1, 2 and 3 workers), against the flip
// computed index by index.
func TestFlipRowCopy(t *testing.T) {
	rng := rand.New(rand.NewSource(43))
	for _, dt := range []array.DType{array.Int8, array.Int16, array.Float32, array.Float64} {
		for trial := 0; trial < 24; trial++ {
			var shape []int
			switch trial % 3 {
			case 0:
				shape = []int{1 + rng.Intn(3000)}
			case 1:
				shape = []int{1 + rng.Intn(40), rng.Intn(70)}
			default:
				shape = []int{1 + rng.Intn(6), 1 + rng.Intn(9), rng.Intn(90)}
			}
			if trial%8 == 7 { // big enough for the workers to share
				shape = []int{40, 50, 300 + rng.Intn(50)}
			}
			n := 1
			for _, d := range shape {
				n *= d
			}
			so := rng.Intn(5)
			vals := make([]float64, so+n)
			for i := range vals {
				vals[i] = float64(rng.Intn(100))
			}
			base, err := array.FromSlice(nil, vals)
			require.NoError(t, err)
			b2, err := expr.Eval(expr.Cast(expr.Leaf(base), dt))
			require.NoError(t, err)
			base.Release()
			x, err := b2.View(shape, array.ContiguousStrides(shape), so)
			require.NoError(t, err)
			r := len(shape)
			axesSets := [][]int{{r - 1}, nil, {0}}
			if r == 3 {
				axesSets = append(axesSets, []int{1}, []int{0, 2}, []int{0, 1})
			}
			for _, axes := range axesSets {
				flipped := make([]bool, r)
				for i := range flipped {
					flipped[i] = axes == nil
				}
				for _, a := range axes {
					flipped[a] = true
				}
				// the expected flip, in C order
				want := make([]float64, n)
				idx := make([]int, r)
				for k := 0; k < n; k++ {
					src := 0
					for i := range shape {
						j := idx[i]
						if flipped[i] {
							j = shape[i] - 1 - j
						}
						src = src*shape[i] + j
					}
					want[k] = vals[so+src]
					for i := r - 1; i >= 0; i-- {
						if idx[i]++; idx[i] < shape[i] {
							break
						}
						idx[i] = 0
					}
				}
				workers := 1 + trial%3
				e := expr.Flip(expr.Leaf(x), axes...)
				check := func(what string, got *array.Array) {
					t.Helper()
					g, err := array.ToSlice[float64](got)
					require.NoError(t, err)
					for i := range want {
						if g[i] != want[i] {
							t.Fatalf("%v %v axes %v %s, %d workers: element %d = %v, want %v", dt, shape, axes, what, workers, i, g[i], want[i])
						}
					}
				}
				fresh, err := expr.Eval(e, expr.WithWorkers(workers))
				require.NoError(t, err)
				check("fresh", fresh)
				fresh.Release()
				out, err := array.Empty(nil, dt, shape...)
				require.NoError(t, err)
				require.NoError(t, expr.EvalInto(out, e, expr.WithWorkers(workers)))
				check("into", out)
				out.Release()
				// rows padded by 3 elements: a column slice of a wider array
				wide := append(append([]int{}, shape[:r-1]...), shape[r-1]+3)
				w, err := array.Empty(nil, dt, wide...)
				require.NoError(t, err)
				pv, err := w.View(shape, w.Strides(), 1)
				require.NoError(t, err)
				require.NoError(t, expr.EvalInto(pv, e, expr.WithWorkers(workers)))
				check("padded into", pv)
				pv.Release()
				w.Release()
			}
			x.Release()
			b2.Release()
		}
	}
}
