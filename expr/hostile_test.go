package expr_test

// Regression tests of issue 9 (hostile input): absurd tile sizes and
// worker counts, shapes whose element count overflows, nil and zero
// receivers. Each reproduces the report exactly.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// stepTwo returns a step-2 slice of n random float32 (a gathered leaf) and
// its values.
func stepTwo(t *testing.T, mem memory.Allocator, n int, seed uint64) (*array.Array, []float32) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 9))
	base := make([]float32, 2*n)
	for i := range base {
		base[i] = r.Float32() * 100
	}
	b := mk(t, mem, base, 2*n)
	xs, err := view.Slice(b, view.Range{Start: 0, Stop: 2 * n, Step: 2})
	require.NoError(t, err)
	t.Cleanup(xs.Release)
	want := make([]float32, n)
	for i := range want {
		want[i] = base[2*i]
	}
	return xs, want
}

// TestTileSizeHostile is the report's reproduction: sqrt(xs + xs) over a
// step-2 slice of 200,000 float32 with a tile of 1<<61 (whose scratch size
// wrapped to 64 bytes and corrupted the heap), 1<<36 on 100,000 elements
// (which asked for 2 TB), and the other absurd sizes. Each must evaluate to
// the right answer with scratch bounded by what the pass needs.
func TestTileSizeHostile(t *testing.T) {
	for _, tc := range []struct {
		n, tile int
	}{
		{200000, 1 << 61}, {100000, 1 << 36}, {200000, math.MaxInt}, {1000, math.MinInt},
		{1000, -1}, {1000, 0}, {1000, 1}, {1000, 15}, {3000, expr.MaxTile + 1}, {70000, 1 << 40},
	} {
		t.Run(fmt.Sprintf("n=%d/tile=%d", tc.n, tc.tile), func(t *testing.T) {
			mem := checkedMem(t)
			xs, vals := stepTwo(t, mem, tc.n, uint64(tc.n))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out, err := expr.Eval(expr.Sqrt(expr.Add(expr.Leaf(xs), expr.Leaf(xs))),
				expr.WithTileSize(tc.tile), expr.WithWorkers(1), expr.WithAllocator(mem))
			runtime.ReadMemStats(&after)
			require.NoError(t, err)
			defer out.Release()
			got, err := array.ToSlice[float32](out)
			require.NoError(t, err)
			require.Len(t, got, tc.n)
			for i, v := range vals {
				want := float32(math.Sqrt(float64(v + v)))
				if got[i] != want {
					t.Fatalf("element %d: got %v, want %v", i, got[i], want)
				}
			}
			// scratch is a few registers of at most n elements: far below
			// what the option asks for
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "Go heap allocated by the evaluation")
		})
	}
}

// TestTileSizeReductions runs absurd tiles through reductions, masks and a
// batched short-row pass, against values computed here.
func TestTileSizeReductions(t *testing.T) {
	mem := checkedMem(t)
	const rows, cols = 300, 7
	r := rand.New(rand.NewPCG(3, 4))
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = float64(r.IntN(1000))
	}
	x := mk(t, mem, v, rows, cols)
	bias := mk(t, mem, []float64{1, 2, 3, 4, 5, 6, 7}, cols)
	for _, tile := range []int{1 << 62, 1 << 36, -7, 0, 16} {
		opts := []expr.Option{expr.WithTileSize(tile), expr.WithWorkers(1 << 30), expr.WithAllocator(mem)}
		sum, err := expr.Eval(expr.ReduceSum(expr.Add(expr.Leaf(x), expr.Leaf(bias)), []int{0}, false), opts...)
		require.NoError(t, err)
		got, err := array.ToSlice[float64](sum)
		require.NoError(t, err)
		sum.Release()
		for j := 0; j < cols; j++ {
			want := 0.0
			for i := 0; i < rows; i++ {
				want += v[i*cols+j] + float64(j+1)
			}
			require.Equal(t, want, got[j], "tile %d column %d", tile, j)
		}
	}
}

func TestTileClamp(t *testing.T) {
	require.Equal(t, 16, expr.PassTile(1, 1<<20))
	require.Equal(t, expr.DefaultTile, expr.PassTile(0, 1<<20))
	require.Equal(t, expr.DefaultTile, expr.PassTile(-5, 1<<20))
	require.Equal(t, expr.MaxTile, expr.PassTile(1<<61, 1<<40))
	require.Equal(t, 100000, expr.PassTile(1<<36, 100000))
	require.Equal(t, 1, expr.PassTile(1<<36, 0))
	_, ok := expr.ScratchBytes(1<<50, expr.MaxTile, 8)
	require.False(t, ok, "scratch of 2^50 registers must not fit")
	_, ok = expr.ScratchBytes(math.MaxInt-2, 1, 1)
	require.False(t, ok, "register count overflow")
	for _, w := range []int{0, 9, -1} {
		_, ok = expr.ScratchBytes(2, 1024, w)
		require.False(t, ok, "element width %d", w)
	}
	n, ok := expr.ScratchBytes(2, 1024, 8)
	require.True(t, ok)
	require.Equal(t, 5*1024*8+64, n)
	n, ok = expr.ScratchBytes(2, 1000, 1) // registers start on cache lines
	require.True(t, ok)
	require.Equal(t, 5*1024+64, n)
	s, err := expr.Explain(expr.Add(expr.Const(1.0), expr.Const(2.0)), expr.WithTileSize(1<<61))
	require.NoError(t, err)
	require.Contains(t, s, fmt.Sprintf("tile %d", expr.MaxTile))
}

// TestWorkersHostile is the report's WithWorkers(1e9) on a 4M-element add
// (which started a goroutine each): the count is clamped and the result is
// right.
func TestWorkersHostile(t *testing.T) {
	limit := max(runtime.GOMAXPROCS(0), 8)
	require.LessOrEqual(t, expr.ClampWorkers(1e9, 4<<20, 4<<20), limit)
	require.Equal(t, 1, expr.ClampWorkers(1e9, 1000, 1000))
	require.Equal(t, 1, expr.ClampWorkers(-3, 1<<20, 1<<20))
	require.Equal(t, 2, expr.ClampWorkers(1e9, 1<<20, 2))
	mem := checkedMem(t)
	const n = 4 << 20
	a, err := array.Arange(mem, array.Float32, 0, n, 1)
	require.NoError(t, err)
	defer a.Release()
	out, err := expr.Eval(expr.Add(expr.Leaf(a), expr.Leaf(a)), expr.WithWorkers(1e9), expr.WithAllocator(mem))
	require.NoError(t, err)
	defer out.Release()
	got, err := array.Values[float32](out)
	require.NoError(t, err)
	for i := 0; i < n; i += 997 {
		require.Equal(t, float32(2*i), got[i], "element %d", i)
	}
	require.Equal(t, float32(2*(n-1)), got[n-1])
	s, err := expr.Explain(expr.Add(expr.Leaf(a), expr.Leaf(a)), expr.WithWorkers(1e9))
	require.NoError(t, err)
	require.Contains(t, s, fmt.Sprintf("workers %d,", limit))
}

// TestElementCountOverflow is the report's broadcast of ones[1,1] to
// [1<<32, 1<<32], which built without error and reduced to 0, -Inf and NaN:
// every node now checks its element count at build.
func TestElementCountOverflow(t *testing.T) {
	mem := checkedMem(t)
	ones := mk(t, mem, []float32{1}, 1, 1)
	huge := []int{1 << 32, 1 << 32}
	_, verr := view.BroadcastTo(ones, huge)
	require.ErrorIs(t, verr, broadcast.ErrOverflow, "view.BroadcastTo rejects the shape")
	b := expr.BroadcastNumpy(expr.Leaf(ones), huge)
	checkErr(t, b.Err(), []error{broadcast.ErrOverflow}, []string{"[4294967296 4294967296]", "Broadcast(numpy)"})
	for _, e := range []*expr.Node{
		expr.ReduceSum(b, nil, false), expr.ReduceMax(b, nil, false), expr.ReduceMean(b, nil, false),
		expr.ReduceSum(b, []int{0}, false), expr.ReduceTo(b, []int{1, 1}),
	} {
		checkErr(t, e.Err(), []error{broadcast.ErrOverflow}, []string{"[4294967296 4294967296]"})
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		require.Nil(t, out)
		require.ErrorIs(t, err, broadcast.ErrOverflow)
	}
	// each operand fits, their broadcast does not
	col := expr.BroadcastNumpy(expr.Leaf(ones), []int{1 << 32, 1})
	row := expr.BroadcastNumpy(expr.Leaf(ones), []int{1, 1 << 32})
	require.NoError(t, col.Err())
	require.NoError(t, row.Err())
	for _, e := range []*expr.Node{
		expr.Add(col, row), expr.Where(expr.Cast(col, array.Bool), row, col), expr.Mul(row, col, expr.Numpy),
	} {
		checkErr(t, e.Err(), []error{broadcast.ErrOverflow}, []string{"[4294967296 4294967296]"})
	}
	// the other broadcast modes
	for _, e := range []*expr.Node{
		expr.BroadcastBidirectional(expr.Leaf(ones), huge),
		expr.BroadcastExplicit(expr.Leaf(ones), huge, []int{0, 1}),
		expr.BroadcastPDPD(expr.Leaf(ones), huge, -1),
		expr.BroadcastNGraph(expr.Scalar(1, array.Float32), huge, []int{0, 1}),
	} {
		checkErr(t, e.Err(), []error{broadcast.ErrOverflow}, []string{"[4294967296 4294967296]"})
	}
	// a declared variable shape
	v := expr.Var("x", array.Float32, broadcast.StaticShape(1<<40, 1<<40))
	checkErr(t, v.Err(), []error{broadcast.ErrOverflow}, []string{`"x"`})
	// a shape only known at evaluation: the variable has unknown rank
	dyn := expr.Var("d", array.Float32, broadcast.DynamicShape())
	e := expr.Mul(expr.BroadcastBidirectional(dyn, []int{1 << 32, 1}), expr.BroadcastBidirectional(dyn, []int{1 << 32}))
	require.NoError(t, e.Err(), "nothing is known at build")
	p, err := expr.Compile(e, expr.WithAllocator(mem))
	require.NoError(t, err)
	out, err := p.Eval(expr.Bindings{"d": ones})
	require.Nil(t, out)
	checkErr(t, err, []error{broadcast.ErrOverflow}, []string{"[4294967296 4294967296]", "multiply"})
	// the same under a reduction, over a variable of known rank: an error
	// at build or at evaluation, never a number
	dyn2 := expr.Var("d", array.Float32, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.UnknownDim()}, RankKnown: true})
	e = expr.ReduceMax(expr.Mul(expr.BroadcastBidirectional(dyn2, []int{1 << 32, 1}), expr.BroadcastBidirectional(dyn2, []int{1, 1 << 32})), nil, false)
	out, err = expr.Eval(e, expr.WithAllocator(mem), expr.WithBindings(expr.Bindings{"d": ones}))
	require.Nil(t, out)
	require.ErrorIs(t, err, broadcast.ErrOverflow)
}

// TestNilReceivers: methods of nil and zero values of the exported types
// answer with errors or zero values.
func TestNilReceivers(t *testing.T) {
	var p *expr.Plan
	require.Nil(t, p.Root())
	out, err := p.Eval(nil)
	require.Nil(t, out)
	require.ErrorIs(t, err, expr.ErrNilNode)
	require.ErrorIs(t, p.EvalInto(nil, nil), expr.ErrNilNode)
	_, err = p.Explain(nil)
	require.ErrorIs(t, err, expr.ErrNilNode)

	zp := &expr.Plan{}
	require.Nil(t, zp.Root())
	out, err = zp.Eval(nil)
	require.Nil(t, out)
	require.ErrorIs(t, err, expr.ErrNilNode)
	mem := checkedMem(t)
	dst := mk(t, mem, []float32{0}, 1)
	require.ErrorIs(t, zp.EvalInto(dst, nil), expr.ErrNilNode)
	_, err = zp.Explain(nil)
	require.ErrorIs(t, err, expr.ErrNilNode)

	var n *expr.Node
	require.ErrorIs(t, n.Err(), expr.ErrNilNode)
	require.Equal(t, array.Invalid, n.DType())
	require.False(t, n.Shape().RankKnown)
	_, ok := n.StaticShape()
	require.False(t, ok)
	require.Equal(t, "<nil>", n.String())
	require.Empty(t, n.Vars())

	z := &expr.Node{}
	require.ErrorIs(t, z.Err(), expr.ErrNilNode)
	require.NotEmpty(t, z.String())
	require.Empty(t, z.Vars())
	_, ok = z.StaticShape()
	require.False(t, ok)
	out, err = expr.Eval(z)
	require.Nil(t, out)
	require.ErrorIs(t, err, expr.ErrNilNode)
	require.ErrorIs(t, expr.EvalInto(dst, z), expr.ErrNilNode)
	_, err = expr.Explain(z)
	require.ErrorIs(t, err, expr.ErrNilNode)
	for _, e := range []*expr.Node{
		expr.Add(z, expr.Leaf(dst)), expr.Neg(z), expr.ReduceSum(z, nil, false), expr.BroadcastNumpy(z, []int{2}),
		expr.Where(z, z, z), expr.Cast(z, array.Int8), expr.ReduceTo(z, []int{1}), expr.SumOf(z, z), expr.MeanOf(z),
	} {
		require.ErrorIs(t, e.Err(), expr.ErrNilNode, "%v", e)
	}

	var be *broadcast.Error
	require.NotPanics(t, func() { _ = be.Error() })
	require.Nil(t, be.Unwrap())
}

// TestEvalIntoSelfOverlap is the report's EvalInto of 1..9 into
// z.View([]int{3, 3}, []int{1, 1}, 0), which wrote [1 4 7 4 7 8 7 8 9]:
// the view is read-only, the evaluation an error, and z unchanged.
func TestEvalIntoSelfOverlap(t *testing.T) {
	mem := checkedMem(t)
	z := mk(t, mem, make([]float64, 9), 9)
	v, err := z.View([]int{3, 3}, []int{1, 1}, 0)
	require.NoError(t, err)
	defer v.Release()
	require.True(t, v.ReadOnly())
	src, err := array.Arange(mem, array.Float64, 1, 10, 1)
	require.NoError(t, err)
	defer src.Release()
	src3, err := view.Reshape(src, 3, 3)
	require.NoError(t, err)
	defer src3.Release()
	err = expr.EvalInto(v, expr.Leaf(src3), expr.WithAllocator(mem))
	require.ErrorIs(t, err, array.ErrReadOnly)
	require.ErrorIs(t, err, expr.ErrOutput)
	got, err := array.ToSlice[float64](z)
	require.NoError(t, err)
	require.Equal(t, make([]float64, 9), got)
}
