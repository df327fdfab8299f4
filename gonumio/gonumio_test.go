package gonumio_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/gonumio"
	"github.com/stride0/stride0/internal/arraytest"
)

func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// sameValues asserts that the 2-D array a and the matrix m hold the same
// values (NaN for a null).
func sameValues(t *testing.T, a *array.Array, m mat.Matrix) {
	t.Helper()
	r, c := m.Dims()
	require.Equal(t, []int{r, c}, a.Shape())
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			want := arraytest.At[float64](t, a, i, j)
			if !arraytest.IsValid(t, a, i, j) {
				want = math.NaN()
			}
			got := m.At(i, j)
			if !(math.IsNaN(want) && math.IsNaN(got)) {
				require.Equal(t, want, got, "(%d, %d)", i, j)
			}
		}
	}
}

func TestFromDenseShares(t *testing.T) {
	big := mat.NewDense(4, 5, nil)
	for i := 0; i < 4; i++ {
		for j := 0; j < 5; j++ {
			big.Set(i, j, float64(10*i+j))
		}
	}
	sub := big.Slice(1, 3, 2, 5).(*mat.Dense) // 2×3 with stride 5
	a, err := gonumio.FromDense(sub)
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, []int{2, 3}, a.Shape())
	assert.Equal(t, []int{5, 1}, a.Strides())
	sameValues(t, a, sub)
	sub.Set(1, 2, -1)
	assert.Equal(t, -1.0, arraytest.At[float64](t, a, 1, 2))
	require.NoError(t, array.Set(a, 7.5, 0, 0))
	assert.Equal(t, 7.5, big.At(1, 2))

	v := mat.NewVecDense(6, []float64{0, 1, 2, 3, 4, 5})
	sv := v.SliceVec(1, 6).(*mat.VecDense)
	b, err := gonumio.FromVecDense(sv)
	require.NoError(t, err)
	defer b.Release()
	assert.Equal(t, []int{5}, b.Shape())
	got, err := array.ToSlice[float64](b)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 2, 3, 4, 5}, got)
	require.NoError(t, array.Set(b, 9.0, 4))
	assert.Equal(t, 9.0, v.AtVec(5))

	for _, empty := range []*mat.Dense{nil, {}} {
		e, err := gonumio.FromDense(empty)
		require.NoError(t, err)
		assert.Equal(t, []int{0, 0}, e.Shape())
		e.Release()
	}
	e, err := gonumio.FromVecDense(nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, e.Shape())
	e.Release()
}

func TestFromMatrix(t *testing.T) {
	mem := checkedMem(t)
	d := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})

	tr, err := gonumio.FromMatrix(mem, d.T())
	require.NoError(t, err)
	defer tr.Release()
	sameValues(t, tr, d.T())
	assert.Equal(t, []int{1, 3}, tr.Strides(), "a transpose is a view")
	d.Set(0, 1, 20)
	assert.Equal(t, 20.0, arraytest.At[float64](t, tr, 1, 0))

	col := mat.NewVecDense(3, []float64{7, 8, 9})
	c, err := gonumio.FromMatrix(mem, col)
	require.NoError(t, err)
	defer c.Release()
	sameValues(t, c, col)
	row, err := gonumio.FromMatrix(mem, col.T())
	require.NoError(t, err)
	defer row.Release()
	sameValues(t, row, col.T())

	sym := mat.NewSymDense(3, []float64{1, 2, 3, 2, 4, 5, 3, 5, 6})
	s, err := gonumio.FromMatrix(mem, sym)
	require.NoError(t, err)
	defer s.Release()
	sameValues(t, s, sym)
	assert.True(t, s.IsContiguous())
	st, err := gonumio.FromMatrix(mem, sym.T())
	require.NoError(t, err)
	defer st.Release()
	sameValues(t, st, sym.T())

	_, err = gonumio.FromMatrix(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)
}

func TestToDense(t *testing.T) {
	mem := checkedMem(t)
	vals := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	a, err := array.FromSlice(mem, vals, 3, 4)
	require.NoError(t, err)
	defer a.Release()

	d, shared, err := gonumio.ToDense(a)
	require.NoError(t, err)
	assert.True(t, shared)
	sameValues(t, a, d)
	d.Set(2, 3, -5)
	assert.Equal(t, -5.0, arraytest.At[float64](t, a, 2, 3), "shared memory")

	// rows 1..2, columns 1..2: offset and a row stride wider than the row
	sub, err := a.View([]int{2, 2}, []int{4, 1}, 5)
	require.NoError(t, err)
	defer sub.Release()
	ds, shared, err := gonumio.ToDense(sub)
	require.NoError(t, err)
	assert.True(t, shared)
	sameValues(t, sub, ds)
	dv, err := gonumio.DenseView(sub)
	require.NoError(t, err)
	sameValues(t, sub, dv)

	// copies: transposed, broadcast, another dtype, nulls
	tr, err := a.View([]int{4, 3}, []int{1, 4}, 0)
	require.NoError(t, err)
	defer tr.Release()
	bc, err := a.View([]int{3, 4}, []int{0, 1}, 0)
	require.NoError(t, err)
	defer bc.Release()
	f32, err := array.FromSlice(mem, []float32{1, 2, 3, 4}, 2, 2)
	require.NoError(t, err)
	defer f32.Release()
	nulls, err := array.FromSliceValid(mem, []float64{1, 2, 3, 4}, []bool{true, false, true, true}, 2, 2)
	require.NoError(t, err)
	defer nulls.Release()
	for _, c := range []*array.Array{tr, bc, f32, nulls} {
		dc, shared, err := gonumio.ToDense(c)
		require.NoError(t, err)
		assert.False(t, shared)
		sameValues(t, c, dc)
		_, err = gonumio.DenseView(c)
		assert.ErrorIs(t, err, gonumio.ErrLayout)
		cp, err := gonumio.CopyToDense(c)
		require.NoError(t, err)
		sameValues(t, c, cp)
	}
	assert.True(t, math.IsNaN(func() float64 { d, _, _ := gonumio.ToDense(nulls); return d.At(0, 1) }()))

	cp, err := gonumio.CopyToDense(a)
	require.NoError(t, err)
	cp.Set(0, 0, 100)
	assert.Equal(t, 0.0, arraytest.At[float64](t, a, 0, 0), "a copy is independent")

	z, err := array.New(mem, array.Float64, 0, 3)
	require.NoError(t, err)
	defer z.Release()
	dz, shared, err := gonumio.ToDense(z)
	require.NoError(t, err)
	assert.False(t, shared)
	assert.True(t, dz.IsEmpty())
}

func TestToVecDense(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []float64{0, 1, 2, 3, 4, 5})
	require.NoError(t, err)
	defer a.Release()
	every2, err := a.View([]int{3}, []int{2}, 1)
	require.NoError(t, err)
	defer every2.Release()
	v, shared, err := gonumio.ToVecDense(every2)
	require.NoError(t, err)
	assert.True(t, shared)
	assert.Equal(t, 2, v.RawVector().Inc)
	assert.Equal(t, []float64{1, 3, 5}, []float64{v.AtVec(0), v.AtVec(1), v.AtVec(2)})
	v.SetVec(2, 50)
	assert.Equal(t, 50.0, arraytest.At[float64](t, a, 5))

	rev, err := a.View([]int{6}, []int{-1}, 5)
	require.NoError(t, err)
	defer rev.Release()
	v, shared, err = gonumio.ToVecDense(rev)
	require.NoError(t, err)
	assert.False(t, shared)
	assert.Equal(t, 50.0, v.AtVec(0))
	assert.Equal(t, 0.0, v.AtVec(5))

	i8, err := array.FromSlice(mem, []int8{-1, 2})
	require.NoError(t, err)
	defer i8.Release()
	v, shared, err = gonumio.ToVecDense(i8)
	require.NoError(t, err)
	assert.False(t, shared)
	assert.Equal(t, -1.0, v.AtVec(0))

	z, err := array.New(mem, array.Float64, 0)
	require.NoError(t, err)
	defer z.Release()
	v, _, err = gonumio.ToVecDense(z)
	require.NoError(t, err)
	assert.True(t, v.IsEmpty())
}

func TestErrors(t *testing.T) {
	mem := checkedMem(t)
	var nilArr *array.Array
	_, _, err := gonumio.ToDense(nilArr)
	assert.ErrorIs(t, err, array.ErrNil)
	_, _, err = gonumio.ToVecDense(nilArr)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = gonumio.CopyToDense(nilArr)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = gonumio.DenseView(nilArr)
	assert.ErrorIs(t, err, array.ErrNil)

	a, err := array.FromSlice(mem, []float64{1, 2, 3})
	require.NoError(t, err)
	_, _, err = gonumio.ToDense(a)
	assert.ErrorIs(t, err, array.ErrShape)
	assert.ErrorContains(t, err, "[3] is not 2-D")
	m, err := a.Reshaped(1, 3)
	require.NoError(t, err)
	_, _, err = gonumio.ToVecDense(m)
	assert.ErrorIs(t, err, array.ErrShape)
	m.Release()
	a.Release()
	_, _, err = gonumio.ToVecDense(a)
	assert.ErrorIs(t, err, array.ErrReleased)
}

// TestRandomRoundTrips converts random views both ways and compares values.
func TestRandomRoundTrips(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(7))
	for it := 0; it < 300; it++ {
		r, c := 1+rng.Intn(5), 1+rng.Intn(5)
		base := make([]float64, 4*r*c+8)
		for i := range base {
			base[i] = rng.NormFloat64()
		}
		b, err := array.FromSlice(mem, base)
		require.NoError(t, err)
		rs := []int{c, c + rng.Intn(3), -c, 0, 1}[rng.Intn(5)]
		cs := []int{1, 1, 2, -1, 0, r}[rng.Intn(6)]
		off := 2*r*c + 4
		v, err := b.View([]int{r, c}, []int{rs, cs}, off)
		require.NoError(t, err)
		d, shared, err := gonumio.ToDense(v)
		require.NoError(t, err)
		sameValues(t, v, d)
		want := (cs == 1 || c == 1) && (rs >= c || r == 1)
		assert.Equal(t, want, shared, "shape %v strides %v", v.Shape(), v.Strides())
		back, err := gonumio.FromDense(d)
		require.NoError(t, err)
		sameValues(t, back, d)
		back.Release()
		v.Release()
		b.Release()
	}
}
