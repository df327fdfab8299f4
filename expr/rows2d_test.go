package expr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

// TestRowLoopedMatchesTiles: a single binary op over broadcast operands with
// an inner axis that is a multiple of the vector width runs through the
// row-looped kernels (plain, and streaming when EvalInto an existing output
// above the streaming threshold). Its results must equal the tile path's,
// which evaluating into a transposed output forces (and which the
// differential tests check against the reference).
func TestRowLoopedMatchesTiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	restore := expr.SetStreamingThreshold(1) // stream every existing output
	defer restore()
	r := rand.New(rand.NewPCG(21, 22))
	ops := []func(a, b *expr.Node, rule ...expr.Rule) *expr.Node{expr.Add, expr.Sub, expr.Mul}
	dts := []array.DType{array.Float32, array.Float64, array.Int32, array.Int64, array.Uint32, array.Uint64}
	for i := 0; i < 300; i++ {
		dt := dts[r.IntN(len(dts))]
		rows, inner := 1+r.IntN(9), 8*(1+r.IntN(6))
		outer := 1 + r.IntN(3)
		full := []int{outer, rows, inner}
		// the second operand: full, a repeated row, a column, or a scalar
		shapes := [][]int{{outer, rows, inner}, {inner}, {outer, rows, 1}, {}, {rows, inner}, {outer, 1, inner}}
		k := r.IntN(len(shapes))
		bs := shapes[k]
		// the operands keep two axes after coalescing (else one row: 1-D path)
		twoAxes := (k == 1 || k == 2) && outer*rows > 1 || k == 4 && outer > 1 || k == 5 && rows > 1 && outer > 1
		x := randArray(t, r, mem, dt, full)
		y := randArray(t, r, mem, dt, bs)
		a, b := expr.Leaf(x), expr.Leaf(y)
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		oi := r.IntN(len(ops))
		e := ops[oi](a, b)
		if oi == 2 && dt.Size() == 8 && dt.IsInteger() {
			twoAxes = false // AVX2 has no 64-bit integer multiply: the tile path
		}
		require.NoError(t, e.Err())
		name := fmt.Sprintf("case %d: %v", i, e)
		if compute.Asm && twoAxes {
			plan, err := expr.Explain(e)
			require.NoError(t, err)
			require.Contains(t, plan, "row-looped", name)
		}

		got, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)))
		require.NoError(t, err, name)
		into, _ := array.Empty(mem, dt, full...)
		require.NoError(t, expr.EvalInto(into, e, expr.WithAllocator(mem)), name)
		// the tile path: into a transposed output
		tb, _ := array.Empty(mem, dt, inner, rows, outer)
		tv, err := view.Transpose(tb)
		require.NoError(t, err)
		require.NoError(t, expr.EvalInto(tv, e, expr.WithAllocator(mem)), name)
		want, err := array.Copy(mem, tv)
		require.NoError(t, err)
		require.NoError(t, naive.Equal(want, got), name)
		require.NoError(t, naive.Equal(want, into), name)
		for _, a := range []*array.Array{x, y, got, into, tb, tv, want} {
			a.Release()
		}
	}
}

// randArray fills an array of dt with small random values.
func randArray(t *testing.T, r *rand.Rand, mem memory.Allocator, dt array.DType, shape []int) *array.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(r.IntN(200)-100) / 4
		if dt.IsInteger() {
			v[i] = float64(r.IntN(2000))
		}
	}
	f, err := array.FromSlice(mem, v, shape...)
	require.NoError(t, err)
	defer f.Release()
	out, err := expr.Eval(expr.Cast(expr.Leaf(f), dt), expr.WithAllocator(mem))
	require.NoError(t, err)
	return out
}

// TestRowLoopedIntoMaskedOutput: a pass the row-looped kernels could run,
// evaluated into an output that already has nulls, leaves every element
// valid (the result has no nulls).
func TestRowLoopedIntoMaskedOutput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x, _ := array.Full(mem, float32(1), 4, 64)
	b, _ := array.Full(mem, float32(2), 64)
	dst, _ := array.Full(mem, float32(0), 4, 64)
	defer x.Release()
	defer b.Release()
	defer dst.Release()
	require.NoError(t, dst.SetNull(1, 3))
	require.NoError(t, expr.EvalInto(dst, expr.Add(expr.Leaf(x), expr.Leaf(b)), expr.WithAllocator(mem)))
	ok, _ := array.ValidSlice(dst)
	for i, v := range ok {
		require.True(t, v, "element %d", i)
	}
	require.Equal(t, float32(3), arraytest.At[float32](t, dst, 1, 3))
}
