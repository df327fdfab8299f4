package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// TestAnyCompareFused checks any(x op c) (the fused path, and the general
// reduction where the form does not fit: nulls, a transposed or sliced
// array, some axes only) against a naive loop over random shapes, float
// types, comparisons with the constant on either side, values with NaN,
// ±Inf and ±0, keepdims, Eval and EvalInto, 1 and 3 workers.
func TestAnyCompareFused(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(5, 9))
	type cmpf func(a, b *expr.Node, r ...expr.Rule) *expr.Node
	ops := []struct {
		name string
		f    cmpf
		g    func(a, b float64) bool
	}{
		{"greater", expr.Greater, func(a, b float64) bool { return a > b }},
		{"greater_equal", expr.GreaterEqual, func(a, b float64) bool { return a >= b }},
		{"less", expr.Less, func(a, b float64) bool { return a < b }},
		{"less_equal", expr.LessEqual, func(a, b float64) bool { return a <= b }},
		{"equal", expr.Equal, func(a, b float64) bool { return a == b }},
		{"not_equal", expr.NotEqual, func(a, b float64) bool { return a != b }},
	}
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, 100, -3.5}
	fused := 0
	for it := 0; it < 300; it++ {
		dt := []array.DType{array.Float32, array.Float64}[it%2]
		shape := []int{1 + rng.IntN(70), 1 + rng.IntN(70)}
		if it%3 == 0 {
			shape = []int{1 + rng.IntN(5000)}
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		fill := specials[rng.IntN(len(specials))]
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = fill
			if rng.IntN(40) == 0 {
				vals[i] = specials[rng.IntN(len(specials))]
			}
		}
		if rng.IntN(2) == 0 {
			vals[rng.IntN(n)] = specials[rng.IntN(len(specials))]
		}
		x := makeArray(t, mem, vals, dt, shape)
		a := x
		var held []*array.Array
		form := "contiguous"
		switch rng.IntN(5) {
		case 0:
			if len(shape) == 2 {
				v, err := view.Transpose(x, 1, 0)
				require.NoError(t, err)
				held, a, form = append(held, v), v, "transposed"
			}
		case 1:
			valid := make([]bool, n)
			for i := range valid {
				valid[i] = i%5 != 0
			}
			m, err := array.FromSliceValid(mem, vals, valid, shape...)
			require.NoError(t, err)
			c, err := expr.Eval(expr.Cast(expr.Leaf(m), dt), expr.WithAllocator(mem))
			require.NoError(t, err)
			m.Release()
			held, a, form = append(held, c), c, "nulls"
		}
		av, err := array.ToSlice[float64](a)
		require.NoError(t, err)
		ok, err := array.ValidSlice(a)
		require.NoError(t, err)
		cv := specials[rng.IntN(len(specials))]
		if rng.IntN(2) == 0 {
			cv = av[rng.IntN(len(av))]
		}
		if dt == array.Float32 {
			cv = float64(float32(cv))
		}
		ca, err := array.FromSlice(mem, []float64{cv})
		require.NoError(t, err)
		cs, err := ca.Reshaped()
		require.NoError(t, err)
		ca.Release()
		cc, err := expr.Eval(expr.Cast(expr.Leaf(cs), dt), expr.WithAllocator(mem))
		require.NoError(t, err)
		cs.Release()
		held = append(held, cc)
		o := ops[rng.IntN(len(ops))]
		swap := rng.IntN(2) == 0
		var e *expr.Node
		if swap {
			e = o.f(expr.Leaf(cc), expr.Leaf(a))
		} else {
			e = o.f(expr.Leaf(a), expr.Leaf(cc))
		}
		keep := rng.IntN(3) == 0
		want := false
		for i, v := range av {
			if !ok[i] {
				continue // a null is false in any (skipped)
			}
			if swap && o.g(cv, v) || !swap && o.g(v, cv) {
				want = true
			}
		}
		red := expr.Any(e, nil, keep)
		what := fmt.Sprintf("case %d: any(%s %v%v %s, c=%v swapped %v) keep %v", it, o.name, dt, shape, form, cv, swap, keep)
		s, err := expr.Explain(red)
		require.NoError(t, err, what)
		if strings.Contains(s, "fused any") {
			fused++
			require.True(t, a.IsContiguous() && form != "nulls", what) // (a transposed [1 n] is contiguous)
		}
		for _, w := range []int{1, 3} {
			for _, into := range []bool{false, true} {
				var out *array.Array
				if into {
					sh, _ := red.StaticShape()
					out, err = array.Empty(mem, array.Bool, sh...)
					require.NoError(t, err)
					err = expr.EvalInto(out, red, expr.WithWorkers(w), expr.WithAllocator(mem))
				} else {
					out, err = expr.Eval(red, expr.WithWorkers(w), expr.WithAllocator(mem))
				}
				require.NoError(t, err, what)
				got, err := array.ToSlice[bool](out)
				require.NoError(t, err)
				out.Release()
				require.Equal(t, []bool{want}, got, "%s, %d workers, into %v", what, w, into)
			}
		}
		for _, h := range held {
			h.Release()
		}
		x.Release()
	}
	require.Greater(t, fused, 100, "the fused path ran")
}
