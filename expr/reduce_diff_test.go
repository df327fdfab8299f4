package expr_test

// Differential tests of the reductions of issue 11 (ReduceVar, ReduceStd,
// Argmin, Argmax, Any, All, CountNonzero, Nansum, Nanmean, Nanmin, Nanmax,
// Cumsum, Cumprod) against a naive reference written here: random dtypes,
// shapes (zero-size and size-1 dims included), views (transposed,
// reversed, stepped, broadcast with stride 0), nulls, NaN and Inf, axes and
// keepDims, with a fixed seed; the operand is a leaf or a fused expression;
// each case runs with 1 and 3 workers and into a strided output.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/half"
	"github.com/stride0/stride0/view"
)

var diffDTypes = []array.DType{array.Bool, array.Int8, array.Int16, array.Int32, array.Int64, array.Uint8,
	array.Uint16, array.Uint32, array.Uint64, array.Float16, array.Float32, array.Float64}

var diffReductions = []string{"var", "std", "argmin", "argmax", "any", "all", "count_nonzero",
	"nansum", "nanmean", "nanmin", "nanmax", "cumsum", "cumprod"}

// redInput is a random operand: its view, the expression reading it, and
// its logical values (C order) as float64 with validity.
type redInput struct {
	dt    array.DType
	shape []int
	node  *expr.Node
	vals  []float64
	valid []bool
}

type redGen struct {
	rng *rand.Rand
	mem memory.Allocator
	arr []*array.Array
}

func (g *redGen) release() {
	for _, a := range g.arr {
		a.Release()
	}
	g.arr = nil
}

func (g *redGen) keep(a *array.Array, err error) *array.Array {
	if err != nil {
		panic(err)
	}
	g.arr = append(g.arr, a)
	return a
}

func (g *redGen) value(dt array.DType) float64 {
	r := g.rng
	switch {
	case dt == array.Bool:
		return float64(r.IntN(2))
	case dt.IsFloat():
		switch p := r.Float64(); {
		case p < 0.06:
			return math.NaN()
		case p < 0.08:
			return math.Inf(1 - 2*r.IntN(2))
		case p < 0.2:
			return 0
		}
		return float64(r.IntN(65)-32) / 8
	case dt.IsUnsigned():
		if r.IntN(5) == 0 {
			return 0
		}
		return float64(r.IntN(9))
	}
	if r.IntN(5) == 0 {
		return 0
	}
	return float64(r.IntN(17) - 8)
}

// input makes a random operand of at least least and at most budget
// elements before views.
func (g *redGen) input(least, budget int) redInput {
	r := g.rng
	dt := diffDTypes[r.IntN(len(diffDTypes))]
	rank := r.IntN(5)
	if least > 1 {
		rank = 2 + r.IntN(3) // room for that many elements
	}
	var shape []int
	for len(shape) < rank || shape == nil {
		shape = make([]int, rank)
		n := 1
		for i := range shape {
			shape[i] = []int{0, 1, 1, 2, 3, 5, 7, 17, 33, 130, 1025}[r.IntN(11)]
			if shape[i] == 0 && r.IntN(3) > 0 {
				shape[i] = 4
			}
			n *= shape[i]
		}
		if n > budget || n < least {
			shape = nil
		}
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = g.value(dt)
	}
	var valid []bool
	if r.IntN(4) == 0 {
		valid = make([]bool, n)
		for i := range valid {
			valid[i] = r.IntN(4) > 0
		}
	}
	base := g.keep(array.FromSliceValid(g.mem, vals, valid, shape...))
	a := g.keep(expr.Eval(expr.Cast(expr.Leaf(base), dt), expr.WithAllocator(g.mem)))
	// views: transpose, reverse or step some axes, broadcast
	if rank > 1 && r.IntN(2) == 0 {
		a = g.keep(view.Transpose(a, r.Perm(rank)...))
	}
	if rank > 0 && r.IntN(2) == 0 {
		rg := make([]view.Range, rank)
		for i := range rg {
			switch r.IntN(3) {
			case 0:
				rg[i] = view.Reverse()
			case 1:
				rg[i] = view.Range{Start: 0, Stop: math.MaxInt, Step: 2}
			default:
				rg[i] = view.All()
			}
		}
		a = g.keep(view.Slice(a, rg...))
	}
	if r.IntN(4) == 0 && a.Len()*3 <= budget {
		t := append([]int{3}, a.Shape()...)
		a = g.keep(view.BroadcastTo(a, t))
	}
	v, err := array.ToSlice[float64](a)
	if err != nil {
		panic(err)
	}
	ok, err := array.ValidSlice(a)
	if err != nil {
		panic(err)
	}
	in := redInput{dt: dt, shape: a.Shape(), vals: v, valid: ok, node: expr.Leaf(a)}
	if r.IntN(3) == 0 {
		in.node = expr.Maximum(in.node, in.node) // a fused operand: same values, same nulls
	}
	return in
}

// groups returns, for each output element in C order, the flat input
// indices reduced into it, in C order of the reduced axes.
func groups(shape, axes []int) [][]int {
	red := make([]bool, len(shape))
	for _, a := range axes {
		red[a] = true
	}
	var kept, rd []int
	for i := range shape {
		if red[i] {
			rd = append(rd, i)
		} else {
			kept = append(kept, i)
		}
	}
	count := func(ax []int) int {
		n := 1
		for _, a := range ax {
			n *= shape[a]
		}
		return n
	}
	strides := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = s
		s *= shape[i]
	}
	offset := func(ax []int, p int) int {
		off := 0
		for j := len(ax) - 1; j >= 0; j-- {
			off += p % shape[ax[j]] * strides[ax[j]]
			p /= shape[ax[j]]
		}
		return off
	}
	out := make([][]int, count(kept))
	for o := range out {
		base := offset(kept, o)
		for j := 0; j < count(rd); j++ {
			out[o] = append(out[o], base+offset(rd, j))
		}
	}
	return out
}

// roundTo rounds v to dt's precision.
func roundTo(dt array.DType, v float64) float64 {
	switch dt {
	case array.Float16:
		return half.ToFloat64(half.FromFloat64(v))
	case array.Float32:
		return float64(float32(v))
	}
	return v
}

func sumDType(dt array.DType) array.DType {
	switch {
	case dt == array.Bool || dt.IsSigned():
		return array.Int64
	case dt.IsUnsigned():
		return array.Uint64
	}
	return dt
}

func floatDType(dt array.DType) array.DType {
	if dt.IsFloat() {
		return dt
	}
	return array.Float64
}

// redWant is the reference result: dtype, shape, values and validity.
type redWant struct {
	dt    array.DType
	shape []int
	vals  []float64
	valid []bool // nil: all valid
	tol   float64
}

// reference computes op on in, NumPy's way, from the definitions.
func reference(op string, in redInput, axes []int, keep bool, ddof int) redWant {
	rank := len(in.shape)
	norm := axes
	if axes == nil {
		norm = make([]int, rank)
		for i := range norm {
			norm[i] = i
		}
	}
	var shape []int
	for i, d := range in.shape {
		switch {
		case !slices.Contains(norm, i):
			shape = append(shape, d)
		case keep:
			shape = append(shape, 1)
		}
	}
	if shape == nil {
		shape = []int{}
	}
	w := redWant{shape: shape}
	isNaN := func(k int) bool { return math.IsNaN(in.vals[k]) }
	switch op {
	case "cumsum", "cumprod":
		w.dt = sumDType(in.dt)
		n := len(in.vals)
		w.vals = make([]float64, n)
		w.valid = in.valid
		var gs [][]int
		if axes == nil {
			w.shape = []int{n}
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			gs = [][]int{all}
		} else {
			w.shape = slices.Clone(in.shape)
			gs = groups(in.shape, axes) // each line along the axis
		}
		for _, g := range gs {
			var si int64
			var su uint64
			sf := 0.0
			if op == "cumprod" {
				si, su, sf = 1, 1, 1
			}
			for _, k := range g {
				if !in.valid[k] {
					switch w.dt {
					case array.Int64:
						w.vals[k] = float64(si)
					case array.Uint64:
						w.vals[k] = float64(su)
					default:
						w.vals[k] = sf
					}
					continue
				}
				v := in.vals[k]
				switch {
				case w.dt == array.Int64 && op == "cumsum":
					si += int64(v)
					w.vals[k] = float64(si)
				case w.dt == array.Int64:
					si *= int64(v)
					w.vals[k] = float64(si)
				case w.dt == array.Uint64 && op == "cumsum":
					su += uint64(v)
					w.vals[k] = float64(su)
				case w.dt == array.Uint64:
					su *= uint64(v)
					w.vals[k] = float64(su)
				case w.dt == array.Float64 && op == "cumsum":
					sf += v
				case w.dt == array.Float64:
					sf *= v
				case op == "cumsum": // float16 and float32: each step rounded (float16 through float32)
					sf = roundTo(w.dt, float64(float32(sf)+float32(v)))
				default:
					sf = roundTo(w.dt, float64(float32(sf)*float32(v)))
				}
				if w.dt.IsFloat() {
					w.vals[k] = sf
				}
			}
		}
		if axes == nil {
			// flattened: the validity in C order is the input's
			w.valid = in.valid
		}
		return w
	}
	w.dt = map[string]array.DType{"var": floatDType(in.dt), "std": floatDType(in.dt), "argmin": array.Int64,
		"argmax": array.Int64, "any": array.Bool, "all": array.Bool, "count_nonzero": array.Int64,
		"nansum": sumDType(in.dt), "nanmean": floatDType(in.dt), "nanmin": in.dt, "nanmax": in.dt}[op]
	gs := groups(in.shape, norm)
	w.vals = make([]float64, len(gs))
	for o, g := range gs {
		var ok []int // valid elements
		for _, k := range g {
			if in.valid[k] {
				ok = append(ok, k)
			}
		}
		switch op {
		case "var", "std":
			w.dt = floatDType(in.dt)
			w.tol = map[array.DType]float64{array.Float16: 2e-3, array.Float32: 2e-6}[w.dt]
			if w.tol == 0 {
				w.tol = 1e-11
			}
			mean := 0.0
			for _, k := range ok {
				mean += in.vals[k]
			}
			mean /= float64(len(ok))
			m2 := 0.0
			for _, k := range ok {
				m2 += (in.vals[k] - mean) * (in.vals[k] - mean)
			}
			if len(ok) == 0 {
				m2 = 0
			}
			v := m2 / math.Max(float64(len(ok)-ddof), 0)
			if op == "std" {
				v = math.Sqrt(v)
			}
			w.vals[o] = roundTo(w.dt, v)
		case "argmin", "argmax":
			w.dt = array.Int64
			best := -1
			for _, k := range ok {
				v := in.vals[k]
				if best >= 0 && isNaN(g[best]) {
					break
				}
				if best < 0 || math.IsNaN(v) || (op == "argmax" && v > in.vals[g[best]]) || (op == "argmin" && v < in.vals[g[best]]) {
					best = slices.Index(g, k)
				}
			}
			w.vals[o] = float64(best)
		case "any", "all":
			w.dt = array.Bool
			r := op == "all"
			for _, k := range ok {
				nz := in.vals[k] != 0
				if op == "any" && nz {
					r = true
				}
				if op == "all" && !nz {
					r = false
				}
			}
			w.vals[o] = 0
			if r {
				w.vals[o] = 1
			}
		case "count_nonzero":
			w.dt = array.Int64
			c := 0
			for _, k := range ok {
				if in.vals[k] != 0 {
					c++
				}
			}
			w.vals[o] = float64(c)
		case "nansum", "nanmean":
			s, c := 0.0, 0
			for _, k := range ok {
				if !isNaN(k) {
					s += in.vals[k]
					c++
				}
			}
			if op == "nansum" {
				w.dt = sumDType(in.dt)
				w.vals[o] = roundTo(w.dt, s)
				continue
			}
			w.dt = floatDType(in.dt)
			if !in.dt.IsFloat() { // floats: the float64 sum is divided, then rounded
				c = len(ok) // integers: ReduceMean
			}
			w.vals[o] = roundTo(w.dt, s/float64(c))
			w.tol = 1e-15
		case "nanmin", "nanmax":
			w.dt = in.dt
			r := math.NaN()
			if !in.dt.IsFloat() {
				r = map[bool]float64{true: math.Inf(1), false: math.Inf(-1)}[op == "nanmin"]
			}
			for _, k := range ok {
				v := in.vals[k]
				switch {
				case math.IsNaN(v):
				case math.IsNaN(r), op == "nanmin" && v < r, op == "nanmax" && v > r:
					r = v
				}
			}
			if math.IsInf(r, 0) && !in.dt.IsFloat() {
				r = identityOf(in.dt, op == "nanmin")
			}
			w.vals[o] = r
		}
	}
	return w
}

// identityOf is the value an integer min (hi) or max reduction of nulls
// only gives: the dtype's extreme.
func identityOf(dt array.DType, hi bool) float64 {
	lim := map[array.DType][2]float64{
		array.Bool: {0, 1}, array.Int8: {math.MinInt8, math.MaxInt8}, array.Int16: {math.MinInt16, math.MaxInt16},
		array.Int32: {math.MinInt32, math.MaxInt32}, array.Int64: {math.MinInt64, math.MaxInt64},
		array.Uint8: {0, math.MaxUint8}, array.Uint16: {0, math.MaxUint16}, array.Uint32: {0, math.MaxUint32},
		array.Uint64: {0, math.MaxUint64},
	}[dt]
	if hi {
		return lim[1]
	}
	return lim[0]
}

func build(op string, x *expr.Node, axes []int, keep bool, ddof int) *expr.Node {
	switch op {
	case "var":
		return expr.ReduceVar(x, axes, ddof, keep)
	case "std":
		return expr.ReduceStd(x, axes, ddof, keep)
	case "cumsum":
		return expr.Cumsum(x, axes)
	case "cumprod":
		return expr.Cumprod(x, axes)
	}
	return map[string]func(*expr.Node, []int, bool) *expr.Node{
		"argmin": expr.Argmin, "argmax": expr.Argmax, "any": expr.Any, "all": expr.All,
		"count_nonzero": expr.CountNonzero, "nansum": expr.Nansum, "nanmean": expr.Nanmean,
		"nanmin": expr.Nanmin, "nanmax": expr.Nanmax,
	}[op](x, axes, keep)
}

// randAxes picks axes for op: nil (all) or a random subset in random
// order, some negative; scans take one axis or nil.
func randAxes(r *rand.Rand, op string, rank int) []int {
	if r.IntN(4) == 0 {
		return nil
	}
	if op == "cumsum" || op == "cumprod" {
		if rank == 0 {
			return nil
		}
		a := r.IntN(rank)
		if r.IntN(3) == 0 {
			a -= rank
		}
		return []int{a}
	}
	var axes []int
	for _, a := range r.Perm(rank) {
		if r.IntN(2) == 0 {
			if r.IntN(3) == 0 {
				a -= rank
			}
			axes = append(axes, a)
		}
	}
	if axes == nil {
		axes = []int{}
	}
	return axes
}

// emptyReduced reports whether a reduction over axes reads a zero-size axis.
func emptyReduced(shape, axes []int) bool {
	for i, d := range shape {
		if d != 0 {
			continue
		}
		if axes == nil {
			return true
		}
		for _, a := range axes {
			if a == i || a+len(shape) == i {
				return true
			}
		}
	}
	return false
}

func redNormAxes(axes []int, rank int) []int {
	if axes == nil {
		return nil
	}
	out := make([]int, len(axes))
	for i, a := range axes {
		if a < 0 {
			a += rank
		}
		out[i] = a
	}
	return out
}

// checkResult compares an evaluated result with the reference.
func checkResult(t *testing.T, out *array.Array, w redWant, what string) bool {
	t.Helper()
	if out.DType() != w.dt || !slices.Equal(out.Shape(), w.shape) {
		t.Errorf("%s: got %v %v, want %v %v", what, out.DType(), out.Shape(), w.dt, w.shape)
		return false
	}
	valid, err := array.ValidSlice(out)
	require.NoError(t, err)
	var got []float64
	switch w.dt {
	case array.Int64:
		v, err := array.ToSlice[int64](out)
		require.NoError(t, err)
		for _, x := range v {
			got = append(got, float64(x))
		}
	case array.Uint64:
		v, err := array.ToSlice[uint64](out)
		require.NoError(t, err)
		for _, x := range v {
			got = append(got, float64(x))
		}
	default:
		got, err = array.ToSlice[float64](out)
		require.NoError(t, err)
	}
	for i := range got {
		wv := w.valid == nil || w.valid[i]
		if valid[i] != wv {
			t.Errorf("%s: element %d valid %v, want %v", what, i, valid[i], wv)
			return false
		}
		if !wv {
			continue
		}
		g, e := got[i], w.vals[i]
		switch {
		case math.IsNaN(e) || math.IsNaN(g):
			if math.IsNaN(e) != math.IsNaN(g) {
				t.Errorf("%s: element %d = %v, want %v", what, i, g, e)
				return false
			}
		case math.IsInf(e, 0) || math.IsInf(g, 0):
			if g != e {
				t.Errorf("%s: element %d = %v, want %v", what, i, g, e)
				return false
			}
		case math.Abs(g-e) > w.tol*math.Max(1, math.Abs(e)):
			t.Errorf("%s: element %d = %v, want %v (tolerance %g)", what, i, g, e, w.tol)
			return false
		}
	}
	return true
}

func runReductionDiff(t *testing.T, seed uint64, cases, least, budget int) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	g := &redGen{rng: rand.New(rand.NewPCG(seed, 11)), mem: mem}
	stats := map[string]int{}
	failures := 0
	for c := 0; c < cases && failures < 5; c++ {
		in := g.input(least, budget)
		op := diffReductions[g.rng.IntN(len(diffReductions))]
		axes := randAxes(g.rng, op, len(in.shape))
		keep := g.rng.IntN(3) == 0
		ddof := g.rng.IntN(3) * g.rng.IntN(2)
		e := build(op, in.node, axes, keep, ddof)
		what := fmt.Sprintf("case %d: %s(%v%v, axes=%v, keep=%v, ddof=%d): %v", c, op, in.dt, in.shape, axes, keep, ddof, e)
		if (op == "argmin" || op == "argmax" || op == "nanmin" || op == "nanmax") && emptyReduced(in.shape, axes) {
			require.ErrorIs(t, e.Err(), expr.ErrArgument, what)
			stats["error: empty"]++
			g.release()
			continue
		}
		require.NoError(t, e.Err(), what)
		w := reference(op, in, redNormAxes(axes, len(in.shape)), keep, ddof)
		ok := true
		for _, opts := range [][]expr.Option{{expr.WithWorkers(1), expr.WithTileSize(16)}, {expr.WithWorkers(3)}} {
			out, err := expr.Eval(e, append(opts, expr.WithAllocator(mem))...)
			require.NoError(t, err, what)
			ok = ok && checkResult(t, out, w, what)
			out.Release()
		}
		// into a strided output (every axis reversed), pre-filled
		if ok && len(w.shape) > 0 {
			dst := g.keep(array.Full(mem, 7.0, w.shape...))
			dst = g.keep(expr.Eval(expr.Cast(expr.Leaf(dst), w.dt), expr.WithAllocator(mem)))
			rg := make([]view.Range, len(w.shape))
			for i := range rg {
				rg[i] = view.Reverse()
			}
			rv := g.keep(view.Slice(dst, rg...))
			require.NoError(t, expr.EvalInto(rv, e, expr.WithAllocator(mem), expr.WithWorkers(2)), what)
			ok = checkResult(t, rv, w, what+" (into a reversed view)")
		}
		if !ok {
			failures++
		}
		stats[op]++
		g.release()
	}
	t.Logf("cases per op: %v", stats)
}

func TestReductionDiffRandom(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	runReductionDiff(t, 1, n, 0, 3000)
}

// Large operands: the passes split between workers (by outputs, lanes or
// rows) and blocks of rows are merged.
func TestReductionDiffLarge(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	runReductionDiff(t, 2, n, 70000, 600000)
}
