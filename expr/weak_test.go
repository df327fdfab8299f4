package expr_test

// NumPy 2's scalar rules (NEP 50) and loops, from the issue's examples and
// the package documentation's table.

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

func TestWeakScalars(t *testing.T) {
	mem := checkedMem(t)
	f32 := expr.Leaf(mk(t, mem, []float32{1, 2.5, -3}))
	i8 := expr.Leaf(mk(t, mem, []int8{1, 127, -128}))
	i32 := expr.Leaf(mk(t, mem, []int32{1, 2, 3}))
	u8 := expr.Leaf(mk(t, mem, []uint8{0, 7, 255}))
	b := expr.Leaf(mk(t, mem, []bool{true, false, true}))

	require.Equal(t, []float32{2, 5, -6}, evalAs[float32](t, mem, expr.Mul(f32, expr.Const(2.0)), array.Float32, 3))
	require.Equal(t, []float32{3, 4.5, -1}, evalAs[float32](t, mem, expr.Add(f32, expr.Const(2)), array.Float32, 3))
	require.Equal(t, []int8{2, -128, -127}, evalAs[int8](t, mem, expr.Add(i8, expr.Const(1)), array.Int8, 3), "wraps in int8")
	require.Equal(t, []int64{2, 128, -127}, evalAs[int64](t, mem, expr.Add(i8, expr.Const(int64(1))), array.Int64, 3), "strong int64")
	require.Equal(t, []int16{2, 128, -127}, evalAs[int16](t, mem, expr.Add(i8, expr.Scalar(1, array.Int16)), array.Int16, 3), "strong Scalar")
	require.Equal(t, []float64{2.5, 317.5, -320}, evalAs[float64](t, mem, expr.Mul(i8, expr.Const(2.5)), array.Float64, 3))
	require.Equal(t, []int64{3, 2, 3}, evalAs[int64](t, mem, expr.Add(b, expr.Const(2)), array.Int64, 3))
	require.Equal(t, []float64{3.5, 2.5, 3.5}, evalAs[float64](t, mem, expr.Add(b, expr.Const(2.5)), array.Float64, 3))
	require.Equal(t, []uint8{1, 8, 0}, evalAs[uint8](t, mem, expr.Add(u8, expr.Const(true)), array.Uint8, 3))
	require.Equal(t, []float64{0.5, 1, 1.5}, evalAs[float64](t, mem, expr.Div(i32, expr.Const(2)), array.Float64, 3), "true division")
	require.Equal(t, []int64{5}, evalAs[int64](t, mem, expr.Add(expr.Const(2), expr.Const(3)), array.Int64), "weak with weak: defaults")
	// the loop's dtype, not the promoted one, bounds a weak int
	require.Equal(t, array.Float32, expr.Arctan2(expr.Leaf(mk(t, mem, []uint16{1})), expr.Const(-2)).DType())
	// comparisons with an out-of-range weak int compare exact values
	require.Equal(t, []bool{true, true, true}, evalAs[bool](t, mem, expr.Less(u8, expr.Const(300)), array.Bool, 3))
	require.Equal(t, []bool{false, false, false}, evalAs[bool](t, mem, expr.Equal(u8, expr.Const(-1)), array.Bool, 3))
	require.Equal(t, []bool{true, true, true}, evalAs[bool](t, mem, expr.Greater(expr.Leaf(mk(t, mem, []uint64{0, 1, math.MaxUint64})), expr.Const(-1)), array.Bool, 3))
	// exact 64-bit weak ints
	require.Equal(t, []int64{math.MaxInt64}, evalAs[int64](t, mem, expr.Add(expr.Leaf(mk(t, mem, []int64{0})), expr.Const(math.MaxInt64)), array.Int64, 1))
	require.Equal(t, []uint64{1<<63 - 1}, evalAs[uint64](t, mem, expr.Add(expr.Leaf(mk(t, mem, []uint64{0})), expr.Const(math.MaxInt64)), array.Uint64, 1))

	for _, c := range []struct {
		e    *expr.Node
		want []string
	}{
		{expr.Add(u8, expr.Const(300)), []string{"add", "300", "uint8"}},
		{expr.Sub(u8, expr.Const(-1)), []string{"subtract", "-1", "uint8"}},
		{expr.BitwiseXor(expr.Leaf(mk(t, mem, []uint32{1})), expr.Const(-1)), []string{"bitwise_xor", "-1", "uint32"}},
		{expr.Scalar(300, array.Int8), []string{"300", "int8"}},
		{expr.Scalar(-0.5e20, array.Int64), []string{"int64"}},
		{expr.Scalar(math.Inf(1), array.Uint8), []string{"uint8"}},
		{expr.Where(b, u8, expr.Const(256)), []string{"select", "256", "uint8"}},
		{expr.Clip(i8, expr.Const(1000), expr.Const(1)), []string{"clip", "1000", "int8"}},
	} {
		require.ErrorIs(t, c.e.Err(), expr.ErrOverflow, "%v", c.e)
		for _, w := range c.want {
			require.Contains(t, c.e.Err().Error(), w)
		}
	}
	// a fraction truncates toward zero
	require.Equal(t, []int8{-2}, evalAs[int8](t, mem, expr.Scalar(-2.9, array.Int8), array.Int8))
	require.Equal(t, []uint8{255}, evalAs[uint8](t, mem, expr.Scalar(255.99, array.Uint8), array.Uint8))
}

func TestWhereClipRound(t *testing.T) {
	mem := checkedMem(t)
	c := expr.Leaf(mk(t, mem, []bool{true, false, true, false}))
	u8 := expr.Leaf(mk(t, mem, []uint8{1, 2, 3, 4}))
	f32 := expr.Leaf(mk(t, mem, []float32{-2, 0.5, 7, float32(math.NaN())}))
	require.Equal(t, []float64{1, -2.5, 3, -2.5}, evalAs[float64](t, mem, expr.Where(c, u8, expr.Const(-2.5)), array.Float64, 4))
	require.Equal(t, []float32{-2, 1, 7, 1}, evalAs[float32](t, mem, expr.Where(c, f32, expr.Const(true)), array.Float32, 4))
	require.Equal(t, []uint8{2, 2, 3, 3}, evalAs[uint8](t, mem, expr.Clip(u8, expr.Const(2), expr.Const(3)), array.Uint8, 4))
	cl := evalAs[float32](t, mem, expr.Clip(f32, expr.Const(0), expr.Const(5)), array.Float32, 4)
	require.Equal(t, []float32{0, 0.5, 5}, cl[:3])
	require.True(t, math.IsNaN(float64(cl[3])), "NaN propagates")
	// broadcast bounds: a [2 1] lower bound over [4]
	lo := expr.Leaf(mk(t, mem, []uint8{2, 3}, 2, 1))
	require.Equal(t, []uint8{2, 2, 3, 4, 3, 3, 3, 4}, evalAs[uint8](t, mem, expr.Clip(u8, lo, expr.Const(10)), array.Uint8, 2, 4))

	x := expr.Leaf(mk(t, mem, []float64{0.5, 1.5, 2.5, -2.5, 1.25, 1234.5678, -0.0}))
	require.Equal(t, []float64{0, 2, 2, -2, 1, 1235, 0}, evalAs[float64](t, mem, expr.Round(x, 0), array.Float64, 7))
	require.Equal(t, []float64{0.5, 1.5, 2.5, -2.5, 1.2, 1234.6, 0}, evalAs[float64](t, mem, expr.Round(x, 1), array.Float64, 7))
	require.Equal(t, []float64{0, 0, 0, -0, 0, 1200, 0}, evalAs[float64](t, mem, expr.Round(x, -2), array.Float64, 7))
	n := expr.Leaf(mk(t, mem, []int32{1234, -1250, 1350, 49}))
	require.Equal(t, []int32{1234, -1250, 1350, 49}, evalAs[int32](t, mem, expr.Round(n, 2), array.Int32, 4))
	require.Equal(t, []int32{1200, -1200, 1400, 0}, evalAs[int32](t, mem, expr.Round(n, -2), array.Int32, 4), "halves to even")
	h := expr.Leaf(mk(t, mem, []float32{2.675, 0.125}))
	require.Equal(t, []float32{2.68, 0.12}, evalAs[float32](t, mem, expr.Round(h, 2), array.Float32, 2), "float32(2.675)*100 is 267.5 in float32, as NumPy gives")
}

// A Go number is weak, as a Python number in NumPy 2: it takes the array's
// dtype.
func ExampleConst() {
	x, _ := array.FromSlice(nil, []float32{1, 2, 3})
	i, _ := array.FromSlice(nil, []int32{1, 2, 3})
	u, _ := array.FromSlice(nil, []uint8{1, 2, 3})
	fmt.Println(expr.Mul(expr.Leaf(x), expr.Const(2.0)).DType())
	fmt.Println(expr.Div(expr.Leaf(i), expr.Const(2)).DType())
	fmt.Println(expr.Add(expr.Leaf(i), expr.Const(int64(1))).DType())
	fmt.Println(expr.Add(expr.Leaf(u), expr.Const(300)).Err())
	// Output:
	// float32
	// float64
	// int64
	// expr.add: value out of range: Go int 300 out of bounds for uint8
}
