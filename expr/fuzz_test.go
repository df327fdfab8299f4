package expr_test

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// FuzzExpr drives the differential test's tree generator from the fuzzer:
// the seed and the depth pick a random expression (random shapes, dtypes,
// views, nulls, rules, reductions, variables), which is evaluated every way
// runCase knows (workers, tiles, plans, strided and overlapping outputs)
// and compared with the reference evaluator. Nothing may panic, every
// result must match, and nothing may stay allocated.
//
//	go test -run '^$' -fuzz FuzzExpr -fuzztime 60s ./expr/
func FuzzExpr(f *testing.F) {
	for _, s := range []uint64{0, 1, 2, 3, 42, 2068, 4610, 5170} {
		f.Add(s, uint8(s%4))
	}
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		g := newGen(seed, mem)
		applyRules(t, g)
		var tl diffTally
		g.reset(3000, 0)
		s := g.randShape(400)
		e, r := g.tree(1+int(depth%4), s, true)
		ok := runCase(t, g, e, r, &tl)
		g.release()
		if !ok {
			t.Fatalf("seed %d depth %d: evaluation differs from the reference%s", seed, depth, describe(e, r))
		}
		mem.AssertSize(t, 0)
	})
}
