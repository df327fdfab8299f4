package compute

import (
	"math"
	"math/big"
	"sync"
)

// Go's math functions where they fall short of the 4 ulp the conformance
// cases allow against NumPy (glibc's libm): pow with an integer exponent,
// which Go computes by repeated rounded multiplication (20 ulp off for
// 0.001**100; a huge base with a fractional exponent is still up to
// ~30 ulp off: not fixed), and sin, cos and tan of arguments of 2^29 and more, whose
// reduction modulo pi/2 Go does in float64.

// ln2 in two parts, the first with its low 21 bits zero (k*ln2Hi is exact
// for |k| < 2^21), the second the rest rounded (vmathgen.go computes them
// from 2 atanh(1/3) in math/big).
var (
	ln2Hi = math.Float64frombits(0x3fe62e42fee00000)
	ln2Lo = math.Float64frombits(0x3dea39ef35793c76)
)

// powDD is x**y for a positive normal x and a finite y by exp(y log x)
// with log x and y log x in double-double: the algorithm of the power
// kernels of vmathgen.go, in Go (within about 1 ulp, where Go's math.Pow
// is up to ~30 ulp off for large bases and fractional exponents). ok is
// false when the result overflows or underflows to zero.
func powDD(x, y float64) (float64, bool) {
	if x < 0x1p-1022 { // denormal: Go's math.Pow is far off there (1e-310**0.25)
		hi, lo := logDD(x * 0x1p54)
		hi, lo = ddAdd(hi, lo, -54*ln2Hi, -54*ln2Lo)
		return powLog(hi, lo, y)
	}
	hi, lo := logDD(x)
	return powLog(hi, lo, y)
}

// ddAdd is (ah + al) + (bh + bl) in double-double.
func ddAdd(ah, al, bh, bl float64) (float64, float64) {
	s := ah + bh
	bb := s - ah
	e := (ah - (s - bb)) + (bh - bb) + al + bl
	h := s + e
	return h, e - (h - s)
}

// powLog is e^(y (hi + lo)).
func powLog(hi, lo, y float64) (float64, bool) {
	th := y * hi
	tl := math.FMA(y, hi, -th)
	tl = math.FMA(y, lo, tl)
	if th > 709.8 || th < -745.2 {
		return 0, false // overflow or underflow: math.Pow's inf or 0
	}
	return expDD(th, tl), true
}

// logDD is log(x) = hi + lo for a positive normal x: x = 2^e m with m in
// [sqrt(1/2), sqrt(2)), s = f/(2+f) for f = m - 1 (corrected for the
// roundings of the quotient and of 2+f), log m = 2 atanh(s) by its series
// to s^21 (|s| < 0.1716), its leading term 2s^3/3 in double-double,
// plus e ln2 in two parts; the sum by Fast2Sums (about 2^-70 relative).
func logDD(x float64) (float64, float64) {
	xb := math.Float64bits(x)
	eb := (xb + (0x3ff0000000000000 - 0x3fe6a09e667f3bcd)) >> 52
	m := math.Float64frombits(xb - eb<<52 + 0x3ff0000000000000)
	e := float64(int64(eb) - 1023)
	f := m - 1
	d := 2 + f
	s := f / d
	dl := f - (d - 2)
	rho := math.FMA(s, d, -f) + s*dl
	rho *= math.FMA(math.FMA(0.125, f, -0.25), f, 0.5) // s - rho is f/(2+f)
	z := s * s
	zl := math.FMA(s, s, -z)
	q2 := 1.0 / 21 // P = 1/3 + z q2
	for i := 9; i >= 2; i-- {
		q2 = math.FMA(q2, z, 1/float64(2*i+1))
	}
	s2 := 2 * s
	w := s2 * z // 2s z = 2s^3, then w3 = w/3 in double-double
	wl := math.FMA(s2, zl, math.FMA(s2, z, -w))
	const third = 1.0 / 3
	w3 := w * third
	w3l := math.FMA(wl, third, math.FMA(w, 0x1p-54*third, math.FMA(w, third, -w3)))
	rest := math.FMA(e, ln2Lo, math.FMA(-rho, 2+(z+z), w*z*q2+w3l))
	h := e * ln2Hi
	a := h + s2
	al := s2 - (a - h)
	b := a + w3
	bl := w3 - (b - a)
	l := al + bl + rest
	hi := b + l
	return hi, l - (hi - b)
}

// expTaylor are 1/k! for k = 0..13.
var expTaylor = func() (c [14]float64) {
	f := 1.0
	for k := range c {
		if k > 0 {
			f *= float64(k)
		}
		c[k] = 1 / f
	}
	return c
}()

// expDD is e^(th+tl) for th in [-745.2, 709.8]: th+tl = k ln2 + r, e^r
// by its Taylor series to r^13, times 2^k.
func expDD(th, tl float64) float64 {
	kf := math.FMA(th, math.Log2E, 0x1.8p52) - 0x1.8p52
	a := math.FMA(-kf, ln2Hi, th) // exact
	b := math.FMA(-kf, ln2Lo, tl)
	rh := a + b // TwoSum
	bb := rh - a
	rl := (a - (rh - bb)) + (b - bb)
	q := expTaylor[13]
	for i := 12; i >= 2; i-- {
		q = math.FMA(q, rh, expTaylor[i])
	}
	w := math.FMA(q, rh*rh, rl)
	s := 1 + rh
	p := s + (w + ((1 - s) + rh))
	ki := int64(kf)
	if ki > 1023 || ki < -1021 { // 2^k in two normal factors, the last product rounded once
		h := ki / 2
		return p * math.Float64frombits(uint64(h+1023)<<52) * math.Float64frombits(uint64(ki-h+1023)<<52)
	}
	return p * math.Float64frombits(uint64(ki+1023)<<52)
}

// powF is x**y. The exponents 1.5 and 2.5 are powHalf's where x is in
// its range. An integer exponent is computed in double-double
// arithmetic (each product with its rounding error, by FMA) and rounded
// once; a result or intermediate outside the normal range, and every other
// case, is math.Pow.
func powF(x, y float64) float64 {
	if (y == 1.5 || y == 2.5) && x >= 0x1p-300 && x <= 0x1p300 {
		return powHalf(x, y)
	}
	ay := math.Abs(y)
	if ay > 1<<53 || y != math.Trunc(y) || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || ay < 2 {
		if x > 0 && x <= math.MaxFloat64 && y != 0 && y != 1 && !math.IsInf(y, 0) && !math.IsNaN(y) {
			if r, ok := powDD(x, y); ok {
				return r
			}
		}
		return math.Pow(x, y)
	}
	n := uint64(ay)
	bh, bl := x, 0.0
	rh, rl := 1.0, 0.0
	for {
		if n&1 == 1 {
			rh, rl = ddMul(rh, rl, bh, bl)
		}
		n >>= 1
		if n == 0 {
			break
		}
		bh, bl = ddMul(bh, bl, bh, bl)
		if !normal(bh) {
			return math.Pow(x, y)
		}
	}
	if !normal(rh) {
		return math.Pow(x, y)
	}
	if y < 0 {
		q := 1 / rh
		r := math.FMA(-q, rh, 1) - q*rl
		rh = q + q*r
		if !normal(rh) {
			return math.Pow(x, y)
		}
		return rh
	}
	return rh + rl
}

// powHalf is x**1.5 (x sqrt x) or x**2.5 (x^2 sqrt x) for 2^-300 <= x <=
// 2^300, rounded once from a value within 2^-100 of the true one: the
// same operations as the half power kernels of vmathgen.go (halfPowBody,
// which explains them), so the same bits.
func powHalf(x, y float64) float64 {
	s := math.Sqrt(x)
	e := math.FMA(-s, s, x) // x - s^2, exact
	if y == 1.5 {
		return math.FMA(x, s, e*(s*0.5))
	}
	h := x * x
	hl := math.FMA(x, x, -h)
	t := math.FMA(e, x*0.5, hl)
	return math.FMA(h, s, t*s)
}

func normal(v float64) bool {
	a := math.Abs(v)
	return a >= 0x1p-1022 && a <= math.MaxFloat64
}

// ddMul multiplies two double-double numbers.
func ddMul(ah, al, bh, bl float64) (float64, float64) {
	p := ah * bh
	e := math.FMA(ah, bh, -p)
	e += ah*bl + al*bh
	h := p + e
	return h, e - (h - p)
}

// trigThreshold is where Go's math switches to its float64 Payne-Hanek
// reduction; from there on the argument is reduced exactly.
const trigThreshold = 1 << 29

// pi/2 in three parts (vmathgen.go), and 2/pi.
var (
	halfPi1  = math.Float64frombits(0x3ff921fb54442d18)
	halfPi2  = math.Float64frombits(0x3c91a62633145c07)
	halfPi3  = math.Float64frombits(0xb91f1976b7ed8fbc)
	twoByPiF = math.Float64frombits(0x3fe45f306dc9c883)
)

// reduceFMA is the reduction of the sin, cos and tan kernels of
// vmathgen.go for |x| < 2^22: k = round(x 2/pi) (kb holds k in its low
// bits, by the kernels' 0x1.8p52 trick) and r = x - k pi/2 with pi/2 in
// three parts, the first product exact by FMA (reduceHalfPi is the exact
// reduction of any x, in math/big).
func reduceFMA(x float64) (r, kb float64) {
	kb = math.FMA(x, twoByPiF, 0x1.8p52)
	kf := kb - 0x1.8p52
	r = math.FMA(-kf, halfPi1, x)
	r = math.FMA(-kf, halfPi2, r)
	r = math.FMA(-kf, halfPi3, r)
	return r, kb
}

// sinCosDD is sin(x) (quadrant 0) or cos(x) (quadrant 1) for |x| < 2^22,
// the algorithm of the sin and cos kernels of vmathgen.go: k = round(x
// 2/pi), r = x - k pi/2 with pi/2 in three parts (the first product exact
// by FMA), sinPoly or cosPoly by k mod 4 (Go's math.Sin is up to 7 ulp
// off near multiples of pi).
func sinCosDD(x float64, quadrant int) float64 {
	if quadrant == 0 && math.Abs(x) < 0x1p-26 {
		return x // zeros of either sign included
	}
	r, kb := reduceFMA(x)
	j := math.Float64bits(kb) + uint64(quadrant)
	z := r * r
	var v float64
	if j&1 == 0 {
		v = sinPoly(r, z)
	} else {
		v = cosPoly(z)
	}
	if j&2 != 0 {
		v = -v
	}
	return v
}

// sinPoly is sin r = r + r z S(z) for |r| <= pi/4, z = r^2, S the fit
// sinS of vmathgen.go (as in its kernels, FMA for FMA).
func sinPoly(r, z float64) float64 {
	q := sinS[len(sinS)-1]
	for i := len(sinS) - 2; i >= 0; i-- {
		q = math.FMA(q, z, sinS[i])
	}
	return math.FMA(q, r*z, r)
}

// cosPoly is cos r = 1 + z (-1/2 + z C(z)), C the fit cosQ.
func cosPoly(z float64) float64 {
	q := cosQ[len(cosQ)-1]
	for i := len(cosQ) - 2; i >= 0; i-- {
		q = math.FMA(q, z, cosQ[i])
	}
	return math.FMA(math.FMA(q, z, -0.5), z, 1)
}

func sinF(x float64) float64 {
	if math.Abs(x) < 1<<22 {
		return sinCosDD(x, 0)
	}
	if math.Abs(x) < trigThreshold || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Sin(x)
	}
	n, r := reduceHalfPi(x)
	return [4]float64{math.Sin(r), math.Cos(r), -math.Sin(r), -math.Cos(r)}[n]
}

func cosF(x float64) float64 {
	if math.Abs(x) < 1<<22 {
		return sinCosDD(x, 1)
	}
	if math.Abs(x) < trigThreshold || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Cos(x)
	}
	n, r := reduceHalfPi(x)
	return [4]float64{math.Cos(r), -math.Sin(r), -math.Cos(r), math.Sin(r)}[n]
}

// tanDD is tan(x) for |x| < 2^22, the algorithm of the tan kernel of
// vmathgen.go: the reduction of sinCosDD, sin(r)/cos(r) for even k and
// -cos(r)/sin(r) for odd k, each polynomial as in sinCosDD (Go's math.Tan
// is up to 7 ulp off near multiples of pi/2).
func tanDD(x float64) float64 {
	if math.Abs(x) < 0x1p-26 {
		return x // zeros of either sign included
	}
	r, kb := reduceFMA(x)
	z := r * r
	s, c := sinPoly(r, z), cosPoly(z)
	if math.Float64bits(kb)&1 != 0 {
		return -(c / s)
	}
	return s / c
}

func tanF(x float64) float64 {
	if math.Abs(x) < 1<<22 {
		return tanDD(x)
	}
	if math.Abs(x) < trigThreshold || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Tan(x)
	}
	n, r := reduceHalfPi(x)
	if n%2 == 1 {
		return -1 / math.Tan(r)
	}
	return math.Tan(r)
}

// piPrec is the precision of the reduction: enough for any float64 (whose
// exponent is below 1024) to keep 53 bits of its remainder after the
// cancellation, the closest a float64 comes to a multiple of pi/2 being
// about 2^-62 relative.
const piPrec = 1300

var (
	piOnce  sync.Once
	halfPi  *big.Float
	twoByPi *big.Float
)

// reduceHalfPi returns x's quadrant n (0..3) and r = x - k*pi/2 in
// [-pi/4, pi/4], k = n mod 4, computed exactly and rounded once.
func reduceHalfPi(x float64) (int, float64) {
	piOnce.Do(func() {
		pi := machinPi(piPrec + 64)
		halfPi = new(big.Float).SetPrec(piPrec).Quo(pi, big.NewFloat(2))
		twoByPi = new(big.Float).SetPrec(piPrec).Quo(big.NewFloat(2), pi)
	})
	bx := new(big.Float).SetPrec(piPrec).SetFloat64(x)
	q := new(big.Float).SetPrec(piPrec).Mul(bx, twoByPi)
	// k = round(q)
	if q.Sign() >= 0 {
		q.Add(q, big.NewFloat(0.5))
	} else {
		q.Sub(q, big.NewFloat(0.5))
	}
	k, _ := q.Int(nil)
	kf := new(big.Float).SetPrec(piPrec).SetInt(k)
	r := new(big.Float).SetPrec(piPrec).Mul(kf, halfPi)
	r.Sub(bx, r)
	rf, _ := r.Float64()
	n := int(new(big.Int).And(k, big.NewInt(3)).Int64())
	return n, rf
}

// machinPi is pi to prec bits: 16 atan(1/5) - 4 atan(1/239).
func machinPi(prec uint) *big.Float {
	atanInv := func(m int64) *big.Float {
		// atan(1/m) = sum (-1)^k / ((2k+1) m^(2k+1))
		sum := new(big.Float).SetPrec(prec)
		pow := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetInt64(m))
		m2 := new(big.Float).SetPrec(prec).SetInt64(m * m)
		eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec)-8)
		for k := int64(0); ; k++ {
			term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, term)
			} else {
				sum.Sub(sum, term)
			}
			if term.Cmp(eps) < 0 {
				return sum
			}
			pow.Quo(pow, m2)
		}
	}
	a := new(big.Float).SetPrec(prec).Mul(big.NewFloat(16), atanInv(5))
	b := new(big.Float).SetPrec(prec).Mul(big.NewFloat(4), atanInv(239))
	return a.Sub(a, b)
}

// logF is log(x): Go's math.Log on amd64 is wrong for denormals (log of
// 5e-324 is -709.09 there, not -744.44); they are scaled by 2^54 first.
func logF(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// log2F is log2(x). Go's math.Log2 adds the exponent to log(frac)/ln2,
// which cancels near 1 (log2(1+2^-50) came out 3e14 ulp off); here logF(x)
// times 1/ln2 in two parts (logScaled), a power of two exactly.
func log2F(x float64) float64 {
	if frac, exp := math.Frexp(x); frac == 0.5 {
		return float64(exp - 1)
	}
	if x > 0 && x < 0x1p-1022 { // denormals scaled first (the integer part exact)
		return log2F(x*0x1p54) - 54
	}
	return logScaled(logF(x), log2eHi, log2eLo)
}

// log10F is log10(x): logF(x) times 1/ln10 in two parts (Go's math.Log10
// is its Log2 times a rounded constant, off near 1 as that is and by an ulp
// at powers of ten: Log10(1000) = 2.9999999999999996); the powers of ten
// that are float64s give their exponent exactly.
func log10F(x float64) float64 {
	if x > 0 && x < 0x1p-1022 { // denormals: log2 (scaled first) times log10(2)
		return logScaled(log2F(x), log10of2Hi, log10of2Lo)
	}
	l := logScaled(logF(x), log10eHi, log10eLo)
	if k := math.Round(l); k >= 0 && k < float64(len(pow10F)) && x == pow10F[int(k)] {
		return k
	}
	return l
}

// log2eHi + log2eLo and log10eHi + log10eLo are 1/ln2 and 1/ln10 to 106
// bits (the second part the rounding error of the first).
const (
	log2eHi  = 1.4426950408889634
	log2eLo  = 2.0355273740931033e-17
	log10eHi = 0.43429448190325182
	log10eLo = 1.0983196502167651e-17
	// log10(2), for denormals
	log10of2Hi = 0.3010299956639812
	log10of2Lo = -2.8037281277851704e-18
)

// pow10F are the powers of ten float64 holds exactly.
var pow10F = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// logScaled is l (a logarithm) times c = hi + lo: l hi exactly as p + its
// FMA error, then p + (error + l lo); zeros, infinities and NaNs as l hi.
func logScaled(l, hi, lo float64) float64 {
	if l == 0 || l-l != 0 {
		return l * hi
	}
	p := l * hi
	return p + (math.FMA(l, hi, -p) + l*lo)
}

// asinF is arcsin(x): Go's math.Asin computes sqrt(1 - x*x) with 1 - x*x
// rounded twice (in error by up to 2^-53/(1-x^2) relative near |x| = 1);
// here 1 - x^2 is rounded once (FMA).
func asinF(x float64) float64 {
	a := math.Abs(x)
	if !(a <= 1) {
		return math.Asin(x) // NaN
	}
	if a < 0x1p-26 {
		return x
	}
	c := math.Sqrt(math.FMA(-a, a, 1))
	var r float64
	if a > 0.7 {
		r = math.Pi/2 - math.Atan(c/a)
	} else {
		r = math.Atan(a / c)
	}
	return math.Copysign(r, x)
}

// acosF is arccos(x): Go's math.Acos is pi/2 - math.Asin(x), which
// cancels near x = 1 (arccos(1 - 2^-52) 2.5e7 ulp off); here beyond |x| =
// 1/2 it is 2 arcsin(sqrt((1 - |x|)/2)) ((1 - |x|)/2 exact), or pi minus
// that below -1/2, and pi/2 - arcsin(x) (pi/2 in two parts) up to 1/2.
func acosF(x float64) float64 {
	a := math.Abs(x)
	if !(a <= 1) {
		return math.Acos(x) // NaN
	}
	if a <= 0.5 {
		return (math.Pi/2 - asinF(x)) + halfPiLo
	}
	w := 2 * asinF(math.Sqrt((1-a)*0.5))
	if x < 0 {
		return (math.Pi - w) + 2*halfPiLo
	}
	return w
}

// halfPiLo is pi/2 - math.Pi/2.
const halfPiLo = 6.123233995736766e-17

// pi/4 with its low 3 bits zero (j times it is exact for j <= 4), and the
// rest rounded (vmathgen.go).
var (
	quarterPiHi = math.Float64frombits(0x3fe921fb54442d18 &^ 7)
	quarterPiLo = math.Float64frombits(0x3c81a62633145c07)
)

// atan2F is arctan2(y, x) with the special values of C99 Annex F (those
// of Go's math.Atan2, except the sign of a zero quotient: Go's returns pi
// for y = -5e-324, x = -1e308), and for finite nonzero y and x the
// algorithm of the arctan2 kernel of vmathgen.go (both scaled by 1/4
// above 2^1022): n = min(|y|, |x|), m = max; u = n/m, or (n - m)/(n + m)
// beyond tan(pi/8) m; the angle j pi/4 + s arctan(u).
func atan2F(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x):
		return math.NaN()
	case y == 0 || math.IsInf(y, 0) || x == 0 || math.IsInf(x, 0):
		return math.Atan2(y, x)
	}
	a, b := math.Abs(y), math.Abs(x)
	n, m := min(a, b), max(a, b)
	if m > 0x1p1022 {
		n, m = n*0.25, m*0.25
	}
	big := n > 0.41421356237309503*m
	num, den := n, m
	if big {
		num, den = n-m, n+m
	}
	v := num / den
	swapped, neg := a > b, x < 0
	j := 0.0
	switch {
	case swapped:
		j = 2
	case neg:
		j = 4
	}
	if swapped != neg {
		v = -v
		if big {
			j--
		}
	} else if big {
		j++
	}
	z := v * v
	q := atanQ[len(atanQ)-1]
	for i := len(atanQ) - 2; i >= 0; i-- {
		q = math.FMA(q, z, atanQ[i])
	}
	lo := q * (v * z)
	lo = math.FMA(j, quarterPiLo, lo)
	lo += v
	return math.Copysign(j*quarterPiHi+lo, y)
}

// deg2radF and rad2degF are NumPy's deg2rad and rad2deg (npy_math's
// x*(π/180) and x*(180/π)), bit for bit: one product in x's own type by
// NumPy's constant of that type. For float64 those are π/180 and 180/π
// rounded to float64; for float32 π/180 rounded to float32, but 180/π is
// float32 180 divided by float32 π in float32 (57.295776, not 57.29578, the
// float32 nearest 180/π). float16 computes in float32 and rounds, which is
// NumPy's float16 result too.
func deg2radF[T float](x T) T {
	if v, ok := any(x).(float32); ok {
		return T(v * deg2rad32)
	}
	return T(float64(x) * (math.Pi / 180))
}

func rad2degF[T float](x T) T {
	if v, ok := any(x).(float32); ok {
		return T(v * rad2deg32)
	}
	return T(float64(x) * (180 / math.Pi))
}

var (
	deg2rad32 = float32(math.Pi / 180)
	rad2deg32 = func() float32 { a, b := float32(180), float32(math.Pi); return a / b }()
)

// logaddexpF is NumPy's logaddexp, log(e^x + e^y) without overflow: x + ln 2
// when x == y (so two infinities of one sign give that infinity), else the
// larger plus log1p(e^-|x-y|); NaN for a NaN operand.
func logaddexpF(x, y float64) float64 {
	if x == y {
		return x + math.Ln2
	}
	d := x - y
	switch {
	case d > 0:
		return x + math.Log1p(math.Exp(-d))
	case d <= 0:
		return y + math.Log1p(math.Exp(d))
	}
	return d // NaN
}

// logaddexp2F is NumPy's logaddexp2, log2(2^x + 2^y), as logaddexpF in base 2.
func logaddexp2F(x, y float64) float64 {
	if x == y {
		return x + 1
	}
	d := x - y
	switch {
	case d > 0:
		return x + math.Log1p(math.Exp2(-d))*math.Log2E
	case d <= 0:
		return y + math.Log1p(math.Exp2(d))*math.Log2E
	}
	return d // NaN
}

// heavisideF is NumPy's heaviside: 0 for x < 0, h0 at x == 0 (either zero),
// 1 for x > 0, NaN for a NaN x.
func heavisideF(x, h0 float64) float64 {
	switch {
	case x != x:
		return math.NaN()
	case x == 0:
		return h0
	case x < 0:
		return 0
	}
	return 1
}
