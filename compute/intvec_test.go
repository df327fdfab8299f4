package compute

import (
	"math/rand"
	"testing"
	"unsafe"
)

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
