package expr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// FuzzStructural drives the structural differential test's generator from
// the fuzzer (a seed picks the tree), and then builds every structural
// function with parameters taken from the fuzzer's ints as they come
// (negative, huge, repeated axes): nothing may panic, a node either
// records an error or evaluates (within a size bound) with nothing left
// allocated.
//
//	go test -run '^$' -fuzz FuzzStructural -fuzztime 60s ./expr/
func FuzzStructural(f *testing.F) {
	f.Add(uint64(1), 0, 1, -1, 2)
	f.Add(uint64(7), 3, -4, 1<<40, 0)
	f.Add(uint64(9), -1, 0, 5, -3)
	f.Fuzz(func(t *testing.T, seed uint64, p0, p1, p2, p3 int) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		t.Run("tree", func(t *testing.T) {
			g := &structGen{t: t, rng: rand.New(rand.NewPCG(seed, 1)), mem: mem}
			e, want := g.tree(3)
			require.NoError(t, e.Err())
			out, err := expr.Eval(e, expr.WithAllocator(mem))
			require.NoError(t, err, "%v", e)
			require.Equal(t, want.shape, out.Shape())
			out.Release()
		})
		a, err := array.Arange(mem, array.Float32, 0, 24, 1)
		require.NoError(t, err)
		defer a.Release()
		x := expr.Reshape(expr.Leaf(a), 2, 3, 4)
		ps := []int{p0, p1, p2, p3}
		idx, err := array.FromSlice(mem, []int64{int64(p0), int64(p1)})
		require.NoError(t, err)
		defer idx.Release()
		nodes := []*expr.Node{
			expr.Transpose(x, ps[:3]...), expr.Reshape(x, ps...), expr.Reshape(x, p0, p1),
			expr.Flip(x, ps[:2]...), expr.Tile(x, ps...), expr.Tile(x, p0%8, p1%8),
			expr.Repeat(x, []int{p0}, p1), expr.Repeat(x, ps[:3], p2), expr.Repeat(x, []int{p0 % 5, p1 % 5, p2 % 5}, 1),
			expr.Concatenate([]*expr.Node{x, expr.Transpose(x)}, p0), expr.Stack([]*expr.Node{x, x}, p0),
			expr.Take(x, expr.Leaf(idx), p2), expr.TakeFlat(x, expr.Leaf(idx)),
			expr.Sort(x, p0), expr.Argsort(x, p1), expr.Matmul(x, expr.Transpose(x, ps[:3]...)),
			expr.Reshape(expr.Var("v", array.Float32, broadcast.Partial(-1, 4)), p0, p1),
		}
		for _, n := range nodes {
			if n.Err() != nil {
				continue
			}
			if s, ok := n.StaticShape(); ok {
				if size, err := broadcast.Size(s); err != nil || size > 1<<16 {
					continue
				}
			}
			out, err := expr.Eval(n, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"v": a}))
			if err == nil {
				out.Release()
			}
		}
		if c, err := expr.Compress(expr.Leaf(idx), x, p3, expr.WithAllocator(mem)); err == nil {
			c.Release()
		}
	})
}
