package expr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// TestConcatInterleavedMatchesReference: a concatenation along an inner
// axis of contiguous pieces (copied row block by row block into a
// contiguous output, with streaming stores from the streaming threshold
// on) gives the pieces' values, block after block, and their nulls.
// Randomized with a fixed seed: dtypes of 1 to 8 bytes, ranks 2 and 3,
// blocks above and below the block-copy bound and of any length (so the
// streaming copy's unaligned heads and short tails run), pieces that are
// views at odd offsets, a piece with nulls, fresh outputs and existing
// ones at an odd offset; the threshold at 1 byte (every output streams)
// and at its default.
func TestConcatInterleavedMatchesReference(t *testing.T) {
	mem := checkedMem(t)
	r := rand.New(rand.NewPCG(7, 1128))
	dts := []array.DType{array.Int8, array.Int16, array.Float32, array.Float64, array.Int64, array.Uint32}
	for _, stream := range []bool{true, false} {
		restore := func() {}
		if stream {
			restore = expr.SetStreamingThreshold(1)
		}
		for i := 0; i < 150; i++ {
			dt := dts[r.IntN(len(dts))]
			rank := 2 + r.IntN(2)
			ax := 1 + r.IntN(rank-1)
			shape := make([]int, rank)
			for j := range shape {
				shape[j] = 1 + r.IntN(5)
			}
			shape[rank-1] = 1 + r.IntN(300)
			k := 1 + r.IntN(4)
			var pieces []*expr.Node
			var arrs, owned []*array.Array
			var wantV [][]float64
			var wantOK [][]bool
			total := 0
			for p := 0; p < k; p++ {
				ps := append([]int(nil), shape...)
				ps[ax] = 1 + r.IntN(6)
				total += ps[ax]
				n := 1
				for _, d := range ps {
					n *= d
				}
				off := r.IntN(3) // a contiguous view at an offset
				v := make([]float64, n+off)
				ok := make([]bool, n+off)
				nulls := r.IntN(4) == 0
				for j := range v {
					v[j] = float64(r.IntN(100))
					ok[j] = !nulls || r.IntN(5) > 0
				}
				f, err := array.FromSliceValid(mem, v, ok, n+off)
				require.NoError(t, err)
				c, err := expr.Eval(expr.Cast(expr.Leaf(f), dt), expr.WithAllocator(mem))
				require.NoError(t, err)
				f.Release()
				s, err := view.Slice(c, view.Span(off, off+n))
				require.NoError(t, err)
				a, err := view.Reshape(s, ps...)
				require.NoError(t, err)
				owned = append(owned, c, s, a)
				arrs = append(arrs, a)
				pieces = append(pieces, expr.Leaf(a))
				wantV = append(wantV, v[off:])
				wantOK = append(wantOK, ok[off:])
			}
			outer := 1
			for _, d := range shape[:ax] {
				outer *= d
			}
			var want []float64
			var wantValid []bool
			for o := 0; o < outer; o++ {
				for p, a := range arrs {
					blk := a.Len() / outer
					want = append(want, wantV[p][o*blk:(o+1)*blk]...)
					wantValid = append(wantValid, wantOK[p][o*blk:(o+1)*blk]...)
				}
			}
			e := expr.Concatenate(pieces, ax)
			require.NoError(t, e.Err())
			name := fmt.Sprintf("stream %v case %d: %v pieces %d axis %d of %v", stream, i, dt, k, ax, e)
			check := func(got *array.Array) {
				gv, err := array.ToSlice[float64](got)
				require.NoError(t, err, name)
				gok, err := array.ValidSlice(got)
				require.NoError(t, err, name)
				for j := range want {
					require.Equal(t, wantValid[j], gok[j], "%s: element %d", name, j)
					if wantValid[j] {
						require.Equal(t, want[j], gv[j], "%s: element %d", name, j)
					}
				}
			}
			got, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)))
			require.NoError(t, err, name)
			check(got)
			got.Release()
			// into an existing contiguous output at an odd offset
			os := append([]int(nil), shape...)
			os[ax] = total
			n := len(want)
			big, err := array.New(mem, dt, n+3)
			require.NoError(t, err)
			s, err := view.Slice(big, view.Span(1, 1+n))
			require.NoError(t, err)
			dst, err := view.Reshape(s, os...)
			require.NoError(t, err)
			require.NoError(t, expr.EvalInto(dst, e, expr.WithAllocator(mem)), name)
			check(dst)
			for _, a := range append(owned, big, s, dst) {
				a.Release()
			}
		}
		restore()
	}
}
