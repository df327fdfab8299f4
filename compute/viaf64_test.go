package compute_test

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

// TestFloat32ViaFloat64 checks float32 log2, log10 and arccos (on AVX-512
// CPUs the float64 kernels over widened chunks of 512, viaF64) against Go's
// float64 math rounded to float32: within 1 ulp, NaNs, infinities, zeros
// and arguments outside the domain bit for bit, over lengths around the
// chunk and the 16-element conversion blocks, at offsets, with special
// values sprinkled in. (TestVmath32Sweep takes all 2^32 inputs.)
func TestFloat32ViaFloat64(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	sp := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, 0.5, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc01234), math.Float32frombits(0x7f800001), math.SmallestNonzeroFloat32,
		math.MaxFloat32, 1e-40, -1e-40, 0x1.000002p0, 0x1.fffffep-1}
	for _, c := range []struct {
		op compute.Op
		f  func(float64) float64
	}{{compute.Log2, math.Log2}, {compute.Log10, math.Log10}, {compute.Arccos, math.Acos}} {
		k, err := compute.LookupUnary(c.op, compute.Float32)
		require.NoError(t, err)
		for _, n := range []int{0, 1, 15, 16, 17, 31, 500, 511, 512, 513, 528, 1030, 2100} {
			off := rng.Intn(4)
			xs := make([]float32, n+off)
			for i := range xs {
				switch r := rng.Intn(10); {
				case r == 0:
					xs[i] = sp[rng.Intn(len(sp))]
				case c.op == compute.Arccos:
					xs[i] = float32(rng.Float64()*2.2 - 1.1)
				default:
					xs[i] = float32(math.Exp(rng.Float64()*160 - 80))
				}
			}
			got := make([]float32, n+off+1)
			got[n+off] = 42
			if n > 0 {
				k(unsafe.Pointer(&got[off]), unsafe.Pointer(&xs[off]), n)
			}
			require.Equal(t, float32(42), got[n+off], "%v n %d wrote past its end", c.op, n)
			for i := off; i < off+n; i++ {
				want := float32(c.f(float64(xs[i])))
				g := got[i]
				if want != want || g != g || math.IsInf(float64(want), 0) || want == 0 {
					require.Equal(t, math.Float32bits(want), math.Float32bits(g), "%v(%v) n %d", c.op, xs[i], n)
					continue
				}
				if d := int64(math.Float32bits(g)) - int64(math.Float32bits(want)); d > 1 || d < -1 {
					t.Fatalf("%v(%v) n %d: %v, Go's math %v (%d ulp)", c.op, xs[i], n, g, want, d)
				}
			}
		}
	}
}
