package compute_test

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

const bprec = 160

func bnew(v float64) *big.Float { return new(big.Float).SetPrec(bprec).SetFloat64(v) }

var bigLn2, bigHalfPi *big.Float

func init() {
	// ln2 = 2 atanh(1/3); pi = 16 atan(1/5) - 4 atan(1/239)
	series := func(m float64, alt bool) *big.Float {
		sum := new(big.Float).SetPrec(bprec)
		pow := new(big.Float).SetPrec(bprec).Quo(bnew(1), bnew(m))
		for k := 0; k < 200; k++ {
			t := new(big.Float).SetPrec(bprec).Quo(pow, bnew(float64(2*k+1)))
			if alt && k%2 == 1 {
				sum.Sub(sum, t)
			} else {
				sum.Add(sum, t)
			}
			pow.Quo(pow, bnew(m*m))
		}
		return sum
	}
	bigLn2 = new(big.Float).SetPrec(bprec).Mul(bnew(2), series(3, false))
	pi := new(big.Float).SetPrec(bprec).Mul(bnew(16), series(5, true))
	pi.Sub(pi, new(big.Float).SetPrec(bprec).Mul(bnew(4), series(239, true)))
	bigHalfPi = pi.Quo(pi, bnew(2))
}

// bigLog is log(x) for x > 0 to about 150 bits.
func bigLog(x float64) *big.Float {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, e = 2*m, e-1
	}
	bm := bnew(m)
	s := new(big.Float).SetPrec(bprec).Quo(new(big.Float).SetPrec(bprec).Sub(bm, bnew(1)), new(big.Float).SetPrec(bprec).Add(bm, bnew(1)))
	s2 := new(big.Float).SetPrec(bprec).Mul(s, s)
	sum := new(big.Float).SetPrec(bprec)
	pow := new(big.Float).SetPrec(bprec).Set(s)
	for k := 0; k < 60; k++ {
		sum.Add(sum, new(big.Float).SetPrec(bprec).Quo(pow, bnew(float64(2*k+1))))
		pow.Mul(pow, s2)
	}
	sum.Mul(sum, bnew(2))
	return sum.Add(sum, new(big.Float).SetPrec(bprec).Mul(bigLn2, bnew(float64(e))))
}

// bigLogBig is log(v) for v > 0.
func bigLogBig(v *big.Float) *big.Float {
	m := new(big.Float).SetPrec(bprec)
	e := v.MantExp(m) // v = m 2^e, m in [0.5, 1)
	if m.Cmp(bnew(math.Sqrt2/2)) < 0 {
		m.Mul(m, bnew(2))
		e--
	}
	s := new(big.Float).SetPrec(bprec).Quo(new(big.Float).SetPrec(bprec).Sub(m, bnew(1)), new(big.Float).SetPrec(bprec).Add(m, bnew(1)))
	s2 := new(big.Float).SetPrec(bprec).Mul(s, s)
	sum := new(big.Float).SetPrec(bprec)
	pow := new(big.Float).SetPrec(bprec).Set(s)
	for k := 0; k < 60; k++ {
		sum.Add(sum, new(big.Float).SetPrec(bprec).Quo(pow, bnew(float64(2*k+1))))
		pow.Mul(pow, s2)
	}
	sum.Mul(sum, bnew(2))
	return sum.Add(sum, new(big.Float).SetPrec(bprec).Mul(bigLn2, bnew(float64(e))))
}

// bigLog1p is log(1 + x), 1 + x exact in 1200 bits first.
func bigLog1p(x float64) *big.Float {
	u := new(big.Float).SetPrec(1200).SetFloat64(x)
	u.Add(u, new(big.Float).SetPrec(1200).SetFloat64(1))
	if new(big.Float).Sub(u, bnew(1)).Sign() == 0 {
		return bnew(x)
	}
	if math.Abs(x) < 1e-30 { // log1p(x) = x - x^2/2
		return new(big.Float).SetPrec(bprec).Sub(bnew(x), new(big.Float).SetPrec(bprec).Quo(new(big.Float).SetPrec(bprec).Mul(bnew(x), bnew(x)), bnew(2)))
	}
	return bigLogBig(new(big.Float).SetPrec(bprec).Set(u))
}

// bigAtan is arctan(x): halved twice by atan(x) = 2 atan(x/(1+sqrt(1+x^2))),
// then its Taylor series.
func bigAtan(x float64) *big.Float { return bigAtanB(bnew(x)) }

func bigAtanB(x *big.Float) *big.Float {
	v := new(big.Float).SetPrec(bprec).Set(x)
	for i := 0; i < 3; i++ {
		r := new(big.Float).SetPrec(bprec).Mul(v, v)
		r.Add(r, bnew(1))
		r.Sqrt(r)
		r.Add(r, bnew(1))
		v.Quo(v, r)
	}
	v2 := new(big.Float).SetPrec(bprec).Mul(v, v)
	sum := new(big.Float).SetPrec(bprec)
	pow := new(big.Float).SetPrec(bprec).Set(v)
	for k := 0; k < 120; k++ {
		t := new(big.Float).SetPrec(bprec).Quo(pow, bnew(float64(2*k+1)))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		pow.Mul(pow, v2)
	}
	return sum.Mul(sum, bnew(8))
}

// bigAsin is arcsin(x) = arctan(x/sqrt(1-x^2)), |x| < 1.
func bigAsin(x float64) *big.Float {
	bx := bnew(x)
	r := new(big.Float).SetPrec(bprec).Mul(bx, bx)
	r.Sub(bnew(1), r)
	r.Sqrt(r)
	return bigAtanB(r.Quo(bx, r))
}

// bigExpm1 is e^x - 1.
func bigExpm1(x float64) *big.Float {
	if math.Abs(x) < 1e-30 {
		return new(big.Float).SetPrec(bprec).Add(bnew(x), new(big.Float).SetPrec(bprec).Quo(new(big.Float).SetPrec(bprec).Mul(bnew(x), bnew(x)), bnew(2)))
	}
	return new(big.Float).SetPrec(bprec).Sub(bigExp(bnew(x)), bnew(1))
}

// bigTanh is (e^2x - 1)/(e^2x + 1).
func bigTanh(x float64) *big.Float {
	if math.Abs(x) > 40 {
		return bnew(math.Copysign(1, x))
	}
	m := bigExpm1(2 * x)
	return new(big.Float).SetPrec(bprec).Quo(m, new(big.Float).SetPrec(bprec).Add(m, bnew(2)))
}

// bigExp is e^v.
func bigExp(v *big.Float) *big.Float {
	q, _ := new(big.Float).SetPrec(bprec).Quo(v, bigLn2).Float64()
	k := math.Round(q)
	r := new(big.Float).SetPrec(bprec).Sub(v, new(big.Float).SetPrec(bprec).Mul(bigLn2, bnew(k)))
	sum, term := bnew(1), bnew(1)
	for i := 1; i < 50; i++ {
		term.Mul(term, r)
		term.Quo(term, bnew(float64(i)))
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}

// bigSinCos is sin(x) (cos: quadrant 1) for |x| < 2^40.
func bigSinCos(x float64, quadrant int) *big.Float {
	bx := bnew(x)
	kf, _ := new(big.Float).SetPrec(bprec).Quo(bx, bigHalfPi).Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(bprec).Sub(bx, new(big.Float).SetPrec(bprec).Mul(bigHalfPi, bnew(k)))
	j := (int64(k) + int64(quadrant)) & 3
	r2 := new(big.Float).SetPrec(bprec).Mul(r, r)
	sum := bnew(0)
	var term *big.Float
	start := 0
	if j%2 == 0 { // sine series
		term = new(big.Float).SetPrec(bprec).Set(r)
		start = 1
	} else {
		term = bnew(1)
	}
	for i := 0; i < 40; i++ {
		if i%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		n := float64(start + 2*i)
		term.Mul(term, r2)
		term.Quo(term, bnew((n+1)*(n+2)))
	}
	if j >= 2 {
		sum.Neg(sum)
	}
	return sum
}

// bigTan is sin(x)/cos(x) for |x| < 2^40.
func bigTan(x float64) *big.Float {
	return new(big.Float).SetPrec(bprec).Quo(bigSinCos(x, 0), bigSinCos(x, 1))
}

// ulpErr is |got - want| in units of the last place of want rounded to
// float64 (or float32 when f32).
func ulpErr(got float64, want *big.Float, f32 bool) float64 {
	w, _ := want.Float64()
	if f32 {
		w32, _ := want.Float32()
		w = float64(w32)
	}
	if math.IsInf(w, 0) || w == 0 {
		if got == w {
			return 0
		}
		return math.Inf(1)
	}
	_, e := math.Frexp(w)
	mant := 53
	if f32 {
		mant = 24
		if e < -125 {
			e = -125
		}
	} else if e < -1021 {
		e = -1021
	}
	ulp := math.Ldexp(1, e-mant)
	d := new(big.Float).SetPrec(bprec).Sub(bnew(got), want)
	df, _ := d.Float64()
	return math.Abs(df) / ulp
}

func run64(t *testing.T, op compute.Op, xs []float64) []float64 {
	k, err := compute.LookupUnary(op, compute.Float64)
	require.NoError(t, err)
	got := make([]float64, len(xs))
	if len(xs) > 0 {
		k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), len(xs))
	}
	return got
}

func specials64() []float64 {
	return []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 2, 0.5,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023, math.MaxFloat64, -math.MaxFloat64,
		math.Pi, math.Pi / 2, math.Pi / 4, -math.Pi / 4, 0x1p22, -0x1p22, math.Nextafter(0x1p22, 0), math.Nextafter(0x1p22, 1e300),
		1e6, 1e15, 1e22, 1e300, 6381956970095103 * 0x1p797, math.Sqrt2 / 2, math.Sqrt2, math.Nextafter(1, 0), math.Nextafter(1, 2),
		708, 709, 709.8, -708, -745, 1e-300, 1e-310}
}

// samples64 is n arguments: log-uniform magnitudes over [lo, hi] of both
// signs, uniform over [-10, 10], and the float64s nearest multiples of
// pi/2 (where sin or cos is smallest).
func samples64(rng *rand.Rand, n int, lo, hi float64) []float64 {
	xs := specials64()
	for i := 0; i < n; i++ {
		v := math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
		if rng.Intn(2) == 0 {
			v = -v
		}
		xs = append(xs, v, rng.Float64()*20-10)
	}
	for k := 1; k < 3000; k++ {
		v := float64(k) * math.Pi / 2
		xs = append(xs, v, -v, math.Nextafter(v, 0), math.Nextafter(v, 1e9))
	}
	return xs
}

// TestVmathF64 checks sin, cos and log of float64 against Go's math on a
// dense sample (within 2 ulp; special values, NaN and infinities the same)
// and against a 160-bit reference on a sparser one (within 1.5 ulp of the
// exact result).
func TestVmathF64(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	for _, c := range []struct {
		op    compute.Op
		f     func(float64) float64
		ref   func(float64) *big.Float
		lo    float64
		hi    float64
		valid func(float64) bool
	}{
		{compute.Sin, math.Sin, func(x float64) *big.Float { return bigSinCos(x, 0) }, 1e-20, 1e7, func(x float64) bool { return math.Abs(x) < 1<<40 }},
		{compute.Cos, math.Cos, func(x float64) *big.Float { return bigSinCos(x, 1) }, 1e-20, 1e7, func(x float64) bool { return math.Abs(x) < 1<<40 }},
		{compute.Expm1, math.Expm1, bigExpm1, 1e-300, 700, func(x float64) bool { return math.Abs(x) < 700 }},
		{compute.Tanh, math.Tanh, bigTanh, 1e-300, 1e300, func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }},
		{compute.Arcsin, asinRef, bigAsin, 1e-300, 1, func(x float64) bool { return math.Abs(x) < 1 }},
		{compute.Log1p, math.Log1p, bigLog1p, 1e-300, 1e300, func(x float64) bool { return x > -1 && !math.IsInf(x, 0) }},
		{compute.Arctan, math.Atan, bigAtan, 1e-300, 1e300, func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }},
		{compute.Tan, math.Tan, bigTan, 1e-20, 1e7, func(x float64) bool { return math.Abs(x) < 1<<40 }},
		{compute.Log, func(x float64) float64 {
			if x > 0 && x < 0x1p-1022 { // Go's math.Log is wrong for denormals on amd64
				return math.Log(x*0x1p54) - 54*math.Ln2
			}
			return math.Log(x)
		}, bigLog, 1e-310, 1e308, func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }},
	} {
		xs := samples64(rng, raceThin(100000), c.lo, c.hi)
		// lengths around the vector width, and offsets
		for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9} {
			got := run64(t, c.op, xs[:n])
			for i := range got {
				require.Equal(t, math.Float64bits(run64(t, c.op, xs[i:i+1])[0]), math.Float64bits(got[i]))
			}
		}
		got := run64(t, c.op, xs)
		for i, x := range xs {
			want := c.f(x)
			trig := c.op == compute.Sin || c.op == compute.Cos || c.op == compute.Tan
			if math.Abs(x) >= 1<<29 && trig {
				continue // Go's math reduces in float64 there; the reference below checks
			}
			if math.IsNaN(want) || math.IsInf(want, 0) || want == 0 {
				require.Equal(t, math.Float64bits(want), math.Float64bits(got[i]), "%v(%v)", c.op, x)
				continue
			}
			if trig && (math.Abs(want) < 1e-3 || math.Abs(want) > 1e3) {
				// near a multiple of pi/2, where Go's math is off: 160 bits
				lim := 1.5
				if c.op == compute.Tan {
					lim = 3
				}
				if e := ulpErr(got[i], c.ref(x), false); e > lim {
					t.Fatalf("%v(%v) = %v: %.2f ulp", c.op, x, got[i], e)
				}
				continue
			}
			if d := ulps64(got[i], want); d > 2 && c.op == compute.Tan {
				// Go's math.Tan is itself 1-2 ulp off: 160 bits
				if e := ulpErr(got[i], c.ref(x), false); e > 3 {
					t.Fatalf("%v(%v) = %v: %.2f ulp", c.op, x, got[i], e)
				}
			} else if d > 2 {
				t.Fatalf("%v(%v) = %v, Go's math %v: %d ulp", c.op, x, got[i], want, d)
			}
		}
		worst, wx := 0.0, 0.0
		for i, x := range xs {
			if i%20 != 0 || !c.valid(x) || math.IsNaN(got[i]) {
				continue
			}
			if e := ulpErr(got[i], c.ref(x), false); e > worst {
				worst, wx = e, x
			}
		}
		t.Logf("%v float64: max %.3f ulp (at %v) over %d arguments against 160 bits", c.op, worst, wx, len(xs)/20)
		lim := 1.5
		if c.op == compute.Tanh || c.op == compute.Arcsin {
			lim = 2.5 // a quotient of two rounded values; pi/2 - 2 asin(sqrt((1-a)/2))
		}
		if c.op == compute.Tan {
			lim = 3 // a quotient of two rounded series
		}
		require.LessOrEqual(t, worst, lim, "%v(%v)", c.op, wx)
	}
}

func ulps64(a, b float64) int64 {
	ord := func(f float64) int64 {
		u := int64(math.Float64bits(f))
		if u < 0 {
			return -(u & math.MaxInt64)
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

// TestPowerScalar checks x**y for scalar exponents (the VS kernel) in
// float32 and float64 against a 160-bit reference: exponents whose power
// is exact in big.Float (multiples of 1/4 via square roots), and others
// against exp(y log x) in 160 bits; special bases; lengths around the
// vector widths.
func TestPowerScalar(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	xs := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, -2, 2, -0.5, 1e-310, 0x1p-1022, math.MaxFloat64, 1e-45, 1e-38, 3.4e38,
		1e300, 1e-300, 1e200, 1e-200, 1e100, 1e150}
	for i := 0; i < raceThin(20000); i++ {
		v := math.Exp(rng.Float64()*40 - 20)
		if i%50 == 0 {
			v = -v
		}
		xs = append(xs, v, rng.Float64()*100)
	}
	for _, y := range []float64{2.5, 3, 2, -1.5, 0.5, 0.25, 1.75, -3, 7, 0.3, -2.7, 1, 0, math.NaN(), math.Inf(1), 100.5, -0.1} {
		for _, dt := range []compute.Type{compute.Float64, compute.Float32} {
			k, err := compute.LookupBinary(compute.Power, dt, compute.VS)
			require.NoError(t, err)
			var got []float64
			if dt == compute.Float64 {
				got = make([]float64, len(xs))
				yy := y
				k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), unsafe.Pointer(&yy), len(xs))
				for _, n := range []int{1, 3, 4, 5, 7, 8, 9, 15} {
					g := make([]float64, n)
					k(unsafe.Pointer(&g[0]), unsafe.Pointer(&xs[0]), unsafe.Pointer(&yy), n)
					for i := range g {
						require.Equal(t, math.Float64bits(got[i]), math.Float64bits(g[i]))
					}
				}
			} else {
				x32 := make([]float32, len(xs))
				for i, x := range xs {
					x32[i] = float32(x)
				}
				g32 := make([]float32, len(xs))
				yy := float32(y)
				k(unsafe.Pointer(&g32[0]), unsafe.Pointer(&x32[0]), unsafe.Pointer(&yy), len(xs))
				got = make([]float64, len(xs))
				for i := range g32 {
					got[i] = float64(g32[i])
				}
			}
			worst, wx := 0.0, 0.0
			for i, x := range xs {
				if dt == compute.Float32 {
					x = float64(float32(x))
					y = float64(float32(y))
				}
				want := math.Pow(x, y)
				if dt == compute.Float32 {
					want = float64(float32(want))
				}
				negInt := x < 0 && y == math.Trunc(y) && !math.IsInf(x, 0) && !math.IsInf(y, 0)
				if math.IsNaN(want) || math.IsInf(want, 0) || want == 0 || (x <= 0 && !negInt) || math.IsInf(x, 0) || y == 0 || math.IsNaN(y) || math.IsInf(y, 0) {
					if !(math.IsNaN(want) && math.IsNaN(got[i])) {
						require.Equal(t, want, got[i], "%v: %v**%v", dt, x, y)
					}
					continue
				}
				if i%10 != 0 && i > 30 {
					continue
				}
				ref := bigExp(new(big.Float).SetPrec(bprec).Mul(bigLog(math.Abs(x)), bnew(y)))
				if x < 0 && math.Mod(y, 2) != 0 {
					ref.Neg(ref)
				}
				e := ulpErr(got[i], ref, dt == compute.Float32)
				if e > worst {
					worst, wx = e, x
				}
			}
			t.Logf("%v**%v: max %.3f ulp (at %v)", dt, y, worst, wx)
			require.LessOrEqual(t, worst, 2.0, "%v: %v**%v", dt, wx, y)
		}
	}
}

// TestPowerHalfF64 holds float64 x**1.5 and x**2.5 (x sqrt x and x^2
// sqrt x, with no log or exp, for 2^-300 <= x <= 2^300) to the exact
// power in 160 bits: rounded correctly but for a margin of 2^-20 ulp, in
// the plain and the streaming kernel, at every length and offset the
// random slices give; outside that range (the general routine) within 1
// ulp; a negative, zero, infinite or NaN base: math.Pow's bits.
func TestPowerHalfF64(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	n := raceThin(60000)
	xs := make([]float64, 0, n+16)
	xs = append(xs, 0x1p-300, 0x1p300, math.Nextafter(0x1p-300, 0), math.Nextafter(0x1p300, math.Inf(1)), 1, 4, 0.25, 2, 3, 1e-310, math.MaxFloat64, 0x1p-1022)
	for len(xs) < n {
		v := math.Ldexp(1+rng.Float64(), rng.Intn(661)-330)
		if rng.Intn(3) == 0 {
			v = -v // a negative base: NaN, in runs and alone
		}
		xs = append(xs, v)
	}
	xs = append(xs, math.Inf(-1), math.Inf(1), math.NaN(), 0, math.Copysign(0, -1), -1e-310, -math.MaxFloat64)
	for _, y := range []float64{1.5, 2.5} {
		k, err := compute.LookupBinary(compute.Power, compute.Float64, compute.VS)
		require.NoError(t, err)
		forms := []compute.BinaryFunc{k}
		if knt, ok := compute.LookupBinaryNT(compute.Power, compute.Float64, compute.VS); ok {
			forms = append(forms, knt)
		}
		for fi, f := range forms {
			buf := make([]float64, len(xs)+8)
			off := fi * 3 // the streaming form from a dst off its 32-byte boundary too
			got := buf[off:][:len(xs)]
			yy := y
			f(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), unsafe.Pointer(&yy), len(xs))
			compute.Fence()
			worstIn, worstOut := 0.0, 0.0
			for i, x := range xs {
				if !(x > 0) || math.IsInf(x, 0) {
					w := math.Pow(x, y)
					require.Equal(t, math.Float64bits(w), math.Float64bits(got[i]), "form %d: %v**%v = %v, math.Pow %v", fi, x, y, got[i], w)
					continue
				}
				ref := new(big.Float).SetPrec(bprec).Sqrt(bnew(x))
				for j := 0; j < int(y); j++ {
					ref.Mul(ref, bnew(x))
				}
				e := ulpErr(got[i], ref, false)
				if x >= 0x1p-300 && x <= 0x1p300 {
					require.LessOrEqual(t, e, 0.5+0x1p-20, "form %d: %v**%v = %v", fi, x, y, got[i])
					worstIn = max(worstIn, e)
				} else {
					require.LessOrEqual(t, e, 1.0, "form %d: %v**%v = %v", fi, x, y, got[i])
					worstOut = max(worstOut, e)
				}
			}
			t.Logf("form %d, x**%v: max %.6f ulp in range, %.3f outside", fi, y, worstIn, worstOut)
		}
	}
}

// TestVmathF32 sweeps float32 bit patterns (every 257th, both signs, and
// special values) through tan, arctan, arcsin, log1p and expm1 (computed
// in float64 by vmath_amd64.s) and compares with Go's math in float64
// rounded to float32: within 1 ulp, the same NaNs, infinities and zeros.
func TestVmathF32(t *testing.T) {
	var xs []float32
	for u := uint64(0); u < 1<<32; u += raceStep(257) {
		xs = append(xs, math.Float32frombits(uint32(u)))
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		1, -1, 0.5, -0.5, math.Nextafter32(1, 0), math.Nextafter32(-1, 0), math.Nextafter32(1, 2), 1e-38, 1e-45, -1e-45, math.MaxFloat32,
		88.72, 88.73, -103.9, -104, 708, 1e-7, 0x1p-20, 0x1p-21, -0x1p-20, 0.41421357, 2.4142137, float32(math.Pi/2), 0x1p22, -0x1p22)
	for k := 1; k < 2000; k++ {
		v := float32(float64(k) * math.Pi / 2)
		xs = append(xs, v, -v, math.Nextafter32(v, 0), math.Nextafter32(v, 1e9))
	}
	for _, c := range []struct {
		op compute.Op
		f  func(float64) float64
	}{{compute.Tan, math.Tan}, {compute.Arctan, math.Atan}, {compute.Arcsin, math.Asin}, {compute.Log1p, math.Log1p}, {compute.Expm1, math.Expm1}} {
		k, err := compute.LookupUnary(c.op, compute.Float32)
		require.NoError(t, err)
		got := make([]float32, len(xs))
		k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), len(xs))
		for _, n := range []int{1, 3, 4, 5, 7, 8, 9} {
			g := make([]float32, n)
			k(unsafe.Pointer(&g[0]), unsafe.Pointer(&xs[len(xs)-n]), n)
			for i := range g {
				require.Equal(t, math.Float32bits(got[len(xs)-n+i]), math.Float32bits(g[i]))
			}
		}
		worst := int64(0)
		for i, x := range xs {
			want := float32(c.f(float64(x)))
			g := got[i]
			if math.IsNaN(float64(want)) || math.IsInf(float64(want), 0) || want == 0 {
				if !(math.IsNaN(float64(want)) && math.IsNaN(float64(g))) {
					require.Equal(t, math.Float32bits(want), math.Float32bits(g), "%v(%v)", c.op, x)
				}
				continue
			}
			d := ulps32(g, want)
			if d > 1 {
				t.Fatalf("%v(%v) = %v, want %v: %d ulp", c.op, x, g, want, d)
			}
			worst = max(worst, d)
		}
		t.Logf("%v float32: max %d ulp against Go's math over %d arguments", c.op, worst, len(xs))
	}
}

// asinRef is arcsin with 1 - x^2 rounded once (Go's math.Asin rounds it
// twice: up to ~10 ulp off near |x| = 1).
func asinRef(x float64) float64 {
	a := math.Abs(x)
	if !(a <= 1) {
		return math.NaN()
	}
	c := math.Sqrt(math.FMA(-a, a, 1))
	if a > 0.7 {
		return math.Copysign(math.Pi/2-math.Atan(c/a), x)
	}
	return math.Copysign(math.Atan(a/c), x)
}

// bigAtan2 is arctan2(y, x) for finite nonzero y and x: arctan of the
// smaller magnitude over the larger, by quadrant.
func bigAtan2(y, x float64) *big.Float {
	a, b := math.Abs(y), math.Abs(x)
	var r *big.Float
	if a <= b {
		r = bigAtanB(new(big.Float).SetPrec(bprec).Quo(bnew(a), bnew(b)))
		if x < 0 { // pi - r
			r.Sub(new(big.Float).SetPrec(bprec).Mul(bigHalfPi, bnew(2)), r)
		}
	} else {
		r = bigAtanB(new(big.Float).SetPrec(bprec).Quo(bnew(b), bnew(a)))
		if x < 0 {
			r.Add(bigHalfPi, r)
		} else {
			r.Sub(bigHalfPi, r)
		}
	}
	if y < 0 {
		r.Neg(r)
	}
	return r
}

// TestArctan2F64 checks arctan2(y, x) of float64 vectors: every pair of
// special values (zeros of both signs, infinities, NaN, denormals, the
// largest finite) the same as Go's math.Atan2 (C99 Annex F), and a dense
// sample of pairs (magnitudes log-uniform over the whole range, ratios
// near the reduction's boundaries tan(pi/8) and 1, uniform [-10, 10])
// within 2 ulp of Go's math or, where Go's math is further off, within
// 2 ulp of a 160-bit reference; the worst error of a sparser sample
// against 160 bits within 1.5 ulp; lengths around the vector width.
func TestArctan2F64(t *testing.T) {
	k, err := compute.LookupBinary(compute.Arctan2, compute.Float64, compute.VV)
	require.NoError(t, err)
	run := func(ys, xs []float64) []float64 {
		d := make([]float64, len(ys))
		if len(ys) > 0 {
			k(unsafe.Pointer(&d[0]), unsafe.Pointer(&ys[0]), unsafe.Pointer(&xs[0]), len(ys))
		}
		return d
	}
	sp := append(specials64(), 0x1p1022, -0x1p1022, 0x1.0000000000001p1022, 3e-320, -5e-320)
	var ys, xs []float64
	for _, y := range sp {
		for _, x := range sp {
			ys, xs = append(ys, y), append(xs, x)
		}
	}
	nsp := len(ys)
	rng := rand.New(rand.NewSource(22))
	logu := func(lo, hi float64) float64 {
		v := math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
		if rng.Intn(2) == 0 {
			v = -v
		}
		return v
	}
	sgn := func(v float64) float64 {
		if rng.Intn(2) == 0 {
			return -v
		}
		return v
	}
	for i := 0; i < raceThin(500000); i++ {
		ys, xs = append(ys, logu(1e-300, 1e300)), append(xs, logu(1e-300, 1e300))
		ys, xs = append(ys, logu(1e-5, 1e5)), append(xs, logu(1e-5, 1e5))
		ys, xs = append(ys, rng.Float64()*20-10), append(xs, rng.Float64()*20-10)
		x := logu(1e-200, 1e200)
		r := 0.41421356237309503 * (1 + (rng.Float64()-0.5)*1e-6)
		if rng.Intn(2) == 0 {
			r = 1 + (rng.Float64()-0.5)*1e-6
		}
		if rng.Intn(2) == 0 {
			ys, xs = append(ys, sgn(x*r)), append(xs, x)
		} else {
			ys, xs = append(ys, x), append(xs, sgn(x*r))
		}
	}
	for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9, 15} {
		off := nsp + 8
		got := run(ys[off:off+n], xs[off:off+n])
		all := run(ys[off:off+16], xs[off:off+16])
		for i := range got {
			if i < n&^3 {
				require.Equal(t, math.Float64bits(all[i]), math.Float64bits(got[i]))
			}
			require.LessOrEqual(t, ulpErr(got[i], bigAtan2(ys[off+i], xs[off+i]), false), 1.5)
		}
	}
	got := run(ys, xs)
	// one element at a time (the Go loop) the same bits as in vectors
	for i := 0; i < nsp+4000; i++ {
		require.Equal(t, math.Float64bits(got[i]), math.Float64bits(run(ys[i:i+1], xs[i:i+1])[0]), "arctan2(%v, %v)", ys[i], xs[i])
	}
	worst, wy, wx, slow := 0.0, 0.0, 0.0, 0
	for i := range ys {
		y, x := ys[i], xs[i]
		want := math.Atan2(y, x)
		if y == 0 || x == 0 || math.IsInf(y, 0) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsNaN(x) {
			require.Equal(t, math.Float64bits(want), math.Float64bits(got[i]), "arctan2(%v, %v)", y, x)
			continue
		}
		want = math.Copysign(want, y) // Go's is pi for y = -5e-324, x = -1e308
		if d := ulps64(got[i], want); d > 2 || i < nsp {
			// Go's math.Atan2 is off there: 160 bits
			slow++
			if e := ulpErr(got[i], bigAtan2(y, x), false); e > 1.5 {
				t.Fatalf("arctan2(%v, %v) = %v, Go's math %v: %.2f ulp", y, x, got[i], want, e)
			}
		}
		if i%100 == 0 {
			if e := ulpErr(got[i], bigAtan2(y, x), false); e > worst {
				worst, wy, wx = e, y, x
			}
		}
	}
	t.Logf("arctan2 float64: max %.3f ulp (at %v, %v) over %d pairs against 160 bits; %d of %d checked there", worst, wy, wx, len(ys)/100, slow, len(ys))
	require.LessOrEqual(t, worst, 1.5, "arctan2(%v, %v)", wy, wx)
}

// TestVmathBinaryNTMatchesPlain: the streaming variants of float64
// arctan2 (two vectors) and power (a scalar exponent) give, bit for bit,
// what the plain kernels give, and those what they give one element at a
// time (every element in the kernel's range is the kernel's, whatever its
// offset and neighbours), for n = 0..70 at every alignment of dst, special
// values sprinkled; nothing outside [0, n) is written.
func TestVmathBinaryNTMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	sp := specials64()
	val := func() float64 {
		if rng.Intn(8) == 0 {
			return sp[rng.Intn(len(sp))]
		}
		return rng.NormFloat64() * 30
	}
	type kernel struct {
		name string
		y    []float64 // nil: the second operand is a vector
	}
	checked := 0
	for _, c := range []struct {
		op    compute.Op
		form  compute.Form
		scale []float64
	}{{compute.Arctan2, compute.VV, nil}, {compute.Power, compute.VS, []float64{2.5, -1.5, 0.3, 3, 2, 1e-3, 171.5}}} {
		plain, err := compute.LookupBinary(c.op, compute.Float64, c.form)
		require.NoError(t, err)
		nt, ok := compute.LookupBinaryNT(c.op, compute.Float64, c.form)
		if !ok {
			if compute.Asm {
				t.Fatalf("%v: no streaming kernel", c.op)
			}
			nt = plain
		}
		ys := c.scale
		if ys == nil {
			ys = []float64{0}
		}
		for _, yv := range ys {
			for n := 0; n <= 70; n++ {
				off := n % 5
				x, y := make([]float64, n+8), make([]float64, n+8)
				for i := range x {
					x[i], y[i] = val(), val()
					if c.op == compute.Power && rng.Intn(3) > 0 {
						x[i] = math.Abs(x[i])
					}
				}
				yp := unsafe.Pointer(&y[off])
				if c.form == compute.VS {
					yp = unsafe.Pointer(&yv)
				}
				run := func(k compute.BinaryFunc) []float64 {
					d := make([]float64, n+8)
					for i := range d {
						d[i] = 7777
					}
					k(unsafe.Pointer(&d[off]), unsafe.Pointer(&x[off]), yp, n)
					compute.Fence()
					for i := range d {
						if i < off || i >= off+n {
							require.Equal(t, 7777.0, d[i], "%v n=%d: wrote outside", c.op, n)
						}
					}
					return d[off : off+n]
				}
				a, b := run(plain), run(nt)
				for i := 0; i < n; i++ {
					one := make([]float64, 1)
					ypi := yp
					if c.form == compute.VV {
						ypi = unsafe.Pointer(&y[off+i])
					}
					plain(unsafe.Pointer(&one[0]), unsafe.Pointer(&x[off+i]), ypi, 1)
					require.Equal(t, math.Float64bits(a[i]), math.Float64bits(b[i]), "%v(%v, %v) n=%d: streaming differs", c.op, x[off+i], yv, n)
					require.Equal(t, math.Float64bits(one[0]), math.Float64bits(a[i]), "%v(%v, %v) n=%d: alone differs", c.op, x[off+i], yv, n)
					checked++
				}
			}
		}
	}
	require.Greater(t, checked, 10000)
}

// TestPowerNegativeBases: float64 x**y for a scalar y over data with many
// negative bases (half of them, and runs of them; -0, -Inf and negative
// denormals among them), in place and out, at lengths past a chunk: every
// element is its own power alone, a finite negative base's power is NaN
// for a non-integer y and its magnitude's power, signed by y's parity, for
// an integer one, and the other bases' results are math.Pow's where it
// gives a NaN, an infinity or a zero.
func TestPowerNegativeBases(t *testing.T) {
	rng := rand.New(rand.NewSource(27))
	k, err := compute.LookupBinary(compute.Power, compute.Float64, compute.VS)
	require.NoError(t, err)
	sp := []float64{math.Copysign(0, -1), math.Inf(-1), -5e-324, -1e-310, -1e300, 0, math.Inf(1), math.NaN(), 5e-324}
	for _, y := range []float64{0.3, 2.5, 1.5, 3, 5, 4, -3, -2.7, 7, 1e20} {
		for trial := 0; trial < 6; trial++ {
			n := 1 + rng.Intn(1500)
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = rng.Float64()*20 - 10
				if trial%3 == 1 && (i/37)%2 == 0 {
					xs[i] = -math.Abs(xs[i]) // runs of negatives
				}
				if rng.Intn(30) == 0 {
					xs[i] = sp[rng.Intn(len(sp))]
				}
			}
			yy := y
			got := make([]float64, n)
			k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), unsafe.Pointer(&yy), n)
			in := append([]float64(nil), xs...)
			k(unsafe.Pointer(&in[0]), unsafe.Pointer(&in[0]), unsafe.Pointer(&yy), n)
			for i, x := range xs {
				var alone, mag float64
				k(unsafe.Pointer(&alone), unsafe.Pointer(&xs[i]), unsafe.Pointer(&yy), 1)
				for _, g := range []float64{got[i], in[i]} {
					require.Equal(t, math.Float64bits(alone), math.Float64bits(g), "%v**%v, element %d of %d", x, y, i, n)
				}
				if x < 0 && x > math.Inf(-1) {
					a := -x
					k(unsafe.Pointer(&mag), unsafe.Pointer(&a), unsafe.Pointer(&yy), 1)
					switch {
					case y != math.Trunc(y):
						require.True(t, math.IsNaN(alone), "%v**%v = %v", x, y, alone)
					case math.Mod(y, 2) != 0:
						require.Equal(t, math.Float64bits(-mag), math.Float64bits(alone), "%v**%v", x, y)
					default:
						require.Equal(t, math.Float64bits(mag), math.Float64bits(alone), "%v**%v", x, y)
					}
				} else if w := math.Pow(x, y); math.IsNaN(w) || math.IsInf(w, 0) || w == 0 {
					if !(math.IsNaN(w) && math.IsNaN(alone)) {
						require.Equal(t, math.Float64bits(w), math.Float64bits(alone), "%v**%v", x, y)
					}
				}
			}
		}
	}
}

// TestPowerNegativeBasesF32 is TestPowerNegativeBases for float32, whose
// routine leaves a whole block of 4 to the Go loop where the kernel stops
// (so an element is not always its own power alone): x**y over data with
// negative bases equals the power of the magnitudes (the same array with
// finite negatives made positive), NaN at a negative base for a
// non-integer y and signed by y's parity for an integer one.
func TestPowerNegativeBasesF32(t *testing.T) {
	rng := rand.New(rand.NewSource(28))
	k, err := compute.LookupBinary(compute.Power, compute.Float32, compute.VS)
	require.NoError(t, err)
	sp := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(-1)), -1e-45, -1e-40, -1e30, 0, float32(math.Inf(1)), float32(math.NaN())}
	for _, y := range []float32{0.3, 2.5, 5, 4, -3, -2.7, 7} {
		for trial := 0; trial < 6; trial++ {
			n := 1 + rng.Intn(1500)
			xs, mag := make([]float32, n), make([]float32, n)
			for i := range xs {
				xs[i] = float32(rng.Float64()*20 - 10)
				if trial%3 == 1 && (i/37)%2 == 0 {
					xs[i] = -float32(math.Abs(float64(xs[i])))
				}
				if rng.Intn(30) == 0 {
					xs[i] = sp[rng.Intn(len(sp))]
				}
				mag[i] = xs[i]
				if xs[i] < 0 && !math.IsInf(float64(xs[i]), -1) {
					mag[i] = -xs[i]
				}
			}
			yy := y
			got, want := make([]float32, n), make([]float32, n)
			k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), unsafe.Pointer(&yy), n)
			k(unsafe.Pointer(&want[0]), unsafe.Pointer(&mag[0]), unsafe.Pointer(&yy), n)
			for i, x := range xs {
				w := want[i]
				if x < 0 && !math.IsInf(float64(x), -1) {
					switch {
					case y != float32(math.Trunc(float64(y))):
						w = float32(math.NaN())
					case math.Mod(float64(y), 2) != 0:
						w = -w
					}
				}
				if math.Float32bits(got[i]) != math.Float32bits(w) && !(got[i] != got[i] && w != w) {
					t.Fatalf("%v**%v, element %d of %d: %v, want %v", x, y, i, n, got[i], w)
				}
			}
		}
	}
}
