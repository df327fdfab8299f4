package expr_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestMinMaxTiesAsNumPy checks which operand maximum, minimum, fmax and
// fmin return where +0 and -0 tie, as NumPy's x86 loops do: the second for
// float32 and float64 (maxps/maxss), the first for float16 (its loop's
// a >= b ? a : b), at every position of runs of 1 to 40 (SIMD body and
// scalar tail), both orders in one run, array with array, with a 0-d array
// on either side, and 0-d with 0-d, through the Go constructors and Parse.
func TestMinMaxTiesAsNumPy(t *testing.T) {
	mem := checkedMem(t)
	nz := math.Copysign(0, -1)
	ops := map[string]func(a, b *expr.Node, r ...expr.Rule) *expr.Node{
		"maximum": expr.Maximum, "minimum": expr.Minimum, "fmax": expr.Fmax, "fmin": expr.Fmin}
	for _, dt := range []array.DType{array.Float16, array.Float32, array.Float64} {
		first := dt == array.Float16
		for n := 1; n <= 40; n++ {
			xs, ys := make([]float64, n), make([]float64, n)
			for i := range xs {
				xs[i], ys[i] = 0, nz
				if i%3 == 1 {
					xs[i], ys[i] = nz, 0
				}
			}
			x0, err := array.FromSlice(mem, xs)
			require.NoError(t, err)
			y0, err := array.FromSlice(mem, ys)
			require.NoError(t, err)
			x, err := expr.Eval(expr.Cast(expr.Leaf(x0), dt), expr.WithAllocator(mem))
			require.NoError(t, err)
			y, err := expr.Eval(expr.Cast(expr.Leaf(y0), dt), expr.WithAllocator(mem))
			require.NoError(t, err)
			x0.Release()
			y0.Release()
			zero := func(v float64) *array.Array { // a 0-d array of dt
				s, err := array.Scalar(mem, v)
				require.NoError(t, err)
				defer s.Release()
				a, err := expr.Eval(expr.Cast(expr.Leaf(s), dt), expr.WithAllocator(mem))
				require.NoError(t, err)
				return a
			}
			xs0, ys0 := zero(0), zero(nz)
			for name, op := range ops {
				for _, c := range []struct {
					form     string
					a, b     *array.Array
					aAt, bAt func(i int) float64
				}{
					{"vv", x, y, func(i int) float64 { return xs[i] }, func(i int) float64 { return ys[i] }},
					{"vs", x, ys0, func(i int) float64 { return xs[i] }, func(int) float64 { return nz }},
					{"sv", xs0, y, func(int) float64 { return 0 }, func(i int) float64 { return ys[i] }},
					{"ss", xs0, ys0, func(int) float64 { return 0 }, func(int) float64 { return nz }},
				} {
					for _, viaParse := range []bool{false, true} {
						var e *expr.Node
						if viaParse {
							e, err = expr.Parse(name+"(a, b)", map[string]*expr.Node{"a": expr.Leaf(c.a), "b": expr.Leaf(c.b)})
							require.NoError(t, err)
						} else {
							e = op(expr.Leaf(c.a), expr.Leaf(c.b))
						}
						r, err := expr.Eval(expr.Signbit(e), expr.WithAllocator(mem))
						require.NoError(t, err)
						got, err := array.ToSlice[bool](r)
						require.NoError(t, err)
						r.Release()
						for i, g := range got {
							want := math.Signbit(c.bAt(i))
							if first {
								want = math.Signbit(c.aAt(i))
							}
							require.Equal(t, want, g, fmt.Sprintf("%v %s %s parse=%v n=%d i=%d", dt, name, c.form, viaParse, n, i))
						}
					}
				}
			}
			for _, a := range []*array.Array{x, y, xs0, ys0} {
				a.Release()
			}
		}
	}
}
