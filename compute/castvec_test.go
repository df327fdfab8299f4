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
		{Int8, Bool}: wrapUnary(castToBool[int8]), {Uint8, Bool}: wrapUnary(castToBool[uint8]),
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

func refAcc[T number](op Op) AccumulateFunc {
	return func(acc, x unsafe.Pointer, n int) {
		a, xs := unsafe.Slice((*T)(acc), n), unsafe.Slice((*T)(x), n)
		for i := range a {
			switch op {
			case Add:
				a[i] += xs[i]
			case Mul:
				a[i] *= xs[i]
			case Maximum:
				a[i] = max(a[i], xs[i])
			case Minimum:
				a[i] = min(a[i], xs[i])
			}
		}
	}
}

// TestAccVecKernels checks the integer and bool steps of reductions over
// outer axes (acc op= x), int64 folds and bool not against plain loops,
// every length up to 300 from unaligned starts.
func TestAccVecKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	type key struct {
		op Op
		t  Type
	}
	ref := map[key]AccumulateFunc{
		{Maximum, Bool}: refAcc[uint8](Maximum), {Minimum, Bool}: refAcc[uint8](Minimum),
		{Maximum, Uint8}: refAcc[uint8](Maximum), {Minimum, Uint8}: refAcc[uint8](Minimum),
		{Maximum, Int8}: refAcc[int8](Maximum), {Minimum, Int8}: refAcc[int8](Minimum),
		{Maximum, Uint16}: refAcc[uint16](Maximum), {Minimum, Uint16}: refAcc[uint16](Minimum),
		{Maximum, Int16}: refAcc[int16](Maximum), {Minimum, Int16}: refAcc[int16](Minimum),
		{Maximum, Uint32}: refAcc[uint32](Maximum), {Minimum, Uint32}: refAcc[uint32](Minimum),
		{Maximum, Int32}: refAcc[int32](Maximum), {Minimum, Int32}: refAcc[int32](Minimum),
		{Add, Int64}: refAcc[int64](Add), {Add, Uint64}: refAcc[uint64](Add),
		{Add, Int32}: refAcc[int32](Add), {Add, Uint32}: refAcc[uint32](Add),
		{Maximum, Int64}: refAcc[int64](Maximum), {Minimum, Int64}: refAcc[int64](Minimum),
		{Maximum, Uint64}: refAcc[uint64](Maximum), {Minimum, Uint64}: refAcc[uint64](Minimum),
		{Mul, Int64}: refAcc[int64](Mul), {Mul, Uint64}: refAcc[uint64](Mul),
	}
	acc0, src := make([]byte, 4096), make([]byte, 4096)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		for k, want := range ref {
			specialBits(rng, src, k.t)
			specialBits(rng, acc0, k.t)
			if k.op == Mul {
				oddWords(src)
				oddWords(acc0)
			}
			got, err := LookupAccumulate(k.op, k.t)
			if err != nil {
				t.Fatal(err)
			}
			sz := k.t.Size()
			a := append([]byte(nil), acc0...)
			b := append([]byte(nil), acc0...)
			got(unsafe.Pointer(&a[off*sz]), unsafe.Pointer(&src[off*sz]), n)
			want(unsafe.Pointer(&b[off*sz]), unsafe.Pointer(&src[off*sz]), n)
			if !bytes.Equal(a, b) {
				t.Fatalf("accumulate %v %v n=%d differs", k.op, k.t, n)
			}
		}
		rng.Read(src)
		for _, tt := range []Type{Int64, Uint64} {
			fold, _ := LookupFold(Add, tt)
			var got, want uint64 = 7, 7
			fold(unsafe.Pointer(&got), unsafe.Pointer(&src[off*8]), n)
			for _, v := range unsafe.Slice((*uint64)(unsafe.Pointer(&src[off*8])), n) {
				want += v
			}
			if got != want {
				t.Fatalf("fold add %v n=%d: %d, want %d", tt, n, got, want)
			}
		}
		specialBits(rng, src, Bool)
		not, _ := LookupUnary(LogicalNot, Bool)
		d := make([]byte, n+1)
		not(unsafe.Pointer(&d[0]), unsafe.Pointer(&src[off]), n)
		for i := 0; i < n; i++ {
			if d[i] != src[off+i]^1 {
				t.Fatalf("not n=%d: element %d is %d for %d", n, i, d[i], src[off+i])
			}
		}
	}
}

// TestFoldIntExtrema checks the integer max and min folds and the 64-bit
// product folds (whole blocks in vectors, foldint_amd64.s) against plain
// loops: every length up to 700, unaligned starts, random starting
// accumulators, each extreme placed anywhere, odd factors for products.
func TestFoldIntExtrema(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	src := make([]byte, 8192)
	check := func(tt Type, n, off int, got, want func(acc, x unsafe.Pointer, n int)) {
		sz := tt.Size()
		a, b := make([]byte, 8), make([]byte, 8)
		rng.Read(a[:sz])
		copy(b, a)
		got(unsafe.Pointer(&a[0]), unsafe.Pointer(&src[off*sz]), n)
		want(unsafe.Pointer(&b[0]), unsafe.Pointer(&src[off*sz]), n)
		if !bytes.Equal(a, b) {
			t.Fatalf("fold %v n=%d off=%d: % x, want % x", tt, n, off, a[:sz], b[:sz])
		}
	}
	// the plain loops: max, min and (64-bit) product
	ref := map[Type][3]FoldFunc{
		Int8: {foldMax[int8], foldMin[int8]}, Uint8: {foldMax[uint8], foldMin[uint8]},
		Int16: {foldMax[int16], foldMin[int16]}, Uint16: {foldMax[uint16], foldMin[uint16]},
		Int32: {foldMax[int32], foldMin[int32]}, Uint32: {foldMax[uint32], foldMin[uint32]},
		Int64:  {foldMax[int64], foldMin[int64], foldProd[int64]},
		Uint64: {foldMax[uint64], foldMin[uint64], foldProd[uint64]},
	}
	for n := 0; n <= 700; n++ {
		off := rng.Intn(8)
		for _, tt := range []Type{Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64} {
			specialBits(rng, src, tt)
			for i, op := range []Op{Maximum, Minimum, Mul} {
				want := ref[tt][i]
				if want == nil {
					continue
				}
				if op == Mul {
					oddWords(src)
				}
				got, _ := LookupFold(op, tt)
				check(tt, n, off, got, want)
			}
		}
	}
}

// TestCmpIntKernels checks the integer comparisons (cmpint_amd64.s) of
// every type, predicate and form against plain loops: every length up to
// 200, unaligned starts, operands drawn so that ties, sign boundaries and
// extremes are frequent.
func TestCmpIntKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	x, y := make([]byte, 2048), make([]byte, 2048)
	ops := []Op{Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual}
	for n := 0; n <= 200; n++ {
		off := rng.Intn(8)
		for _, tt := range []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
			sz := tt.Size()
			fillCmpOperands(rng, x, y, sz)
			for _, op := range ops {
				for _, f := range []Form{VV, VS, SV} {
					k, err := LookupBinary(op, tt, f)
					if err != nil {
						t.Fatal(err)
					}
					got := make([]byte, n+8)
					xp, yp := unsafe.Pointer(&x[off*sz]), unsafe.Pointer(&y[off*sz])
					k(unsafe.Pointer(&got[0]), xp, yp, n)
					for i := 0; i < n; i++ {
						xi, yi := i, i
						switch f {
						case VS:
							yi = 0
						case SV:
							xi = 0
						}
						a, b := intAt(x[(off+xi)*sz:], tt), intAt(y[(off+yi)*sz:], tt)
						if want := cmpRef(op, a, b, tt); got[i] != want {
							t.Fatalf("%v %v %s n=%d: element %d (%v, %v) gives %d, want %d", op, tt, [...]string{"vv", "vs", "sv"}[f], n, i, a, b, got[i], want)
						}
					}
				}
			}
		}
	}
}

// fillCmpOperands fills x and y with size-byte elements: random, equal to
// the other operand, or an extreme or zero.
func fillCmpOperands(rng *rand.Rand, x, y []byte, size int) {
	rng.Read(x)
	rng.Read(y)
	for i := 0; i+size <= len(x); i += size {
		switch rng.Intn(5) {
		case 0:
			copy(y[i:i+size], x[i:i+size])
		case 1:
			for _, b := range [][]byte{x, y} {
				if rng.Intn(2) == 0 {
					continue
				}
				v := []byte{0, 0x80, 0x7f, 0xff}[rng.Intn(4)]
				for j := 0; j < size; j++ {
					b[i+j] = []byte{0, 0xff}[rng.Intn(2)]
				}
				b[i+size-1] = v // the top byte sets the sign
			}
		}
	}
}

// intAt reads the element of type t at the start of b as an int64 (uint64
// bits for Uint64).
func intAt(b []byte, t Type) int64 {
	p := unsafe.Pointer(&b[0])
	switch t {
	case Int8:
		return int64(*(*int8)(p))
	case Int16:
		return int64(*(*int16)(p))
	case Int32:
		return int64(*(*int32)(p))
	case Int64, Uint64:
		return *(*int64)(p)
	case Uint8, Bool:
		return int64(*(*uint8)(p))
	case Uint16:
		return int64(*(*uint16)(p))
	default:
		return int64(*(*uint32)(p))
	}
}

func cmpRef(op Op, a, b int64, t Type) byte {
	c := 0 // -1, 0, 1
	switch {
	case t == Uint64 && uint64(a) < uint64(b), t != Uint64 && a < b:
		c = -1
	case a != b:
		c = 1
	}
	var r bool
	switch op {
	case Equal:
		r = c == 0
	case NotEqual:
		r = c != 0
	case Greater:
		r = c > 0
	case GreaterEqual:
		r = c >= 0
	case Less:
		r = c < 0
	case LessEqual:
		r = c <= 0
	}
	return b2u(r)
}

// TestArgExtremeInt checks ArgExtremeInt against a plain loop for every
// integer type and bool: every length up to 300, unaligned starts, few
// distinct values (ties) or random bits, the extreme anywhere.
func TestArgExtremeInt(t *testing.T) {
	rng := rand.New(rand.NewSource(35))
	src := make([]byte, 4096)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		for _, tt := range []Type{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
			sz := tt.Size()
			rng.Read(src)
			if tt == Bool || rng.Intn(2) == 0 {
				for i := range src { // few distinct values: ties
					src[i] = byte(rng.Intn(2))
					if tt != Bool && rng.Intn(50) == 0 {
						src[i] = 0x80
					}
				}
			}
			for _, isMax := range []bool{false, true} {
				got := ArgExtremeInt(tt, unsafe.Pointer(&src[off*sz]), n, isMax)
				want := -1
				for i := 0; i < n; i++ {
					v := intAt(src[(off+i)*sz:], tt)
					if want < 0 {
						want = i
						continue
					}
					b := intAt(src[(off+want)*sz:], tt)
					c := cmpRef(Greater, v, b, tt)
					if !isMax {
						c = cmpRef(Less, v, b, tt)
					}
					if c == 1 {
						want = i
					}
				}
				if got != want {
					t.Fatalf("%v isMax=%v n=%d: %d, want %d", tt, isMax, n, got, want)
				}
			}
		}
	}
}

// TestIntVecKernels checks the 8/16-bit products, bool add and multiply
// (every form) and integer absolute values (intvec_amd64.s) against plain
// loops: every length up to 200, unaligned starts, extremes frequent.
func TestIntVecKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	x, y := make([]byte, 2048), make([]byte, 2048)
	mulRef := map[Type]func(a, b int64) int64{
		Int8: func(a, b int64) int64 { return int64(int8(a * b)) }, Uint8: func(a, b int64) int64 { return int64(uint8(a * b)) },
		Int16: func(a, b int64) int64 { return int64(int16(a * b)) }, Uint16: func(a, b int64) int64 { return int64(uint16(a * b)) },
	}
	forms := [...]string{"vv", "vs", "sv"}
	for n := 0; n <= 200; n++ {
		off := rng.Intn(8)
		type binCase struct {
			op    Op
			t     Type
			ref   func(a, b int64) int64
			count bool // y is a shift count: mostly small, some negative or past the width
		}
		cases := []binCase{
			{Mul, Int8, mulRef[Int8], false}, {Mul, Uint8, mulRef[Uint8], false}, {Mul, Int16, mulRef[Int16], false}, {Mul, Uint16, mulRef[Uint16], false},
			{Add, Bool, func(a, b int64) int64 { return a | b }, false}, {Mul, Bool, func(a, b int64) int64 { return a & b }, false},
		}
		for _, tt := range []Type{Int8, Uint8, Int16, Uint16} {
			cases = append(cases, binCase{LeftShift, tt, func(a, b int64) int64 {
				if b < 0 {
					return 0
				}
				return a << uint64(b)
			}, true}, binCase{RightShift, tt, func(a, b int64) int64 {
				if b < 0 {
					b = 63
				}
				return a >> uint64(min(b, 63))
			}, true})
		}
		for _, tt := range []Type{Int8, Uint8, Bool, Int16, Uint16} {
			cases = append(cases, binCase{BitwiseAnd, tt, func(a, b int64) int64 { return a & b }, false},
				binCase{BitwiseOr, tt, func(a, b int64) int64 { return a | b }, false},
				binCase{BitwiseXor, tt, func(a, b int64) int64 { return a ^ b }, false})
		}
		for _, tt := range []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
			u := tt == Uint64
			cases = append(cases, binCase{Maximum, tt, func(a, b int64) int64 {
				if (u && uint64(a) > uint64(b)) || (!u && a > b) {
					return a
				}
				return b
			}, false}, binCase{Minimum, tt, func(a, b int64) int64 {
				if (u && uint64(a) < uint64(b)) || (!u && a < b) {
					return a
				}
				return b
			}, false})
		}
		for _, c := range cases {
			sz := c.t.Size()
			fillCmpOperands(rng, x, y, sz)
			if c.count {
				for i := 0; i+sz <= len(y); i += sz {
					clear(y[i : i+sz])
					y[i] = byte(rng.Intn(20) - 2) // -2..17: sign-extended below when signed
					if y[i] >= 0x80 && (c.t == Int8 || c.t == Int16) {
						for j := 1; j < sz; j++ {
							y[i+j] = 0xff
						}
					}
				}
			}
			if c.t == Bool {
				specialBits(rng, x, Bool)
				specialBits(rng, y, Bool)
			}
			for f := VV; f <= SV; f++ {
				k, err := LookupBinary(c.op, c.t, f)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]byte, (n+8)*sz)
				k(unsafe.Pointer(&got[0]), unsafe.Pointer(&x[off*sz]), unsafe.Pointer(&y[off*sz]), n)
				for i := 0; i < n; i++ {
					xi, yi := i, i
					switch f {
					case VS:
						yi = 0
					case SV:
						xi = 0
					}
					want := wrapTo(c.ref(intAt(x[(off+xi)*sz:], c.t), intAt(y[(off+yi)*sz:], c.t)), c.t)
					if g := intAt(got[i*sz:], c.t); g != want {
						t.Fatalf("%v %v %s n=%d: element %d gives %d, want %d", c.op, c.t, forms[f], n, i, g, want)
					}
				}
			}
		}
		for _, tt := range []Type{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
			sz := tt.Size()
			fillCmpOperands(rng, x, y, sz)
			if tt == Bool {
				specialBits(rng, x, Bool)
			}
			for _, op := range []Op{Abs, Neg, Sign} {
				if tt == Bool {
					continue
				}
				checkIntUnary(t, op, tt, n, x[off*sz:])
			}
		}
	}
}

// checkIntUnary checks the unary integer kernel op over n elements of x.
func checkIntUnary(t *testing.T, op Op, tt Type, n int, x []byte) {
	t.Helper()
	sz := tt.Size()
	k, err := LookupUnary(op, tt)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, (n+8)*sz)
	k(unsafe.Pointer(&got[0]), unsafe.Pointer(&x[0]), n)
	for i := 0; i < n; i++ {
		v := intAt(x[i*sz:], tt)
		var want int64
		switch op {
		case Abs:
			want = v
			if v < 0 && tt != Uint64 {
				want = -v
			}
		case Neg:
			want = -v
		case Sign:
			switch {
			case tt == Uint64 && v != 0:
				want = 1
			case v > 0:
				want = 1
			case v < 0:
				want = -1
			}
		}
		// wrap to the type: |MinInt8| is MinInt8
		var w [8]byte
		*(*int64)(unsafe.Pointer(&w[0])) = want
		if g, wv := intAt(got[i*sz:], tt), intAt(w[:], tt); g != wv {
			t.Fatalf("%v %v n=%d: element %d (%d) gives %d, want %d", op, tt, n, i, v, g, wv)
		}
	}
}

// TestRemainderF32Vec checks the vector float32 remainder (fmodvec_amd64.s)
// against the Go loop bit for bit in the VV and VS forms: random values,
// near multiples of the divisor (where the quotient's rounding decides),
// quotients beside and far beyond 2^24, zeros of both signs, infinities, NaNs and
// subnormals, every length up to 300.
func TestRemainderF32Vec(t *testing.T) {
	rng := rand.New(rand.NewSource(37))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		1e-45, -1e-45, 3, -3, 0.1, 1 << 24, 1<<24 + 2, math.MaxFloat32}
	draw := func(div float32) float32 {
		switch rng.Intn(6) {
		case 0:
			return special[rng.Intn(len(special))]
		case 1: // a near multiple of div
			k := float32(rng.Intn(1 << 20))
			v := math.Float32bits(k * div)
			return math.Float32frombits(v + uint32(rng.Intn(5)) - 2)
		case 2: // a quotient beside 2^24
			return div * float32(1<<24+rng.Intn(9)-4)
		case 3: // a quotient far beyond it
			return float32(float64(div) * math.Ldexp(1+rng.Float64(), 30+rng.Intn(60)))
		default:
			return float32(rng.NormFloat64() * math.Pow(10, float64(rng.Intn(12)-6)))
		}
	}
	ref := wrapVV(remainder_f_VV[float32])
	refS := wrapVS(remainder_f_VS[float32])
	x, y := make([]float32, 400), make([]float32, 400)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		div := []float32{3, -3, 0.1, -7.5e-3, 1e30, 2.5e-40}[rng.Intn(6)]
		if rng.Intn(10) == 0 {
			div = special[rng.Intn(len(special))]
		}
		for i := range x {
			y[i] = div
			if rng.Intn(3) == 0 {
				y[i] = draw(3)
			}
			x[i] = draw(y[i])
		}
		for _, f := range []Form{VV, VS} {
			k, _ := LookupBinary(Remainder, Float32, f)
			w := ref
			if f == VS {
				w = refS
			}
			got, want := make([]float32, n+1), make([]float32, n+1)
			xp, yp := unsafe.Pointer(&x[off]), unsafe.Pointer(&y[off])
			k(unsafe.Pointer(&got[0]), xp, yp, n)
			w(unsafe.Pointer(&want[0]), xp, yp, n)
			for i := 0; i < n; i++ {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
					yi := off + i
					if f == VS {
						yi = off
					}
					t.Fatalf("%v n=%d: %g %% %g = %g, want %g", f, n, x[off+i], y[yi], got[i], want[i])
				}
			}
		}
	}
}

// TestPowIntScalar checks integer powers by a scalar exponent (the direct
// forms for 0, 1 and 2, the loop beyond) against repeated multiplication
// wrapped to the type.
func TestPowIntScalar(t *testing.T) {
	rng := rand.New(rand.NewSource(38))
	x := make([]byte, 1024)
	for _, tt := range []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
		sz := tt.Size()
		k, _ := LookupBinary(Power, tt, VS)
		for _, e := range []int64{0, 1, 2, 3, 5} {
			for _, n := range []int{0, 1, 7, 33, 100} {
				fillCmpOperands(rng, x, make([]byte, len(x)), sz)
				y := scalarBytes(tt, e)
				got := make([]byte, (n+1)*sz)
				k(unsafe.Pointer(&got[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n)
				for i := 0; i < n; i++ {
					v := intAt(x[i*sz:], tt)
					want := int64(1)
					for j := int64(0); j < e; j++ {
						want *= v
					}
					var w [8]byte
					*(*int64)(unsafe.Pointer(&w[0])) = want
					if g, wv := intAt(got[i*sz:], tt), intAt(w[:], tt); g != wv {
						t.Fatalf("%v: %d ** %d = %d, want %d", tt, v, e, g, wv)
					}
				}
			}
		}
	}
}

// wrapTo wraps v to type t's width (as intAt reads it).
func wrapTo(v int64, t Type) int64 {
	var w [8]byte
	*(*int64)(unsafe.Pointer(&w[0])) = v
	return intAt(w[:], t)
}

// oddWords sets the low bit of every 8-byte word of b: a product of odd
// numbers is never 0 modulo 2^64, so a wrong factor shows.
func oddWords(b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		b[i] |= 1
	}
}
