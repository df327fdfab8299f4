package arrowio

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/arrow/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/arrowtest"
)

// tensorAt reads element idx of an arrow-go tensor through its own Value
// method (byte strides).
func tensorAt(t *testing.T, tn tensor.Interface, idx []int64) float64 {
	switch x := tn.(type) {
	case *tensor.Int8:
		return float64(x.Value(idx))
	case *tensor.Int16:
		return float64(x.Value(idx))
	case *tensor.Int32:
		return float64(x.Value(idx))
	case *tensor.Int64:
		return float64(x.Value(idx))
	case *tensor.Uint8:
		return float64(x.Value(idx))
	case *tensor.Uint16:
		return float64(x.Value(idx))
	case *tensor.Uint32:
		return float64(x.Value(idx))
	case *tensor.Uint64:
		return float64(x.Value(idx))
	case *tensor.Float32:
		return float64(x.Value(idx))
	case *tensor.Float64:
		return x.Value(idx)
	}
	t.Fatalf("tensorAt: %T", tn)
	return 0
}

// TestArrowTensorRoundTrip: for every dtype arrow/tensor has, a transposed
// and offset view becomes a tensor sharing the buffer with byte strides, whose
// Value agrees with At everywhere, and comes back with the same header.
func TestArrowTensorRoundTrip(t *testing.T) {
	for _, dt := range array.DTypes {
		if !tensorDType(dt) {
			continue
		}
		t.Run(dt.String(), func(t *testing.T) {
			mem := arrowtest.NewMem(t)
			base, err := array.Arange(mem, dt, 0, 30, 1)
			require.NoError(t, err)
			defer base.Release()
			v, err := base.View([]int{4, 2, 3}, []int{1, 12, 4}, 2) // transposed, offset
			require.NoError(t, err)
			defer v.Release()
			tn, err := ToTensor(mem, v, WithDimNames("a", "b", "c"))
			require.NoError(t, err)
			defer tn.Release()
			sz := int64(dt.Size())
			assert.Equal(t, []int64{4, 2, 3}, tn.Shape())
			assert.Equal(t, []int64{sz, 12 * sz, 4 * sz}, tn.Strides())
			assert.Equal(t, []string{"a", "b", "c"}, tn.DimNames())
			for i := int64(0); i < 4; i++ {
				for j := int64(0); j < 2; j++ {
					for k := int64(0); k < 3; k++ {
						require.Equal(t, arraytest.At[float64](t, v, int(i), int(j), int(k)), tensorAt(t, tn, []int64{i, j, k}))
					}
				}
			}
			back, err := FromTensor(tn)
			require.NoError(t, err)
			defer back.Release()
			assert.Equal(t, v.Shape(), back.Shape())
			assert.Equal(t, v.Strides(), back.Strides())
			assert.Equal(t, arrowtest.Addr(v, v.Offset()), arrowtest.Addr(back, back.Offset()), "no copy either way")
		})
	}
}

// TestFromTensorBuilt: tensors made by arrow-go itself (row-major, column-
// major via explicit strides, with a data offset) read correctly.
func TestFromTensorBuilt(t *testing.T) {
	mem := arrowtest.NewMem(t)
	b := arrowarray.NewFloat64Builder(mem)
	for i := 0; i < 8; i++ {
		b.Append(float64(i))
	}
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	for _, c := range []struct {
		name    string
		data    arrow.ArrayData
		strides []int64
		want    []float64 // row-major order of shape [2,3]
	}{
		{"row-major", arr.Data(), nil, []float64{0, 1, 2, 3, 4, 5}},
		{"col-major", arr.Data(), []int64{8, 16}, []float64{0, 2, 4, 1, 3, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tn := tensor.New(c.data, []int64{2, 3}, c.strides, nil)
			defer tn.Release()
			a, err := FromTensor(tn)
			require.NoError(t, err)
			defer a.Release()
			got, _ := arrowtest.Elems(t, a)
			assert.Equal(t, c.want, got)
		})
	}
	sl := arrowarray.NewSlice(arr, 2, 8)
	defer sl.Release()
	tn := tensor.New(sl.Data(), []int64{2, 3}, nil, nil)
	defer tn.Release()
	a, err := FromTensor(tn)
	require.NoError(t, err)
	defer a.Release()
	got, _ := arrowtest.Elems(t, a)
	assert.Equal(t, []float64{2, 3, 4, 5, 6, 7}, got)
	assert.Equal(t, uintptr(unsafe.Pointer(&tn.(*tensor.Float64).Float64Values()[0])), arrowtest.Addr(a, a.Offset()))
}

func TestArrowTensorCopiesAndErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	base, err := array.FromSlice(mem, []int32{1, 2, 3})
	require.NoError(t, err)
	defer base.Release()
	bc, err := base.View([]int{2, 3}, []int{0, 1}, 0) // broadcast
	require.NoError(t, err)
	defer bc.Release()
	tn, err := ToTensor(mem, bc)
	require.NoError(t, err)
	assert.Equal(t, []int64{12, 4}, tn.Strides(), "materialized row-major")
	assert.Equal(t, []int32{1, 2, 3, 1, 2, 3}, tn.(*tensor.Int32).Int32Values())
	tn.Release()

	rev, err := base.View([]int{3}, []int{-1}, 2)
	require.NoError(t, err)
	defer rev.Release()
	tn, err = ToTensor(mem, rev)
	require.NoError(t, err)
	assert.Equal(t, []int32{3, 2, 1}, tn.(*tensor.Int32).Int32Values())
	tn.Release()

	sc, err := array.Scalar(mem, 2.5)
	require.NoError(t, err)
	defer sc.Release()
	tn, err = ToTensor(mem, sc)
	require.NoError(t, err)
	assert.Equal(t, 0, tn.NumDims())
	back, err := FromTensor(tn)
	require.NoError(t, err)
	assert.Equal(t, 2.5, arraytest.At[float64](t, back))
	back.Release()
	tn.Release()

	empty, err := array.New(mem, array.Float32, 0, 3)
	require.NoError(t, err)
	defer empty.Release()
	tn, err = ToTensor(mem, empty)
	require.NoError(t, err)
	back, err = FromTensor(tn)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3}, back.Shape())
	back.Release()
	tn.Release()

	for _, dt := range []array.DType{array.Bool, array.Float16} {
		x, err := array.New(mem, dt, 2)
		require.NoError(t, err)
		_, err = ToTensor(mem, x)
		assert.ErrorIs(t, err, ErrUnsupported, fmt.Sprint(dt))
		x.Release()
	}
	withNull, err := array.FromSlice(mem, []float64{1, 2})
	require.NoError(t, err)
	defer withNull.Release()
	require.NoError(t, withNull.SetNull(1))
	_, err = ToTensor(mem, withNull)
	assert.ErrorIs(t, err, ErrNulls)
	_, err = ToTensor(mem, base, WithDimNames("a", "b"))
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = ToTensor(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = FromTensor(nil)
	assert.ErrorIs(t, err, array.ErrNil)

	// Malformed tensors: strides reaching past the data, odd byte strides,
	// date32.
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(4 * 4)
	defer buf.Release()
	d := arrowarray.NewData(arrow.PrimitiveTypes.Int32, 4, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer d.Release()
	for _, c := range []struct {
		shape, strides []int64
		err            error
	}{
		{[]int64{2, 3}, nil, ErrInvalid},
		{[]int64{2}, []int64{16}, ErrInvalid},
		{[]int64{2}, []int64{-4}, ErrInvalid},
		{[]int64{2}, []int64{2}, ErrUnsupported},
		{[]int64{2}, []int64{1 << 62}, ErrInvalid},
	} {
		tn := tensor.New(d, c.shape, c.strides, nil)
		_, err := FromTensor(tn)
		assert.ErrorIs(t, err, c.err, "%v %v", c.shape, c.strides)
		tn.Release()
	}
	dd := arrowarray.NewData(arrow.FixedWidthTypes.Date32, 4, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer dd.Release()
	dtn := tensor.New(dd, []int64{4}, nil, nil)
	defer dtn.Release()
	_, err = FromTensor(dtn)
	assert.ErrorIs(t, err, ErrUnsupported)
}
