package expr_test

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// FuzzOptions evaluates random expressions (the differential generator's)
// under fuzzed evaluation options: any tile size and worker count, absurd
// ones included (negative, 0, 1<<61, math.MaxInt), and a choice of
// allocator (checked Go allocator, checked PageAllocator, the default). Each
// result must equal the reference evaluator's, through Eval, a Plan run
// twice (the second call takes the remembered pass), EvalInto and Explain;
// nothing may panic or stay allocated. With big set the output has 65536
// elements or more, so that the worker split is exercised.
//
//	go test -run '^$' -fuzz FuzzOptions -fuzztime 60s ./expr/
func FuzzOptions(f *testing.F) {
	seeds := []struct {
		seed        uint64
		tile, works int64
		alloc       uint8
		big         bool
	}{
		{1, 1 << 61, 1, 0, false}, {2, 1 << 36, 1e9, 1, true}, {3, -1, 0, 2, false}, {4, 0, -5, 0, true},
		{5, 1, 3, 1, false}, {6, 17, 1 << 40, 0, true}, {7, 1<<63 - 1, -1 << 63, 2, true}, {8, 1024, 2, 0, false},
		{9, -1 << 63, 1, 1, false}, {10, 100000, 4, 0, true},
	}
	for _, s := range seeds {
		f.Add(s.seed, uint8(s.seed%4), s.tile, s.works, s.alloc, s.big)
	}
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8, tile, workers int64, alloc uint8, big bool) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		var evalMem *memory.CheckedAllocator
		opts := []expr.Option{expr.WithTileSize(int(tile)), expr.WithWorkers(int(workers))}
		switch alloc % 3 {
		case 0:
			evalMem = mem
		case 1:
			evalMem = memory.NewCheckedAllocator(array.NewPageAllocator())
		}
		if evalMem != nil {
			opts = append(opts, expr.WithAllocator(evalMem))
		}
		g := newGen(seed, mem)
		applyRules(t, g)
		s := g.randShape(400)
		g.reset(3000, 0)
		if big {
			g.reset(300000, 0)
			s = []int{256 + g.rng.IntN(64), 256 + g.rng.IntN(64)}
		}
		e, r := g.tree(1+int(depth%4), s, true)
		defer g.release()
		if err := e.Err(); err != nil {
			t.Fatalf("building failed: %v%s", err, describe(e, r))
		}
		want, err := r.eval()
		if err != nil {
			t.Fatalf("reference failed (generator bug): %v%s", err, describe(e, r))
		}
		check := func(how string, got *array.Array, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s: %v%s", how, err, describe(e, r))
			}
			err = compareResult(want, got, nil)
			if err != nil {
				t.Fatalf("%s (tile %d, workers %d): %v%s", how, tile, workers, err, describe(e, r))
			}
		}
		got, err := expr.Eval(e, append(opts, expr.WithBindings(g.binds))...)
		check("Eval", got, err)
		got.Release()
		p, err := expr.Compile(e, opts...)
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		for i := 0; i < 2; i++ {
			got, err = p.Eval(g.binds)
			check("Plan.Eval", got, err)
			got.Release()
		}
		dst, err := array.New(mem, want.dt, want.shape...)
		g.must(err)
		err = p.EvalInto(dst, g.binds)
		check("Plan.EvalInto", dst, err)
		dst.Release()
		if _, err := p.Explain(g.binds); err != nil {
			t.Fatalf("Explain: %v", err)
		}
		g.release()
		mem.AssertSize(t, 0)
		if evalMem != nil {
			evalMem.AssertSize(t, 0)
		}
	})
}
