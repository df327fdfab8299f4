// Package half converts IEEE 754 half-precision numbers exactly: every half
// to its float64 value (subnormals included), and any float64 to the nearest
// half, ties to even, as NumPy does. Arrow's float16 package truncates and
// flushes subnormals, so stride0 uses this package wherever it converts.
package half

import "math"

// ToFloat64 returns the exact value of the IEEE 754 half-precision number with
// bits h: subnormals included (arrow's float16.Num.Float32 misreads them), NaN
// payloads kept in the top mantissa bits so that FromFloat64 gives them back.
func ToFloat64(h uint16) float64 {
	sign := uint64(h&0x8000) << 48
	exp := int(h>>10) & 0x1f
	m := uint64(h & 0x3ff)
	switch exp {
	case 0: // zero or subnormal: m * 2^-24
		return math.Float64frombits(sign | math.Float64bits(math.Ldexp(float64(m), -24)))
	case 0x1f: // Inf or NaN
		return math.Float64frombits(sign | 0x7ff<<52 | m<<42)
	}
	return math.Float64frombits(sign | math.Float64bits(math.Ldexp(float64(1024+m), exp-25)))
}

// FromFloat64 rounds f to the nearest half-precision number, ties to even (as
// NumPy does; arrow's float16.New truncates and flushes subnormals to zero).
// Magnitudes that round past the largest finite half become infinities; NaN
// stays NaN with the top bits of its payload.
func FromFloat64(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	if exp == 0x7ff {
		if mant == 0 {
			return sign | 0x7c00
		}
		p := uint16(mant >> 42)
		if p == 0 {
			p = 0x200 // payload only in the dropped bits: keep it a NaN
		}
		return sign | 0x7c00 | p
	}
	e := exp - 1023
	switch {
	case e > 15:
		return sign | 0x7c00
	case e >= -14: // normal half (rounding may carry into the exponent, up to Inf)
		m := mant >> 42
		rem := mant & (1<<42 - 1)
		if rem > 1<<41 || (rem == 1<<41 && m&1 == 1) {
			m++
		}
		return sign | uint16(uint64(e+15)<<10+m)
	case e < -25: // below half the smallest subnormal (f64 subnormals included)
		return sign
	}
	// Subnormal half: the value in units of 2^-24 is full * 2^(e-28).
	full := mant | 1<<52
	s := uint(28 - e) // 43..53
	m := full >> s
	rem := full & (1<<s - 1)
	half := uint64(1) << (s - 1)
	if rem > half || (rem == half && m&1 == 1) {
		m++
	}
	return sign | uint16(m)
}
