package compute_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

// TestSignFloats: sign of float32 and float64 (AVX2 two vectors a step,
// Go for the rest) is +1 or -1 with the sign of a nonzero number, +0 for
// either zero and the NaN itself for NaN (NumPy's rule), at every position
// of every length to 70, subnormals and infinities included.
func TestSignFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 37))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -1e-310, 1e-40, -1e-40, math.NaN(), math.Inf(1), math.Inf(-1), 3e38, -7}
	want := func(x float64) float64 {
		switch {
		case math.IsNaN(x):
			return x
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}
	f32, err := compute.LookupUnary(compute.Sign, compute.Float32)
	require.NoError(t, err)
	f64, err := compute.LookupUnary(compute.Sign, compute.Float64)
	require.NoError(t, err)
	for n := 0; n <= 70; n++ {
		x := make([]float64, n+1)
		for i := range x {
			x[i] = specials[r.IntN(len(specials))]
		}
		x32 := make([]float32, n+1)
		for i := range x {
			x32[i] = float32(x[i])
		}
		d := make([]float64, n+1)
		d32 := make([]float32, n+1)
		d[n], d32[n] = 42, 42
		f64(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), n)
		f32(unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0]), n)
		for i := 0; i < n; i++ {
			w := want(x[i])
			require.True(t, math.Float64bits(w) == math.Float64bits(d[i]) || math.IsNaN(w) && math.IsNaN(d[i]), "float64 n %d [%d]: sign(%v) = %v", n, i, x[i], d[i])
			w32 := float32(want(float64(x32[i])))
			require.True(t, math.Float32bits(w32) == math.Float32bits(d32[i]) || w32 != w32 && d32[i] != d32[i], "float32 n %d [%d]: sign(%v) = %v", n, i, x32[i], d32[i])
		}
		require.Equal(t, 42.0, d[n], "past the end written")
		require.Equal(t, float32(42), d32[n], "past the end written")
	}
}
