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

// TestChainMatchesUnfused: (a op1 b) op2 c over floats runs as one fused
// kernel; the same expression with a same-type Cast between the ops (which
// the fusion does not look through) runs as two kernels. Both must agree bit
// for bit, for every pair of ops, repeated or broadcast operands, any tile
// size and workers, fresh and streamed outputs.
func TestChainMatchesUnfused(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	restore := expr.SetStreamingThreshold(1)
	defer restore()
	r := rand.New(rand.NewPCG(31, 32))
	ops := []func(a, b *expr.Node, rule ...expr.Rule) *expr.Node{expr.Add, expr.Sub, expr.Mul}
	shapes := [][]int{{}, {7}, {5, 1}, {5, 7}, {3, 5, 7}, {1, 7}}
	for i := 0; i < 400; i++ {
		dt := []array.DType{array.Float32, array.Float64}[r.IntN(2)]
		leaf := func() (*expr.Node, *array.Array) {
			a := randArray(t, r, mem, dt, shapes[r.IntN(len(shapes))])
			return expr.Leaf(a), a
		}
		a, aa := leaf()
		b, ba := leaf()
		c, ca := leaf()
		op1, op2 := ops[r.IntN(3)], ops[r.IntN(3)]
		fused := op2(op1(a, b), c)
		plain := op2(expr.Cast(op1(a, b), dt), c)
		if fused.Err() != nil {
			require.Error(t, plain.Err())
			aa.Release()
			ba.Release()
			ca.Release()
			continue
		}
		name := fmt.Sprintf("case %d: %v", i, fused)
		opts := []expr.Option{expr.WithAllocator(mem), expr.WithWorkers(1 + r.IntN(3)), expr.WithTileSize(16 + r.IntN(100))}
		want, err := expr.Eval(plain, opts...)
		require.NoError(t, err, name)
		got, err := expr.Eval(fused, opts...)
		require.NoError(t, err, name)
		require.NoError(t, naive.Equal(want, got), name)
		into, _ := array.Empty(mem, dt, want.Shape()...)
		require.NoError(t, expr.EvalInto(into, fused, opts...), name)
		require.NoError(t, naive.Equal(want, into), name)
		for _, x := range []*array.Array{aa, ba, ca, want, got, into} {
			x.Release()
		}
	}
}
