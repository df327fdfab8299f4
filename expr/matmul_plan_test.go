package expr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestPlanMatmulInto checks a compiled plan that is one product of two
// leaves, evaluated into an output again and again (the path that skips
// resolving the tree), against the same product evaluated fresh, over
// float32, float64 and int64 operands, matrices, vectors and batches, 1
// and 2 workers; and that every misuse still reports what the full path
// reports: a wrong output shape or dtype, a read-only output, a released
// leaf, an output that is an operand.
func TestPlanMatmulInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mk := func(dt array.DType, shape ...int) *array.Array {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.IntN(19) - 9)
		}
		a, err := array.FromSlice(nil, v, shape...)
		require.NoError(t, err)
		c, err := expr.Eval(expr.Cast(expr.Leaf(a), dt))
		require.NoError(t, err)
		a.Release()
		return c
	}
	for _, dt := range []array.DType{array.Float32, array.Float64, array.Int64} {
		for _, c := range []struct{ a, b []int }{
			{[]int{64, 64}, []int{64, 64}},
			{[]int{7, 33}, []int{33, 5}},
			{[]int{1, 9}, []int{9, 1}},
			{[]int{40}, []int{40, 3}},
			{[]int{6, 40}, []int{40}},
			{[]int{3, 8, 16}, []int{16, 12}},
			{[]int{2, 1, 5, 6}, []int{3, 6, 4}},
		} {
			x, y := mk(dt, c.a...), mk(dt, c.b...)
			e := expr.Matmul(expr.Leaf(x), expr.Leaf(y))
			require.NoError(t, e.Err())
			want, err := expr.Eval(e)
			require.NoError(t, err)
			wv, err := array.ToSlice[float64](want)
			require.NoError(t, err)
			for _, workers := range []int{1, 2} {
				p, err := expr.Compile(e, expr.WithWorkers(workers))
				require.NoError(t, err)
				out, err := array.Empty(nil, dt, want.Shape()...)
				require.NoError(t, err)
				for rep := 0; rep < 3; rep++ {
					require.NoError(t, p.EvalInto(out, nil))
					got, err := array.ToSlice[float64](out)
					require.NoError(t, err)
					require.Equal(t, wv, got, "%v %v @ %v, %d workers, call %d", dt, c.a, c.b, workers, rep)
				}
				out.Release()
			}
			want.Release()
			x.Release()
			y.Release()
		}
	}

	// misuse: the errors of the full path
	x, y := mk(array.Float32, 8, 8), mk(array.Float32, 8, 8)
	p, err := expr.Compile(expr.Matmul(expr.Leaf(x), expr.Leaf(y)), expr.WithWorkers(1))
	require.NoError(t, err)
	wrong, err := array.Empty(nil, array.Float32, 8, 9)
	require.NoError(t, err)
	require.ErrorIs(t, p.EvalInto(wrong, nil), expr.ErrOutput)
	wrong.Release()
	wrongT, err := array.Empty(nil, array.Float64, 8, 8)
	require.NoError(t, err)
	require.ErrorIs(t, p.EvalInto(wrongT, nil), expr.ErrOutput)
	wrongT.Release()
	ro, err := array.Empty(nil, array.Float32, 8, 8)
	require.NoError(t, err)
	rov, err := ro.View([]int{8, 8}, []int{0, 1}, 0) // every row the same memory
	require.NoError(t, err)
	require.True(t, rov.ReadOnly())
	require.ErrorIs(t, p.EvalInto(rov, nil), array.ErrReadOnly)
	rov.Release()
	ro.Release()
	// the output is an operand: computed through a temporary, still right
	xv, err := array.ToSlice[float64](x)
	require.NoError(t, err)
	want := make([]float64, 64)
	yv, err := array.ToSlice[float64](y)
	require.NoError(t, err)
	for i := 0; i < 8; i++ {
		for j := 0; j < 8; j++ {
			for k := 0; k < 8; k++ {
				want[i*8+j] += xv[i*8+k] * yv[k*8+j]
			}
		}
	}
	require.NoError(t, p.EvalInto(x, nil))
	got, err := array.ToSlice[float64](x)
	require.NoError(t, err)
	require.Equal(t, want, got, "x = x @ y")
	y.Release()
	out, err := array.Empty(nil, array.Float32, 8, 8)
	require.NoError(t, err)
	require.ErrorIs(t, p.EvalInto(out, nil), array.ErrReleased)
	out.Release()
	x.Release()
}
