package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

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
