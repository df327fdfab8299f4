package compute_test

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

// ulps32 is the distance of two float32s in units in the last place.
func ulps32(a, b float32) int64 {
	ord := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u < 0 || u&(1<<31) != 0 {
			return -(u & 0x7fffffff)
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

// TestExpLogFloat32 sweeps float32 bit patterns (every 1021st, both
// signs, special values and the neighbours of multiples of pi/2 included)
// through exp, log, tanh, sin and cos and compares them
// with Go's math in float64 rounded to float32: within 2 ulp, NaN for NaN,
// and the same infinities and zeros.
func TestExpLogFloat32(t *testing.T) {
	var xs []float32
	for u := uint64(0); u < 1<<32; u += raceStep(1021) {
		xs = append(xs, math.Float32frombits(uint32(u)))
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		87, -87, 88, 88.5, 88.72, 89, -87.5, -103, -104, 1, 2, 0.5, 1e-38, 1e-45, math.MaxFloat32,
		0.625, -0.625, 0.62499994, 8.5, -8.5, 8.50001, 9, 9.01,
		float32(math.Pi), float32(math.Pi/2), -float32(math.Pi), 1000, -1000, 999.99994, 1000.0001, 355, 710, 3.1415925)
	// the float32s nearest multiples of pi/2 up to 1000, where sin or cos
	// is smallest and the reduction is tested hardest
	for k := 1; float64(k)*math.Pi/2 < 1000; k++ {
		v := float32(float64(k) * math.Pi / 2)
		xs = append(xs, v, -v, math.Nextafter32(v, 0), math.Nextafter32(v, 2000))
	}
	for _, c := range []struct {
		op compute.Op
		f  func(float64) float64
	}{{compute.Exp, math.Exp}, {compute.Log, math.Log}, {compute.Tanh, math.Tanh}, {compute.Sin, math.Sin}, {compute.Cos, math.Cos}} {
		k, err := compute.LookupUnary(c.op, compute.Float32)
		require.NoError(t, err)
		got := make([]float32, len(xs))
		k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), len(xs))
		worst := int64(0)
		for i, x := range xs {
			want := float32(c.f(float64(x)))
			g := got[i]
			// each assertion runs only where its plain test fails (testify's
			// reflection per argument cost ~100 s for the 21 million)
			switch {
			case math.IsNaN(float64(want)):
				if !math.IsNaN(float64(g)) {
					require.True(t, math.IsNaN(float64(g)), "%v(%v): got %v, want NaN", c.op, x, g)
				}
			case math.IsInf(float64(want), 0) || want == 0:
				if g != want {
					require.Equal(t, want, g, "%v(%v)", c.op, x)
				}
			default:
				d := ulps32(g, want)
				if d > 2 {
					require.LessOrEqual(t, d, int64(2), "%v(%v): got %v, want %v", c.op, x, g, want)
				}
				worst = max(worst, d)
			}
		}
		t.Logf("%v float32: %d arguments, worst %d ulp", c.op, len(xs), worst)
	}
}

// TestExpFloat64 sweeps float64 arguments over [-745, 710] (and special
// values) through exp and compares with Go's math.Exp: within 2 ulp.
func TestExpFloat64(t *testing.T) {
	var xs []float64
	for x := -745.0; x <= 710; x += 0.000731 {
		xs = append(xs, x)
	}
	xs = append(xs, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 708, -708, 709.7, -744, 1e-300, -1e-300, 1, -1, 0.5)
	k, err := compute.LookupUnary(compute.Exp, compute.Float64)
	require.NoError(t, err)
	got := make([]float64, len(xs))
	k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), len(xs))
	worst := uint64(0)
	for i, x := range xs {
		want := math.Exp(x)
		g := got[i]
		switch { // the assertions only where the plain tests fail, as above
		case math.IsNaN(want):
			if !math.IsNaN(g) {
				require.True(t, math.IsNaN(g), "exp(%v) = %v", x, g)
			}
		case math.IsInf(want, 0) || want == 0:
			if g != want {
				require.Equal(t, want, g, "exp(%v)", x)
			}
		default:
			a, b := math.Float64bits(g), math.Float64bits(want)
			d := max(a, b) - min(a, b)
			if d > 2 {
				require.LessOrEqual(t, d, uint64(2), "exp(%v): got %v, want %v", x, g, want)
			}
			worst = max(worst, d)
		}
	}
	t.Logf("exp float64: %d arguments, worst %d ulp", len(xs), worst)
}
