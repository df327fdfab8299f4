package expr_test

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

func TestSmoke(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x, _ := array.FromSlice(mem, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := array.FromSlice(mem, []float32{10, 20, 30}, 3)
	defer x.Release()
	defer b.Release()
	out, err := expr.Eval(expr.Mul(expr.Add(expr.Leaf(x), expr.Leaf(b)), expr.Const(float32(2))), expr.WithAllocator(mem))
	require.NoError(t, err)
	got, _ := array.ToSlice[float32](out)
	require.Equal(t, []float32{22, 44, 66, 28, 50, 72}, got)
	out.Release()

	s, err := expr.Eval(expr.ReduceSum(expr.Leaf(x), []int{0}, false), expr.WithAllocator(mem))
	require.NoError(t, err)
	gs, _ := array.ToSlice[float32](s)
	require.Equal(t, []float32{5, 7, 9}, gs)
	s.Release()

	i, _ := array.FromSlice(mem, []int32{1, -2, 3, 4, 5, 6}, 2, 3)
	defer i.Release()
	m, err := expr.Eval(expr.ReduceMean(expr.Leaf(i), nil, false), expr.WithAllocator(mem))
	require.NoError(t, err)
	gm, _ := array.ToSlice[float64](m)
	require.Equal(t, []float64{17.0 / 6}, gm)
	m.Release()

	rt, err := expr.Eval(expr.ReduceTo(expr.Leaf(i), []int{3}), expr.WithAllocator(mem))
	require.NoError(t, err)
	gr, _ := array.ToSlice[int32](rt)
	require.Equal(t, []int32{5, 3, 9}, gr)
	require.Equal(t, array.Int32, rt.DType())
	rt.Release()

	w, err := expr.Eval(expr.Where(expr.Greater(expr.Leaf(x), expr.Leaf(b)), expr.Leaf(x), expr.Scalar(0, array.Float32)), expr.WithAllocator(mem))
	require.NoError(t, err)
	gw, _ := array.ToSlice[float32](w)
	require.Equal(t, []float32{0, 0, 0, 0, 0, 0}, gw)
	w.Release()
}
