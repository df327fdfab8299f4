package array_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
)

func TestFromSliceIntUint(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int{math.MinInt64, -1, 0, math.MaxInt64}, 2, 2)
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, array.Int64, a.DType())
	assert.Equal(t, []int{2, 2}, a.Shape())
	got, err := array.ToSlice[int64](a)
	require.NoError(t, err)
	assert.Equal(t, []int64{math.MinInt64, -1, 0, math.MaxInt64}, got)

	u, err := array.FromSlice(mem, []uint{math.MaxUint64, 7})
	require.NoError(t, err)
	defer u.Release()
	assert.Equal(t, array.Uint64, u.DType())
	gu, err := array.ToSlice[uint64](u)
	require.NoError(t, err)
	assert.Equal(t, []uint64{math.MaxUint64, 7}, gu)

	// The input is copied, not shared.
	in := []int{1, 2}
	c, err := array.FromSlice(mem, in)
	require.NoError(t, err)
	defer c.Release()
	in[0] = 9
	assert.Equal(t, int64(1), arraytest.At[int64](t, c, 0))

	_, err = array.FromSlice(mem, []int{1, 2, 3}, 2, 2)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = array.FromSlice(mem, []uint{1}, -1)
	assert.ErrorIs(t, err, array.ErrShape)
	e, err := array.FromSlice[int](mem, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, e.Shape())
	e.Release()
}

func TestFromNestedShapesAndDTypes(t *testing.T) {
	mem := checkedMem(t)
	type celsius float32
	for _, c := range []struct {
		in    any
		dt    array.DType
		shape []int
		want  []float64
	}{
		{3.5, array.Float64, []int{}, []float64{3.5}},
		{[]int{1, -2, 3}, array.Int64, []int{3}, []float64{1, -2, 3}},
		{[]uint{4}, array.Uint64, []int{1}, []float64{4}},
		{[][]float64{{1, 2, 3}, {4, 5, 6}}, array.Float64, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}},
		{[][][]int8{{{1}, {2}}, {{3}, {4}}, {{5}, {6}}}, array.Int8, []int{3, 2, 1}, []float64{1, 2, 3, 4, 5, 6}},
		{[][]bool{{true, false}}, array.Bool, []int{1, 2}, []float64{1, 0}},
		{[][2]uint16{{1, 2}, {3, 4}}, array.Uint16, []int{2, 2}, []float64{1, 2, 3, 4}},
		{[2][]int32{{1}, {2}}, array.Int32, []int{2, 1}, []float64{1, 2}},
		{[][]celsius{{1.5}, {-2}}, array.Float32, []int{2, 1}, []float64{1.5, -2}},
		{[][]float16.Num{{float16.New(0.5), float16.New(2)}}, array.Float16, []int{1, 2}, []float64{0.5, 2}},
		{[]int16{}, array.Int16, []int{0}, []float64{}},
		{[][]float64{}, array.Float64, []int{0, 0}, []float64{}},
		{[][]float64(nil), array.Float64, []int{0, 0}, []float64{}},
		{[][]uint32{{}, {}}, array.Uint32, []int{2, 0}, []float64{}},
		{[][][]int64{{}}, array.Int64, []int{1, 0, 0}, []float64{}},
		{[]uint8{255, 0}, array.Uint8, []int{2}, []float64{255, 0}},
		{[][]uint64{{math.MaxUint32 + 1}}, array.Uint64, []int{1, 1}, []float64{math.MaxUint32 + 1}},
	} {
		t.Run(fmt.Sprintf("%T", c.in), func(t *testing.T) {
			a, err := array.FromNested(mem, c.in)
			require.NoError(t, err)
			defer a.Release()
			assert.Equal(t, c.dt, a.DType())
			assert.Equal(t, c.shape, a.Shape())
			assert.True(t, a.IsContiguous())
			assert.Equal(t, c.want, floats(t, a))
		})
	}
}

func TestFromNestedErrors(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range []struct {
		in   any
		err  error
		text string
	}{
		{nil, array.ErrNil, "nil value"},
		{[][]float64{{1, 2}, {3}}, array.ErrShape, "v[1] has length 1, v[0] has 2"},
		{[][][]int{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8, 9}}}, array.ErrShape, "v[1][1] has length 3, v[0][0] has 2"},
		{[][][]int{{{1}}, {{2}, {3}}}, array.ErrShape, "v[1] has length 2, v[0] has 1"},
		{[][]uint32{{}, {1}}, array.ErrShape, "v[1] has length 1, v[0] has 0"},
		{[]string{"a"}, array.ErrDType, "string"},
		{[]any{1.0}, array.ErrDType, "interface"},
		{[]*float64{nil}, array.ErrDType, "*float64"},
		{&[]float64{1}, array.ErrDType, "*[]float64"},
		{[]complex128{1}, array.ErrDType, "complex128"},
		{map[int]int{}, array.ErrDType, "map"},
	} {
		a, err := array.FromNested(mem, c.in)
		assert.Nil(t, a)
		assert.ErrorIs(t, err, c.err, "%T", c.in)
		assert.ErrorContains(t, err, c.text)
	}
}

// TestNestedRoundTrip draws random shapes and dtypes and checks that
// ToNested and FromNested invert each other, also on strided views.
func TestNestedRoundTrip(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(11))
	for it := 0; it < 200; it++ {
		rank := rng.Intn(5)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = rng.Intn(4)
			if rng.Intn(8) == 0 {
				shape[i] = 0
			}
		}
		dt := array.DTypes[rng.Intn(len(array.DTypes))]
		a, err := arange(mem, dt, shape...)
		require.NoError(t, err)
		// reverse the last axis: a strided view
		if rank > 0 && a.Len() > 0 {
			st := a.Strides()
			off := (shape[rank-1] - 1) * st[rank-1]
			st[rank-1] = -st[rank-1]
			v, err := a.View(shape, st, off)
			require.NoError(t, err)
			a.Release()
			a = v
		}
		want := floats(t, a)
		var nested any
		switch dt {
		case array.Float32:
			nested, err = array.ToNested[float32](a)
		case array.Int64:
			nested, err = array.ToNested[int](a)
		case array.Uint64:
			nested, err = array.ToNested[uint](a)
		case array.Float16:
			nested, err = array.ToNested[float16.Num](a)
		case array.Bool:
			nested, err = array.ToNested[bool](a)
		case array.Int8:
			nested, err = array.ToNested[int8](a)
		case array.Uint16:
			nested, err = array.ToNested[uint16](a)
		default:
			nested, err = array.ToNested[float64](a)
		}
		require.NoError(t, err)
		back, err := array.FromNested(mem, nested)
		require.NoError(t, err)
		if len(shape) > 0 && shape[0] == 0 {
			// an empty outer slice hides the inner sizes: zeros
			for i := range shape {
				shape[i] = 0
			}
		} else {
			for i := range shape {
				if shape[i] == 0 {
					for j := i; j < len(shape); j++ {
						shape[j] = 0
					}
				}
			}
		}
		assert.Equal(t, shape, back.Shape(), "%v %v", dt, a.Shape())
		assert.Equal(t, want, floats(t, back))
		a.Release()
		back.Release()
	}
}

func TestToNested(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float32{1, 2, 3, 4, 5, 6}, []bool{true, true, false, true, true, true}, 3, 2)
	require.NoError(t, err)
	defer a.Release()
	v, err := array.ToNested[float64](a)
	require.NoError(t, err)
	rows := v.([][]float64)
	assert.Equal(t, [][]float64{{1, 2}, {0, 4}, {5, 6}}, rows)
	// rows do not overwrite each other on append
	rows[0] = append(rows[0], 99)
	assert.Equal(t, []float64{0, 4}, rows[1])

	i, err := array.ToNested[int](a)
	require.NoError(t, err)
	assert.Equal(t, [][]int{{1, 2}, {0, 4}, {5, 6}}, i)

	s, err := array.Scalar(mem, int8(-3))
	require.NoError(t, err)
	defer s.Release()
	sv, err := array.ToNested[uint](s)
	require.NoError(t, err)
	assert.Equal(t, uint(math.MaxUint64-2), sv)

	z, err := array.New(mem, array.Int32, 2, 0)
	require.NoError(t, err)
	defer z.Release()
	zv, err := array.ToNested[int32](z)
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{}, {}}, zv)

	var nilArr *array.Array
	_, err = array.ToNested[float64](nilArr)
	assert.ErrorIs(t, err, array.ErrNil)
	b, err := array.FromSlice(mem, []float64{1})
	require.NoError(t, err)
	b.Release()
	_, err = array.ToNested[float64](b)
	assert.ErrorIs(t, err, array.ErrReleased)
}

func ExampleFromNested() {
	a, err := array.FromNested(nil, [][]float64{{1, 2, 3}, {4, 5, 6}})
	if err != nil {
		panic(err)
	}
	defer a.Release()
	fmt.Printf("%+v\n", a)
	rows, _ := array.ToNested[int](a)
	fmt.Println(rows.([][]int))
	_, err = array.FromNested(nil, [][]int{{1, 2}, {3}})
	fmt.Println(err)
	// Output:
	// array([[1. 2. 3.]
	//        [4. 5. 6.]], dtype=float64, shape=[2 3])
	// [[1 2 3] [4 5 6]]
	// array.FromNested: invalid shape: ragged input: v[1] has length 1, v[0] has 2
}
