package compute_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

// TestAccumulateExtrema: the accumulating steps of max and min reductions
// over outer axes (AVX2 for whole vectors, Go for the rest) against the
// rule written out: NaN when either operand is, -0 below +0 in either
// order, else the larger (smaller). Every length to 70, values drawn from
// a small set so that ties, zeros of both signs, NaNs and infinities meet
// at every position, float32 and float64.
func TestAccumulateExtrema(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 29))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e-40}
	want := func(op compute.Op, a, x float64) float64 {
		switch {
		case math.IsNaN(a) || math.IsNaN(x):
			return math.NaN()
		case a == x && a == 0:
			neg := math.Signbit(a) && math.Signbit(x) // max: -0 only when both are
			if op == compute.Minimum {
				neg = math.Signbit(a) || math.Signbit(x)
			}
			return math.Copysign(0, map[bool]float64{true: -1, false: 1}[neg])
		case op == compute.Maximum:
			return math.Max(a, x)
		}
		return math.Min(a, x)
	}
	same := func(a, b float64) bool {
		return math.IsNaN(a) && math.IsNaN(b) || math.Float64bits(a) == math.Float64bits(b)
	}
	for _, op := range []compute.Op{compute.Maximum, compute.Minimum} {
		for n := 0; n <= 70; n++ {
			for rep := 0; rep < 6; rep++ {
				a64, x64 := make([]float64, n+1), make([]float64, n+1)
				for i := range a64 {
					a64[i], x64[i] = specials[r.IntN(len(specials))], specials[r.IntN(len(specials))]
				}
				a32, x32 := make([]float32, n+1), make([]float32, n+1)
				for i := range a64 {
					a32[i], x32[i] = float32(a64[i]), float32(x64[i])
				}
				f64, err := compute.LookupAccumulate(op, compute.Float64)
				require.NoError(t, err)
				f32, err := compute.LookupAccumulate(op, compute.Float32)
				require.NoError(t, err)
				w64 := append([]float64(nil), a64...)
				w32 := append([]float32(nil), a32...)
				f64(unsafe.Pointer(&a64[0]), unsafe.Pointer(&x64[0]), n)
				f32(unsafe.Pointer(&a32[0]), unsafe.Pointer(&x32[0]), n)
				for i := 0; i < n; i++ {
					require.True(t, same(want(op, w64[i], x64[i]), a64[i]), "%v float64 n %d [%d]: %v, %v gave %v", op, n, i, w64[i], x64[i], a64[i])
					e := want(op, float64(w32[i]), float64(x32[i]))
					require.True(t, same(e, float64(a32[i])), "%v float32 n %d [%d]: %v, %v gave %v", op, n, i, w32[i], x32[i], a32[i])
				}
				require.True(t, same(w64[n], a64[n]), "past the end written")
				require.True(t, same(float64(w32[n]), float64(a32[n])), "past the end written")
			}
		}
	}
}
