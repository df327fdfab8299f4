package array_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
)

// checkedMem returns a checked allocator that must be empty again when the
// test (and its subtests) end.
func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// floats reads a as float64s in row-major order.
func floats(t *testing.T, a *array.Array) []float64 {
	t.Helper()
	v, err := array.ToSlice[float64](a)
	require.NoError(t, err)
	return v
}

func TestDTypeProperties(t *testing.T) {
	sizes := map[array.DType]int{
		array.Bool: 1, array.Int8: 1, array.Int16: 2, array.Int32: 4, array.Int64: 8,
		array.Uint8: 1, array.Uint16: 2, array.Uint32: 4, array.Uint64: 8,
		array.Float16: 2, array.Float32: 4, array.Float64: 8,
	}
	require.Len(t, array.DTypes, len(sizes))
	seen := map[string]bool{}
	for _, dt := range array.DTypes {
		t.Run(dt.String(), func(t *testing.T) {
			assert.True(t, dt.Valid())
			assert.Equal(t, sizes[dt], dt.Size())
			assert.False(t, seen[dt.String()], "duplicate name")
			seen[dt.String()] = true

			at := dt.ArrowType()
			require.NotNil(t, at)
			back, err := array.FromArrowType(at)
			require.NoError(t, err)
			assert.Equal(t, dt, back)

			parsed, err := array.ParseDType(dt.String())
			require.NoError(t, err)
			assert.Equal(t, dt, parsed)
			parsed, err = array.ParseDType(strings.ToUpper(dt.String()))
			require.NoError(t, err)
			assert.Equal(t, dt, parsed)

			kinds := 0
			for _, k := range []bool{dt == array.Bool, dt.IsSigned(), dt.IsUnsigned(), dt.IsFloat()} {
				if k {
					kinds++
				}
			}
			assert.Equal(t, 1, kinds, "exactly one kind")
			assert.Equal(t, dt.IsSigned() || dt.IsUnsigned(), dt.IsInteger())
		})
	}
	for _, bad := range []array.DType{array.Invalid, array.DType(13), array.DType(255)} {
		assert.False(t, bad.Valid())
		assert.Zero(t, bad.Size())
		assert.Nil(t, bad.ArrowType())
		assert.Contains(t, bad.String(), "DType(")
		assert.False(t, bad.IsFloat() || bad.IsInteger())
	}
	_, err := array.ParseDType("invalid")
	assert.ErrorIs(t, err, array.ErrDType)
}

func TestParseDTypeShortNames(t *testing.T) {
	for name, want := range map[string]array.DType{
		"boolean": array.Bool, "bool": array.Bool, "i8": array.Int8, "i16": array.Int16, "i32": array.Int32,
		"i64": array.Int64, "u8": array.Uint8, "u16": array.Uint16, "u32": array.Uint32, "u64": array.Uint64,
		"f16": array.Float16, "half": array.Float16, "f32": array.Float32, "F64": array.Float64,
	} {
		got, err := array.ParseDType(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	for _, bad := range []string{"", "int", "float", "complex64", "i128"} {
		_, err := array.ParseDType(bad)
		assert.ErrorIs(t, err, array.ErrDType, bad)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "array: "), err.Error())
		}
	}
}

func TestFromArrowTypeErrors(t *testing.T) {
	_, err := array.FromArrowType(nil)
	assert.ErrorIs(t, err, array.ErrDType)
	_, err = array.FromArrowType(arrow.BinaryTypes.String)
	assert.ErrorIs(t, err, array.ErrDType)
	_, err = array.FromArrowType(arrow.FixedWidthTypes.Date32)
	assert.ErrorIs(t, err, array.ErrDType)
}

func TestDTypeOf(t *testing.T) {
	assert.Equal(t, array.Bool, array.DTypeOf[bool]())
	assert.Equal(t, array.Int8, array.DTypeOf[int8]())
	assert.Equal(t, array.Int16, array.DTypeOf[int16]())
	assert.Equal(t, array.Int32, array.DTypeOf[int32]())
	assert.Equal(t, array.Int64, array.DTypeOf[int64]())
	assert.Equal(t, array.Uint8, array.DTypeOf[uint8]())
	assert.Equal(t, array.Uint16, array.DTypeOf[uint16]())
	assert.Equal(t, array.Uint32, array.DTypeOf[uint32]())
	assert.Equal(t, array.Uint64, array.DTypeOf[uint64]())
	assert.Equal(t, array.Float32, array.DTypeOf[float32]())
	assert.Equal(t, array.Float64, array.DTypeOf[float64]())
}

func TestNewEveryDTypeAndShape(t *testing.T) {
	shapes := [][]int{{}, {0}, {1}, {5}, {2, 0, 3}, {3, 4}, {2, 1, 3, 1}}
	for _, dt := range array.DTypes {
		for _, sh := range shapes {
			mem := checkedMem(t)
			a, err := array.New(mem, dt, sh...)
			require.NoError(t, err, "%v %v", dt, sh)
			n := 1
			for _, d := range sh {
				n *= d
			}
			assert.Equal(t, dt, a.DType())
			assert.Equal(t, sh, a.Shape())
			assert.NotNil(t, a.Shape(), "rank 0 shape is [] not nil")
			assert.Equal(t, array.ContiguousStrides(sh), a.Strides())
			assert.Equal(t, 0, a.Offset())
			assert.Equal(t, len(sh), a.Rank())
			assert.Equal(t, n, a.Len())
			for i, d := range sh {
				assert.Equal(t, d, a.Dim(i))
			}
			assert.Equal(t, 0, a.Dim(-1))
			assert.Equal(t, 0, a.Dim(len(sh)))
			assert.True(t, a.IsContiguous())
			assert.False(t, a.ReadOnly())
			assert.False(t, a.HasNulls())
			assert.Nil(t, a.Validity())
			assert.True(t, a.Live())
			assert.NoError(t, array.Check(a))
			assert.Same(t, mem, a.Allocator())
			assert.Equal(t, n*dt.Size(), a.Data().Len())
			assert.Equal(t, make([]float64, n), floats(t, a), "zero filled")
			a.Release()
			assert.False(t, a.Live())
		}
	}
}

func TestNewMutatingReturnedSlicesDoesNotChangeArray(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.New(mem, array.Int32, 2, 3)
	require.NoError(t, err)
	defer a.Release()
	sh, st := a.Shape(), a.Strides()
	sh[0], st[0] = 100, 100
	assert.Equal(t, []int{2, 3}, a.Shape())
	assert.Equal(t, []int{3, 1}, a.Strides())

	in := []int{4, 5}
	b, err := array.New(mem, array.Int8, in...)
	require.NoError(t, err)
	defer b.Release()
	in[0] = 9
	assert.Equal(t, []int{4, 5}, b.Shape())
}

func TestNewErrors(t *testing.T) {
	mem := checkedMem(t)
	cases := []struct {
		name  string
		dt    array.DType
		shape []int
		want  error
	}{
		{"invalid dtype", array.Invalid, []int{2}, array.ErrDType},
		{"unknown dtype", array.DType(99), nil, array.ErrDType},
		{"negative dim", array.Float32, []int{2, -1}, array.ErrShape},
		{"count overflow", array.Int8, []int{math.MaxInt, 2}, array.ErrShape},
		{"count overflow 3 dims", array.Int8, []int{1 << 30, 1 << 30, 1 << 30}, array.ErrShape},
		{"byte overflow", array.Int64, []int{math.MaxInt / 4}, array.ErrShape},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []func(memory.Allocator, array.DType, ...int) (*array.Array, error){array.New, array.Empty} {
				a, err := f(mem, tc.dt, tc.shape...)
				assert.Nil(t, a)
				require.ErrorIs(t, err, tc.want)
				assert.True(t, strings.HasPrefix(err.Error(), "array."), err.Error())
			}
		})
	}
	// A zero dim makes any other dims fine, however large.
	a, err := array.New(mem, array.Int64, math.MaxInt, 0)
	require.NoError(t, err)
	assert.Equal(t, 0, a.Len())
	a.Release()
}

func TestNewNilAllocatorUsesDefault(t *testing.T) {
	a, err := array.New(nil, array.Float64, 3)
	require.NoError(t, err)
	defer a.Release()
	assert.Same(t, array.DefaultAllocator, a.Allocator())
}

func TestEmptyHasShapeAndStrides(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.Empty(mem, array.Uint16, 4, 5)
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, []int{4, 5}, a.Shape())
	assert.Equal(t, []int{5, 1}, a.Strides())
	assert.Equal(t, 40, a.Data().Len())
}

func TestContiguousStrides(t *testing.T) {
	assert.Equal(t, []int{}, array.ContiguousStrides(nil))
	assert.Equal(t, []int{1}, array.ContiguousStrides([]int{7}))
	assert.Equal(t, []int{12, 4, 1}, array.ContiguousStrides([]int{2, 3, 4}))
	assert.Equal(t, []int{3, 3, 1}, array.ContiguousStrides([]int{2, 0, 3}))
}

// newBuf returns a buffer of n bytes from mem holding 0, 1, 2, ...
func newBuf(mem memory.Allocator, n int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	for i := range b.Bytes() {
		b.Bytes()[i] = byte(i)
	}
	return b
}

func TestFromBuffer(t *testing.T) {
	mem := checkedMem(t)
	data := newBuf(mem, 12) // 12 int8 elements 0..11
	defer data.Release()

	ok := []struct {
		name    string
		shape   []int
		strides []int
		offset  int
		want    []float64
	}{
		{"contiguous", []int{3, 4}, []int{4, 1}, 0, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{"transposed", []int{2, 3}, []int{1, 2}, 0, []float64{0, 2, 4, 1, 3, 5}},
		{"negative strides", []int{3, 4}, []int{-4, -1}, 11, []float64{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"mixed strides", []int{2, 2}, []int{-6, 5}, 6, []float64{6, 11, 0, 5}},
		{"stride zero", []int{3, 2}, []int{0, 1}, 10, []float64{10, 11, 10, 11, 10, 11}},
		{"rank 0", []int{}, []int{}, 11, []float64{11}},
		{"last element", []int{1}, []int{1000}, 11, []float64{11}},
		{"size-1 dim any stride", []int{1, 2}, []int{math.MinInt, 1}, 3, []float64{3, 4}},
		{"zero size any offset", []int{0, 3}, []int{1, 1}, -50, []float64{}},
		{"zero size huge offset", []int{4, 0}, []int{math.MaxInt, 1}, math.MaxInt, []float64{}},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			a, err := array.FromBuffer(array.Int8, tc.shape, tc.strides, tc.offset, data, nil)
			require.NoError(t, err)
			defer a.Release()
			assert.Equal(t, tc.want, floats(t, a))
			assert.Equal(t, tc.offset, a.Offset())
			assert.Equal(t, tc.strides, a.Strides())
		})
	}

	valid := newBuf(mem, 12)
	defer valid.Release()
	short := newBuf(mem, 5)
	defer short.Release()
	bad := []struct {
		name    string
		dt      array.DType
		shape   []int
		strides []int
		offset  int
		data    *memory.Buffer
		valid   *memory.Buffer
		want    error
	}{
		{"invalid dtype", array.Invalid, []int{2}, []int{1}, 0, data, nil, array.ErrDType},
		{"nil data", array.Int8, []int{2}, []int{1}, 0, nil, nil, array.ErrNil},
		{"strides length", array.Int8, []int{2, 2}, []int{1}, 0, data, nil, array.ErrShape},
		{"negative dim", array.Int8, []int{-2}, []int{1}, 0, data, nil, array.ErrShape},
		{"count overflow", array.Int8, []int{math.MaxInt, 3}, []int{0, 0}, 0, data, nil, array.ErrShape},
		{"past the end", array.Int8, []int{13}, []int{1}, 0, data, nil, array.ErrBounds},
		{"offset past the end", array.Int8, []int{}, []int{}, 12, data, nil, array.ErrBounds},
		{"negative offset", array.Int8, []int{2}, []int{1}, -1, data, nil, array.ErrBounds},
		{"negative stride before start", array.Int8, []int{3}, []int{-1}, 1, data, nil, array.ErrBounds},
		{"stride too large", array.Int8, []int{2}, []int{12}, 0, data, nil, array.ErrBounds},
		{"wider dtype past the end", array.Int32, []int{4}, []int{1}, 0, data, nil, array.ErrBounds},
		{"stride overflow", array.Int8, []int{3}, []int{math.MaxInt}, 0, data, nil, array.ErrBounds},
		{"negative stride overflow", array.Int8, []int{3}, []int{math.MinInt}, 11, data, nil, array.ErrBounds},
		{"min stride", array.Int8, []int{2}, []int{math.MinInt}, 11, data, nil, array.ErrBounds},
		{"extent overflow", array.Int8, []int{2, 2}, []int{math.MaxInt / 2, math.MaxInt / 2}, 5, data, nil, array.ErrBounds},
		{"negative extent overflow", array.Int8, []int{2, 2}, []int{-math.MaxInt, -math.MaxInt}, 5, data, nil, array.ErrBounds},
		{"offset near max", array.Int8, []int{2}, []int{1}, math.MaxInt, data, nil, array.ErrBounds},
		{"validity too short", array.Int8, []int{6}, []int{1}, 0, data, short, array.ErrBounds},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			a, err := array.FromBuffer(tc.dt, tc.shape, tc.strides, tc.offset, tc.data, tc.valid)
			assert.Nil(t, a)
			require.ErrorIs(t, err, tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "array.FromBuffer"), err.Error())
		})
	}

	t.Run("validity", func(t *testing.T) {
		a, err := array.FromBuffer(array.Int8, []int{3}, []int{2}, 1, data, valid)
		require.NoError(t, err)
		defer a.Release()
		assert.True(t, a.HasNulls())
		assert.Same(t, valid, a.Validity())
		vs, err := array.ValidSlice(a)
		require.NoError(t, err)
		assert.Equal(t, []bool{true, true, true}, vs) // bytes 1, 3, 5
		b, err := array.FromBuffer(array.Int8, []int{3}, []int{2}, 0, data, valid)
		require.NoError(t, err)
		defer b.Release()
		vs, err = array.ValidSlice(b)
		require.NoError(t, err)
		assert.Equal(t, []bool{false, true, true}, vs) // bytes 0, 2, 4
	})
}

func TestFromBufferRetains(t *testing.T) {
	mem := checkedMem(t)
	data := newBuf(mem, 8)
	valid := newBuf(mem, 8)
	a, err := array.FromBuffer(array.Uint8, []int{8}, []int{1}, 0, data, valid)
	require.NoError(t, err)
	data.Release()
	valid.Release()
	assert.Equal(t, 8, data.Len(), "array still holds data")
	assert.Equal(t, 8, valid.Len(), "array still holds validity")
	assert.NotZero(t, mem.CurrentAlloc())
	a.Release()
	assert.Zero(t, data.Len())
	assert.Zero(t, valid.Len())
	assert.Zero(t, mem.CurrentAlloc())
}

func TestFromBufferFailureDoesNotRetain(t *testing.T) {
	mem := checkedMem(t)
	data := newBuf(mem, 8)
	valid := newBuf(mem, 2)
	_, err := array.FromBuffer(array.Uint8, []int{8}, []int{1}, 0, data, valid)
	require.ErrorIs(t, err, array.ErrBounds)
	data.Release()
	valid.Release()
	assert.Zero(t, mem.CurrentAlloc())
}

func TestRetainRelease(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.New(mem, array.Float32, 16)
	require.NoError(t, err)
	a.Retain()
	a.Retain()
	a.Release()
	a.Release()
	assert.True(t, a.Live())
	assert.NotZero(t, mem.CurrentAlloc())
	a.Release()
	assert.False(t, a.Live())
	assert.Zero(t, mem.CurrentAlloc())
	assert.ErrorIs(t, array.Check(a), array.ErrReleased)

	// Extra releases are no-ops, and a released array cannot be revived.
	a.Release()
	a.Release()
	a.Retain()
	assert.False(t, a.Live())
	assert.ErrorIs(t, array.Check(a), array.ErrReleased)
	assert.Contains(t, a.String(), "released")

	var nilArr *array.Array
	assert.NotPanics(t, func() { nilArr.Retain(); nilArr.Release() })
}

func TestRetainReleaseConcurrent(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.New(mem, array.Int64, 100)
	require.NoError(t, err)
	const n = 8
	done := make(chan struct{})
	for i := 0; i < n; i++ {
		a.Retain()
		go func() {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 1000; j++ {
				a.Retain()
				a.Release()
			}
			a.Release()
		}()
	}
	for i := 0; i < n; i++ {
		<-done
	}
	assert.True(t, a.Live())
	a.Release()
	assert.False(t, a.Live())
}

func TestView(t *testing.T) {
	mem := checkedMem(t)
	base, err := array.FromSliceValid(mem, []int32{0, 1, 2, 3, 4, 5}, []bool{true, false, true, true, true, true}, 2, 3)
	require.NoError(t, err)

	v, err := base.View([]int{3, 2}, []int{1, 3}, 0) // transpose
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 3, 0, 4, 2, 5}, floats(t, v)) // the null slot holds zero
	vs, err := array.ValidSlice(v)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, false, true, true, true}, vs)
	assert.Same(t, base.Data(), v.Data())
	assert.Same(t, base.Validity(), v.Validity())
	assert.Same(t, mem, v.Allocator())
	assert.False(t, v.IsContiguous())

	// Writes through the view are seen by the base.
	require.NoError(t, array.Set(v, int32(40), 2, 1))
	assert.Equal(t, int32(40), arraytest.At[int32](t, base, 1, 2))

	// The view outlives the base.
	base.Release()
	assert.True(t, v.Live())
	assert.NotZero(t, mem.CurrentAlloc())

	w, err := v.View([]int{2}, []int{-1}, 5) // view of a view: elements 5, 4
	require.NoError(t, err)
	assert.Equal(t, []float64{40, 4}, floats(t, w))
	v.Release()
	assert.Equal(t, []float64{40, 4}, floats(t, w))
	w.Release()
	assert.Zero(t, mem.CurrentAlloc())
}

func TestViewErrors(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.New(mem, array.Float64, 2, 3)
	require.NoError(t, err)
	_, err = a.View([]int{7}, []int{1}, 0)
	assert.ErrorIs(t, err, array.ErrBounds)
	_, err = a.View([]int{2}, []int{1, 1}, 0)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = a.View([]int{-1}, []int{1}, 0)
	assert.ErrorIs(t, err, array.ErrShape)
	a.Release()
	_, err = a.View([]int{2}, []int{1}, 0)
	assert.ErrorIs(t, err, array.ErrReleased)
	var nilArr *array.Array
	_, err = nilArr.View(nil, nil, 0)
	assert.ErrorIs(t, err, array.ErrNil)
}

func TestIsContiguousAndReadOnly(t *testing.T) {
	mem := checkedMem(t)
	data := newBuf(mem, 64)
	defer data.Release()
	cases := []struct {
		shape, strides []int
		offset         int
		contiguous     bool
		readOnly       bool
	}{
		{[]int{}, []int{}, 3, true, false},
		{[]int{4}, []int{1}, 3, true, false},
		{[]int{4}, []int{2}, 0, false, false},
		{[]int{4}, []int{-1}, 3, false, false},
		{[]int{2, 3}, []int{3, 1}, 0, true, false},
		{[]int{2, 3}, []int{1, 2}, 0, false, false},
		{[]int{2, 1, 3}, []int{3, 99, 1}, 0, true, false},
		{[]int{1, 3}, []int{-7, 1}, 7, true, false},
		{[]int{4}, []int{0}, 0, false, true},
		{[]int{1}, []int{0}, 0, true, false},
		{[]int{3, 2}, []int{0, 1}, 0, false, true},
		{[]int{0, 3}, []int{0, 0}, 0, true, false}, // empty: nothing to write twice
		{[]int{3, 0}, []int{5, 7}, 0, true, false}, // empty: contiguous whatever the strides
		{[]int{0, 3}, []int{1, 5}, 0, true, false}, // empty: contiguous whatever the strides
		{[]int{2, 2}, []int{2, 0}, 0, false, true},
	}
	for _, tc := range cases {
		a, err := array.FromBuffer(array.Uint8, tc.shape, tc.strides, tc.offset, data, nil)
		require.NoError(t, err)
		assert.Equal(t, tc.contiguous, a.IsContiguous(), "contiguous %v %v", tc.shape, tc.strides)
		assert.Equal(t, tc.readOnly, a.ReadOnly(), "read-only %v %v", tc.shape, tc.strides)
		a.Release()
	}
}

func TestString(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float32{1, 2}, []bool{true, false})
	require.NoError(t, err)
	assert.Equal(t, "array(float32 [2] strides [1] offset 0 with validity)", fmt.Sprintf("%#v", a))
	assert.Equal(t, "[  1. null]", a.String())
	a.Release()
	assert.Equal(t, "array(float32 [2] strides [1] offset 0 with validity released)", a.String())
	var nilArr *array.Array
	assert.Equal(t, "array(nil)", nilArr.String())
}

// TestNilArray calls everything with a nil *Array: nothing panics, and
// what has an error result returns ErrNil.
func TestNilArray(t *testing.T) {
	var a *array.Array
	assert.Equal(t, array.Invalid, a.DType())
	assert.Nil(t, a.Shape())
	assert.Nil(t, a.Strides())
	assert.Zero(t, a.Offset())
	assert.Zero(t, a.Rank())
	assert.Zero(t, a.Dim(0))
	assert.Zero(t, a.Len())
	assert.Nil(t, a.Data())
	assert.Nil(t, a.Validity())
	assert.False(t, a.HasNulls())
	assert.False(t, a.IsContiguous())
	assert.True(t, a.ReadOnly())
	assert.False(t, a.Live())
	assert.Same(t, array.DefaultAllocator, a.Allocator())
	assert.ErrorIs(t, array.Check(a), array.ErrNil)

	errs := map[string]error{}
	_, errs["Copy"] = array.Copy(nil, a)
	_, errs["Values"] = array.Values[float64](a)
	_, errs["ToSlice"] = array.ToSlice[float64](a)
	_, errs["ValidSlice"] = array.ValidSlice(a)
	_, errs["View"] = a.View([]int{}, []int{}, 0)
	errs["Set"] = array.Set(a, 1.0)
	errs["SetNull"] = a.SetNull()
	_, errs["At"] = array.At[float64](a)
	_, errs["IsValid"] = a.IsValid()
	for name, err := range errs {
		assert.ErrorIs(t, err, array.ErrNil, name)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "array."+name), err.Error())
		}
	}
}

func TestReleasedArray(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.New(mem, array.Float64, 2)
	require.NoError(t, err)
	a.Release()
	errs := map[string]error{}
	_, errs["Copy"] = array.Copy(mem, a)
	_, errs["Values"] = array.Values[float64](a)
	_, errs["ToSlice"] = array.ToSlice[float64](a)
	_, errs["ValidSlice"] = array.ValidSlice(a)
	_, errs["View"] = a.View([]int{1}, []int{1}, 0)
	errs["Set"] = array.Set(a, 1.0, 0)
	errs["SetNull"] = a.SetNull(0)
	_, errs["At"] = array.At[float64](a, 0)
	_, errs["IsValid"] = a.IsValid(0)
	for name, err := range errs {
		assert.ErrorIs(t, err, array.ErrReleased, name)
		assert.False(t, errors.Is(err, array.ErrNil), name)
	}
	// The header is still readable.
	assert.Equal(t, []int{2}, a.Shape())
	assert.Equal(t, 2, a.Len())
}

func TestAccessHelpers(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int16{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	defer a.Release()

	assert.Equal(t, 3, a.Stride(0))
	assert.Equal(t, 1, a.Stride(1))
	assert.Zero(t, a.Stride(2))
	assert.Zero(t, a.Stride(-1))
	var nilArr *array.Array
	assert.Zero(t, nilArr.Stride(0))

	p := a.DataPointer()
	require.NotNil(t, p)
	raw, err := array.Values[int16](a)
	require.NoError(t, err)
	assert.Equal(t, unsafe.Pointer(&raw[0]), p)
	assert.Nil(t, a.ValidityPointer())
	assert.Nil(t, nilArr.DataPointer())
	assert.Nil(t, nilArr.ValidityPointer())

	// EnsureValidity adds an all-valid mask once, to this header only.
	v, err := a.View([]int{3}, []int{1}, 3)
	require.NoError(t, err)
	defer v.Release()
	require.NoError(t, a.EnsureValidity())
	require.True(t, a.HasNulls())
	require.NotNil(t, a.ValidityPointer())
	mask := a.Validity()
	require.NoError(t, a.EnsureValidity())
	assert.Same(t, mask, a.Validity(), "an existing mask is kept")
	vs, err := array.ValidSlice(a)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, true, true, true, true}, vs)
	assert.False(t, v.HasNulls())
	assert.ErrorIs(t, nilArr.EnsureValidity(), array.ErrNil)

	// Reshaped: contiguous inputs only, mask shared.
	r, err := a.Reshaped(3, 2)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 2}, r.Shape())
	assert.Same(t, a.Validity(), r.Validity())
	assert.Equal(t, int16(4), arraytest.At[int16](t, r, 1, 1))
	r.Release()
	r, err = v.Reshaped(1, 3, 1)
	require.NoError(t, err)
	assert.Equal(t, 3, r.Offset())
	assert.Equal(t, []float64{4, 5, 6}, floats(t, r))
	r.Release()
	tr, err := a.View([]int{3, 2}, []int{1, 3}, 0)
	require.NoError(t, err)
	defer tr.Release()
	_, err = tr.Reshaped(6)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = a.Reshaped(4)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = a.Reshaped(-6)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = nilArr.Reshaped(1)
	assert.ErrorIs(t, err, array.ErrNil)
}
