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
	"github.com/stride0/stride0/view"
)

// TestPlansInterleavedReuseWorkers: pooled workers are refitted only when
// the pass changes (a worker last fitted to the same pass is reused as
// is). Several compiled plans of different passes (short rows batched with
// a periodic leaf, a strided leaf gathered, a where, tiles of several
// sizes, fresh and existing outputs) are called in a random order many
// times, and every result must equal the plan's first, computed with
// workers fitted afresh.
func TestPlansInterleavedReuseWorkers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(20, 26))
	type cas struct {
		p    *expr.Plan
		want *array.Array
		out  *array.Array
	}
	var cases []cas
	var inputs []*array.Array
	for i := 0; i < 12; i++ {
		dt := []array.DType{array.Float32, array.Float64, array.Int32}[i%3]
		rows, cols := 1+r.IntN(60), 1+r.IntN(90)
		x := randArray(t, r, mem, dt, []int{rows, cols})
		bias := randArray(t, r, mem, dt, []int{cols})
		wide := randArray(t, r, mem, dt, []int{rows, 2 * cols})
		inputs = append(inputs, x, bias, wide)
		strided, err := view.Slice(wide, view.All(), view.Range{Start: 0, Stop: 2 * cols, Step: 2})
		require.NoError(t, err)
		inputs = append(inputs, strided)
		var e *expr.Node
		switch i % 4 {
		case 0:
			e = expr.Add(expr.Leaf(x), expr.Leaf(bias))
		case 1:
			e = expr.Mul(expr.Sub(expr.Leaf(x), expr.Leaf(strided)), expr.Leaf(bias))
		case 2:
			e = expr.Where(expr.Greater(expr.Leaf(x), expr.Leaf(bias)), expr.Leaf(strided), expr.Leaf(x))
		default:
			e = expr.Add(expr.Mul(expr.Leaf(x), expr.Leaf(x)), expr.Leaf(strided))
		}
		p, err := expr.Compile(e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)), expr.WithTileSize(16+r.IntN(300)))
		require.NoError(t, err, "case %d", i)
		want, err := p.Eval(nil)
		require.NoError(t, err, "case %d", i)
		out, err := array.Empty(mem, want.DType(), want.Shape()...)
		require.NoError(t, err)
		cases = append(cases, cas{p, want, out})
	}
	for k := 0; k < 400; k++ {
		i := r.IntN(len(cases))
		c := cases[i]
		name := fmt.Sprintf("call %d, case %d", k, i)
		if k%2 == 0 {
			got, err := c.p.Eval(nil)
			require.NoError(t, err, name)
			require.NoError(t, naive.Equal(c.want, got), name)
			got.Release()
		} else {
			require.NoError(t, c.p.EvalInto(c.out, nil), name)
			require.NoError(t, naive.Equal(c.want, c.out), name)
		}
	}
	for _, c := range cases {
		c.want.Release()
		c.out.Release()
	}
	for _, a := range inputs {
		a.Release()
	}
}
