package compute_test

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/cpu"

	"github.com/stride0/stride0/compute"
)

// logEdges is float64 arguments where a logarithm's reduction is tight:
// mantissas m at the edges of the AVX-512 kernels' table intervals (15 m
// = j +- 1/2, a few ulps either side) and at 1 and 2, times powers of two
// from the denormals up; values a few ulps and 2^-k from 1; denormals;
// and log-uniform values over the whole range.
func logEdges(rng *rand.Rand) []float64 {
	var xs []float64
	for j := 15; j <= 30; j++ {
		for _, h := range []float64{-0.5, 0.5} {
			m := (float64(j) + h) / 15
			if m < 1 || m >= 2 {
				continue
			}
			for _, e := range []int{-1074, -1060, -1022, -600, -2, -1, 0, 1, 2, 50, 1023} {
				v := math.Ldexp(m, e)
				for d := -3; d <= 3; d++ {
					w := v
					for s := 0; s < d; s++ {
						w = math.Nextafter(w, math.Inf(1))
					}
					for s := 0; s > d; s-- {
						w = math.Nextafter(w, 0)
					}
					if w > 0 && w <= math.MaxFloat64 {
						xs = append(xs, w)
					}
				}
			}
		}
	}
	for _, c := range []float64{1, 2, 0.5} {
		v, w := c, c
		for s := 0; s < 40; s++ {
			v, w = math.Nextafter(v, 0), math.Nextafter(w, 4)
			xs = append(xs, v, w)
		}
		for k := 1; k < 60; k++ {
			xs = append(xs, c*(1+math.Ldexp(1, -k)), c*(1-math.Ldexp(1, -k)))
		}
	}
	for i := 0; i < raceThin(20000); i++ {
		xs = append(xs, math.Float64frombits(rng.Uint64()&(1<<52-1)+1))          // denormal
		xs = append(xs, math.Float64frombits(rng.Uint64()%0x7fefffffffffffff+1)) // any positive finite
		xs = append(xs, 1+(rng.Float64()-0.5)/8)
	}
	return xs
}

// TestLogEdges holds float64 log, log1p, log2 and log10 against 160 bits
// at the arguments of logEdges (log1p also at x - 1 for each, near 0, near
// -1 and past 2^53), each element the same bits alone as in the vector:
// the AVX-512 kernels (logZKernel) within 0.52 ulp (log2 and log10, one
// more rounding, 0.53), the AVX2 kernels and Go's math (other CPUs, noasm)
// within 1 ulp (log2F and log10F, Go's log times 1/ln2 or 1/ln10 in two
// parts, 1.3; log10 of denormals, log2 times log10(2), 1.75).
func TestLogEdges(t *testing.T) {
	avx512 := compute.Asm && cpu.X86.HasFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	rng := rand.New(rand.NewSource(30))
	xs := logEdges(rng)
	var xs1 []float64
	for _, x := range xs {
		if x-1 > -1 {
			xs1 = append(xs1, x-1)
		}
	}
	for k := 1; k < 1075; k += 3 {
		v := math.Ldexp(1, -k)
		xs1 = append(xs1, v, -v, -1+math.Max(v, 0x1p-53), 0x1p53+float64(k), 0x1p53-float64(k), math.Ldexp(1.5, 60+k/2))
	}
	ln10 := bigLog(10)
	bigLog2 := func(x float64) *big.Float { return new(big.Float).SetPrec(bprec).Quo(bigLog(x), bigLn2) }
	bigLog10 := func(x float64) *big.Float { return new(big.Float).SetPrec(bprec).Quo(bigLog(x), ln10) }
	for _, c := range []struct {
		op          compute.Op
		xs          []float64
		ref         func(float64) *big.Float
		lim, lim512 float64 // Go's math (other CPUs, noasm), the AVX-512 kernels
	}{{compute.Log, xs, bigLog, 1, 0.52}, {compute.Log1p, xs1, bigLog1p, 1, 0.52}, {compute.Log2, xs, bigLog2, 1.3, 0.53}, {compute.Log10, xs, bigLog10, 1.75, 0.53}} {
		lim := c.lim
		if avx512 {
			lim = c.lim512
		}
		got := run64(t, c.op, c.xs)
		worst, wx := 0.0, 0.0
		for i, x := range c.xs {
			if i%7 == 0 {
				require.Equal(t, math.Float64bits(got[i]), math.Float64bits(run64(t, c.op, c.xs[i:i+1])[0]), "%v(%v) alone", c.op, x)
			}
			if e := ulpErr(got[i], c.ref(x), false); e > worst {
				worst, wx = e, x
			}
		}
		t.Logf("%v float64: max %.4f ulp (at %v) over %d arguments", c.op, worst, wx, len(c.xs))
		require.LessOrEqual(t, worst, lim, "%v(%v)", c.op, wx)
	}
}
