package compute

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFmodMatchesMathMod: fmodF is math.Mod bit for bit (NaN for NaN):
// quotients from below 1 to beyond 2^52 (where it hands over to
// math.Mod), dividends a few ulps either side of a multiple of the
// divisor (where the rounded quotient lands on the next integer), both
// signs, subnormals, zeros, infinities and NaN, and float32 operands
// widened as the float32 kernels widen them.
func TestFmodMatchesMathMod(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	check := func(x, y float64) {
		t.Helper()
		w, g := math.Mod(x, y), fmodF(x, y)
		if math.Float64bits(w) != math.Float64bits(g) && !(math.IsNaN(w) && math.IsNaN(g)) {
			t.Fatalf("fmodF(%v, %v) = %v, math.Mod %v", x, y, g, w)
		}
	}
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 3, -3, 0.1, 5e-324, -5e-324, 2.2250738585072014e-308, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 1 << 52, 1<<53 + 2}
	for _, x := range specials {
		for _, y := range specials {
			check(x, y)
		}
	}
	for i := 0; i < 400000; i++ {
		y := math.Ldexp(1+r.Float64(), r.IntN(80)-40)
		if r.IntN(2) == 0 {
			y = -y
		}
		var x float64
		switch r.IntN(4) {
		case 0: // any quotient up to 2^60
			x = y * math.Ldexp(r.Float64(), r.IntN(61))
		case 1: // a few ulps from a multiple of y
			x = y * float64(r.IntN(1<<20))
			for k := r.IntN(7) - 3; k != 0; k -= int(math.Copysign(1, float64(k))) {
				x = math.Nextafter(x, math.Copysign(math.Inf(1), float64(k)))
			}
		case 2: // float32 operands
			x = float64(float32(r.NormFloat64() * math.Ldexp(1, r.IntN(40))))
			y = float64(float32(y))
		default: // |x| below |y|
			x = y * r.Float64()
		}
		if r.IntN(2) == 0 {
			x = -x
		}
		check(x, y)
	}
}
