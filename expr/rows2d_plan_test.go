package expr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// TestPlanRows2DMatchesReference: a compiled plan of one binary op called
// again and again (the second call on runs the pass it remembered, and a
// single row-looped kernel call without a worker where the pass is one:
// W10's fast path) gives, on every call, the values computed elementwise in
// float64 from the operands' broadcast values. Randomized with a fixed
// seed: dtypes with and without row-looped kernels; operands fresh or
// views (offsets, row strides longer than the row, reversed rows, a step
// along the inner axis), broadcast along rows, columns or both, swapped;
// variables bound to a different array of the same layout on each call
// (the pass must read this call's arrays); Eval and EvalInto (into
// contiguous arrays, into views with offsets and padded rows, into an
// output with a validity mask), one or two workers. Every buffer comes
// from a checked allocator.
func TestPlanRows2DMatchesReference(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(2026, 1128))
	ops := []struct {
		f   func(a, b *expr.Node, rule ...expr.Rule) *expr.Node
		ref func(a, b float64) float64
	}{
		{expr.Add, func(a, b float64) float64 { return a + b }},
		{expr.Sub, func(a, b float64) float64 { return a - b }},
		{expr.Mul, func(a, b float64) float64 { return a * b }},
	}
	dts := []array.DType{array.Float32, array.Float64, array.Int32, array.Int64, array.Uint32, array.Uint64, array.Int16}
	fastSeen, rowSeen := 0, 0
	for i := 0; i < 400; i++ {
		dt := dts[r.IntN(len(dts))]
		rows, inner := 1+r.IntN(9), 8*(1+r.IntN(6))
		rowCase := false
		if r.IntN(3) == 0 { // rows of 256-byte multiples: the repeated-row kernels
			inner = 32 * (1 + r.IntN(4))
			if r.IntN(2) == 0 { // and floats, which have them
				dt = []array.DType{array.Float32, array.Float64}[r.IntN(2)]
				rowCase = true
			}
		}
		if r.IntN(6) == 0 {
			inner = 1 + r.IntN(40) // not a multiple of the vector width
		}
		full := []int{rows, inner}
		yShapes := [][]int{{rows, inner}, {inner}, {rows, 1}, {}, {1, inner}}
		ys := yShapes[r.IntN(len(yShapes))]
		if rowCase && r.IntN(2) == 0 { // a repeated row
			ys = []int{inner}
		}
		// a source array of each operand's shape: fresh, or a view
		mk := func(shape []int) (*array.Array, []*array.Array) {
			a, owned := operandView(t, r, mem, dt, shape)
			return a, owned
		}
		var owned []*array.Array
		x, o1 := mk(full)
		y, o2 := mk(ys)
		owned = append(owned, o1...)
		owned = append(owned, o2...)
		useVars := r.IntN(2) == 0
		var a, b *expr.Node
		if useVars {
			a = expr.Var("x", dt, broadcast.StaticShape(full...))
			b = expr.Var("y", dt, broadcast.StaticShape(ys...))
		} else {
			a, b = expr.Leaf(x), expr.Leaf(y)
		}
		swap := r.IntN(2) == 0
		if swap {
			a, b = b, a
		}
		oi := r.IntN(len(ops))
		e := ops[oi].f(a, b)
		require.NoError(t, e.Err())
		workers := 1 + r.IntN(2)
		p, err := expr.Compile(e, expr.WithAllocator(mem), expr.WithWorkers(workers))
		require.NoError(t, err)
		mode := r.IntN(4) // 0, 1: Eval; 2: EvalInto a view; 3: EvalInto an output with nulls
		var dstOwn []*array.Array
		var dst *array.Array
		switch mode {
		case 2:
			dst, dstOwn = operandView(t, r, mem, dt, full)
			if dst.ReadOnly() { // a reversed or stepped view is writable; keep it simple
				t.Fatalf("case %d: read-only output view", i)
			}
		case 3:
			dst, _ = array.Full(mem, float64(0), full...)
			d2, err := expr.Eval(expr.Cast(expr.Leaf(dst), dt), expr.WithAllocator(mem))
			require.NoError(t, err)
			dst.Release()
			dst = d2
			dstOwn = []*array.Array{dst}
		}
		for call := 0; call < 4; call++ {
			name := fmt.Sprintf("case %d call %d: %v %v x%v y%v swap %v vars %v mode %d workers %d", i, call, dt, e, x.Strides(), y.Strides(), swap, useVars, mode, workers)
			var bind expr.Bindings
			cx, cy := x, y
			if useVars {
				if call > 0 { // another array of the same layout, other values
					var ox, oy []*array.Array
					cx, ox = sameLayout(t, r, mem, x)
					cy, oy = sameLayout(t, r, mem, y)
					owned = append(owned, ox...)
					owned = append(owned, oy...)
				}
				bind = expr.Bindings{"x": cx, "y": cy}
			}
			if mode == 3 { // a null before every call: the result has none
				require.NoError(t, dst.SetNull(r.IntN(rows), r.IntN(inner)))
			}
			var got *array.Array
			if mode < 2 {
				got, err = p.Eval(bind)
				require.NoError(t, err, name)
			} else {
				require.NoError(t, p.EvalInto(dst, bind), name)
				got = dst
			}
			lhs, rhs := cx, cy
			if swap {
				lhs, rhs = cy, cx
			}
			want := refBinary(t, lhs, rhs, full, ops[oi].ref, dt)
			gv, err := array.ToSlice[float64](got)
			require.NoError(t, err)
			require.Equal(t, want, gv, name)
			if mode < 2 {
				got.Release()
			} else if mode == 3 {
				valid, _ := array.ValidSlice(got)
				for j, v := range valid {
					require.True(t, v, "%s: element %d", name, j)
				}
			}
		}
		if expr.PlanRows2D(p) {
			fastSeen++
		}
		if expr.PlanRowKernel(p) {
			rowSeen++
		}
		for _, a := range append(owned, dstOwn...) {
			a.Release()
		}
	}
	if compute.Asm {
		require.Greater(t, fastSeen, 50, "the one-call row-looped path ran too rarely to be tested")
	}
	if _, ok := compute.LookupRowKernel(compute.Add, compute.Float32, false); ok {
		require.Greater(t, rowSeen, 20, "the repeated-row kernels ran too rarely to be tested")
	}
	t.Logf("%d of 400 plans kept a one-call row-looped pass, %d of them a repeated-row kernel", fastSeen, rowSeen)
}

// operandView returns an array of dt and shape with small random values:
// fresh and contiguous, or a view of a larger array (an offset, padded
// rows, reversed rows, a step of 2 along the inner axis), with the arrays
// to release.
func operandView(t *testing.T, r *rand.Rand, mem memory.Allocator, dt array.DType, shape []int) (*array.Array, []*array.Array) {
	if len(shape) != 2 || r.IntN(2) == 0 {
		a := randArray(t, r, mem, dt, shape)
		return a, []*array.Array{a}
	}
	R, C := shape[0], shape[1]
	var big *array.Array
	var ranges []view.Range
	switch r.IntN(4) {
	case 0: // an offset and padded rows
		big = randArray(t, r, mem, dt, []int{R + 2, C + 3})
		ranges = []view.Range{view.Span(1, 1+R), view.Span(2, 2+C)}
	case 1: // reversed rows
		big = randArray(t, r, mem, dt, []int{R, C})
		ranges = []view.Range{view.Reverse(), view.All()}
	case 2: // a step of 2 along the inner axis
		big = randArray(t, r, mem, dt, []int{R, 2 * C})
		ranges = []view.Range{view.All(), {Start: 1, Stop: 2 * C, Step: 2}}
	default: // a contiguous block at an offset
		big = randArray(t, r, mem, dt, []int{R + 1, C})
		ranges = []view.Range{view.Span(1, R+1), view.All()}
	}
	v, err := view.Slice(big, ranges...)
	require.NoError(t, err)
	require.Equal(t, shape, v.Shape())
	return v, []*array.Array{big, v}
}

// sameLayout returns an array with a's dtype, shape, strides and offset
// and new random values, with the arrays to release.
func sameLayout(t *testing.T, r *rand.Rand, mem memory.Allocator, a *array.Array) (*array.Array, []*array.Array) {
	n := a.Offset() + 1
	for i, d := range a.Shape() {
		if d > 0 {
			s := a.Stride(i)
			if s < 0 {
				s = -s
			}
			n += (d - 1) * s
		}
	}
	buf := randArray(t, r, mem, a.DType(), []int{n})
	v, err := buf.View(a.Shape(), a.Strides(), a.Offset())
	require.NoError(t, err)
	return v, []*array.Array{buf, v}
}

// refBinary computes op elementwise in float64 over x and y broadcast to
// shape and converts each result to dt (exact for the small values
// randArray makes).
func refBinary(t *testing.T, x, y *array.Array, shape []int, op func(a, b float64) float64, dt array.DType) []float64 {
	bx, err := view.BroadcastTo(x, shape)
	require.NoError(t, err)
	defer bx.Release()
	by, err := view.BroadcastTo(y, shape)
	require.NoError(t, err)
	defer by.Release()
	xv, err := array.ToSlice[float64](bx)
	require.NoError(t, err)
	yv, err := array.ToSlice[float64](by)
	require.NoError(t, err)
	out := make([]float64, len(xv))
	for i := range out {
		v := op(xv[i], yv[i])
		switch dt {
		case array.Int16:
			v = float64(int16(int64(v)))
		case array.Int32:
			v = float64(int32(int64(v)))
		case array.Uint32:
			v = float64(uint32(int64(v)))
		case array.Uint64:
			v = float64(uint64(int64(v)))
		case array.Float32:
			v = float64(float32(v))
		}
		out[i] = v
	}
	return out
}

// TestPlanRows2DConcurrent: goroutines sharing one plan whose pass is one
// row-looped call, each with its own bound arrays and outputs (Eval and
// EvalInto), get their own sums (run with -race).
func TestPlanRows2DConcurrent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := expr.Add(expr.Var("x", array.Float32, broadcast.StaticShape(64, 64)), expr.Var("b", array.Float32, broadcast.StaticShape(64)))
	p, err := expr.Compile(e, expr.WithAllocator(mem), expr.WithWorkers(1))
	require.NoError(t, err)
	const G = 4
	errs := make(chan error, G)
	for g := 0; g < G; g++ {
		go func(g int) {
			errs <- func() error {
				x, _ := array.Full(mem, float32(g), 64, 64)
				b, _ := array.Full(mem, float32(10*g), 64)
				out, _ := array.Empty(mem, array.Float32, 64, 64)
				defer x.Release()
				defer b.Release()
				defer out.Release()
				bind := expr.Bindings{"x": x, "b": b}
				for i := 0; i < 200; i++ {
					r, err := p.Eval(bind)
					if err != nil {
						return err
					}
					v, _ := array.Values[float32](r)
					if v[0] != float32(11*g) || v[len(v)-1] != float32(11*g) {
						r.Release()
						return fmt.Errorf("goroutine %d: Eval gave %v", g, v[0])
					}
					r.Release()
					if err := p.EvalInto(out, bind); err != nil {
						return err
					}
					if w, _ := array.Values[float32](out); w[100] != float32(11*g) {
						return fmt.Errorf("goroutine %d: EvalInto gave %v", g, w[100])
					}
				}
				return nil
			}()
		}(g)
	}
	for g := 0; g < G; g++ {
		require.NoError(t, <-errs)
	}
	if compute.Asm {
		require.True(t, expr.PlanRows2D(p))
	}
}
