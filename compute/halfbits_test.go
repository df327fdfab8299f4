package compute

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stride0/stride0/internal/half"
)

// TestHalfAbsNeg checks float16's absolute value and negation for all 65536
// values, at every start offset of a vector, against the value computed in
// float64 and rounded back (exact for both); NaNs keep their payload, their
// signalling bit included, with the sign bit cleared or flipped as NumPy's
// half loops do.
func TestHalfAbsNeg(t *testing.T) {
	h := make([]uint16, 1<<16+40)
	for i := range h {
		h[i] = uint16(i)
	}
	for _, c := range []struct {
		op  Op
		ref func(float64) float64
		nan func(uint16) uint16
	}{
		{Abs, math.Abs, func(x uint16) uint16 { return x &^ 0x8000 }},
		{Neg, func(x float64) float64 { return -x }, func(x uint16) uint16 { return x ^ 0x8000 }},
	} {
		k, err := LookupUnary(c.op, Float16)
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < 20; off += 7 {
			s := h[off:]
			got := make([]uint16, len(s))
			k(unsafe.Pointer(&got[0]), unsafe.Pointer(&s[0]), len(s))
			for i, x := range s {
				want := c.nan(x)
				if f := half.ToFloat64(x); !math.IsNaN(f) {
					want = half.FromFloat64(c.ref(f))
				}
				if got[i] != want {
					t.Fatalf("%v float16 %#04x = %#04x, want %#04x", c.op, x, got[i], want)
				}
			}
		}
	}
}
