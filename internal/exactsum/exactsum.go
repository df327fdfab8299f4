// Package exactsum is the exact float64 sum that stride0's tests use as the
// truth for reductions: the sum of any number of float64 values, in any
// order, rounded once to float64 (round to nearest, ties to even).
//
// Acc is a fixed-point superaccumulator (Kulisch's long accumulator, in the
// lazily normalized form of Neal's "small superaccumulator"): the exact sum
// is kept as an integer multiple of 2^-1074, the smallest subnormal, in
// int64 limbs of 32 bits each that span the whole float64 exponent range
// with room above for carries (68 limbs; an Acc holds only the window of
// them its values reach, and Value rounds from the full span). Add splits a value's 53-bit mantissa over the
// two or three limbs at its exponent, with no rounding and no carry; the 31
// spare bits of every limb absorb the carries of 2^30 additions before they
// are propagated. Value propagates them and rounds the integer once.
//
// It gives the same results as Shewchuk's partials (Python's math.fsum),
// which it replaced in the tests, bit for bit (exactsum_test.go compares
// them, and both with math/big), at a fixed cost per value: a few
// nanoseconds, where the partials cost a loop over a list that grows with
// the spread of the exponents.
//
// NaN and infinities follow IEEE addition in any order: NaN if any value is
// NaN or both infinities occur, otherwise the infinity that occurs. An exact
// finite sum beyond the float64 range rounds to ±Inf, as one rounding of it
// does (a float64 running sum could overflow earlier, or not at all). An
// exact zero is -0 when every value was -0, +0 otherwise (and for no values),
// as IEEE sums round. The zero Acc is an empty sum, ready to use; an Acc must
// not be copied after its first Add.
package exactsum

import (
	"math"
	"math/bits"
)

const (
	limbBits = 32
	limbMask = 1<<limbBits - 1
	// bit b of the fixed-point integer has weight 2^(b-1074). A finite
	// float64 is ±m·2^(p-1074) with a 53-bit m and 0 <= p <= 2045, so its
	// bits lie in 0..2097, in limbs 0..65; limbs 66 and 67 take the carries
	// (the top limb, signed, those of far more values than a test adds).
	nLimbs = 68
)

// flushEvery additions, the carries are propagated: each addition changes
// a limb by less than 2^32, and a normalized limb is in [0, 2^32), so 2^30
// additions keep every limb within ±2^63. (A variable for the test, which
// lowers it to exercise the propagation.)
var flushEvery = 1 << 30

// Acc is an exact running sum of float64 values.
type Acc struct {
	// limbs[j] is limb lo+j: the window of limbs that values have
	// touched, and one above them for carries (values of one lane have
	// exponents close together: a few limbs, not 68, and the tests' many
	// lanes stay in cache)
	limbs   []int64
	lo      int
	pending int  // additions since the carries were propagated
	n       int  // values added, any kind
	nonNeg0 bool // some value was not -0
	nan     bool
	posInf  bool
	negInf  bool
}

// Add adds x to the sum exactly.
func (a *Acc) Add(x float64) {
	a.n++
	b := math.Float64bits(x)
	if b != 1<<63 {
		a.nonNeg0 = true
	}
	exp := int(b>>52) & 0x7ff
	m := b & (1<<52 - 1)
	switch {
	case exp == 0x7ff:
		switch {
		case m != 0:
			a.nan = true
		case b>>63 != 0:
			a.negInf = true
		default:
			a.posInf = true
		}
		return
	case exp == 0:
		if m == 0 {
			return // ±0
		}
		exp = 1 // subnormal: m·2^-1074, the same scale as exp 1
	default:
		m |= 1 << 52
	}
	// x = ±m·2^(exp-1075) = ±m·2^(p-1074) with p = exp-1: limbs i..i+2
	p := exp - 1
	i, s := p/limbBits, uint(p%limbBits)
	if i < a.lo || i+3 >= a.lo+len(a.limbs) {
		a.grow(i)
	}
	lo := int64((m << s) & limbMask)
	rest := m >> (limbBits - s) // the bits of m<<s from 32 up (< 2^52)
	mid := int64(rest & limbMask)
	hi := int64(rest >> limbBits)
	l := a.limbs[i-a.lo : i-a.lo+3]
	if b>>63 != 0 {
		l[0] -= lo
		l[1] -= mid
		l[2] -= hi
	} else {
		l[0] += lo
		l[1] += mid
		l[2] += hi
	}
	a.pending++
	if a.pending >= flushEvery {
		normalize(a.limbs)
		a.pending = 0
	}
}

// grow widens the window to limbs i..i+3, with a margin.
func (a *Acc) grow(i int) {
	lo, hi := max(i-2, 0), min(i+6, nLimbs) // hi: one past the last limb
	if a.limbs == nil {
		a.limbs, a.lo = make([]int64, hi-lo), lo
		return
	}
	lo, hi = min(lo, a.lo), max(hi, a.lo+len(a.limbs))
	l := make([]int64, hi-lo)
	copy(l[a.lo-lo:], a.limbs)
	a.limbs, a.lo = l, lo
}

// normalize propagates the carries: afterwards every limb but the top one
// is in [0, 2^32) and the top one carries the sign.
func normalize(l []int64) {
	for i := 0; i < len(l)-1; i++ {
		c := l[i] >> limbBits // arithmetic shift: floor(l[i] / 2^32)
		l[i] -= c << limbBits
		l[i+1] += c
	}
}

// Value returns the sum rounded once to float64. The Acc stays usable.
func (a *Acc) Value() float64 {
	switch {
	case a.nan || a.posInf && a.negInf:
		return math.NaN()
	case a.posInf:
		return math.Inf(1)
	case a.negInf:
		return math.Inf(-1)
	}
	if a.limbs == nil {
		return a.zero()
	}
	var l [nLimbs]int64 // a copy, to negate
	copy(l[a.lo:], a.limbs)
	normalize(l[:])
	neg := l[nLimbs-1] < 0
	if neg {
		for i := range l {
			l[i] = -l[i]
		}
		normalize(l[:]) // the magnitude: every limb in [0, 2^32)
	}
	top := nLimbs - 1
	for top >= 0 && l[top] == 0 {
		top--
	}
	if top < 0 {
		return a.zero()
	}
	// the highest set bit B; the result's quantum is bit q = max(B-52, 0)
	// (bit 0 is 2^-1074, the subnormals' quantum)
	B := top*limbBits + bits.Len64(uint64(l[top])) - 1
	q := max(B-52, 0)
	bit := func(k int) uint64 { return uint64(l[k/limbBits]>>(k%limbBits)) & 1 }
	var mant uint64
	for k := B; k >= q; k-- {
		mant = mant<<1 | bit(k)
	}
	if q > 0 && bit(q-1) == 1 { // at least half a quantum below
		sticky := false
		r := q - 1 // the rounding bit; sticky: any bit below it
		if r%limbBits != 0 && uint64(l[r/limbBits])&(1<<(r%limbBits)-1) != 0 {
			sticky = true
		}
		for j := r/limbBits - 1; j >= 0 && !sticky; j-- {
			sticky = l[j] != 0
		}
		if sticky || mant&1 == 1 {
			mant++ // may reach 2^53: still exact in float64
		}
	}
	v := math.Ldexp(float64(mant), q-1074) // exact, or ±Inf beyond the range
	if neg {
		v = -v
	}
	return v
}

// zero is the sign of an exact zero sum.
func (a *Acc) zero() float64 {
	if a.n > 0 && !a.nonNeg0 {
		return math.Copysign(0, -1)
	}
	return 0
}

// Sum returns the exact sum of xs rounded once to float64.
func Sum(xs []float64) float64 {
	var a Acc
	for _, x := range xs {
		a.Add(x)
	}
	return a.Value()
}
