package expr_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestReductionsOverStructural composes the reductions and scans with the
// structural nodes in both directions (a reduction of a sort, a sort of a
// reduction, an argmax of a concatenation...) and checks each against the
// same functions applied to the evaluated inner node: a composition must
// not change a value.
func TestReductionsOverStructural(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after castF64's cleanups
	opt := expr.WithAllocator(mem)
	rng := rand.New(rand.NewSource(11))
	vals := make([]float64, 6*5)
	for i := range vals {
		vals[i] = math.Round(rng.NormFloat64()*16) / 8
	}
	a, err := array.FromSlice(mem, vals, 6, 5)
	require.NoError(t, err)
	defer a.Release()
	x := expr.Leaf(a)
	inners := map[string]*expr.Node{
		"sort":        expr.Sort(x, 1),
		"flip":        expr.Flip(x, 0),
		"transpose":   expr.Transpose(x, 1, 0),
		"concatenate": expr.Concatenate([]*expr.Node{x, expr.Mul(x, expr.Const(2))}, 0),
		"cumsum":      expr.Cumsum(x, []int{1}),
		"take":        expr.Take(x, expr.Const(-1), 1),
		"matmul":      expr.Matmul(x, expr.Transpose(x, 1, 0)),
	}
	outers := map[string]func(*expr.Node) *expr.Node{
		"std":    func(n *expr.Node) *expr.Node { return expr.ReduceStd(n, []int{0}, 1, false) },
		"argmax": func(n *expr.Node) *expr.Node { return expr.Argmax(n, nil, false) },
		"nanmax": func(n *expr.Node) *expr.Node { return expr.Nanmax(n, []int{0}, true) },
		"sum":    func(n *expr.Node) *expr.Node { return expr.ReduceSum(n, nil, false) },
		"sort":   func(n *expr.Node) *expr.Node { return expr.Sort(expr.Add(n, expr.Const(1)), 0) },
		"cumsum": func(n *expr.Node) *expr.Node { return expr.Cumsum(n, nil) },
	}
	for iname, inner := range inners {
		for oname, outer := range outers {
			// the composition under several workers and small tiles
			direct, err := expr.Eval(outer(inner), opt, expr.WithWorkers(3), expr.WithTileSize(16))
			require.NoError(t, err, "%s(%s)", oname, iname)
			mid, err := expr.Eval(inner, opt)
			require.NoError(t, err, iname)
			staged, err := expr.Eval(outer(expr.Leaf(mid)), opt)
			require.NoError(t, err, "%s(leaf of %s)", oname, iname)
			require.Equal(t, staged.Shape(), direct.Shape(), "%s(%s)", oname, iname)
			require.Equal(t, staged.DType(), direct.DType(), "%s(%s)", oname, iname)
			dv, err := array.ToSlice[float64](castF64(t, mem, direct))
			require.NoError(t, err)
			sv, err := array.ToSlice[float64](castF64(t, mem, staged))
			require.NoError(t, err)
			require.Equal(t, sv, dv, "%s(%s)", oname, iname)
			mid.Release()
		}
	}
}

// castF64 returns x as float64, releasing x; the result is released when
// the test ends.
func castF64(t *testing.T, mem memory.Allocator, x *array.Array) *array.Array {
	t.Helper()
	defer x.Release()
	out, err := expr.Eval(expr.Cast(expr.Leaf(x), array.Float64), expr.WithAllocator(mem))
	require.NoError(t, err)
	t.Cleanup(out.Release)
	return out
}
