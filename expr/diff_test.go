package expr_test

// Differential tests: thousands of random expressions (fixed seeds,
// math/rand/v2 PCG) are evaluated by the engine and by the reference
// evaluator of diff_ref_test.go, and must agree.
//
// The expressions go up to depth 4 over random shapes (rank 0 to 4, zero-size
// and size-1 dims), every dtype of array.DTypes, leaves that are plain arrays,
// transposed views, sliced views (negative steps, dropped index axes),
// broadcast views, constants and variables (partial and unknown-rank
// declarations, bound through Plan.Eval), leaves with nulls, every elementwise
// op under every auto-broadcast rule (numpy, none, pdpd with an axis or -1,
// unidirectional), every Broadcast mode (also with the shape inputs given as
// integer arrays), where, cast, the variadic ops, and reductions over random
// axes with and without keepDims, ReduceTo and ReduceAxes. Each expression is
// evaluated with 1 worker, with 3 workers and 16-element tiles, and with 2
// workers and 1000-element tiles; a subset has outputs (or reduction inputs)
// of more than 65536 elements, so that the parallel path runs and tiles and
// worker splits fall everywhere. Some results are also evaluated into
// strided, transposed and pre-masked destinations, and into an input of the
// expression itself.
//
// Agreement and tolerances:
//
//   - integers and bool: bit for bit, always;
//   - validity: exactly, always;
//   - floats computed elementwise: bit for bit, except that any NaN matches
//     any NaN. Every elementwise op rounds once to its type (float16: to
//     float32, then to half), in the engine and in the reference alike, so no
//     tolerance is needed;
//   - float reductions whose value does not depend on the summation order
//     (the reference proves it: every value is a multiple of 2^e and the sum
//     of magnitudes stays below 2^(p+e), p = 24 for float32 and float16
//     accumulators, 53 for float64; max and min always; products whose
//     mantissas fit) must be exact too;
//   - the other float sums and means are compared with the absolute tolerance
//     2·n·u·Σ|x| + ulp(result) (u = 2^-24 for float32 and float16
//     accumulators, 2^-53 for float64; n elements; the ulp of float16 is the
//     looser 2^-10 relative, for the final rounding to half), and products with
//     the relative tolerance 2·(n+1)·u. Results computed from such an
//     order-dependent value, and float-to-integer conversions that Go leaves
//     unspecified (NaN, infinities, out of range), are not compared.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

type evalConfig struct {
	name string
	opts []expr.Option
}

var evalConfigs = []evalConfig{
	{"workers=1", []expr.Option{expr.WithWorkers(1)}},
	{"workers=3/tile=16", []expr.Option{expr.WithWorkers(3), expr.WithTileSize(16)}},
	{"workers=2/tile=1000", []expr.Option{expr.WithWorkers(2), expr.WithTileSize(1000)}},
}

// counts of compared elements, for the log
type diffTally struct {
	trees, evals, exact, approx, skipped, into, overlap int
}

// compareResult checks got against the reference want; it returns an error
// describing the first difference and how many there are.
func compareResult(want *refTensor, got *array.Array, tl *diffTally) error {
	if got.DType() != want.dt {
		return fmt.Errorf("dtype: got %v; want %v", got.DType(), want.dt)
	}
	if !slices.Equal(got.Shape(), want.shape) {
		return fmt.Errorf("shape: got %v; want %v", got.Shape(), want.shape)
	}
	gv := readBits(got)
	valid, err := array.ValidSlice(got)
	if err != nil {
		return err
	}
	var first string
	bad := 0
	for i, w := range want.v {
		msg := ""
		switch {
		case valid[i] != want.isValid(i):
			msg = fmt.Sprintf("validity: got %v; want %v", valid[i], want.isValid(i))
		case want.flagAt(i) == fAny:
			if tl != nil {
				tl.skipped++
			}
		case want.flagAt(i) == fApprox:
			if tl != nil {
				tl.approx++
			}
			g, wf := fval(want.dt, gv[i]), fval(want.dt, w)
			if !(g == wf || (math.IsNaN(g) && math.IsNaN(wf)) || math.Abs(g-wf) <= want.tol[i]) {
				msg = fmt.Sprintf("got %v; want %v ± %g", g, wf, want.tol[i])
			}
		default:
			if tl != nil {
				tl.exact++
			}
			if !sameElem(want.dt, gv[i], w) {
				msg = fmt.Sprintf("got %s; want %s", elemString(want.dt, gv[i]), elemString(want.dt, w))
			}
		}
		if msg != "" {
			if bad == 0 {
				first = fmt.Sprintf("element %d (coordinate %v): %s", i, coordOf(want.shape, i), msg)
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%v%v: %s (%d of %d elements differ)", want.dt, want.shape, first, bad, len(want.v))
	}
	return nil
}

func sameElem(dt array.DType, a, b uint64) bool {
	if dt.IsFloat() {
		fa, fb := fval(dt, a), fval(dt, b)
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return math.IsNaN(fa) && math.IsNaN(fb)
		}
	}
	return a == b
}

func elemString(dt array.DType, u uint64) string {
	if dt.IsFloat() {
		return fmt.Sprintf("%v (%#x)", fval(dt, u), u)
	}
	if dt.IsSigned() {
		return fmt.Sprint(int64(u))
	}
	return fmt.Sprint(u)
}

func coordOf(shape []int, i int) []int {
	c := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			c[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return c
}

// describe renders an expression and its reference for a failure message.
func describe(e *expr.Node, r *refNode) string {
	return fmt.Sprintf("\n  expr: %v\n  ref:  %v", e, r)
}

// runCase checks one expression under every configuration, and maybe into
// strided destinations and into one of its own inputs. It returns false
// after reporting a failure.
func runCase(t *testing.T, g *treeGen, e *expr.Node, r *refNode, tl *diffTally) bool {
	t.Helper()
	if err := e.Err(); err != nil {
		t.Errorf("building failed: %v%s", err, describe(e, r))
		return false
	}
	want, err := r.eval()
	if err != nil {
		t.Errorf("reference failed (generator bug): %v%s", err, describe(e, r))
		return false
	}
	if e.DType() != want.dt {
		t.Errorf("DType() = %v; want %v%s", e.DType(), want.dt, describe(e, r))
		return false
	}
	if s, ok := e.StaticShape(); ok && !slices.Equal(s, want.shape) {
		t.Errorf("StaticShape() = %v; want %v%s", s, want.shape, describe(e, r))
		return false
	}
	tl.trees++
	for i, c := range evalConfigs {
		opts := append([]expr.Option{expr.WithAllocator(g.mem)}, c.opts...)
		var got *array.Array
		if i == 0 && g.p(0.5) {
			got, err = expr.Eval(e, append(opts, expr.WithBindings(g.binds))...)
		} else {
			var p *expr.Plan
			p, err = expr.Compile(e, opts...)
			if err == nil {
				got, err = p.Eval(g.binds)
			}
		}
		if err != nil {
			t.Errorf("%s: Eval: %v%s", c.name, err, describe(e, r))
			return false
		}
		tl.evals++
		err = compareResult(want, got, tl)
		got.Release()
		if err != nil {
			t.Errorf("%s: %v%s", c.name, err, describe(e, r))
			return false
		}
	}
	if want.numel() > 0 && (g.p(0.3) || g.alwaysInto) {
		if !evalIntoStrided(t, g, e, r, want, tl) {
			return false
		}
	}
	if g.alwaysInto && !evalIntoPlain(t, g, e, r, want, tl) {
		return false
	}
	if g.p(0.3) {
		for _, c := range g.cands {
			if c.dt == want.dt && slices.Equal(c.shape, want.shape) {
				// the output is one of the inputs: the last evaluation of
				// this expression, since it overwrites the input
				tl.overlap++
				opts := []expr.Option{expr.WithAllocator(g.mem), expr.WithWorkers(1 + g.rng.IntN(3)), expr.WithTileSize(16 + g.rng.IntN(100))}
				p, err := expr.Compile(e, opts...)
				if err == nil {
					err = p.EvalInto(c.arr, g.binds)
				}
				if err == nil {
					err = compareResult(want, c.arr, nil)
				}
				if err != nil {
					t.Errorf("EvalInto an input %v: %v%s", c.arr, err, describe(e, r))
					return false
				}
				break
			}
		}
	}
	return true
}

// evalIntoPlain evaluates into a preallocated contiguous output (the case
// where the engine may stream the result with non-temporal stores).
func evalIntoPlain(t *testing.T, g *treeGen, e *expr.Node, r *refNode, want *refTensor, tl *diffTally) bool {
	t.Helper()
	dst, err := array.New(g.mem, want.dt, want.shape...)
	g.must(err)
	g.keep(dst)
	for _, w := range []int{1, 3} {
		p, err := expr.Compile(e, expr.WithAllocator(g.mem), expr.WithWorkers(w))
		if err == nil {
			err = p.EvalInto(dst, g.binds)
		}
		if err == nil {
			err = compareResult(want, dst, nil)
		}
		if err != nil {
			t.Errorf("EvalInto a contiguous output, %d workers: %v%s", w, err, describe(e, r))
			return false
		}
		tl.into++
	}
	return true
}

// evalIntoStrided evaluates into a transposed, sliced (negative steps) or
// pre-masked destination and checks the result and that no element of the
// destination's buffer outside the view changed.
func evalIntoStrided(t *testing.T, g *treeGen, e *expr.Node, r *refNode, want *refTensor, tl *diffTally) bool {
	t.Helper()
	s := want.shape
	isReduce := r.kind == rReduce || r.kind == rReduceTo || r.kind == rReduceAxes
	nulls := !(g.noMaskedReduce && isReduce) // destinations with nulls meet a known bug
	var (
		dst, base *array.Array
		inView    func(k int) bool
		kind      string
	)
	switch k := g.rng.IntN(3); {
	case k == 0 && len(s) >= 2:
		kind = "transposed"
		perm := g.rng.Perm(len(s))
		bs := make([]int, len(s))
		for k, p := range perm {
			bs[p] = s[k]
		}
		base, _ = g.baseNulls(bs, want.dt, nulls)
		v, err := view.Transpose(base, perm...)
		g.must(err)
		dst = g.keep(v)
		inView = func(int) bool { return true }
	case k <= 1 && !(g.noOffsetReduce && isReduce):
		kind = "sliced"
		// base of twice the size on every axis, stepping backwards by 2
		bs := make([]int, len(s))
		ranges := make([]view.Range, len(s))
		for i, d := range s {
			bs[i] = 2*d + 1
			ranges[i] = view.Range{Start: 2 * d, Stop: 0, Step: -2}
		}
		base, _ = g.baseNulls(bs, want.dt, nulls)
		v, err := view.Slice(base, ranges...)
		g.must(err)
		dst = g.keep(v)
		inView = func(k int) bool {
			for i := len(bs) - 1; i >= 0; i-- {
				c := k % bs[i]
				k /= bs[i]
				if c%2 != 0 || c == 0 {
					return false
				}
			}
			return true
		}
	case nulls:
		kind = "masked"
		base, _ = g.base(s, want.dt)
		if !base.HasNulls() {
			g.must(base.EnsureValidity())
		}
		dst, inView = base, func(int) bool { return true }
	default:
		return true // every destination kind would meet a known bug
	}
	before := readBits(base)
	opts := []expr.Option{expr.WithAllocator(g.mem), expr.WithWorkers(1 + g.rng.IntN(3)), expr.WithTileSize(16 + g.rng.IntN(50))}
	p, err := expr.Compile(e, opts...)
	if err == nil {
		err = p.EvalInto(dst, g.binds)
	}
	if err == nil {
		err = compareResult(want, dst, tl)
	}
	if err == nil {
		after := readBits(base)
		for k := range after {
			if !inView(k) && after[k] != before[k] {
				err = fmt.Errorf("buffer element %d outside the view changed from %#x to %#x", k, before[k], after[k])
				break
			}
		}
	}
	if err != nil {
		t.Errorf("EvalInto %s destination %v: %v%s", kind, dst, err, describe(e, r))
		return false
	}
	tl.into++
	return true
}

// applyRules restricts the generator to what the engine accepts by design:
// Broadcast pdpd stretches only a data dim that is statically 1 (OpenVINO's
// shape inference), so a variable must not declare an interval around a
// dim that is 1 (see TestBroadcastPDPDPartialDim).
func applyRules(t *testing.T, g *treeGen) {
	g.noIntervalOne = true
}

func logStats(t *testing.T, g *treeGen, tl diffTally) {
	t.Logf("%d trees, %d evaluations, %d EvalInto strided, %d EvalInto an input; elements compared: %d exact, %d with tolerance, %d unspecified",
		tl.trees, tl.evals, tl.into, tl.overlap, tl.exact, tl.approx, tl.skipped)
	if testing.Verbose() {
		keys := make([]string, 0, len(g.stats))
		for k := range g.stats {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%d ", k, g.stats[k])
		}
		t.Log(b.String())
	}
}

// treeRange is the range of expressions to run: all n, or the one that
// STRIDE0_DIFF_TREE names (to replay a failure).
func treeRange(n int) (int, int) {
	if s := os.Getenv("STRIDE0_DIFF_TREE"); s != "" {
		var i int
		if _, err := fmt.Sscan(s, &i); err == nil {
			return i, i + 1
		}
	}
	return 0, n
}

// TestDiffRandom: thousands of small random expressions.
func TestDiffRandom(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	n := 6000
	if testing.Short() {
		n = 500
	}
	g := newGen(1, mem)
	applyRules(t, g)
	var tl diffTally
	failures := 0
	first, last := treeRange(n)
	for i := first; i < last && failures < 5; i++ {
		g.reset(3000, i)
		s := g.randShape(400)
		e, r := g.tree(1+g.rng.IntN(4), s, true)
		if !runCase(t, g, e, r, &tl) {
			failures++
			t.Logf("(tree %d)", i)
		}
		g.release()
		if mem.CurrentAlloc() != 0 {
			t.Fatalf("tree %d: %d bytes still allocated after releasing everything%s", i, mem.CurrentAlloc(), describe(e, r))
		}
	}
	logStats(t, g, tl)
	require.GreaterOrEqual(t, tl.trees, (last-first)*9/10)
}

// TestDiffMedium: outputs of 1000 to 30000 elements, so that the default
// 1024-element tiles split rows and rows span several tiles.
func TestDiffMedium(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	n := 400
	if testing.Short() {
		n = 50
	} else if raceOn {
		n = 150 // the race detector slows the reference tenfold
	}
	g := newGen(3, mem)
	applyRules(t, g)
	var tl diffTally
	failures := 0
	first, last := treeRange(n)
	for i := first; i < last && failures < 5; i++ {
		g.reset(60000, i)
		var s []int
		for s == nil || numel(s) < 1000 || numel(s) > 30000 {
			s = make([]int, 1+g.rng.IntN(4))
			for k := range s {
				s[k] = []int{1, 2, 3, 7, 16, 33, 130, 1025, 2049}[g.rng.IntN(9)]
			}
		}
		e, r := g.tree(1+g.rng.IntN(3), s, true)
		if !runCase(t, g, e, r, &tl) {
			failures++
			t.Logf("(tree %d)", i)
		}
		g.release()
		if mem.CurrentAlloc() != 0 {
			t.Fatalf("tree %d: %d bytes still allocated after releasing everything", i, mem.CurrentAlloc())
		}
	}
	logStats(t, g, tl)
}

// TestDiffLarge: expressions whose outputs, or whose reductions' inputs,
// exceed 65536 elements, so that evaluation runs in parallel.
func TestDiffLarge(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	n := 40
	if testing.Short() {
		n = 8
	}
	shapes := [][]int{{66000}, {257, 260}, {2, 190, 180}, {70, 1, 1000}, {3, 5, 4500}, {1, 65537}, {300, 7, 33}, {17, 2, 2, 1000}}
	g := newGen(2, mem)
	g.nullProb = 0.2
	g.alwaysInto = true
	applyRules(t, g)
	var tl diffTally
	failures := 0
	first, last := treeRange(n)
	for i := first; i < last && failures < 3; i++ {
		g.reset(280000, i)
		var e *expr.Node
		var r *refNode
		if i%4 == 3 {
			// a reduction of a large operand to a small result: private
			// accumulators per worker, or whole outer blocks per worker
			big := shapes[g.rng.IntN(len(shapes))]
			which := g.rng.IntN(3)
			if which == 2 && g.noMeanNulls {
				g.noNulls++
			}
			x, rx := g.tree(1+g.rng.IntN(2), big, false)
			if which == 2 && g.noMeanNulls {
				g.noNulls--
			}
			switch which {
			case 0:
				axes := make([]int, len(big))
				for k := range axes {
					axes[k] = k
				}
				e, r = expr.ReduceSum(x, axes, false), &refNode{kind: rReduce, op: compute.Add, args: []*refNode{rx}, axes: axes}
			case 1:
				e, r = expr.ReduceMax(x, []int{0}, true), &refNode{kind: rReduce, op: compute.Maximum, args: []*refNode{rx}, axes: []int{0}, keep: true}
			default:
				e, r = expr.ReduceMean(x, []int{-1}, false), &refNode{kind: rReduce, op: opMean, args: []*refNode{rx}, axes: []int{-1}}
			}
		} else {
			s := shapes[g.rng.IntN(len(shapes))]
			e, r = g.tree(1+g.rng.IntN(3), s, true)
		}
		if !runCase(t, g, e, r, &tl) {
			failures++
			t.Logf("(tree %d)", i)
		}
		g.release()
		if mem.CurrentAlloc() != 0 {
			t.Fatalf("tree %d: %d bytes still allocated after releasing everything", i, mem.CurrentAlloc())
		}
	}
	logStats(t, g, tl)
}
