package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// TestClassifyKernels checks isnan, isinf and isfinite of float32 and
// float64 against math's predicates over special values at every position,
// every length to 300 (across the kernels' 32-element steps) and random
// source and destination offsets (the kernels load and store unaligned).
func TestClassifyKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	specials := []float64{math.NaN(), -math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1, -1, math.MaxFloat32, 1e-45, 3e38,
		math.Float64frombits(0x7ff0000000000001)} // a signalling NaN
	ref := map[Op]func(float64) bool{
		IsNaN:    math.IsNaN,
		IsInf:    func(v float64) bool { return math.IsInf(v, 0) },
		IsFinite: func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) },
	}
	for n := 0; n <= 300; n++ {
		for trial := 0; trial < 4; trial++ {
			xo, do := rng.Intn(8), rng.Intn(32)
			x := make([]float64, n+xo)[xo:]
			x32 := make([]float32, n+xo)[xo:]
			for i := range x {
				if rng.Intn(3) == 0 {
					x[i] = specials[rng.Intn(len(specials))]
				} else {
					x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.Intn(60)-30))
				}
				x32[i] = float32(x[i])
				if x[i] == math.Float64frombits(0x7ff0000000000001) || math.IsNaN(x[i]) && rng.Intn(2) == 0 {
					x32[i] = math.Float32frombits(0x7f800001) // signalling
				}
			}
			for op, f := range ref {
				k64, _ := LookupUnary(op, Float64)
				k32, _ := LookupUnary(op, Float32)
				d := make([]uint8, do+n+1)[do:]
				d32 := make([]uint8, do+n+1)[do:]
				if n > 0 {
					k64(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), n)
					k32(unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0]), n)
				}
				for i := range x {
					if d[i] != b2u8(f(x[i])) || d32[i] != b2u8(f(float64(x32[i]))) {
						t.Fatalf("%v n=%d [%d]: float64 %v -> %d, float32 %v -> %d", op, n, i, x[i], d[i], x32[i], d32[i])
					}
				}
				if d[n] != 0 || d32[n] != 0 {
					t.Fatalf("%v n=%d wrote past the end", op, n)
				}
			}
		}
	}
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
