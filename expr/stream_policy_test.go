package expr_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
)

// TestArithmeticBoundPassesStorePlainly: a pass that computes a
// transcendental (compute.Op.ArithmeticBound) stores its result plainly
// however large, one of cheap ops streams it where a streaming kernel
// exists; both give the same values as with no streaming at all.
func TestArithmeticBoundPassesStorePlainly(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	restore := expr.SetStreamingThreshold(1)
	defer restore()
	vals := make([]float64, 4096)
	for i := range vals {
		vals[i] = float64(i%97)*0.1 + 0.05
	}
	a, err := array.FromSlice(mem, vals)
	require.NoError(t, err)
	defer a.Release()
	x := expr.Leaf(a)
	cases := []struct {
		e      *expr.Node
		stream bool
	}{
		{expr.Sin(x), false},
		{expr.Mul(expr.Log(x), expr.Const(2.0)), false},
		{expr.Arctan2(x, x), false},
		{expr.Add(x, x), compute.Asm},
		{expr.Sqrt(x), compute.Asm},
	}
	for _, c := range cases {
		s, err := expr.Explain(c.e, expr.WithAllocator(mem))
		require.NoError(t, err)
		require.Equal(t, c.stream, strings.Contains(s, "streaming stores"), "%v:\n%s", c.e, s)
		require.Equal(t, !c.stream && compute.Asm, strings.Contains(s, "plain stores: the pass is bound by its arithmetic"), "%v:\n%s", c.e, s)
		got, err := array.Empty(mem, array.Float64, len(vals))
		require.NoError(t, err)
		require.NoError(t, expr.EvalInto(got, c.e, expr.WithAllocator(mem)))
		off := expr.SetStreamingThreshold(1 << 62)
		want, err := expr.Eval(c.e, expr.WithAllocator(mem))
		off()
		require.NoError(t, err)
		w, err := array.ToSlice[float64](want)
		require.NoError(t, err)
		g, err := array.ToSlice[float64](got)
		require.NoError(t, err)
		require.Equal(t, w, g, "%v", c.e)
		got.Release()
		want.Release()
	}
}
