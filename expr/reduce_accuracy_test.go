package expr_test

// Accuracy of float reductions (issue 17 item 1): sums and means accumulate
// in float64 with compensation, products of float16 and float32 in float64,
// so results are checked against exact sums (internal/exactsum's
// superaccumulator, correctly rounded) with bounds tighter than NumPy's pairwise ε·log2(n)·Σ|x|, at several
// worker counts, through Eval and EvalInto.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/exactsum"
	"github.com/stride0/stride0/view"
)

const u64 = 0x1p-53 // float64's unit roundoff

// unitRoundoff is ε, half the distance from 1 to the next value of dt.
func unitRoundoff(dt array.DType) float64 {
	switch dt {
	case array.Float16:
		return 0x1p-11
	case array.Float32:
		return 0x1p-24
	}
	return u64
}

// lane is the truth of one output element: the exact sum of its values,
// their magnitudes, count, and (second pass) the exact sum of squared
// deviations from the mean, and the sum of logarithms (for products).
type lane struct {
	s, abs, m2, logs exactsum.Acc
	n                int
}

// truths reduces vals (C order, shape) over axes into lanes, skipping NaN
// values when skipNaN. prod adds the logarithms too, moments the squared
// deviations (a second pass).
func truths(vals []float64, shape, axes []int, skipNaN, prod, moments bool) []lane {
	ostr := make([]int, len(shape))
	nout := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if !slices.Contains(axes, i) {
			ostr[i] = nout
			nout *= shape[i]
		}
	}
	ls := make([]lane, nout)
	visit := func(f func(x float64, o int)) {
		idx := make([]int, len(shape))
		o := 0
		for _, x := range vals {
			if !(skipNaN && math.IsNaN(x)) {
				f(x, o)
			}
			for j := len(shape) - 1; j >= 0; j-- {
				idx[j]++
				o += ostr[j]
				if idx[j] < shape[j] {
					break
				}
				o -= idx[j] * ostr[j]
				idx[j] = 0
			}
		}
	}
	visit(func(x float64, o int) {
		l := &ls[o]
		l.s.Add(x)
		l.abs.Add(math.Abs(x))
		l.n++
		if prod {
			l.logs.Add(math.Log(x))
		}
	})
	if !moments {
		return ls
	}
	means := make([]float64, nout)
	for i := range ls {
		means[i] = ls[i].s.Value() / float64(ls[i].n)
	}
	visit(func(x float64, o int) {
		d := x - means[o]
		ls[o].m2.Add(d * d)
	})
	return ls
}

// check is one expected result element with its bound.
type check struct{ want, bound float64 }

// expectations returns the expected value and allowed error of op for each
// lane of values of dtype dt (result dtype dt: every input here is float).
func expectations(op string, dt array.DType, ls []lane) []check {
	eps := unitRoundoff(dt)
	cs := make([]check, len(ls))
	for i := range ls {
		l := &ls[i]
		n := float64(l.n)
		s, a := l.s.Value(), l.abs.Value()
		mean := s / n
		lg := math.Log2(n) + 2
		var c check
		switch op {
		case "sum", "nansum":
			// float64: compensated, 2u|S| + 4nu²Σ|x|; float16/32: float64
			// accumulation (n u Σ|x|) rounded once to dt (ε|S|)
			c = check{s, eps*math.Abs(s) + 2*n*u64*a}
			if dt == array.Float64 {
				c.bound = 2*u64*math.Abs(s) + 4*n*u64*u64*a
			}
		case "mean", "nanmean":
			c = check{mean, eps*math.Abs(mean) + 2*u64*math.Abs(mean) + 2*u64*a}
			if dt == array.Float64 {
				c.bound = 4*u64*math.Abs(mean) + 4*u64*u64*a
			}
		case "var", "std":
			// NumPy's two-pass bound: ε log2(n) relative to the variance,
			// plus the square of the mean's error
			v := l.m2.Value() / n
			e := 2 * eps * lg
			c = check{v, e*v + (e*math.Abs(mean))*(e*math.Abs(mean))}
			if op == "std" {
				c = check{math.Sqrt(v), e*math.Sqrt(v) + e*math.Abs(mean)}
			}
		case "prod":
			// float64 products of float16/float32 values: n u relative,
			// rounded once to dt
			p := math.Exp(l.logs.Value())
			c = check{p, (eps + 4*n*u64) * math.Abs(p)}
		}
		if r := roundTo(dt, c.want); math.IsInf(r, 0) {
			c = check{r, 0} // the result overflows dt, as NumPy's does
		}
		cs[i] = c
	}
	return cs
}

// accuracyData returns n values of kind for dtype dt (already rounded to
// dt), with NaN at every 1009th value when nans.
func accuracyData(rng *rand.Rand, dt array.DType, n int, kind string, nans bool) []float64 {
	v := make([]float64, n)
	eps := 2 * unitRoundoff(dt) // distance from 1 to the next value
	for i := range v {
		switch kind {
		case "const0.1":
			v[i] = 0.1
		case "normal(1000,1)":
			v[i] = 1000 + rng.NormFloat64()
		case "alternating":
			v[i] = (1 + rng.Float64()) * math.Pow(2, float64(rng.IntN(8)))
			if i%2 == 1 {
				v[i] = -v[i]
			}
		case "near1": // products: 1+eps, 1-eps/2 or 1, balanced in log
			switch r := rng.IntN(5); {
			case r == 0:
				v[i] = 1 + eps
			case r < 3:
				v[i] = 1 - eps/2
			default:
				v[i] = 1
			}
		}
		if nans && i%1009 == 0 {
			v[i] = math.NaN()
		}
		v[i] = roundTo(dt, v[i])
	}
	return v
}

// makeArray returns vals as an array of dtype dt and shape.
func makeArray(t *testing.T, mem memory.Allocator, vals []float64, dt array.DType, shape []int) *array.Array {
	a, err := array.FromSlice(mem, vals, shape...)
	require.NoError(t, err)
	defer a.Release()
	b, err := expr.Eval(expr.Cast(expr.Leaf(a), dt), expr.WithAllocator(mem))
	require.NoError(t, err)
	return b
}

func buildOp(op string, x *expr.Node, axes []int) *expr.Node {
	switch op {
	case "sum":
		return expr.ReduceSum(x, axes, false)
	case "mean":
		return expr.ReduceMean(x, axes, false)
	case "nansum":
		return expr.Nansum(x, axes, false)
	case "nanmean":
		return expr.Nanmean(x, axes, false)
	case "var":
		return expr.ReduceVar(x, axes, 0, false)
	case "std":
		return expr.ReduceStd(x, axes, 0, false)
	case "prod":
		return expr.ReduceProd(x, axes, false)
	}
	panic(op)
}

// checkAccuracy evaluates e at 1, 2, 4 and 8 workers, by Eval and by
// EvalInto, and compares every element with cs; results at different
// worker counts must agree within the same bound.
func checkAccuracy(t *testing.T, mem memory.Allocator, e *expr.Node, cs []check, what string) {
	t.Helper()
	require.NoError(t, e.Err(), what)
	var first []float64
	for _, w := range []int{1, 2, 4, 8} {
		for _, into := range []bool{false, true} {
			var out *array.Array
			var err error
			if into {
				shape, _ := e.StaticShape()
				out, err = array.Empty(mem, e.DType(), shape...)
				require.NoError(t, err)
				err = expr.EvalInto(out, e, expr.WithWorkers(w), expr.WithAllocator(mem))
			} else {
				out, err = expr.Eval(e, expr.WithWorkers(w), expr.WithAllocator(mem))
			}
			require.NoError(t, err, what)
			got, err := array.ToSlice[float64](out)
			out.Release()
			require.NoError(t, err)
			require.Len(t, got, len(cs), what)
			for i, c := range cs {
				if !(math.Abs(got[i]-c.want) <= c.bound || got[i] == c.want) {
					t.Fatalf("%s, %d workers (into %v): element %d = %.10g, truth %.10g: error %.3g > bound %.3g",
						what, w, into, i, got[i], c.want, math.Abs(got[i]-c.want), c.bound)
				}
				if first != nil && !(math.Abs(got[i]-first[i]) <= c.bound || got[i] == first[i]) {
					t.Fatalf("%s, %d workers (into %v): element %d = %.10g, but %.10g with one worker (bound %.3g)",
						what, w, into, i, got[i], first[i], c.bound)
				}
			}
			if first == nil {
				first = got
			}
		}
	}
}

// TestReductionAccuracyLarge: 10^7 float16, float32 and float64 values
// (constant 0.1, normal with mean 1000, alternating signs; values near 1
// for products) reduced over every axis and over axis subsets of a 2-D and
// a 3-D shape, at 1, 2, 4 and 8 workers, by Eval and EvalInto, against an
// exact truth. Under -short or the race detector the arrays are smaller.
func TestReductionAccuracyLarge(t *testing.T) {
	n2, n3 := []int{2000, 5000}, []int{40, 500, 500}
	if testing.Short() || raceOn {
		n2, n3 = []int{200, 500}, []int{10, 100, 100}
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(17, 1))
	type shapeAxes struct {
		shape []int
		axes  [][]int
	}
	layouts := []shapeAxes{{n2, [][]int{{0}, {1}, {0, 1}}}, {n3, [][]int{nil, {1}, {0, 2}}}}
	for _, dt := range []array.DType{array.Float16, array.Float32, array.Float64} {
		for _, kind := range []string{"const0.1", "normal(1000,1)", "alternating", "near1"} {
			ops := []string{"sum", "mean", "var", "std", "nansum", "nanmean"}
			if kind == "near1" {
				if dt == array.Float64 {
					continue // float64 products are running products, as NumPy's
				}
				ops = []string{"prod"}
			}
			for li, lay := range layouts {
				size := 1
				for _, d := range lay.shape {
					size *= d
				}
				for _, nans := range []bool{false, true} {
					var opsHere []string
					for _, op := range ops {
						if strings.HasPrefix(op, "nan") == nans {
							opsHere = append(opsHere, op)
						}
					}
					if len(opsHere) == 0 || (li == 1 && nans) {
						continue // the nan reductions on the 2-D layout only
					}
					vals := accuracyData(rng, dt, size, kind, nans)
					func() {
						x := makeArray(t, mem, vals, dt, lay.shape)
						defer x.Release() // (also when a check fails)
						for _, axes := range lay.axes {
							norm := axes
							if norm == nil {
								norm = []int{0, 1, 2}
							}
							ls := truths(vals, lay.shape, norm, nans, kind == "near1", slices.Contains(opsHere, "var"))
							for _, op := range opsHere {
								what := fmt.Sprintf("%s(%v%v %s, axes %v)", op, dt, lay.shape, kind, axes)
								checkAccuracy(t, mem, buildOp(op, expr.Leaf(x), axes), expectations(op, dt, ls), what)
							}
						}
					}()
				}
			}
		}
	}
}

// TestAccurateSumPaths checks the accurate sum's paths (fold along the
// inner axis, accumulation across rows, the multi-row kernel, private
// accumulators of workers merged, nulls, fused operands) over random
// shapes, strides (transposed, sliced, reversed, broadcast), dtypes, tile
// sizes and worker counts against exact sums, with the bounds of
// TestReductionAccuracyLarge.
func TestAccurateSumPaths(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(23, 5))
	cases := 400
	if testing.Short() {
		cases = 100
	}
	dims := []int{1, 2, 3, 7, 16, 33, 64, 130, 1000, 4099}
	for c := 0; c < cases; c++ {
		dt := []array.DType{array.Float16, array.Float32, array.Float64}[rng.IntN(3)]
		rank := 1 + rng.IntN(3)
		var shape []int
		for size := 0; size == 0 || size > 300000; {
			shape = make([]int, rank)
			size = 1
			for i := range shape {
				shape[i] = dims[rng.IntN(len(dims))]
				size *= shape[i]
			}
		}
		size := 1
		for _, d := range shape {
			size *= d
		}
		kind := []string{"const0.1", "normal(1000,1)", "alternating"}[rng.IntN(3)]
		vals := accuracyData(rng, dt, size, kind, false)
		base := makeArray(t, mem, vals, dt, shape)
		a := base
		held := []*array.Array{base}
		hold := func(v *array.Array, err error) *array.Array {
			require.NoError(t, err)
			held = append(held, v)
			return v
		}
		release := func() {
			for _, h := range held {
				h.Release()
			}
		}
		if rank > 1 && rng.IntN(2) == 0 {
			a = hold(view.Transpose(a, rng.Perm(rank)...))
		}
		if rng.IntN(2) == 0 {
			rg := make([]view.Range, rank)
			for i := range rg {
				rg[i] = []view.Range{view.All(), view.Reverse(), {Start: 0, Stop: math.MaxInt, Step: 2}}[rng.IntN(3)]
			}
			a = hold(view.Slice(a, rg...))
		}
		if rng.IntN(4) == 0 {
			a = hold(view.BroadcastTo(a, append([]int{3}, a.Shape()...)))
		}
		if rng.IntN(4) == 0 { // nulls: every seventh element
			valid := make([]bool, a.Len())
			for i := range valid {
				valid[i] = i%7 != 0
			}
			src, err := array.ToSlice[float64](a)
			require.NoError(t, err)
			m := hold(array.FromSliceValid(mem, src, valid, a.Shape()...))
			a = hold(expr.Eval(expr.Cast(expr.Leaf(m), dt), expr.WithAllocator(mem)))
		}
		av, err := array.ToSlice[float64](a)
		require.NoError(t, err)
		ok, err := array.ValidSlice(a)
		require.NoError(t, err)
		for i := range av {
			if !ok[i] {
				av[i] = math.NaN() // skipped like a null
			}
		}
		r := len(a.Shape())
		var axes []int
		for i := 0; i < r; i++ {
			if rng.IntN(2) == 0 {
				axes = append(axes, i)
			}
		}
		if rng.IntN(5) == 0 {
			axes = nil
		}
		norm := axes
		if norm == nil {
			norm = make([]int, r)
			for i := range norm {
				norm[i] = i
			}
		}
		op := []string{"sum", "mean"}[rng.IntN(2)]
		ls := truths(av, a.Shape(), norm, true, false, false)
		cs := expectations(op, dt, ls)
		for i := range cs {
			if ls[i].n == 0 && op == "mean" {
				cs[i] = check{math.NaN(), 0}
			}
		}
		x := expr.Leaf(a)
		if rng.IntN(3) == 0 {
			x = expr.Maximum(x, x) // a fused operand, same values
		}
		e := buildOp(op, x, axes)
		what := fmt.Sprintf("case %d: %s(%v%v strides %v %s, axes %v)", c, op, dt, a.Shape(), a.Strides(), kind, axes)
		for _, opts := range [][]expr.Option{{expr.WithWorkers(1), expr.WithTileSize(16)}, {expr.WithWorkers(3)}, {expr.WithWorkers(8)}} {
			out, err := expr.Eval(e, append(opts, expr.WithAllocator(mem))...)
			if err != nil {
				release()
				t.Fatalf("%s: %v", what, err)
			}
			got, err := array.ToSlice[float64](out)
			out.Release()
			require.NoError(t, err)
			for i, c := range cs {
				if !(math.Abs(got[i]-c.want) <= c.bound || got[i] == c.want || math.IsNaN(c.want) && math.IsNaN(got[i])) {
					release()
					t.Fatalf("%s %v: element %d = %.10g, truth %.10g: error %.3g > bound %.3g", what, opts, i, got[i], c.want, math.Abs(got[i]-c.want), c.bound)
				}
			}
		}
		release()
	}
}
