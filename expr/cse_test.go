package expr_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
)

// standardize builds (x - mean) / sqrt(mean((x - mean)^2)) with one mean
// node shared by its three uses.
func standardize(x *expr.Node) *expr.Node {
	m := expr.ReduceMean(x, nil, false)
	d := expr.Sub(x, m)
	return expr.Div(d, expr.Sqrt(expr.ReduceMean(expr.Square(expr.Sub(x, m)), nil, false)))
}

func TestStandardizePasses(t *testing.T) {
	x := expr.Var("x", array.Float32, broadcast.Partial(-1))
	a, _ := array.Wrap(make([]float32, 1000))
	out, err := expr.Explain(standardize(x), expr.WithBindings(expr.Bindings{"x": a}))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(out, "\npass ")
	if n > 4 {
		t.Fatalf("standardization plans in %d passes, want at most 4:\n%s", n, out)
	}
	if c := strings.Count(out, "reduce mean"); c != 2 {
		t.Fatalf("%d mean passes, want 2 (one per distinct mean):\n%s", c, out)
	}
}

func reducePasses(t *testing.T, e *expr.Node, opts ...expr.Option) int {
	t.Helper()
	out, err := expr.Explain(e, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(out, "): reduce ")
}

// TestCSEStructural: structurally equal nodes over the same leaves are
// evaluated once; nodes over different arrays, or with different
// constants, axes or ops, are not merged.
func TestCSEStructural(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	mk := func() *array.Array {
		v := make([]float64, 60)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		a, err := array.Wrap(v, 6, 10)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a, b := mk(), mk()
	sumOf := func(a *array.Array, c float64, axes []int) *expr.Node {
		return expr.ReduceSum(expr.Mul(expr.Leaf(a), expr.Const(c)), axes, true)
	}
	cases := []struct {
		name  string
		x, y  *expr.Node
		want  int // reduction passes
		equal bool
	}{
		{"same node", nil, nil, 1, true},
		{"equal nodes", sumOf(a, 2, []int{1}), sumOf(a, 2, []int{1}), 1, true},
		{"other array", sumOf(a, 2, []int{1}), sumOf(b, 2, []int{1}), 2, false},
		{"other constant", sumOf(a, 2, []int{1}), sumOf(a, 3, []int{1}), 2, false},
		{"other axes", sumOf(a, 2, []int{1}), sumOf(a, 2, []int{0}), 2, false},
		{"other op", sumOf(a, 2, []int{1}), expr.ReduceMax(expr.Mul(expr.Leaf(a), expr.Const(2.0)), []int{1}, true), 2, false},
		{"strong constants", expr.ReduceSum(expr.Mul(expr.Leaf(a), expr.Scalar(2, array.Float64)), nil, true),
			expr.ReduceSum(expr.Mul(expr.Leaf(a), expr.Scalar(2, array.Float64)), nil, true), 1, true},
	}
	s := sumOf(a, 2, []int{1})
	cases[0].x, cases[0].y = s, s
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// x + y broadcasts the reductions over a's shape: both are hoisted
			e := expr.Add(expr.Leaf(a), expr.Sub(c.x, c.y))
			if got := reducePasses(t, e); got != c.want {
				t.Fatalf("%d reduction passes, want %d", got, c.want)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			got, err := expr.Eval(e, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			xs, err := expr.Eval(c.x, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer xs.Release()
			ys, err := expr.Eval(c.y, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer ys.Release()
			at := func(r *array.Array, i, j int) float64 { // broadcast read
				return arraytest.At[float64](t, r, min(i, r.Dim(0)-1), min(j, r.Dim(1)-1))
			}
			for i := 0; i < 6; i++ {
				for j := 0; j < 10; j++ {
					d := at(xs, i, j) - at(ys, i, j)
					if c.equal && d != 0 {
						t.Fatalf("[%d %d]: equal subexpressions differ by %g", i, j, d)
					}
					if w, g := arraytest.At[float64](t, a, i, j)+d, arraytest.At[float64](t, got, i, j); w != g {
						t.Fatalf("[%d %d] = %g, want %g", i, j, g, w)
					}
				}
			}
		})
	}
}

// TestStandardizeValues checks the shared-mean standardization against a
// naive float64 computation.
func TestStandardizeValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for _, n := range []int{1, 7, 1000, 70001} {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(3 + 2*rng.NormFloat64())
		}
		a, err := array.Wrap(v)
		if err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		x := expr.Var("x", array.Float32, broadcast.Partial(-1))
		got, err := expr.Eval(standardize(x), expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"x": a}))
		if err != nil {
			t.Fatal(err)
		}
		var m, s float64
		for _, f := range v {
			m += float64(f)
		}
		m /= float64(n)
		for _, f := range v {
			s += (float64(f) - m) * (float64(f) - m)
		}
		sd := math.Sqrt(s / float64(n))
		for i, f := range v {
			w := (float64(f) - m) / sd
			g := float64(arraytest.At[float32](t, got, i))
			if n == 1 {
				if !math.IsNaN(g) {
					t.Fatalf("n=1: got %g, want NaN (0/0)", g)
				}
				continue
			}
			if math.Abs(g-w) > 1e-4*(1+math.Abs(w)) {
				t.Fatalf("n=%d [%d]: got %g, want %g", n, i, g, w)
			}
		}
		got.Release()
		mem.AssertSize(t, 0)
	}
}

// TestReduceFinishCast: a reduction whose accumulator type differs from
// its result (float16 sums accumulate in float64) converts in its finish,
// without a separate pass, into new arrays and contiguous outputs alike.
func TestReduceFinishCast(t *testing.T) {
	v := make([]float32, 24)
	for i := range v {
		v[i] = float32(i%7) - 2.5
	}
	a32, _ := array.Wrap(v, 4, 6)
	e := expr.ReduceSum(expr.Cast(expr.Leaf(a32), array.Float16), []int{1}, false)
	out, err := expr.Explain(e)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\npass "); n != 1 || !strings.Contains(out, "finish: cast float64->float16") {
		t.Fatalf("want one pass with a finishing cast:\n%s", out)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	got, err := expr.Eval(e, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	dst, err := array.Empty(mem, array.Float16, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Release()
	if err := expr.EvalInto(dst, e); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		var w float64
		for j := 0; j < 6; j++ {
			w += float64(v[i*6+j])
		}
		if g := arraytest.At[float64](t, got, i); g != w {
			t.Fatalf("row %d: %g, want %g", i, g, w)
		}
		if g := arraytest.At[float64](t, dst, i); g != w {
			t.Fatalf("EvalInto row %d: %g, want %g", i, g, w)
		}
	}
}

// TestCSEInPass: a shared subexpression inside one fused pass is computed
// once per tile, and the result matches the unshared expression.
func TestCSEInPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const n = 3001
	xv, yv := make([]float64, n), make([]float64, n)
	for i := range xv {
		xv[i], yv[i] = rng.Float64()*4, rng.Float64()*4
	}
	x, _ := array.Wrap(xv)
	y, _ := array.Wrap(yv)
	shared := func() *expr.Node { return expr.Sqrt(expr.Mul(expr.Leaf(x), expr.Leaf(y))) }
	s := shared()
	for _, c := range []struct {
		name string
		e    *expr.Node
	}{
		{"same node", expr.Add(expr.Mul(s, s), s)},
		{"equal nodes", expr.Add(expr.Mul(shared(), shared()), shared())},
		{"under a select", expr.Where(expr.Greater(s, expr.Const(1.0)), expr.Sub(s, expr.Const(1.0)), s)},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := expr.Explain(c.e, expr.WithTileSize(256))
			if err != nil {
				t.Fatal(err)
			}
			if k := strings.Count(out, "kernel: sqrt"); k != 1 {
				t.Fatalf("sqrt emitted %d times, want once:\n%s", k, out)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			got, err := expr.Eval(c.e, expr.WithAllocator(mem), expr.WithTileSize(256), expr.WithWorkers(2))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			for i := range xv {
				v := math.Sqrt(xv[i] * yv[i])
				var w float64
				switch c.name {
				case "under a select":
					w = v
					if v > 1 {
						w = v - 1
					}
				default:
					w = v*v + v
				}
				if g := arraytest.At[float64](t, got, i); g != w {
					t.Fatalf("[%d] = %v, want %v", i, g, w)
				}
			}
		})
	}
}

// TestCSEHoistedThenFused: a shared node hoisted under one parent (where it
// is broadcast) is read from its temporary under another (where it would
// fuse), not computed again.
func TestCSEHoistedThenFused(t *testing.T) {
	av := []float64{1, 2, 3, 4}
	bv := []float64{0.5, -1, 2, 3}
	cv := make([]float64, 12)
	for i := range cv {
		cv[i] = float64(i) - 5
	}
	a, _ := array.Wrap(av)
	b, _ := array.Wrap(bv)
	c, _ := array.Wrap(cv, 3, 4)
	x := expr.Mul(expr.Leaf(a), expr.Leaf(b))
	e := expr.Add(expr.ReduceSum(expr.Add(x, expr.Leaf(c)), []int{0}, false), expr.Sub(x, expr.Leaf(b)))
	out, err := expr.Explain(e)
	if err != nil {
		t.Fatal(err)
	}
	if k := strings.Count(out, "kernel: multiply"); k != 1 {
		t.Fatalf("a*b computed %d times, want once:\n%s", k, out)
	}
	got, err := expr.Eval(e)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	for j := range av {
		// the sum in the reduction's order (rows 0, 1, 2), then the rest
		xj := av[j] * bv[j]
		s := 0.0
		for i := 0; i < 3; i++ {
			s += xj + cv[i*4+j]
		}
		w := s + (xj - bv[j])
		if g := arraytest.At[float64](t, got, j); g != w {
			t.Fatalf("[%d] = %v, want %v", j, g, w)
		}
	}
}
