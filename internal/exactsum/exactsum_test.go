package exactsum

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// shewchuk is the exact sum that the accumulator replaced in expr's tests
// (Shewchuk's partials, as Python's math.fsum), kept here only as the
// reference the accumulator must agree with bit for bit. Finite values
// whose partial sums do not overflow only.
type shewchuk struct{ p []float64 }

func (f *shewchuk) add(x float64) {
	i := 0
	for _, y := range f.p {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			f.p[i] = lo
			i++
		}
		x = hi
	}
	f.p = append(f.p[:i], x)
}

func (f *shewchuk) value() float64 {
	n := len(f.p)
	if n == 0 {
		return 0
	}
	hi := f.p[n-1]
	lo := 0.0
	for n--; n > 0; {
		x := hi
		n--
		y := f.p[n]
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	if n > 0 && (lo < 0 && f.p[n-1] < 0 || lo > 0 && f.p[n-1] > 0) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}

func shewchukSum(xs []float64) float64 {
	var f shewchuk
	for _, x := range xs {
		f.add(x)
	}
	return f.value()
}

// bigSum is the exact sum by math/big (4096 bits hold any sum of float64
// values exactly), rounded once, with IEEE's rules for NaN and infinities.
func bigSum(xs []float64) float64 {
	var s *big.Float
	pinf, ninf := false, false
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			return math.NaN()
		case math.IsInf(x, 1):
			pinf = true
		case math.IsInf(x, -1):
			ninf = true
		case s == nil: // from the first value, so that -0 alone stays -0
			s = new(big.Float).SetPrec(4096).SetFloat64(x)
		default:
			s.Add(s, new(big.Float).SetPrec(4096).SetFloat64(x))
		}
	}
	switch {
	case pinf && ninf:
		return math.NaN()
	case pinf:
		return math.Inf(1)
	case ninf:
		return math.Inf(-1)
	case s == nil:
		return 0
	}
	f, _ := s.Float64()
	return f
}

// same is bitwise equality (the sign of zero counts), NaN equal to NaN.
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// randMag is ±(1+r)·2^e with e uniform over the exponents of 1e-300..1e300.
func randMag(rng *rand.Rand) float64 {
	x := math.Ldexp(1+rng.Float64(), rng.IntN(1994)-997)
	if rng.IntN(2) == 0 {
		x = -x
	}
	return x
}

// randSub is a random subnormal (or the smallest normals), either sign.
func randSub(rng *rand.Rand) float64 {
	x := math.Float64frombits(rng.Uint64N(1<<53) + 1) // exponent field 0 or 1
	if rng.IntN(2) == 0 {
		x = -x
	}
	return x
}

// cases returns the inputs both references check: fixed edge cases and
// random ones of every kind the brief of the accumulator names. finite
// means the partial sums of Shewchuk's algorithm cannot overflow.
func cases(rng *rand.Rand, random int) (xss [][]float64) {
	tie := math.Ldexp(1, -53) // half of 1's ulp
	sub := math.SmallestNonzeroFloat64
	negz := math.Copysign(0, -1)
	xss = [][]float64{
		nil,
		{0}, {negz}, {negz, negz}, {0, negz}, {negz, 0},
		{1, -1}, {-1, 1}, {negz, 1, -1}, {sub, -sub, negz},
		{1e308, 1, -1e308}, {1e308, -1e308, 1}, {-1e308, 1e-308, 1e308, -1e-308, 1},
		{1, tie},                   // exactly halfway: to even, 1
		{1 + 2*tie, tie},           // halfway: to even, up
		{1, tie, sub},              // the sticky bit decides: up
		{1, tie, -sub},             // down
		{1, tie / 2, tie / 2},      // halfway in two halves
		{-1, -tie},                 // negative tie
		{-1, -tie, -sub},           // negative, sticky
		{1, tie, 1e-300, -1e-300},  // the sticky bits cancel: a tie again
		{1e300, 1e-300, 1, -1e300}, // 1 + 1e-300: 1
		{1e300, ulp(1e300) / 2},    // a tie at 1e300
		{sub, sub, sub},            // subnormals
		{math.SmallestNonzeroFloat64 * (1 << 52), -sub}, // across the normal boundary
		{0x1p-1022, -sub},
		{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64},
		{1e300, 1e300, -1e300, 3},
	}
	// lots of tiny values and one huge: 2^16 values of 2^-69 are half an
	// ulp of 1: a tie, then one more tiny value over it
	many := []float64{1}
	for range 1 << 16 {
		many = append(many, 0x1p-69)
	}
	xss = append(xss, many, append(append([]float64{}, many...), 0x1p-1000))
	tiny := []float64{1e300}
	for range 10000 {
		tiny = append(tiny, 1e-300*(1+rng.Float64()))
	}
	xss = append(xss, tiny)

	for c := range random {
		n := 1 + rng.IntN([]int{4, 40, 400, 4000}[c%4])
		xs := make([]float64, 0, n)
		switch kind := c % 6; kind {
		case 0: // mixed magnitudes 1e-300..1e300
			for range n {
				xs = append(xs, randMag(rng))
			}
		case 1: // cancellations: values and their negations, and a few more
			for range n {
				x := randMag(rng)
				xs = append(xs, x, -x)
				if rng.IntN(8) == 0 {
					xs = append(xs, randMag(rng)*1e-10)
				}
			}
		case 2: // subnormals among tiny normals
			for range n {
				if rng.IntN(3) == 0 {
					xs = append(xs, math.Ldexp(randMag(rng), -40)*1e-250)
				} else {
					xs = append(xs, randSub(rng))
				}
			}
		case 3: // a sum exactly halfway between two floats: a, half its
			// ulp in pieces, and pairs that cancel; sometimes a sticky
			// value below
			a := randMag(rng)
			h := ulp(a) / 2
			xs = append(xs, a)
			k := 1 + rng.IntN(4) // h/2 + h/4 + ... + h/2^k + h/2^k
			for j := 1; j <= k; j++ {
				xs = append(xs, math.Copysign(h/float64(int(1)<<j), a))
			}
			xs = append(xs, math.Copysign(h/float64(int(1)<<k), a))
			for range n {
				x := randMag(rng)
				xs = append(xs, x, -x)
			}
			switch rng.IntN(3) {
			case 0:
				xs = append(xs, h*0x1p-60)
			case 1:
				xs = append(xs, -h*0x1p-60)
			}
		case 4: // zeros of both signs among cancelling values
			for range n {
				switch rng.IntN(3) {
				case 0:
					xs = append(xs, 0)
				case 1:
					xs = append(xs, math.Copysign(0, -1))
				default:
					x := randMag(rng)
					xs = append(xs, x, -x)
				}
			}
		case 5: // tiny values and one huge
			xs = append(xs, randMag(rng)*1e5)
			for range n {
				xs = append(xs, randMag(rng)*1e-200)
			}
		}
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		xss = append(xss, xs)
	}
	return xss
}

// TestAgreesWithShewchuk: the accumulator gives, bit for bit, the results
// of the partials it replaced, on edge cases and 3000 random inputs of up
// to 8000 values (a sixteenth of them under the race detector).
func TestAgreesWithShewchuk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i, xs := range cases(rng, thin(3000)) {
		got, want := Sum(xs), shewchukSum(xs)
		if !same(got, want) {
			t.Fatalf("case %d (%d values%s): %v (%x), partials %v (%x)", i, len(xs), head(xs), got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// TestAgreesWithBig: the accumulator against math/big's exact sums, on
// the edge cases, 400 random inputs, and values that overflow or are not
// finite.
func TestAgreesWithBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inf, max := math.Inf(1), math.MaxFloat64
	xss := append(cases(rng, thin(400)), [][]float64{
		{max, max},                      // +Inf by rounding
		{-max, -max, 1},                 // -Inf
		{max, ulp(max) / 2},             // a tie above MaxFloat64: the odd mantissa rounds up, to +Inf
		{max, ulp(max) / 2, -0x1p-1074}, // just below the tie: MaxFloat64
		{max, max, -max},                // overflows as a running sum, not exactly
		{inf}, {-inf}, {inf, -inf}, {math.NaN()}, {1, inf, 2}, {-inf, 1e308, 1e308},
		{math.NaN(), inf}, {inf, inf, 1}, {0, -inf},
	}...)
	for i, xs := range xss {
		got, want := Sum(xs), bigSum(xs)
		if !same(got, want) {
			t.Fatalf("case %d (%d values%s): %v (%x), math/big %v (%x)", i, len(xs), head(xs), got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// TestCarries lowers the number of additions between carry propagations
// to 1, 2 and 3, and reads the value in the middle of the sums, which
// must change nothing.
func TestCarries(t *testing.T) {
	defer func(f int) { flushEvery = f }(flushEvery)
	rng := rand.New(rand.NewPCG(5, 6))
	xss := cases(rng, thin(300))
	for _, every := range []int{1, 2, 3} {
		flushEvery = every
		for i, xs := range xss {
			var a Acc
			for j, x := range xs {
				a.Add(x)
				if j == len(xs)/2 {
					a.Value()
				}
			}
			if got, want := a.Value(), shewchukSum(xs); !same(got, want) {
				t.Fatalf("every %d, case %d (%d values%s): %v, partials %v", every, i, len(xs), head(xs), got, want)
			}
		}
	}
	// many values of one sign at one exponent: every limb's headroom used
	flushEvery = 1 << 30
	var a Acc
	x := math.Nextafter(2, 0) // 53 ones
	n := thin(1 << 20)        // a power of two: want is one rounding
	for range n {
		a.Add(x)
		a.Add(-x / 4)
	}
	if got, want := a.Value(), x*0.75*float64(n); got != want {
		t.Fatalf("%d pairs: %v, want %v", n, got, want)
	}
}

func head(xs []float64) string {
	if len(xs) > 6 {
		return fmt.Sprintf(": %v...", xs[:6])
	}
	return fmt.Sprintf(": %v", xs)
}

// BenchmarkAdd: the cost of one value, for comparison with the partials.
func BenchmarkAdd(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 1<<16)
	for i := range xs {
		xs[i] = 1000 + rng.NormFloat64()
	}
	b.Run("superaccumulator", func(b *testing.B) {
		var a Acc
		for i := 0; i < b.N; i++ {
			a.Add(xs[i&(len(xs)-1)])
		}
		_ = a.Value()
	})
	b.Run("partials", func(b *testing.B) {
		var f shewchuk
		for i := 0; i < b.N; i++ {
			f.add(xs[i&(len(xs)-1)])
		}
		_ = f.value()
	})
}
