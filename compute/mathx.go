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

// powF is x**y. An integer exponent is computed in double-double
// arithmetic (each product with its rounding error, by FMA) and rounded
// once; a result or intermediate outside the normal range, and every other
// case, is math.Pow.
func powF(x, y float64) float64 {
	ay := math.Abs(y)
	if ay > 1<<53 || y != math.Trunc(y) || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || ay < 2 {
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

func sinF(x float64) float64 {
	if math.Abs(x) < trigThreshold || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Sin(x)
	}
	n, r := reduceHalfPi(x)
	return [4]float64{math.Sin(r), math.Cos(r), -math.Sin(r), -math.Cos(r)}[n]
}

func cosF(x float64) float64 {
	if math.Abs(x) < trigThreshold || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Cos(x)
	}
	n, r := reduceHalfPi(x)
	return [4]float64{math.Cos(r), -math.Sin(r), -math.Cos(r), math.Sin(r)}[n]
}

func tanF(x float64) float64 {
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
