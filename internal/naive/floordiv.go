package naive

import "math"

// FloorDiv is Python's and NumPy's float64 floor division from its
// definition: the integer q with x = q*y + r, r the remainder with y's
// sign. x // 0 is x / 0, a NaN or infinite x gives NaN, a finite x over an
// infinite y gives 0 (same signs) or -1, and a zero quotient has the sign
// of x/y.
func FloorDiv(x, y float64) float64 {
	switch {
	case y == 0:
		return x / y
	case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0):
		return math.NaN()
	case math.IsInf(y, 0):
		if x == 0 || (x < 0) == (y < 0) {
			return math.Copysign(0, x/y)
		}
		return -1
	}
	r := math.Mod(x, y)
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	q := math.Round((x - r) / y)
	if q == 0 {
		return math.Copysign(0, x/y)
	}
	return q
}

// FloorDiv32 is NumPy's float32 (and float16, which computes in float32)
// floor division, npy_divmodf's quotient, step by step in float32 as
// NumPy's C computes it: the exact fmod, the quotient of the dividend less
// it (rounded to float32), one less when the remainder's sign differs from
// the divisor's, then floored and snapped up when the fraction exceeds one
// half. It is not FloorDiv rounded once: above 2^24 the rounded
// (x - mod) / y decides, and NumPy's results there differ from the exactly
// rounded quotient in the last place.
func FloorDiv32(x, y float32) float32 {
	if y == 0 {
		return x / y
	}
	mod := float32(math.Mod(float64(x), float64(y)))
	div := (x - mod) / y
	if mod != 0 && (y < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return float32(math.Copysign(0, float64(x/y)))
	}
	fl := float32(math.Floor(float64(div)))
	if div-fl > 0.5 {
		fl++
	}
	return fl
}
