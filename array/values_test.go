package array_test

import (
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
)

// roundTrip checks FromSlice / Values / ToSlice / At / Set for one element
// type with the given sample values.
func roundTrip[T array.Element](t *testing.T, vals []T) {
	t.Helper()
	mem := checkedMem(t)
	dt := array.DTypeOf[T]()

	a, err := array.FromSlice(mem, vals)
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, dt, a.DType())
	assert.Equal(t, []int{len(vals)}, a.Shape())

	got, err := array.ToSlice[T](a)
	require.NoError(t, err)
	assert.Equal(t, vals, got)

	raw, err := array.Values[T](a)
	require.NoError(t, err)
	assert.Equal(t, vals, raw[:len(vals)])

	for i, v := range vals {
		assert.Equal(t, v, arraytest.At[T](t, a, i))
	}

	// Write the values reversed through Set, read them back.
	for i := range vals {
		require.NoError(t, array.Set(a, vals[len(vals)-1-i], i))
	}
	for i := range vals {
		assert.Equal(t, vals[len(vals)-1-i], arraytest.At[T](t, a, i))
	}

	// A strided, reversed view reads the same way.
	v, err := a.View([]int{len(vals)}, []int{-1}, len(vals)-1)
	require.NoError(t, err)
	defer v.Release()
	got, err = array.ToSlice[T](v)
	require.NoError(t, err)
	assert.Equal(t, vals, got)

	// Values of the wrong type is an error.
	if dt != array.Float64 {
		_, err = array.Values[float64](a)
	} else {
		_, err = array.Values[int8](a)
	}
	assert.ErrorIs(t, err, array.ErrDType)
}

func TestRoundTripEveryDType(t *testing.T) {
	t.Run("bool", func(t *testing.T) { roundTrip(t, []bool{true, false, false, true}) })
	t.Run("int8", func(t *testing.T) { roundTrip(t, []int8{math.MinInt8, -1, 0, 1, math.MaxInt8}) })
	t.Run("int16", func(t *testing.T) { roundTrip(t, []int16{math.MinInt16, -1, 0, math.MaxInt16}) })
	t.Run("int32", func(t *testing.T) { roundTrip(t, []int32{math.MinInt32, -7, 0, math.MaxInt32}) })
	t.Run("int64", func(t *testing.T) { roundTrip(t, []int64{math.MinInt64, 1<<62 + 1, -(1<<53 + 1), math.MaxInt64}) })
	t.Run("uint8", func(t *testing.T) { roundTrip(t, []uint8{0, 1, math.MaxUint8}) })
	t.Run("uint16", func(t *testing.T) { roundTrip(t, []uint16{0, 1, math.MaxUint16}) })
	t.Run("uint32", func(t *testing.T) { roundTrip(t, []uint32{0, 1, math.MaxUint32}) })
	t.Run("uint64", func(t *testing.T) { roundTrip(t, []uint64{0, 1<<63 + 1, math.MaxUint64}) })
	t.Run("float16", func(t *testing.T) {
		roundTrip(t, []float16.Num{float16.New(1.5), float16.FromBits(1), float16.FromBits(0x8000), float16.Inf(), float16.FromBits(0x7c01), float16.MaxNum})
	})
	t.Run("float32", func(t *testing.T) {
		roundTrip(t, []float32{0, -1.5, math.MaxFloat32, math.SmallestNonzeroFloat32, float32(math.Inf(-1))})
	})
	t.Run("float64", func(t *testing.T) {
		roundTrip(t, []float64{0, -1.5, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1)})
	})
}

func TestSameDTypeAccessIsBitExact(t *testing.T) {
	mem := checkedMem(t)
	nan32 := math.Float32frombits(0x7f800001) // signalling NaN payload
	a, err := array.FromSlice(mem, []float32{nan32})
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, uint32(0x7f800001), math.Float32bits(arraytest.At[float32](t, a, 0)))
	require.NoError(t, array.Set(a, nan32, 0))
	raw, err := array.Values[float32](a)
	require.NoError(t, err)
	assert.Equal(t, uint32(0x7f800001), math.Float32bits(raw[0]))

	nan64 := math.Float64frombits(0x7ff0000000000001)
	b, err := array.FromSlice(mem, []float64{nan64, 1})
	require.NoError(t, err)
	defer b.Release()
	v, err := b.View([]int{2}, []int{-1}, 1) // non-contiguous path of ToSlice
	require.NoError(t, err)
	defer v.Release()
	got, err := array.ToSlice[float64](v)
	require.NoError(t, err)
	assert.Equal(t, uint64(0x7ff0000000000001), math.Float64bits(got[1]))
}

func TestFromSliceShapes(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int16{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3}, a.Shape())
	assert.Equal(t, int16(6), arraytest.At[int16](t, a, 1, 2))
	a.Release()

	s, err := array.FromSlice(mem, []float32{7}, []int{}...)
	require.NoError(t, err)
	assert.Equal(t, 0, s.Rank())
	assert.Equal(t, float32(7), arraytest.At[float32](t, s))
	s.Release()

	e, err := array.FromSlice(mem, []uint8{})
	require.NoError(t, err)
	assert.Equal(t, []int{0}, e.Shape())
	got, err := array.ToSlice[uint8](e)
	require.NoError(t, err)
	assert.Empty(t, got)
	e.Release()

	e, err = array.FromSlice(mem, []uint8(nil), 3, 0)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 0}, e.Shape())
	e.Release()

	// The slice is copied.
	src := []int64{1, 2}
	c, err := array.FromSlice(mem, src)
	require.NoError(t, err)
	src[0] = 100
	assert.Equal(t, int64(1), arraytest.At[int64](t, c, 0))
	c.Release()

	_, err = array.FromSlice(mem, []int8{1, 2, 3}, 2, 2)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = array.FromSlice(mem, []int8{1, 2, 3}, []int{}...)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = array.FromSlice(mem, []int8{}, -1)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = array.FromSlice(mem, []int8{}, math.MaxInt, 3)
	assert.ErrorIs(t, err, array.ErrShape)
}

func TestFromSliceValid(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float64{1, 2, 3, 4}, []bool{true, false, true, false}, 2, 2)
	require.NoError(t, err)
	defer a.Release()
	assert.True(t, a.HasNulls())
	assert.Equal(t, []float64{1, 0, 3, 0}, floats(t, a), "null slots hold zero")
	vs, err := array.ValidSlice(a)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true, false}, vs)
	assert.False(t, arraytest.IsValid(t, a, 0, 1))
	assert.True(t, arraytest.IsValid(t, a, 1, 0))

	all, err := array.FromSliceValid(mem, []int8{1, 2}, []bool{true, true})
	require.NoError(t, err)
	assert.True(t, all.HasNulls(), "a mask even when all valid")
	all.Release()

	none, err := array.FromSliceValid(mem, []int8{1, 2}, nil)
	require.NoError(t, err)
	assert.False(t, none.HasNulls())
	none.Release()

	_, err = array.FromSliceValid(mem, []int8{1, 2}, []bool{true})
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = array.FromSliceValid(mem, []int8{1, 2}, []bool{true, true}, 3)
	assert.ErrorIs(t, err, array.ErrShape)
}

func TestWrap(t *testing.T) {
	vals := []float32{1, 2, 3, 4, 5, 6}
	a, err := array.Wrap(vals, 3, 2)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 2}, a.Shape())
	assert.Equal(t, float32(6), arraytest.At[float32](t, a, 2, 1))

	// Writes go both ways.
	vals[0] = 10
	assert.Equal(t, float32(10), arraytest.At[float32](t, a, 0, 0))
	require.NoError(t, array.Set(a, float32(-1), 1, 1))
	assert.Equal(t, float32(-1), vals[3])

	// A view of a wrapped array shares the slice too.
	v, err := a.View([]int{2}, []int{1}, 4)
	require.NoError(t, err)
	assert.Equal(t, []float64{5, 6}, floats(t, v))
	a.Release()
	v.Release()
	assert.Equal(t, float32(-1), vals[3], "release frees nothing")

	d, err := array.Wrap(vals)
	require.NoError(t, err)
	assert.Equal(t, []int{6}, d.Shape())
	d.Release()

	e, err := array.Wrap([]bool{})
	require.NoError(t, err)
	assert.Equal(t, 0, e.Len())
	got, err := array.ToSlice[bool](e)
	require.NoError(t, err)
	assert.Empty(t, got)
	e.Release()

	_, err = array.Wrap(vals, 4)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = array.Wrap(vals, -6)
	assert.ErrorIs(t, err, array.ErrShape)
}

func TestFullAndScalar(t *testing.T) {
	mem := checkedMem(t)
	f, err := array.Full(mem, uint16(7), 2, 3)
	require.NoError(t, err)
	assert.Equal(t, []float64{7, 7, 7, 7, 7, 7}, floats(t, f))
	f.Release()

	s, err := array.Full(mem, true)
	require.NoError(t, err)
	assert.Equal(t, 0, s.Rank())
	assert.Equal(t, true, arraytest.At[bool](t, s))
	s.Release()

	sc, err := array.Scalar(mem, float16.New(2.5))
	require.NoError(t, err)
	assert.Equal(t, array.Float16, sc.DType())
	assert.Equal(t, []int{}, sc.Shape())
	assert.Equal(t, 1, sc.Len())
	assert.Equal(t, 2.5, arraytest.At[float64](t, sc))
	sc.Release()

	z, err := array.Full(mem, int8(3), 0, 4)
	require.NoError(t, err)
	assert.Equal(t, 0, z.Len())
	z.Release()

	_, err = array.Full(mem, int8(3), -1)
	assert.ErrorIs(t, err, array.ErrShape)
}

func TestArange(t *testing.T) {
	mem := checkedMem(t)
	for _, dt := range array.DTypes {
		a, err := array.Arange(mem, dt, 0, 5, 1)
		require.NoError(t, err, dt)
		assert.Equal(t, dt, a.DType())
		want := []float64{0, 1, 2, 3, 4}
		if dt == array.Bool {
			want = []float64{0, 1, 1, 1, 1}
		}
		assert.Equal(t, want, floats(t, a), dt)
		a.Release()
	}
	cases := []struct {
		start, stop, step float64
		want              []float64
	}{
		{0, 0, 1, []float64{}},
		{5, 0, 1, []float64{}},
		{5, 0, -2, []float64{5, 3, 1}},
		{0, 1, 0.25, []float64{0, 0.25, 0.5, 0.75}},
		{0, 1.1, 0.5, []float64{0, 0.5, 1}},
		{-3, -1, 1, []float64{-3, -2}},
		{0, math.Inf(-1), 1, []float64{}},
	}
	for _, tc := range cases {
		a, err := array.Arange(mem, array.Float64, tc.start, tc.stop, tc.step)
		require.NoError(t, err)
		assert.Equal(t, tc.want, floats(t, a), "arange(%v, %v, %v)", tc.start, tc.stop, tc.step)
		a.Release()
	}
	for _, bad := range [][3]float64{{0, 1, 0}, {0, 1, math.NaN()}, {math.NaN(), 1, 1}, {0, math.NaN(), 1}, {0, math.Inf(1), 1}, {0, 1 << 60, 1}} {
		_, err := array.Arange(mem, array.Float64, bad[0], bad[1], bad[2])
		assert.ErrorIs(t, err, array.ErrShape, "%v", bad)
	}
	_, err := array.Arange(mem, array.Invalid, 0, 3, 1)
	assert.ErrorIs(t, err, array.ErrDType)
}

func TestConversions(t *testing.T) {
	mem := checkedMem(t)
	f, err := array.FromSlice(mem, []float64{-1.75, 2.9, 0, 300.5, -0.5})
	require.NoError(t, err)
	defer f.Release()

	i8, err := array.ToSlice[int8](f)
	require.NoError(t, err)
	v300 := int64(300)
	assert.Equal(t, []int8{-1, 2, 0, int8(v300), 0}, i8, "truncation toward zero, then wrap")
	i64, err := array.ToSlice[int64](f)
	require.NoError(t, err)
	assert.Equal(t, []int64{-1, 2, 0, 300, 0}, i64)
	u64, err := array.ToSlice[uint64](f)
	require.NoError(t, err)
	assert.Equal(t, []uint64{math.MaxUint64, 2, 0, 300, 0}, u64, "negative floats go through int64")
	b, err := array.ToSlice[bool](f)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, false, true, true}, b)

	bools, err := array.FromSlice(mem, []bool{true, false})
	require.NoError(t, err)
	defer bools.Release()
	bf, err := array.ToSlice[float32](bools)
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 0}, bf)
	bu, err := array.ToSlice[uint8](bools)
	require.NoError(t, err)
	assert.Equal(t, []uint8{1, 0}, bu)

	big, err := array.FromSlice(mem, []int64{1<<62 + 1, -1})
	require.NoError(t, err)
	defer big.Release()
	bu64, err := array.ToSlice[uint64](big)
	require.NoError(t, err)
	assert.Equal(t, []uint64{1<<62 + 1, math.MaxUint64}, bu64, "integers convert exactly, not via float64")
	bi32, err := array.ToSlice[int32](big)
	require.NoError(t, err)
	assert.Equal(t, []int32{1, -1}, bi32)

	umax, err := array.FromSlice(mem, []uint64{math.MaxUint64})
	require.NoError(t, err)
	defer umax.Release()
	assert.Equal(t, int64(-1), arraytest.At[int64](t, umax, 0))
	assert.Equal(t, float64(math.MaxUint64), arraytest.At[float64](t, umax, 0))

	// Set converts to the array's dtype.
	dst, err := array.New(mem, array.Int16, 4)
	require.NoError(t, err)
	defer dst.Release()
	require.NoError(t, array.Set(dst, 3.99, 0))
	require.NoError(t, array.Set(dst, true, 1))
	require.NoError(t, array.Set(dst, uint64(70000), 2))
	require.NoError(t, array.Set(dst, float16.New(-2), 3))
	got, err := array.ToSlice[int16](dst)
	require.NoError(t, err)
	v70000 := int64(70000)
	assert.Equal(t, []int16{3, 1, int16(v70000), -2}, got)

	bd, err := array.New(mem, array.Bool, 3)
	require.NoError(t, err)
	defer bd.Release()
	require.NoError(t, array.Set(bd, 0.5, 0))
	require.NoError(t, array.Set(bd, int8(0), 1))
	require.NoError(t, array.Set(bd, math.NaN(), 2))
	gb, err := array.ToSlice[bool](bd)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true}, gb)
	raw, err := array.Values[bool](bd)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true}, raw[:3])
}

func TestFloat16Conversions(t *testing.T) {
	mem := checkedMem(t)
	cases := []struct {
		in   float64
		bits uint16
	}{
		{0, 0x0000},
		{math.Copysign(0, -1), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{65504, 0x7bff},                         // largest finite
		{65519.99, 0x7bff},                      // rounds down to the largest finite
		{65520, 0x7c00},                         // the tie rounds to even: Inf
		{1e10, 0x7c00},                          // overflow
		{-1e10, 0xfc00},                         // overflow
		{math.Inf(1), 0x7c00},                   // Inf
		{math.Ldexp(1, -24), 0x0001},            // smallest subnormal
		{math.Ldexp(1, -25), 0x0000},            // half of it: tie to even, zero
		{math.Ldexp(1.5, -25), 0x0001},          // above the tie
		{math.Ldexp(3, -25), 0x0002},            // 1.5 units: tie to even, 2
		{math.Ldexp(1023, -24), 0x03ff},         // largest subnormal
		{math.Ldexp(1, -14), 0x0400},            // smallest normal
		{math.Ldexp(2047, -25), 0x0400},         // rounds up from subnormal to normal
		{1 + math.Ldexp(1, -11), 0x3c00},        // tie, even mantissa stays
		{1 + math.Ldexp(3, -11), 0x3c02},        // tie, odd mantissa rounds up
		{1 + math.Ldexp(1, -11) + 1e-9, 0x3c01}, // above the tie
		{1.0 / 3, 0x3555},                       // nearest, not truncated
		{math.SmallestNonzeroFloat64, 0x0000},   // f64 subnormal
		{-math.Ldexp(1, -24), 0x8001},
	}
	dst, err := array.New(mem, array.Float16, len(cases))
	require.NoError(t, err)
	defer dst.Release()
	for i, tc := range cases {
		require.NoError(t, array.Set(dst, tc.in, i))
		assert.Equal(t, tc.bits, arraytest.At[float16.Num](t, dst, i).Uint16(), "Set(%v)", tc.in)
	}
	// Reading: exact values, subnormals included.
	for _, tc := range []struct {
		bits uint16
		want float64
	}{
		{0x0001, math.Ldexp(1, -24)},
		{0x03ff, math.Ldexp(1023, -24)},
		{0x8001, -math.Ldexp(1, -24)},
		{0x0400, math.Ldexp(1, -14)},
		{0x3555, 0.333251953125},
		{0x7bff, 65504},
		{0xfc00, math.Inf(-1)},
	} {
		require.NoError(t, array.Set(dst, float16.FromBits(tc.bits), 0))
		assert.Equal(t, tc.want, arraytest.At[float64](t, dst, 0), "bits %#x", tc.bits)
		assert.Equal(t, float32(tc.want), arraytest.At[float32](t, dst, 0), "bits %#x", tc.bits)
	}
	require.NoError(t, array.Set(dst, float16.FromBits(0x8000), 0))
	assert.True(t, math.Signbit(arraytest.At[float64](t, dst, 0)))

	// NaN survives both ways, with its payload.
	require.NoError(t, array.Set(dst, math.NaN(), 0))
	assert.True(t, arraytest.At[float16.Num](t, dst, 0).IsNaN())
	assert.True(t, math.IsNaN(arraytest.At[float64](t, dst, 0)))
	for _, bits := range []uint16{0x7c01, 0x7e00, 0xfe5a, 0x7fff} {
		require.NoError(t, array.Set(dst, float16.FromBits(bits), 0))
		f := arraytest.At[float64](t, dst, 0)
		assert.True(t, math.IsNaN(f))
		require.NoError(t, array.Set(dst, f, 1))
		assert.Equal(t, bits, arraytest.At[float16.Num](t, dst, 1).Uint16(), "NaN %#x via float64", bits)
	}
	// A NaN whose payload is only in bits a half cannot hold stays NaN.
	require.NoError(t, array.Set(dst, math.Float64frombits(0x7ff0000000000001), 0))
	assert.True(t, arraytest.At[float16.Num](t, dst, 0).IsNaN())

	// Every finite half converts to float64 and back exactly.
	for h := 0; h < 1<<16; h++ {
		require.NoError(t, array.Set(dst, float16.FromBits(uint16(h)), 0))
		f := arraytest.At[float64](t, dst, 0)
		require.NoError(t, array.Set(dst, f, 1))
		if got := arraytest.At[float16.Num](t, dst, 1).Uint16(); got != uint16(h) {
			t.Fatalf("half %#x -> %v -> %#x", h, f, got)
		}
	}
	// Integers convert to float16 by rounding too.
	require.NoError(t, array.Set(dst, int32(2049), 0)) // between 2048 and 2050: tie to even
	assert.Equal(t, 2048.0, arraytest.At[float64](t, dst, 0))
	require.NoError(t, array.Set(dst, int32(2051), 0))
	assert.Equal(t, 2052.0, arraytest.At[float64](t, dst, 0))
}

func TestReadOnlyWrites(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int32{1, 2, 3})
	require.NoError(t, err)
	defer a.Release()
	b, err := a.View([]int{4, 3}, []int{0, 1}, 0) // broadcast rows
	require.NoError(t, err)
	defer b.Release()
	assert.True(t, b.ReadOnly())
	assert.Equal(t, int32(3), arraytest.At[int32](t, b, 3, 2))
	assert.ErrorIs(t, array.Set(b, int32(9), 1, 1), array.ErrReadOnly)
	assert.ErrorIs(t, b.SetNull(1, 1), array.ErrReadOnly)
	assert.False(t, b.HasNulls())
	assert.Equal(t, []float64{1, 2, 3}, floats(t, a), "unchanged")

	// Stride 0 on a length-1 axis is writable.
	c, err := a.View([]int{1, 3}, []int{0, 1}, 0)
	require.NoError(t, err)
	defer c.Release()
	assert.False(t, c.ReadOnly())
	require.NoError(t, array.Set(c, int32(9), 0, 1))
	assert.Equal(t, int32(9), arraytest.At[int32](t, a, 1))
}

func TestSetNull(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	before, err := a.View([]int{3}, []int{1}, 3)
	require.NoError(t, err)

	require.NoError(t, a.SetNull(1, 1))
	assert.True(t, a.HasNulls())
	assert.False(t, arraytest.IsValid(t, a, 1, 1))
	assert.True(t, arraytest.IsValid(t, a, 0, 1))
	assert.Equal(t, []float64{1, 2, 3, 4, 0, 6}, floats(t, a), "null slot zeroed")
	vs, err := array.ValidSlice(a)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, true, true, false, true}, vs)

	// Views made before do not see the mask; views made after share it.
	assert.False(t, before.HasNulls())
	after, err := a.View([]int{3}, []int{1}, 3)
	require.NoError(t, err)
	assert.True(t, after.HasNulls())
	assert.False(t, arraytest.IsValid(t, after, 1))
	require.NoError(t, after.SetNull(2))
	assert.False(t, arraytest.IsValid(t, a, 1, 2))

	// Set marks the element valid again.
	require.NoError(t, array.Set(a, 7.0, 1, 1))
	assert.True(t, arraytest.IsValid(t, a, 1, 1))
	assert.True(t, arraytest.IsValid(t, after, 1))

	// A mask added to a rank-0 array.
	s, err := array.Scalar(mem, uint32(4))
	require.NoError(t, err)
	require.NoError(t, s.SetNull())
	assert.False(t, arraytest.IsValid(t, s))
	assert.Equal(t, uint32(0), arraytest.At[uint32](t, s))

	before.Release()
	after.Release()
	a.Release()
	s.Release()
}

func TestSetNullOnWrapUsesDefaultAllocator(t *testing.T) {
	vals := []int8{1, 2, 3}
	a, err := array.Wrap(vals)
	require.NoError(t, err)
	require.NoError(t, a.SetNull(0))
	assert.Equal(t, int8(0), vals[0])
	assert.True(t, a.HasNulls())
	a.Release()
}

func TestValidSlice(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []int8{1, 2, 3, 4}, 2, 2)
	require.NoError(t, err)
	defer a.Release()
	vs, err := array.ValidSlice(a)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, true, true}, vs)

	m, err := array.FromSliceValid(mem, []int8{1, 2, 3, 4}, []bool{false, true, true, true}, 2, 2)
	require.NoError(t, err)
	defer m.Release()
	tr, err := m.View([]int{2, 2}, []int{1, 2}, 0)
	require.NoError(t, err)
	defer tr.Release()
	vs, err = array.ValidSlice(tr)
	require.NoError(t, err)
	assert.Equal(t, []bool{false, true, true, true}, vs)
	bc, err := m.View([]int{3, 2}, []int{0, 1}, 0)
	require.NoError(t, err)
	defer bc.Release()
	vs, err = array.ValidSlice(bc)
	require.NoError(t, err)
	assert.Equal(t, []bool{false, true, false, true, false, true}, vs)

	e, err := m.View([]int{0, 2}, []int{2, 1}, 0)
	require.NoError(t, err)
	defer e.Release()
	vs, err = array.ValidSlice(e)
	require.NoError(t, err)
	assert.Empty(t, vs)
}

func TestToSliceOffsetsAndRankZero(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.Arange(mem, array.Int32, 0, 10, 1)
	require.NoError(t, err)
	defer a.Release()
	tail, err := a.View([]int{2, 3}, []int{3, 1}, 4) // contiguous with an offset
	require.NoError(t, err)
	defer tail.Release()
	assert.True(t, tail.IsContiguous())
	got, err := array.ToSlice[int32](tail)
	require.NoError(t, err)
	assert.Equal(t, []int32{4, 5, 6, 7, 8, 9}, got)

	s, err := a.View([]int{}, []int{}, 9)
	require.NoError(t, err)
	defer s.Release()
	got, err = array.ToSlice[int32](s)
	require.NoError(t, err)
	assert.Equal(t, []int32{9}, got)
	assert.Equal(t, int32(9), arraytest.At[int32](t, s))
}
