package arrowio

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
	"github.com/stride0/stride0/internal/readlimit"
)

func TestBitsPackUnpack(t *testing.T) {
	for n := 0; n < 80; n++ {
		for off := 0; off < 17; off++ {
			src := make([]byte, n)
			for i := range src {
				if (i*5+off)%3 != 0 {
					src[i] = byte(1 + i%4) // any non-zero byte counts as set
				}
			}
			bm := make([]byte, readlimit.BitmapBytes(n)+1)
			bm[len(bm)-1] = 0xAA // must stay untouched
			zeros := packBits(bm, src)
			want := 0
			for i, v := range src {
				bit := bm[i>>3]>>(i&7)&1 == 1
				require.Equal(t, v != 0, bit, "n=%d bit %d", n, i)
				if v == 0 {
					want++
				}
			}
			require.Equal(t, want, zeros)
			require.Equal(t, byte(0xAA), bm[len(bm)-1])
			if n%8 != 0 {
				require.Zero(t, bm[n>>3]>>(n&7), "unused bits are zero")
			}
			// Unpack at an offset: shift the bitmap by off bits.
			shifted := make([]byte, readlimit.BitmapBytes(n+off))
			for i, v := range src {
				if v != 0 {
					shifted[(i+off)>>3] |= 1 << ((i + off) & 7)
				}
			}
			dst := make([]byte, n)
			unpackBits(dst, shifted, off)
			for i, v := range src {
				require.Equal(t, v != 0, dst[i] == 1, "unpack n=%d off=%d i=%d", n, off, i)
				require.LessOrEqual(t, dst[i], byte(1))
			}
			require.Equal(t, want, readlimit.CountZeroBits(shifted, off, n))
		}
	}
}

// TestPrimitiveRoundTrip: every dtype, with and without nulls, at Arrow
// offsets 0 and 3, lengths 0..: Arrow -> Array shares the values buffer and
// reads the same values and validity as Arrow's accessors; Array -> Arrow
// shares it again and is Equal to the original.
func TestPrimitiveRoundTrip(t *testing.T) {
	for _, dt := range array.DTypes {
		for _, n := range []int{0, 1, 13, 64} {
			for _, nulls := range []bool{false, true} {
				for _, off := range []int{0, 3} {
					if off > n {
						continue
					}
					t.Run(fmt.Sprintf("%v/n=%d/nulls=%v/off=%d", dt, n, nulls, off), func(t *testing.T) {
						mem := arrowtest.NewMem(t)
						vals := arrowtest.TestValues(dt, n)
						var valid []bool
						if nulls {
							valid = arrowtest.NullEvery(n, 3)
						}
						full := arrowtest.BuildArrow(t, mem, dt, vals, valid)
						defer full.Release()
						src := arrowarray.NewSlice(full, int64(off), int64(n))
						defer src.Release()
						wantV, wantOK := arrowtest.ArrowValues(t, src)

						a, err := FromArrow(mem, src)
						require.NoError(t, err)
						defer a.Release()
						require.Equal(t, []int{n - off}, a.Shape())
						require.Equal(t, dt, a.DType())
						gotV, gotOK := arrowtest.Elems(t, a)
						assert.Equal(t, arrowtest.ZeroNulls(wantV, wantOK), gotV)
						assert.Equal(t, wantOK, gotOK)
						if dt != array.Bool && src.Len() > 0 {
							assert.Equal(t, arrowtest.ArrowAddr(src.Data(), 0), arrowtest.Addr(a, a.Offset()), "values buffer shared")
						}

						back, err := ToArrow(mem, a)
						require.NoError(t, err)
						defer back.Release()
						assert.True(t, arrowarray.Equal(src, back), "round trip: %v vs %v", src, back)
						assert.Equal(t, src.NullN(), back.NullN())
						if dt != array.Bool && src.Len() > 0 {
							assert.Equal(t, arrowtest.ArrowAddr(src.Data(), 0), arrowtest.ArrowAddr(back.Data(), 0), "shared again")
						}
					})
				}
			}
		}
	}
}

// TestToArrowViews: views Arrow cannot describe are materialized (broadcast,
// reversed, strided), a contiguous offset view is not; nulls follow.
func TestToArrowViews(t *testing.T) {
	mem := arrowtest.NewMem(t)
	base, err := array.FromSlice(mem, []int32{0, 1, 2, 3, 4, 5, 6, 7})
	require.NoError(t, err)
	defer base.Release()
	require.NoError(t, base.SetNull(5))

	cases := []struct {
		name           string
		shape, strides []int
		off            int
		want           []int32
		wantNull       []bool
		shared         bool
	}{
		{"offset", []int{4}, []int{1}, 2, []int32{2, 3, 4, 0}, []bool{false, false, false, true}, true},
		{"broadcast", []int{5}, []int{0}, 3, []int32{3, 3, 3, 3, 3}, []bool{false, false, false, false, false}, false},
		{"reversed", []int{8}, []int{-1}, 7, []int32{7, 6, 0, 4, 3, 2, 1, 0}, []bool{false, false, true, false, false, false, false, false}, false},
		{"strided", []int{3}, []int{3}, 1, []int32{1, 4, 7}, []bool{false, false, false}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := base.View(c.shape, c.strides, c.off)
			require.NoError(t, err)
			defer v.Release()
			arr, err := ToArrow(mem, v)
			require.NoError(t, err)
			defer arr.Release()
			got := arr.(*arrowarray.Int32)
			for i := range c.want {
				assert.Equal(t, c.wantNull[i], got.IsNull(i), "null %d", i)
				if !c.wantNull[i] {
					assert.Equal(t, c.want[i], got.Value(i), "value %d", i)
				}
			}
			if c.shared {
				assert.Equal(t, arrowtest.Addr(base, c.off), arrowtest.ArrowAddr(arr.Data(), 0))
			} else {
				assert.NotEqual(t, arrowtest.Addr(base, 0), uintptr(0))
			}
		})
	}
}

func TestToArrowErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	_, err := ToArrow(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	a, err := array.New(mem, array.Float32, 2, 3)
	require.NoError(t, err)
	_, err = ToArrow(mem, a)
	assert.ErrorIs(t, err, array.ErrShape)
	a.Release()
	_, err = ToArrow(mem, a)
	assert.ErrorIs(t, err, array.ErrReleased)
	s, err := array.Scalar(mem, 1.5)
	require.NoError(t, err)
	defer s.Release()
	_, err = ToArrow(mem, s)
	assert.ErrorIs(t, err, array.ErrShape)
}

func TestFromArrowErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	_, err := FromArrow(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)

	sb := arrowarray.NewStringBuilder(mem)
	sb.Append("x")
	str := sb.NewArray()
	sb.Release()
	defer str.Release()
	_, err = FromArrow(mem, str)
	assert.ErrorIs(t, err, ErrUnsupported)

	// A values buffer too short for the claimed length.
	short := memory.NewResizableBuffer(mem)
	short.Resize(8)
	defer short.Release()
	d := arrowarray.NewData(arrow.PrimitiveTypes.Float64, 4, []*memory.Buffer{nil, short}, nil, 0, 0)
	defer d.Release()
	_, err = FromArrowData(mem, d)
	assert.ErrorIs(t, err, ErrInvalid)

	// A validity bitmap too short for offset + length.
	vals := memory.NewResizableBuffer(mem)
	vals.Resize(8 * 20)
	defer vals.Release()
	bm := memory.NewResizableBuffer(mem)
	bm.Resize(1)
	defer bm.Release()
	d2 := arrowarray.NewData(arrow.PrimitiveTypes.Float64, 12, []*memory.Buffer{bm, vals}, nil, 1, 2)
	defer d2.Release()
	_, err = FromArrowData(mem, d2)
	assert.ErrorIs(t, err, ErrInvalid)

	// Bool values too short.
	d3 := arrowarray.NewData(arrow.FixedWidthTypes.Boolean, 12, []*memory.Buffer{nil, bm}, nil, 0, 0)
	defer d3.Release()
	_, err = FromArrowData(mem, d3)
	assert.ErrorIs(t, err, ErrInvalid)

	// Too few buffers.
	d4 := arrowarray.NewData(arrow.PrimitiveTypes.Int8, 1, []*memory.Buffer{nil}, nil, 0, 0)
	defer d4.Release()
	_, err = FromArrowData(mem, d4)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.True(t, errors.Is(err, ErrInvalid))
}

// TestFromArrowMaskIndependentOfNullCount: the mask comes from the bitmap
// bits; an all-set bitmap makes no mask.
func TestFromArrowAllValidBitmap(t *testing.T) {
	mem := arrowtest.NewMem(t)
	arr := arrowtest.BuildArrow(t, mem, array.Int16, []float64{1, 2, 3}, []bool{true, true, true})
	defer arr.Release()
	a, err := FromArrow(mem, arr)
	require.NoError(t, err)
	defer a.Release()
	assert.False(t, a.HasNulls())
}

func TestChunked(t *testing.T) {
	mem := arrowtest.NewMem(t)
	c1 := arrowtest.BuildArrow(t, mem, array.Float64, []float64{1, 2, 3}, nil)
	c2 := arrowtest.BuildArrow(t, mem, array.Float64, []float64{4, 5}, []bool{false, true})
	c3 := arrowtest.BuildArrow(t, mem, array.Float64, nil, nil)
	ch := arrow.NewChunked(arrow.PrimitiveTypes.Float64, []arrow.Array{c1, c2, c3})
	c1.Release()
	c2.Release()
	c3.Release()
	defer ch.Release()

	parts, err := FromChunked(mem, ch)
	require.NoError(t, err)
	require.Len(t, parts, 3)
	assert.Equal(t, arrowtest.ArrowAddr(ch.Chunk(0).Data(), 0), arrowtest.Addr(parts[0], parts[0].Offset()), "chunks are not copied")
	releaseAll(parts)

	all, err := ConcatChunked(mem, ch)
	require.NoError(t, err)
	defer all.Release()
	v, ok := arrowtest.Elems(t, all)
	assert.Equal(t, []float64{1, 2, 3, 0, 5}, v)
	assert.Equal(t, []bool{true, true, true, false, true}, ok)

	one := arrow.NewChunked(arrow.PrimitiveTypes.Float64, []arrow.Array{ch.Chunk(0)})
	defer one.Release()
	a1, err := ConcatChunked(mem, one)
	require.NoError(t, err)
	assert.Equal(t, arrowtest.ArrowAddr(one.Chunk(0).Data(), 0), arrowtest.Addr(a1, a1.Offset()), "one chunk: no copy")
	a1.Release()

	none := arrow.NewChunked(arrow.PrimitiveTypes.Int8, nil)
	defer none.Release()
	a0, err := ConcatChunked(mem, none)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, a0.Shape())
	a0.Release()

	_, err = FromChunked(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)

	// An unsupported chunk releases what was converted before it.
	sb := arrowarray.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "b"}, nil)
	s := sb.NewArray()
	sb.Release()
	bad := arrow.NewChunked(arrow.BinaryTypes.String, []arrow.Array{s, s})
	s.Release()
	defer bad.Release()
	_, err = ConcatChunked(mem, bad)
	assert.ErrorIs(t, err, ErrUnsupported)
}
