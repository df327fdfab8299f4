package compute

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stride0/stride0/internal/half"
)

// specialBits fills src (a buffer of size-byte elements) with random bits,
// and, for floats, every few elements a special value: zeros, infinities,
// quiet and signalling NaNs with payloads, subnormals, extremes, and
// values halfway between two float16s (float32 only), where rounding
// decides.
func specialBits(rng *rand.Rand, src []byte, t Type) {
	rng.Read(src)
	switch t {
	case Float32:
		sp := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000,
			0x00000001, 0x807fffff, 0x7f7fffff, 0x3f800000, 0x477fe000, 0x477ff000, 0x33800000, 0x33000000, 0x387fc000}
		w := unsafe.Slice((*uint32)(unsafe.Pointer(&src[0])), len(src)/4)
		for i := range w {
			switch rng.Intn(4) {
			case 0:
				w[i] = sp[rng.Intn(len(sp))]
			case 1: // a float16 midpoint, or one ulp beside it
				h := uint32(rng.Intn(1 << 15))
				f := math.Float32bits(float32(half.ToFloat64(uint16(h))))
				w[i] = (f + 1<<12 + uint32(rng.Intn(3)) - 1) | uint32(rng.Intn(2))<<31
			}
		}
	case Float64:
		sp := []uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001,
			0xfff8000000000123, 1, 0x000fffffffffffff, 0x7fefffffffffffff, 0x47efffffe0000000, 0x36a0000000000000, 0x3ff0000000000000}
		w := unsafe.Slice((*uint64)(unsafe.Pointer(&src[0])), len(src)/8)
		for i := range w {
			if rng.Intn(3) == 0 {
				w[i] = sp[rng.Intn(len(sp))]
			}
		}
	case Float16:
		sp := []uint16{0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 1, 0x3ff, 0x7bff}
		w := unsafe.Slice((*uint16)(unsafe.Pointer(&src[0])), len(src)/2)
		for i := range w {
			if rng.Intn(3) == 0 {
				w[i] = sp[rng.Intn(len(sp))]
			}
		}
	case Bool:
		for i := range src {
			src[i] &= 1
		}
	default: // integers: zeros, and elements with one nonzero byte
		sz := t.Size()
		for i := 0; i+sz <= len(src); i += sz {
			switch rng.Intn(4) {
			case 0:
				clear(src[i : i+sz])
			case 1:
				clear(src[i : i+sz])
				src[i+rng.Intn(sz)] = byte(1 + rng.Intn(255))
			}
		}
	}
}

// TestCastVecKernels checks the vector casts (castvec_amd64.s; the Go
// loops under noasm) against the generic Go loops bit for bit, NaN
// payloads included, over every length up to 300, unaligned starts and
// special values.
func TestCastVecKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	ref := map[[2]Type]UnaryFunc{
		{Float32, Float64}: wrapUnary(castNum[float32, float64]), {Int32, Float64}: wrapUnary(castNum[int32, float64]),
		{Float64, Float32}: wrapUnary(castNum[float64, float32]),
		{Uint8, Int64}:     wrapUnary(castNum[uint8, int64]), {Uint8, Uint64}: wrapUnary(castNum[uint8, uint64]),
		{Bool, Int64}: wrapUnary(castNum[uint8, int64]), {Bool, Uint64}: wrapUnary(castNum[uint8, uint64]),
		{Int8, Int64}: wrapUnary(castNum[int8, int64]), {Uint16, Int64}: wrapUnary(castNum[uint16, int64]),
		{Uint16, Uint64}: wrapUnary(castNum[uint16, uint64]), {Int16, Int64}: wrapUnary(castNum[int16, int64]),
		{Uint8, Int32}: wrapUnary(castNum[uint8, int32]), {Uint8, Uint32}: wrapUnary(castNum[uint8, uint32]),
		{Bool, Int32}: wrapUnary(castNum[uint8, int32]), {Bool, Uint32}: wrapUnary(castNum[uint8, uint32]),
		{Int8, Int32}:   wrapUnary(castNum[int8, int32]),
		{Float32, Bool}: wrapUnary(castToBool[float32]), {Float64, Bool}: wrapUnary(castToBool[float64]),
		{Float16, Float32}: wrapUnary(castFromF16[float32]), {Float32, Float16}: wrapUnary(castToF16[float32]),
		{Float16, Float64}: wrapUnary(castFromF16[float64]), {Float16, Int64}: wrapUnary(castFromF16[int64]),
		{Float16, Uint8}: wrapUnary(castFromF16[uint8]),
		{Int8, Bool}:     wrapUnary(castToBool[int8]), {Uint8, Bool}: wrapUnary(castToBool[uint8]),
		{Int16, Bool}: wrapUnary(castToBool[int16]), {Uint16, Bool}: wrapUnary(castToBool[uint16]),
		{Int32, Bool}: wrapUnary(castToBool[int32]), {Uint32, Bool}: wrapUnary(castToBool[uint32]),
		{Int64, Bool}: wrapUnary(castToBool[int64]), {Uint64, Bool}: wrapUnary(castToBool[uint64]),
		{Int32, Float32}: wrapUnary(castNum[int32, float32]), {Int8, Float32}: wrapUnary(castNum[int8, float32]),
		{Uint8, Float32}: wrapUnary(castNum[uint8, float32]), {Bool, Float32}: wrapUnary(castNum[uint8, float32]),
		{Int16, Float32}: wrapUnary(castNum[int16, float32]), {Uint16, Float32}: wrapUnary(castNum[uint16, float32]),
		{Int8, Float64}: wrapUnary(castNum[int8, float64]), {Uint8, Float64}: wrapUnary(castNum[uint8, float64]),
		{Bool, Float64}: wrapUnary(castNum[uint8, float64]), {Int16, Float64}: wrapUnary(castNum[int16, float64]),
		{Uint16, Float64}: wrapUnary(castNum[uint16, float64]),
		{Float32, Int32}:  wrapUnary(castNum[float32, int32]), {Float64, Int32}: wrapUnary(castNum[float64, int32]),
		{Float32, Int8}: wrapUnary(castNum[float32, int8]), {Float32, Uint8}: wrapUnary(castNum[float32, uint8]),
		{Float32, Int16}: wrapUnary(castNum[float32, int16]), {Float32, Uint16}: wrapUnary(castNum[float32, uint16]),
		{Float64, Int8}: wrapUnary(castNum[float64, int8]), {Float64, Uint8}: wrapUnary(castNum[float64, uint8]),
		{Float64, Int16}: wrapUnary(castNum[float64, int16]), {Float64, Uint16}: wrapUnary(castNum[float64, uint16]),
		{Int8, Uint8}: wrapUnary(castNum[int8, uint8]), {Uint8, Int8}: wrapUnary(castNum[uint8, int8]),
		{Int16, Uint16}: wrapUnary(castNum[int16, uint16]), {Uint16, Int16}: wrapUnary(castNum[uint16, int16]),
		{Int32, Uint32}: wrapUnary(castNum[int32, uint32]), {Uint32, Int32}: wrapUnary(castNum[uint32, int32]),
		{Int64, Uint64}: wrapUnary(castNum[int64, uint64]), {Uint64, Int64}: wrapUnary(castNum[uint64, int64]),
		{Int16, Int8}: wrapUnary(castNum[int16, int8]), {Uint16, Uint8}: wrapUnary(castNum[uint16, uint8]),
		{Int16, Uint8}: wrapUnary(castNum[int16, uint8]), {Uint16, Int8}: wrapUnary(castNum[uint16, int8]),
		{Int32, Int16}: wrapUnary(castNum[int32, int16]), {Uint32, Uint16}: wrapUnary(castNum[uint32, uint16]),
		{Int32, Uint16}: wrapUnary(castNum[int32, uint16]), {Uint32, Int16}: wrapUnary(castNum[uint32, int16]),
		{Int32, Int8}: wrapUnary(castNum[int32, int8]), {Uint32, Uint8}: wrapUnary(castNum[uint32, uint8]),
		{Int32, Uint8}: wrapUnary(castNum[int32, uint8]), {Uint32, Int8}: wrapUnary(castNum[uint32, int8]),
		{Int64, Int32}: wrapUnary(castNum[int64, int32]), {Uint64, Uint32}: wrapUnary(castNum[uint64, uint32]),
		{Int64, Uint32}: wrapUnary(castNum[int64, uint32]), {Uint64, Int32}: wrapUnary(castNum[uint64, int32]),
	}
	src := make([]byte, 4096)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		for ft, want := range ref {
			from, to := ft[0], ft[1]
			specialBits(rng, src, from)
			got, err := LookupCast(from, to)
			if err != nil {
				t.Fatal(err)
			}
			a, b := make([]byte, n*to.Size()+8), make([]byte, n*to.Size()+8)
			s := unsafe.Pointer(&src[off*from.Size()])
			got(unsafe.Pointer(&a[0]), s, n)
			want(unsafe.Pointer(&b[0]), s, n)
			if !bytes.Equal(a, b) {
				for i := 0; i < n; i++ {
					sz := to.Size()
					if !bytes.Equal(a[i*sz:(i+1)*sz], b[i*sz:(i+1)*sz]) {
						t.Fatalf("cast %v->%v n=%d: element %d (source % x) gives % x, want % x", from, to, n, i,
							src[(off+i)*from.Size():(off+i+1)*from.Size()], a[i*sz:(i+1)*sz], b[i*sz:(i+1)*sz])
					}
				}
			}
		}
	}
}

// TestCastFloat16Sweep checks float16 -> float32 for all 65536 values and
// float32 -> float16 at every float16 midpoint (and one ulp either side),
// for both signs, against the Go conversions.
func TestCastFloat16Sweep(t *testing.T) {
	h := make([]uint16, 1<<16)
	for i := range h {
		h[i] = uint16(i)
	}
	to32, _ := LookupCast(Float16, Float32)
	a, b := make([]float32, len(h)), make([]float32, len(h))
	to32(unsafe.Pointer(&a[0]), unsafe.Pointer(&h[0]), len(h))
	castFromF16(b, h)
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("float16 %#04x -> float32 %#08x, want %#08x", i, math.Float32bits(a[i]), math.Float32bits(b[i]))
		}
	}
	var f []float32
	for i := 0; i < 1<<16; i++ {
		v := math.Float32bits(float32(half.ToFloat64(uint16(i))))
		for d := -1; d <= 1; d++ {
			f = append(f, math.Float32frombits(v+1<<12+uint32(d)), math.Float32frombits(v+uint32(d)))
		}
	}
	// every other cast from float16, all 65536 values in one call (the
	// blocks of castF16ViaF32 and the NaN repair of castF16F64 included),
	// against the Go loops
	for _, c := range []struct {
		to  Type
		ref UnaryFunc
	}{
		{Float64, wrapUnary(castFromF16[float64])}, {Int8, wrapUnary(castFromF16[int8])},
		{Int16, wrapUnary(castFromF16[int16])}, {Int32, wrapUnary(castFromF16[int32])},
		{Int64, wrapUnary(castFromF16[int64])}, {Uint8, wrapUnary(castFromF16[uint8])},
		{Uint16, wrapUnary(castFromF16[uint16])}, {Uint32, wrapUnary(castFromF16[uint32])},
		{Uint64, wrapUnary(castFromF16[uint64])}, {Bool, wrapUnary(castF16ToBool)},
	} {
		k, err := LookupCast(Float16, c.to)
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []int{0, 3} {
			n := len(h) - off
			sz := c.to.Size()
			got, want := make([]byte, n*sz), make([]byte, n*sz)
			k(unsafe.Pointer(&got[0]), unsafe.Pointer(&h[off]), n)
			c.ref(unsafe.Pointer(&want[0]), unsafe.Pointer(&h[off]), n)
			for i := 0; i < n; i++ {
				if g, w := got[i*sz:(i+1)*sz], want[i*sz:(i+1)*sz]; !bytes.Equal(g, w) {
					t.Fatalf("float16 %#04x -> %v gives % x, want % x", h[off+i], c.to, g, w)
				}
			}
		}
	}
	to16, _ := LookupCast(Float32, Float16)
	c, e := make([]uint16, len(f)), make([]uint16, len(f))
	to16(unsafe.Pointer(&c[0]), unsafe.Pointer(&f[0]), len(f))
	castToF16(e, f)
	for i := range c {
		if c[i] != e[i] {
			t.Fatalf("float32 %#08x -> float16 %#04x, want %#04x", math.Float32bits(f[i]), c[i], e[i])
		}
	}
}
