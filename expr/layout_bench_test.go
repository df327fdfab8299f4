package expr_test

import (
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// alternating prepares batches of 1000 and 1001 rows of 16 float32 columns,
// their outputs, and a plan of (x - m) * s over them (m, s: per column).
func alternating(tb testing.TB) (*expr.Plan, [2]expr.Bindings, [2]*array.Array, func()) {
	x := expr.Var("x", array.Float32, broadcast.Partial(-1, 16))
	m, _ := array.Full(nil, float32(0.5), 16)
	s, _ := array.Full(nil, float32(2), 16)
	p, err := expr.Compile(expr.Mul(expr.Sub(x, expr.Leaf(m)), expr.Leaf(s)), expr.WithWorkers(1))
	if err != nil {
		tb.Fatal(err)
	}
	var binds [2]expr.Bindings
	var outs [2]*array.Array
	var xs [2]*array.Array
	for i, rows := range []int{1000, 1001} {
		v := make([]float32, rows*16)
		for j := range v {
			v[j] = float32(j % 13)
		}
		xs[i], _ = array.Wrap(v, rows, 16)
		binds[i] = expr.Bindings{"x": xs[i]}
		outs[i], _ = array.Empty(nil, array.Float32, rows, 16)
	}
	return p, binds, outs, func() {
		for i := range outs {
			outs[i].Release()
			xs[i].Release()
		}
		m.Release()
		s.Release()
	}
}

// BenchmarkAlternatingBatches: one Plan, EvalInto over batches whose row
// count alternates between 1000 and 1001 (two layouts).
func BenchmarkAlternatingBatches(b *testing.B) {
	p, binds, outs, done := alternating(b)
	defer done()
	b.ReportAllocs()
	b.SetBytes(1000 * 16 * 4 * 2)
	for i := 0; i < b.N; i++ {
		if err := p.EvalInto(outs[i%2], binds[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallEval: expr.Eval of a small expression (1000 float32
// elements, two ops): what one call allocates beyond its 4 KB result.
func BenchmarkSmallEval(b *testing.B) {
	x, _ := array.Full(nil, float32(1.5), 1000)
	y, _ := array.Full(nil, float32(2), 1000)
	defer x.Release()
	defer y.Release()
	e := expr.Sqrt(expr.Add(expr.Mul(expr.Leaf(x), expr.Leaf(y)), expr.Const(1.0)))
	b.ReportAllocs()
	b.SetBytes(1000 * 4)
	for i := 0; i < b.N; i++ {
		out, err := expr.Eval(e)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
