package expr_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
)

// checkAlternating verifies out = (x - 0.5) * 2 for the batches of
// alternating.
func checkAlternating(t *testing.T, b expr.Bindings, out *array.Array) {
	t.Helper()
	x := b["x"]
	for i := 0; i < x.Dim(0); i++ {
		for j := 0; j < 16; j++ {
			w := (arraytest.At[float32](t, x, i, j) - 0.5) * 2
			if g := arraytest.At[float32](t, out, i, j); g != w {
				t.Fatalf("[%d %d] = %g, want %g", i, j, g, w)
			}
		}
	}
}

// Batches alternating between two sizes through one Plan run their cached
// passes: after warm-up, at most 2 allocations per EvalInto (0 today).
func TestAlternatingLayoutsAllocate(t *testing.T) {
	if raceOn {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	p, binds, outs, done := alternating(t)
	defer done()
	for i := 0; i < 4; i++ {
		if err := p.EvalInto(outs[i%2], binds[i%2]); err != nil {
			t.Fatal(err)
		}
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		if err := p.EvalInto(outs[i%2], binds[i%2]); err != nil {
			t.Fatal(err)
		}
		i++
	})
	if allocs > 2 {
		t.Fatalf("%v allocations per call alternating 1000/1001 rows, want at most 2", allocs)
	}
	if n := expr.CachedLayouts(p); n != 2 {
		t.Fatalf("%d cached layouts, want 2", n)
	}
	for k := range outs {
		clear(outs[k].Data().Bytes())
		if err := p.EvalInto(outs[k], binds[k]); err != nil {
			t.Fatal(err)
		}
		checkAlternating(t, binds[k], outs[k])
	}
}

// The cache is bounded: many layouts keep at most LayoutSlots passes, the
// most recently used survive, and every call is right whether it hits or
// misses.
func TestLayoutCacheBounded(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x := expr.Var("x", array.Float32, broadcast.Partial(-1, 16))
	m, _ := array.Full(mem, float32(0.5), 16)
	s, _ := array.Full(mem, float32(2), 16)
	defer m.Release()
	defer s.Release()
	p, err := expr.Compile(expr.Mul(expr.Sub(x, expr.Leaf(m)), expr.Leaf(s)), expr.WithAllocator(mem), expr.WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	batch := func(rows int) expr.Bindings {
		v := make([]float32, rows*16)
		for i := range v {
			v[i] = float32(i%11) - 3
		}
		a, err := array.FromSlice(mem, v, rows, 16)
		if err != nil {
			t.Fatal(err)
		}
		return expr.Bindings{"x": a}
	}
	var bs []expr.Bindings
	defer func() {
		for _, b := range bs {
			b["x"].Release()
		}
	}()
	for rows := 1; rows <= 2*expr.LayoutSlots; rows++ {
		bs = append(bs, batch(rows))
	}
	for round := 0; round < 2; round++ {
		for _, b := range bs {
			out, err := p.Eval(b)
			if err != nil {
				t.Fatal(err)
			}
			checkAlternating(t, b, out)
			out.Release()
			if n := expr.CachedLayouts(p); n > expr.LayoutSlots {
				t.Fatalf("%d cached layouts, bound %d", n, expr.LayoutSlots)
			}
		}
	}
	if n := expr.CachedLayouts(p); n != expr.LayoutSlots {
		t.Fatalf("%d cached layouts after %d layouts, want %d", n, len(bs), expr.LayoutSlots)
	}
	if raceOn {
		return
	}
	// the last LayoutSlots layouts are cached: evaluating them allocates
	// only the result
	last := bs[len(bs)-1]
	dst, _ := array.Empty(mem, array.Float32, last["x"].Shape()...)
	defer dst.Release()
	if err := p.EvalInto(dst, last); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(50, func() { _ = p.EvalInto(dst, last) }); a > 2 {
		t.Fatalf("%v allocations on a cached layout", a)
	}
}

// One Plan used from several goroutines with different batch sizes (run
// with -race).
func TestLayoutCacheConcurrent(t *testing.T) {
	p, binds, _, done := alternating(t)
	defer done()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				b := binds[(g+i)%2]
				out, err := p.Eval(b)
				if err != nil {
					errs <- err
					return
				}
				x, _ := array.ToSlice[float32](b["x"])
				v, _ := array.ToSlice[float32](out)
				for k := range v {
					if v[k] != (x[k]-0.5)*2 {
						errs <- fmt.Errorf("goroutine %d: element %d = %g", g, k, v[k])
						out.Release()
						return
					}
				}
				out.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// A small expr.Eval reuses pooled worker scratch: it allocates far less
// than one worker's scratch (about 40 KB for this expression) per call.
func TestSmallEvalPoolsScratch(t *testing.T) {
	if raceOn {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	x, _ := array.Full(nil, float32(1.5), 1000)
	y, _ := array.Full(nil, float32(2), 1000)
	defer x.Release()
	defer y.Release()
	e := expr.Sqrt(expr.Add(expr.Mul(expr.Leaf(x), expr.Leaf(y)), expr.Const(1.0)))
	run := func() {
		out, err := expr.Eval(e)
		if err != nil {
			t.Fatal(err)
		}
		if g := arraytest.At[float32](t, out, 999); g != 2 {
			t.Fatalf("got %g, want 2", g)
		}
		out.Release()
	}
	run()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for i := 0; i < 100; i++ {
		run()
	}
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / 100; per > 16<<10 {
		t.Fatalf("%d bytes per small Eval, want under 16 KB (the result is 4 KB)", per)
	}
}
