package compute_test

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/cpu"

	"github.com/stride0/stride0/compute"
)

// atanEdges is float64 arguments where arctan's reduction switches or
// its arithmetic is tight: a few ulps either side of tan(pi/8) and
// tan(3pi/8) (where the AVX-512 kernel changes numerator and
// denominator) and of 1, of 2^1000 (where it caps the denominator) and
// 2^54; the tiny arguments around 2^-27 (arctan x rounds to x below),
// denormals, zeros, infinities, NaNs of both signs and kinds, the largest
// finite; and log-uniform magnitudes of both signs over the whole range.
func atanEdges(rng *rand.Rand) []float64 {
	xs := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff0000000abcdef),
		math.Float64frombits(0x7ff8000000001234), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, -0x1p-1030}
	for _, c := range []float64{0.41421356237309503, 2.414213562373095, 1, 0x1p1000, 0x1p54, 0x1p-27, 0x1p-26, 0x1p-511} {
		v, w := c, c
		for s := 0; s < 12; s++ {
			xs = append(xs, v, -v, w, -w)
			v, w = math.Nextafter(v, 0), math.Nextafter(w, math.Inf(1))
		}
	}
	for i := 0; i < 4000; i++ {
		m := math.Exp(rng.Float64()*1400 - 700)
		if rng.Intn(2) == 0 {
			m = -m
		}
		xs = append(xs, m, rng.Float64()*6-3, math.Float64frombits(rng.Uint64()&(1<<52-1)))
	}
	return xs
}

// TestArctanEdges holds float64 arctan (on AVX-512 CPUs the kernel
// without a division, arctanF64Z) to Go's math bit for bit on zeros,
// infinities and NaNs, to x itself below 2^-27, and within 0.9 ulp of the
// exact value (160 bits; the AVX2 kernel 1.7, Go's math 1.1) everywhere
// else on atanEdges; every length from 0
// to 70 at every offset to the same bits as the element alone (the two-
// vector loop, the one-vector step and the masked tail).
func TestArctanEdges(t *testing.T) {
	rng := rand.New(rand.NewSource(71))
	xs := atanEdges(rng)
	got := run64(t, compute.Arctan, xs)
	worst, wx := 0.0, 0.0
	for i, x := range xs {
		want := math.Atan(x)
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || x == 0:
			require.Equal(t, math.Float64bits(want), math.Float64bits(got[i]), "arctan(%v) %#x", x, math.Float64bits(x))
		case math.Abs(x) < 0x1p-27:
			require.Equal(t, math.Float64bits(x), math.Float64bits(got[i]), "arctan(%v)", x)
		default:
			if e := ulpErr(got[i], bigAtan(x), false); e > worst {
				worst, wx = e, x
			}
		}
	}
	t.Logf("arctan float64: max %.3f ulp (at %v) over %d arguments against 160 bits", worst, wx, len(xs))
	lim := 1.7 // the AVX2 kernel (1.62 near tan(pi/8)); Go's math: 1.01
	if compute.Asm && cpu.X86.HasFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ {
		lim = 0.9 // arctanF64Z
	}
	require.LessOrEqual(t, worst, lim, "arctan(%v)", wx)

	k, err := compute.LookupUnary(compute.Arctan, compute.Float64)
	require.NoError(t, err)
	one := make([]float64, len(xs))
	for i := range xs {
		k(unsafe.Pointer(&one[i]), unsafe.Pointer(&xs[i]), 1)
	}
	buf := make([]float64, 80)
	for n := 0; n <= 70; n++ {
		for off := 0; off < 8; off++ {
			at := rng.Intn(len(xs) - n)
			if n > 0 {
				k(unsafe.Pointer(&buf[off]), unsafe.Pointer(&xs[at]), n)
			}
			for i := 0; i < n; i++ {
				if math.Float64bits(buf[off+i]) != math.Float64bits(one[at+i]) {
					t.Fatalf("n %d off %d: element %d (x %v) = %v, alone %v", n, off, i, xs[at+i], buf[off+i], one[at+i])
				}
			}
		}
	}
}
