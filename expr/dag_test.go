package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// A deeply shared expression (e = e + e, d times: d+1 distinct nodes, 2^d
// paths) costs time and memory in its distinct nodes, not its paths, in
// every method: the walks visit a node once, String stops at
// expr.MaxStringLength bytes, and evaluation computes a shared
// subexpression reached by many paths once, into a temporary.
func TestDeeplySharedExpression(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x, err := array.FromSlice(mem, []float64{1, -2, 0.5}, 3)
	require.NoError(t, err)
	defer x.Release()
	const d = 48
	e := expr.Leaf(x)
	v := expr.Var("v", array.Float64, broadcast.StaticShape(3))
	for i := 0; i < d; i++ {
		if i == d/2 {
			e = expr.Add(e, v)
		}
		e = expr.Add(e, e)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		require.NoError(t, e.Err())
		require.Equal(t, []string{"v"}, e.Vars())
		require.ErrorIs(t, e.RowWise(), expr.ErrArgument) // x's 3 rows meet v's
		rw := expr.Var("r", array.Float64, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(2)}, RankKnown: true})
		for i := 0; i < d; i++ {
			rw = expr.Mul(rw, rw)
		}
		require.NoError(t, rw.RowWise())
		s := e.String()
		require.LessOrEqual(t, len(s), expr.MaxStringLength+64*(d+1)) // the open calls are closed
		require.Contains(t, s, "…")
		p, err := expr.Compile(e, expr.WithAllocator(mem))
		require.NoError(t, err)
		vv, err := array.FromSlice(mem, []float64{0, 0, 0}, 3)
		require.NoError(t, err)
		defer vv.Release()
		got, err := p.Eval(expr.Bindings{"v": vv})
		require.NoError(t, err)
		defer got.Release()
		vals, err := array.ToSlice[float64](got)
		require.NoError(t, err)
		for i, w := range []float64{1, -2, 0.5} {
			require.Equal(t, w*math.Ldexp(1, d), vals[i], "element %d", i)
		}
		ex, err := p.Explain(expr.Bindings{"v": vv})
		require.NoError(t, err)
		require.NotEmpty(t, ex)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal(fmt.Sprintf("a %d-deep shared expression did not finish in 2 minutes: some walk visits its 2^%d paths", d, d))
	}
}

// Random DAGs (each node an op of two random earlier nodes, so that paths
// multiply) over a [rows, cols] and a [cols] leaf evaluate to what a
// node-by-node float64 interpreter gives, whatever the hoisting of shared
// nodes decided; fixed seed.
func TestRandomSharedDAGs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(77, 78))
	type op struct {
		f   func(a, b *expr.Node, rule ...expr.Rule) *expr.Node
		ref func(a, b float64) float64
	}
	ops := []op{
		{expr.Add, func(a, b float64) float64 { return a + b }},
		{expr.Sub, func(a, b float64) float64 { return a - b }},
		{expr.Mul, func(a, b float64) float64 { return a * b }},
		{expr.Maximum, func(a, b float64) float64 { return math.Max(a, b) }},
	}
	for trial := 0; trial < 30; trial++ {
		rows, cols := 1+r.IntN(5), 1+r.IntN(9)
		xv, bv := make([]float64, rows*cols), make([]float64, cols)
		for i := range xv {
			xv[i] = r.Float64()*2 - 1
		}
		for i := range bv {
			bv[i] = r.Float64()*2 - 1
		}
		x, err := array.FromSlice(mem, xv, rows, cols)
		require.NoError(t, err)
		b, err := array.FromSlice(mem, bv, cols)
		require.NoError(t, err)
		nodes := []*expr.Node{expr.Leaf(x), expr.Leaf(b)}
		vals := [][]float64{xv, bv} // b's values are broadcast on use
		at := func(k, i int) float64 {
			if len(vals[k]) == cols && k == 1 {
				return vals[k][i%cols]
			}
			return vals[k][i]
		}
		n := 3 + r.IntN(40)
		for k := 0; k < n; k++ {
			// mostly the last few nodes: long chains of shared nodes,
			// whose paths multiply
			pick := func() int { return len(nodes) - 1 - r.IntN(min(3, len(nodes))) }
			if r.IntN(8) == 0 {
				pick = func() int { return r.IntN(len(nodes)) }
			}
			i, j := pick(), pick()
			if i == 1 && j == 1 {
				i = 0
			}
			o := ops[r.IntN(len(ops))]
			nodes = append(nodes, o.f(nodes[i], nodes[j]))
			v := make([]float64, rows*cols)
			for e := range v {
				v[e] = o.ref(at(i, e), at(j, e))
			}
			vals = append(vals, v)
		}
		root := nodes[len(nodes)-1]
		want := vals[len(vals)-1]
		got, err := expr.Eval(root, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)))
		require.NoError(t, err, "trial %d", trial)
		gv, err := array.ToSlice[float64](got)
		require.NoError(t, err)
		for e := range want {
			if !(gv[e] == want[e] || (math.IsNaN(gv[e]) && math.IsNaN(want[e]))) {
				t.Fatalf("trial %d (%d nodes): element %d = %v, want %v", trial, n, e, gv[e], want[e])
			}
		}
		got.Release()
		x.Release()
		b.Release()
	}
}
