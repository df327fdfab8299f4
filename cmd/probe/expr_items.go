package main

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// stepTwo returns a step-2 slice of n float32 (i*0.5) and its base.
func stepTwo(mem *tracker, n int) (xs, base *array.Array, err error) {
	base, err = array.Arange(mem, array.Float32, 0, float64(n), 0.5)
	if err != nil {
		return nil, nil, err
	}
	xs, err = view.Slice(base, view.Range{Start: 0, Stop: 2 * n, Step: 2})
	if err != nil {
		base.Release()
		return nil, nil, err
	}
	return xs, base, nil
}

// tileProbe evaluates sqrt(xs + xs) over a step-2 slice of n float32 with
// the given tile and one worker, and checks every value and the memory the
// evaluation took.
func tileProbe(n, tile int) (string, string) {
	mem := newTracker()
	xs, base, err := stepTwo(mem, n)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	defer base.Release()
	defer xs.Release()
	var out *array.Array
	used := heap(func() {
		out, err = expr.Eval(expr.Sqrt(expr.Add(expr.Leaf(xs), expr.Leaf(xs))),
			expr.WithTileSize(tile), expr.WithWorkers(1), expr.WithAllocator(mem))
	})
	if err != nil {
		return vError, err.Error()
	}
	defer out.Release()
	got, err := array.ToSlice[float32](out)
	if err != nil || len(got) != n {
		return vFailed, fmt.Sprintf("reading the result: %v (%d values)", err, len(got))
	}
	for i, v := range got {
		x := float32(i)
		if want := float32(math.Sqrt(float64(x + x))); v != want {
			return vFailed, fmt.Sprintf("element %d is %v, want %v", i, v, want)
		}
	}
	if used > 256<<20 {
		return vFailed, fmt.Sprintf("right values, but the evaluation allocated %s of Go heap", mib(int64(used)))
	}
	return vRight, fmt.Sprintf("%d values match; Go heap used %s", n, mib(int64(used)))
}

// absurdTiles runs the other absurd tile sizes through a fused multiply
// and a column sum, with three workers.
func absurdTiles() (string, string) {
	mem := newTracker()
	v, d := sumsWithTiles(mem)
	if n := mem.CurrentAlloc(); n != 0 && v != vFailed {
		return vFailed, fmt.Sprintf("%s, but %d bytes stayed allocated", d, n)
	}
	return v, d
}

func sumsWithTiles(mem *tracker) (string, string) {
	x, err := array.Arange(mem, array.Float64, 0, 3000, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	defer x.Release()
	m, err := view.Reshape(x, 100, 30)
	if err != nil {
		return vFailed, err.Error()
	}
	defer m.Release()
	for _, tile := range []int{-1, 0, 1, math.MaxInt, math.MinInt, 1 << 40} {
		s, err := expr.Eval(expr.ReduceSum(expr.Mul(expr.Leaf(m), expr.Scalar(2, array.Float64)), []int{0}, false),
			expr.WithTileSize(tile), expr.WithWorkers(3), expr.WithAllocator(mem))
		if err != nil {
			return vFailed, fmt.Sprintf("tile %d: %v", tile, err)
		}
		got, _ := array.ToSlice[float64](s)
		s.Release()
		for j, v := range got {
			want := 0.0
			for i := 0; i < 100; i++ {
				want += 2 * float64(i*30+j)
			}
			if v != want {
				return vFailed, fmt.Sprintf("tile %d: column %d sums to %v, want %v", tile, j, v, want)
			}
		}
	}
	return vRight, "tiles -1, 0, 1, MaxInt, MinInt, 1<<40: the 30 column sums of 2*x[100 30] match"
}

// overflowShape is the report's broadcast of ones[1,1] to [1<<32, 1<<32]
// and its reductions.
func overflowShape() (string, string) {
	mem := newTracker()
	ones, err := array.Full(mem, float32(1), 1, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	defer ones.Release()
	b := expr.BroadcastNumpy(expr.Leaf(ones), []int{1 << 32, 1 << 32})
	var errs []error
	for name, e := range map[string]*expr.Node{
		"ReduceSum":  expr.ReduceSum(b, nil, false),
		"ReduceMax":  expr.ReduceMax(b, nil, false),
		"ReduceMean": expr.ReduceMean(b, nil, false),
	} {
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		if err == nil {
			v, _ := array.ToSlice[float64](out)
			out.Release()
			return vFailed, fmt.Sprintf("%s of a [1<<32 1<<32] broadcast of ones gave %v", name, v)
		}
		errs = append(errs, err)
	}
	if b.Err() == nil {
		return vFailed, "BroadcastNumpy to [1<<32 1<<32] built without error (the reductions failed later)"
	}
	return vError, b.Err().Error()
}

// selfOverlap is the report's EvalInto of 1..9 into z.View([3 3], [1 1], 0).
func selfOverlap() (string, string) {
	mem := newTracker()
	z, err := array.New(mem, array.Float64, 9)
	if err != nil {
		return vFailed, err.Error()
	}
	defer z.Release()
	v, err := z.View([]int{3, 3}, []int{1, 1}, 0)
	if err != nil {
		return vError, err.Error()
	}
	defer v.Release()
	src, err := array.FromSlice(mem, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3)
	if err != nil {
		return vFailed, err.Error()
	}
	defer src.Release()
	err = expr.EvalInto(v, expr.Leaf(src), expr.WithAllocator(mem))
	got, _ := array.ToSlice[float64](z)
	if err == nil {
		return vFailed, fmt.Sprintf("ReadOnly() = %v; EvalInto wrote %v into the buffer", v.ReadOnly(), got)
	}
	if !v.ReadOnly() {
		return vFailed, fmt.Sprintf("EvalInto failed (%v) but ReadOnly() = false", err)
	}
	for _, x := range got {
		if x != 0 {
			return vFailed, fmt.Sprintf("EvalInto failed but changed the buffer: %v", got)
		}
	}
	return vError, fmt.Sprintf("ReadOnly() = true; EvalInto: %v", err)
}

// manyWorkers is the report's WithWorkers(1e9) on a 4M-element add.
func manyWorkers() (string, string) {
	mem := newTracker()
	const n = 4 << 20
	a, err := array.Arange(mem, array.Float32, 0, n, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	defer a.Release()
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the goroutine count while the evaluation runs
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if g := int64(runtime.NumGoroutine()); g > peak.Load() {
				peak.Store(g)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	start := time.Now()
	out, err := expr.Eval(expr.Add(expr.Leaf(a), expr.Leaf(a)), expr.WithWorkers(1e9), expr.WithAllocator(mem))
	took := time.Since(start)
	close(stop)
	<-done
	if err != nil {
		return vError, err.Error()
	}
	defer out.Release()
	got, err := array.ToSlice[float32](out)
	if err != nil {
		return vFailed, err.Error()
	}
	for i, v := range got {
		if v != float32(2*i) {
			return vFailed, fmt.Sprintf("element %d is %v, want %v", i, v, 2*i)
		}
	}
	limit := int64(max(runtime.GOMAXPROCS(0), 8) + 16)
	if peak.Load() > limit {
		return vFailed, fmt.Sprintf("right values, but %d goroutines ran at once (%v)", peak.Load(), took)
	}
	return vRight, fmt.Sprintf("%d values match in %v, at most %d goroutines", n, took.Round(time.Millisecond), peak.Load())
}

// nilPlan calls every method of a nil and a zero *expr.Plan and *expr.Node.
func nilPlan() (string, string) {
	var p *expr.Plan
	if p.Root() != nil {
		return vFailed, "(*Plan)(nil).Root() is not nil"
	}
	var errs []error
	_, err := p.Eval(nil)
	errs = append(errs, err, p.EvalInto(nil, nil))
	_, err = p.Explain(nil)
	errs = append(errs, err)
	zp := &expr.Plan{}
	_, err = zp.Eval(nil)
	errs = append(errs, err)
	var n *expr.Node
	_, _ = n.StaticShape()
	_, _, _, _ = n.String(), n.DType(), n.Shape(), n.Vars()
	errs = append(errs, n.Err(), (&expr.Node{}).Err())
	_, err = expr.Eval(&expr.Node{})
	errs = append(errs, err)
	for i, err := range errs {
		if err == nil || !errors.Is(err, expr.ErrNilNode) {
			return vFailed, fmt.Sprintf("call %d: error %v, want one wrapping ErrNilNode", i, err)
		}
	}
	return vRight, fmt.Sprintf("Root() = nil; Eval, EvalInto, Explain, Err: %v", errs[0])
}

// sharedDAG builds e = e + e nested 60 times over [1, -2, 0.5] (61 distinct
// nodes, 2^60 paths to the leaf), then evaluates, prints and walks it: each
// must cost the nodes, not the paths.
func sharedDAG() (string, string) {
	mem := newTracker()
	x, err := array.FromSlice(mem, []float64{1, -2, 0.5}, 3)
	if err != nil {
		return vFailed, err.Error()
	}
	defer x.Release()
	const d = 60
	e := expr.Leaf(x)
	for i := 0; i < d; i++ {
		e = expr.Add(e, e)
	}
	start := time.Now()
	s := e.String()
	if len(s) > expr.MaxStringLength+64*(d+1) {
		return vFailed, fmt.Sprintf("String wrote %d bytes", len(s))
	}
	if vs := e.Vars(); len(vs) != 0 {
		return vFailed, fmt.Sprintf("Vars = %v", vs)
	}
	out, err := expr.Eval(e, expr.WithAllocator(mem))
	if err != nil {
		return vError, err.Error()
	}
	defer out.Release()
	got, err := array.ToSlice[float64](out)
	if err != nil {
		return vFailed, err.Error()
	}
	for i, v := range []float64{1, -2, 0.5} {
		if want := math.Ldexp(v, d); got[i] != want {
			return vFailed, fmt.Sprintf("element %d is %v, want %v", i, got[i], want)
		}
	}
	return vRight, fmt.Sprintf("2^%d paths: String %d bytes, values 2^%d·x, in %v", d, len(s), d, time.Since(start).Round(time.Millisecond))
}
