package expr_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// prodRef is NumPy's float product: for each output element, one running
// product of its inputs in index order (C order over the reduced axes),
// here in float64 from the values widened (float16 and float32 products
// are rounded once at the end).
func prodRef(v []float64, shape, axes []int) (out []float64, oshape []int) {
	red := make([]bool, len(shape))
	if axes == nil {
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		red[a] = true
	}
	ostr := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if !red[i] {
			ostr[i] = n
			n *= shape[i]
		}
	}
	for i := range shape {
		if !red[i] {
			oshape = append(oshape, shape[i])
		}
	}
	out = make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	idx := make([]int, len(shape))
	for _, x := range v { // C order: for each output, its inputs come in index order
		o := 0
		for d := range shape {
			o += idx[d] * ostr[d]
		}
		out[o] *= x
		for d := len(shape) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, oshape
}

// TestProdIsNumPysRunningProduct: a float product is NumPy's running
// product in index order, bit for bit, with any number of workers and any
// tile size (split between workers, a product rounds, overflows and
// underflows differently with each split), over random shapes, axes,
// strides (flipped views), dtypes and values that round, overflow,
// underflow and hold NaN, infinities and negative zeros.
func TestProdIsNumPysRunningProduct(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(20261128))
	value := func() float64 {
		switch rng.Intn(40) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return math.Inf(1 - 2*rng.Intn(2))
		case 2:
			return math.NaN()
		case 3, 4, 5:
			return math.Ldexp(1+rng.Float64(), 300-600*rng.Intn(2)) // overflow and underflow on the way
		}
		return (1 + (rng.Float64()-0.5)*1e-3) * float64(1-2*rng.Intn(2))
	}
	trials, long, workerCounts := 60, 400, []int{1, 2, 3, 4, 7}
	if raceOn { // the race detector makes each element ~20x dearer: fewer, shorter cases
		trials, long, workerCounts = 15, 40, []int{1, 3}
	}
	for trial := 0; trial < trials; trial++ {
		rank := 1 + rng.Intn(3)
		shape := make([]int, rank)
		n := 1
		for i := range shape {
			shape[i] = 1 + rng.Intn(24)
			n *= shape[i]
		}
		if rng.Intn(3) == 0 { // long enough to be split between workers
			shape[rng.Intn(rank)] *= long
			n = 1
			for _, d := range shape {
				n *= d
			}
		}
		special := rng.Intn(2) == 0
		v := make([]float64, n)
		for i := range v {
			if special {
				v[i] = value()
			} else {
				v[i] = 1 + (rng.Float64()-0.5)*1e-3
			}
		}
		var axes []int
		if rng.Intn(4) != 0 {
			for a := 0; a < rank; a++ {
				if rng.Intn(2) == 0 {
					axes = append(axes, a)
				}
			}
			if axes == nil {
				axes = []int{rng.Intn(rank)}
			}
		}
		for _, dt := range []array.DType{array.Float64, array.Float32, array.Float16} {
			var x *array.Array
			switch dt {
			case array.Float64:
				x = mk(t, mem, v, shape...)
			case array.Float32:
				v32 := make([]float32, n)
				for i := range v {
					v32[i] = float32(v[i])
				}
				x = mk(t, mem, v32, shape...)
			default:
				c, err := expr.Eval(expr.Cast(expr.Leaf(mk(t, mem, v, shape...)), array.Float16), expr.WithAllocator(mem))
				require.NoError(t, err)
				t.Cleanup(c.Release)
				x = c
			}
			if rng.Intn(2) == 0 {
				f, err := view.Flip(x, rng.Intn(rank))
				require.NoError(t, err)
				t.Cleanup(f.Release)
				x = f
			}
			// the values as the reduction sees them, in index order
			w, err := expr.Eval(expr.Cast(expr.Leaf(x), array.Float64), expr.WithAllocator(mem))
			require.NoError(t, err)
			vals, err := array.ToSlice[float64](w)
			require.NoError(t, err)
			w.Release()
			ref, oshape := prodRef(vals, shape, axes)
			if dt != array.Float64 { // rounded once to the dtype
				r, err := expr.Eval(expr.Cast(expr.Leaf(mk(t, mem, ref, append([]int{len(ref)}, nil...)...)), dt), expr.WithAllocator(mem))
				require.NoError(t, err)
				c, err := expr.Eval(expr.Cast(expr.Leaf(r), array.Float64), expr.WithAllocator(mem))
				require.NoError(t, err)
				ref, err = array.ToSlice[float64](c)
				require.NoError(t, err)
				r.Release()
				c.Release()
			}
			for _, workers := range workerCounts {
				for _, tile := range []int{16, 0} {
					opts := []expr.Option{expr.WithAllocator(mem), expr.WithWorkers(workers)}
					if tile > 0 {
						opts = append(opts, expr.WithTileSize(tile))
					}
					out, err := expr.Eval(expr.Cast(expr.ReduceProd(expr.Leaf(x), axes, false), array.Float64), opts...)
					require.NoError(t, err)
					if oshape == nil {
						oshape = []int{}
					}
					require.Equal(t, oshape, out.Shape())
					got, err := array.ToSlice[float64](out)
					require.NoError(t, err)
					out.Release()
					for i := range ref {
						same := math.Float64bits(got[i]) == math.Float64bits(ref[i]) || (math.IsNaN(got[i]) && math.IsNaN(ref[i]))
						if !same {
							t.Fatalf("trial %d %v%v axes %v workers %d tile %d: element %d is %v, NumPy's running product %v",
								trial, dt, shape, axes, workers, tile, i, got[i], ref[i])
						}
					}
				}
			}
		}
	}
}

// TestProdOverflowAsNumPy: a product that overflows and then meets values
// that would bring it back stays infinite, and one that underflows stays
// zero, as NumPy's running product does, whatever the worker count (a
// split product gave NaN: the infinite part times the zero part).
func TestProdOverflowAsNumPy(t *testing.T) {
	mem := checkedMem(t)
	const n = 1 << 16
	for _, c := range []struct {
		head, tail float64
		want       float64
	}{{1e200, 1e-200, math.Inf(1)}, {1e-200, 1e200, 0}, {-1e200, 1e-200, math.Inf(1)}, {-1e200, -1e-200, math.Inf(1)}} {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1
		}
		v[0], v[1], v[n-2], v[n-1] = c.head, c.head, c.tail, c.tail
		x := mk(t, mem, v, n)
		for _, w := range []int{1, 2, 3, 4} {
			out, err := expr.Eval(expr.ReduceProd(expr.Leaf(x), nil, false), expr.WithAllocator(mem), expr.WithWorkers(w))
			require.NoError(t, err)
			got, err := array.ToSlice[float64](out)
			require.NoError(t, err)
			out.Release()
			require.Equal(t, math.Float64bits(c.want), math.Float64bits(got[0]), "head %v tail %v workers %d: %v", c.head, c.tail, w, got[0])
		}
	}
}

// TestProdFusedWidening: a float32 product over an outer axis multiplies
// the float32 values straight into its float64 accumulators (the cast
// fused into the step: compute.LookupAccumulateWiden), with the running
// product NumPy's is (TestProdIsNumPysRunningProduct checks the values);
// over the inner axis (a fold) and with nulls the cast stays.
func TestProdFusedWidening(t *testing.T) {
	mem := checkedMem(t)
	v := make([]float32, 64*33)
	for i := range v {
		v[i] = 1 + float32(i%7)/64
	}
	x := expr.Leaf(mk(t, mem, v, 64, 33))
	s, err := expr.Explain(expr.ReduceProd(x, []int{0}, false))
	require.NoError(t, err)
	require.Contains(t, s, "the cast fused into the step")
	require.NotContains(t, s, "kernel: copy")
	s, err = expr.Explain(expr.ReduceProd(x, []int{1}, false))
	require.NoError(t, err)
	require.NotContains(t, s, "fused into the step")
	got := evalSame[float32](t, mem, expr.ReduceProd(x, []int{0}, false), array.Float32, 33)
	for j := 0; j < 33; j++ {
		p := 1.0
		for i := 0; i < 64; i++ {
			p *= float64(v[i*33+j])
		}
		require.Equal(t, float32(p), got[j], "column %d", j)
	}
}
