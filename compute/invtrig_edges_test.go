package compute_test

import (
	"math"
	"math/big"
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

// asinEdges is float64 arguments where arcsin's reduction switches or its
// arithmetic is tight: a few ulps either side of 1/2 (where the AVX-512
// kernel turns to pi/2 - 2 arcsin sqrt((1-a)/2)), below 1 (a square root
// of almost nothing) and of 2^-27 (arcsin x rounds to x below); 1 and -1,
// just beyond them, infinities, NaNs of both signs and kinds, zeros,
// denormals; uniform values in [-1, 1] and log-uniform magnitudes below 1.
func asinEdges(rng *rand.Rand) []float64 {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, math.Nextafter(1, 2), math.Nextafter(-1, -2), 2, -1e300,
		math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000001),
		math.Float64frombits(0xfff0000000abcdef), math.Float64frombits(0x7ff8000000001234),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, -0x1p-1030}
	for _, c := range []float64{0.5, 1, 0x1p-27, 0x1p-26, 0.7, 0.9999} {
		v, w := c, c
		for s := 0; s < 40; s++ {
			xs = append(xs, v, -v)
			if w < 1 {
				xs = append(xs, w, -w)
			}
			v, w = math.Nextafter(v, 0), math.Nextafter(w, 2)
		}
	}
	for k := 1; k < 53; k++ { // 1 - 2^-k
		xs = append(xs, 1-math.Ldexp(1, -k), math.Ldexp(1, -k)-1)
	}
	for i := 0; i < 4000; i++ {
		m := math.Exp(-rng.Float64() * 700)
		if rng.Intn(2) == 0 {
			m = -m
		}
		xs = append(xs, m, rng.Float64()*2-1, math.Float64frombits(rng.Uint64()&(1<<52-1)))
	}
	return xs
}

// TestInverseTrigEdges holds float64 arctan, arcsin and arccos (on
// AVX-512 CPUs arctanF64Z, arcsinF64Z and arccosF64Z, which neither divide
// nor take a square root) to Go's math bit for bit on zeros, infinities,
// NaNs, arguments outside the domain and +-1, arctan and arcsin to x
// itself below 2^-27, and within lim512 ulp of
// the exact value (160 bits) everywhere else on their edges (lim: the
// AVX2 kernels and Go's math, elsewhere); and every length from 0 to 70
// at every offset to the same bits as the element alone (the two-vector
// loop, the one-vector step and the masked tail).
func TestInverseTrigEdges(t *testing.T) {
	avx512 := compute.Asm && cpu.X86.HasFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	for _, c := range []struct {
		op          compute.Op
		edges       func(*rand.Rand) []float64
		goF         func(float64) float64
		ref         func(float64) *big.Float
		lim, lim512 float64
	}{
		// the AVX2 arctan: 1.62 near tan(pi/8); Go's math 1.01
		{compute.Arctan, atanEdges, math.Atan, bigAtan, 1.7, 0.9},
		// the AVX2 arcsin: 1.61; the Go loop (asinF, noasm): 1.66
		{compute.Arcsin, asinEdges, math.Asin, bigAsin, 2.5, 1.1},
		// the Go loop (acosF; Go's math.Acos cancels near 1)
		{compute.Arccos, asinEdges, math.Acos, bigAcos, 2.5, 1.1},
	} {
		rng := rand.New(rand.NewSource(71))
		xs := c.edges(rng)
		got := run64(t, c.op, xs)
		worst, wx := 0.0, 0.0
		for i, x := range xs {
			want := c.goF(x)
			switch {
			case math.IsNaN(want) || math.IsInf(x, 0) || x == 0 || c.op != compute.Arctan && math.Abs(x) == 1:
				require.Equal(t, math.Float64bits(want), math.Float64bits(got[i]), "%v(%v) %#x", c.op, x, math.Float64bits(x))
			case math.Abs(x) < 0x1p-27 && c.op != compute.Arccos:
				require.Equal(t, math.Float64bits(x), math.Float64bits(got[i]), "%v(%v)", c.op, x)
			default:
				if e := ulpErr(got[i], c.ref(x), false); e > worst {
					worst, wx = e, x
				}
			}
		}
		t.Logf("%v float64: max %.3f ulp (at %v) over %d arguments against 160 bits", c.op, worst, wx, len(xs))
		lim := c.lim
		if avx512 {
			lim = c.lim512
		}
		require.LessOrEqual(t, worst, lim, "%v(%v)", c.op, wx)

		k, err := compute.LookupUnary(c.op, compute.Float64)
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
						t.Fatalf("%v n %d off %d: element %d (x %v) = %v, alone %v", c.op, n, off, i, xs[at+i], buf[off+i], one[at+i])
					}
				}
			}
		}
	}
}

// bigAcos is arccos(x) = pi/2 - arcsin(x), |x| < 1.
func bigAcos(x float64) *big.Float {
	return new(big.Float).SetPrec(bprec).Sub(bigHalfPi, bigAsin(x))
}
