package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

// TestBroadcastCopyStreams: materializing a broadcast (NumPy's
// broadcast_to(a, shape).copy(), the shared workload W1) copies the
// operand's rows into the output one after the other, with streaming
// stores from the streaming threshold on: every store of a row is
// non-temporal, its unaligned head and its tail too (compute.CopyNT), so
// that the line two rows share is never half written by plain stores. The
// results must equal the reference's. Randomized with a fixed seed: dtypes
// of 1 to 8 bytes, rows of any length (not multiples of the vector or the
// cache line), a repeated row or column, fresh outputs and existing ones at
// an odd offset, one and two workers, the threshold at 1 byte (every
// output streams) and at its default.
func TestBroadcastCopyStreams(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(29, 1129))
	dts := []array.DType{array.Int8, array.Int16, array.Float32, array.Float64, array.Int64, array.Uint32}
	for _, stream := range []bool{true, false} {
		restore := func() {}
		if stream {
			restore = expr.SetStreamingThreshold(1)
		}
		for i := 0; i < 120; i++ {
			dt := dts[r.IntN(len(dts))]
			rows, inner := 1+r.IntN(12), 60+r.IntN(1100)
			var in, out []int
			switch r.IntN(3) {
			case 0: // a repeated row
				in, out = []int{inner}, []int{rows, inner}
			case 1: // a repeated column
				in, out = []int{rows, 1}, []int{rows, inner}
			default: // a row repeated over two outer axes
				in, out = []int{1, inner}, []int{2, rows, inner}
			}
			name := fmt.Sprintf("stream %v case %d: %v %v -> %v", stream, i, dt, in, out)
			x := randArray(t, r, mem, dt, in)
			e := expr.BroadcastNumpy(expr.Leaf(x), out)
			require.NoError(t, e.Err(), name)
			m := make(broadcast.AxisMap, len(in))
			for k := range m {
				m[k] = len(out) - len(in) + k
			}
			want, err := naive.Broadcast(mem, x, out, m)
			require.NoError(t, err, name)
			got, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)))
			require.NoError(t, err, name)
			require.NoError(t, naive.Equal(want, got), name)
			// into an existing output that starts off alignment
			dst, release := offAligned(t, mem, dt, out)
			require.NoError(t, expr.EvalInto(dst, e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2))), name)
			require.NoError(t, naive.Equal(want, dst), name)
			release()
			for _, a := range []*array.Array{x, want, got} {
				a.Release()
			}
		}
		restore()
	}
}

// TestUnalignedRunsStream: a computed result whose rows are not whole
// 32-byte units (rows of 1001 float32, batches of short rows), or that
// starts off alignment, is stored with streaming stores only, instead of
// the streaming kernels' plain head and tail stores into lines the next run
// streams into: a binary or unary root streams each run's aligned body in
// place and its head and tail through the tile buffer, any other root
// computes into the tile buffer and copies whole runs out; Explain says
// which. Its values must equal the same expression's
// without streaming stores (the tile path the differential tests hold to
// the reference). Randomized with a fixed seed: dtypes of 1 to 8 bytes,
// binary, unary and fused operations, operands that are full arrays,
// repeated rows or columns, odd and even inner dims, fresh outputs and
// existing ones one element off alignment, one and two workers.
func TestUnalignedRunsStream(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(31, 1129))
	dts := []array.DType{array.Int8, array.Int16, array.Float32, array.Float64, array.Int64, array.Uint32}
	build := []func(x, y *expr.Node) *expr.Node{
		func(x, y *expr.Node) *expr.Node { return expr.Add(x, y) },
		func(x, y *expr.Node) *expr.Node { return expr.Sub(y, x) },
		func(x, y *expr.Node) *expr.Node { return expr.Neg(expr.Mul(x, y)) },
		func(x, y *expr.Node) *expr.Node { return expr.IsNaN(expr.Sqrt(expr.Sub(x, y))) }, // 4 or 8 bytes in, 1 out
		func(x, y *expr.Node) *expr.Node { return expr.Mul(expr.Sub(x, y), y) },
		func(x, y *expr.Node) *expr.Node { return expr.Abs(expr.Sub(x, y)) },
		func(x, y *expr.Node) *expr.Node { return expr.Where(expr.Greater(x, y), x, y) },
		func(x, y *expr.Node) *expr.Node { return expr.Maximum(x, y) },
	}
	seen, seams := false, false
	for i := 0; i < 150; i++ {
		dt := dts[r.IntN(len(dts))]
		rows, inner := 2+r.IntN(12), 1+r.IntN(1100)
		if r.IntN(3) == 0 {
			inner = 1 + r.IntN(20) // short rows: batches of rows per tile
			rows = 50 + r.IntN(300)
		}
		out := []int{rows, inner}
		ys := [][]int{{inner}, {rows, 1}, {rows, inner}}[r.IntN(3)]
		x := randArray(t, r, mem, dt, out)
		y := randArray(t, r, mem, dt, ys)
		e := build[r.IntN(len(build))](expr.Leaf(x), expr.Leaf(y))
		require.NoError(t, e.Err())
		name := fmt.Sprintf("case %d: %v %v rows of %d", i, e, dt, inner)

		restore := expr.SetStreamingThreshold(math.MaxInt) // no streaming: the reference
		want, err := expr.Eval(e, expr.WithAllocator(mem))
		restore()
		require.NoError(t, err, name)

		restore = expr.SetStreamingThreshold(1)
		plan, err := expr.Explain(e)
		require.NoError(t, err, name)
		seen = seen || strings.Contains(plan, "streamed through the tile buffer")
		seams = seams || strings.Contains(plan, "heads and tails stream through the tile buffer")
		got, err := expr.Eval(e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)))
		require.NoError(t, err, name)
		require.NoError(t, naive.Equal(want, got), name)
		dst, release := offAligned(t, mem, e.DType(), out)
		require.NoError(t, expr.EvalInto(dst, e, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2))), name)
		require.NoError(t, naive.Equal(want, dst), name)
		release()
		restore()
		for _, a := range []*array.Array{x, y, want, got} {
			a.Release()
		}
	}
	if compute.Asm {
		require.True(t, seen, "no case streamed through the tile buffer")
		require.True(t, seams, "no case streamed its heads and tails through the tile buffer")
	}
}

// offAligned is an output of the given dtype and shape that starts one
// element past an aligned buffer's start (a view into a larger array), and
// the function that releases it.
func offAligned(t *testing.T, mem memory.Allocator, dt array.DType, shape []int) (*array.Array, func()) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	big, err := array.Empty(mem, dt, n+1)
	require.NoError(t, err)
	flat, err := view.Slice(big, view.Range{Start: 1, Stop: n + 1, Step: 1})
	require.NoError(t, err)
	dst, err := flat.Reshaped(shape...)
	require.NoError(t, err)
	return dst, func() {
		for _, a := range []*array.Array{big, flat, dst} {
			a.Release()
		}
	}
}
