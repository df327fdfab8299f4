package compute

import (
	"math/rand"
	"testing"
	"unsafe"
)

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
