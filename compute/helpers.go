package compute

import (
	"math"
	"unsafe"
)

type signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

type integer interface{ signed | unsigned }

type float interface{ ~float32 | ~float64 }

type number interface{ integer | float }

// boolean is how kernels see bool elements: one byte, 0 or 1.
type boolean interface{ ~uint8 }

var (
	binTable [numOps][numTypes][numForms]BinaryFunc
	unTable  [numOps][numTypes]UnaryFunc
)

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// b2u64 is b2u as a uint64 (a SETcc, no branch).
func b2u64(b bool) uint64 {
	var u uint64
	if b {
		u = 1
	}
	return u
}

func wrapVV[T, R any](f func(d []R, x, y []T)) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		f(unsafe.Slice((*R)(d), n), unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n))
	}
}

func wrapVS[T, R any](f func(d []R, x []T, y T)) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		f(unsafe.Slice((*R)(d), n), unsafe.Slice((*T)(x), n), *(*T)(y))
	}
}

func wrapSV[T, R any](f func(d []R, x T, y []T)) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		f(unsafe.Slice((*R)(d), n), *(*T)(x), unsafe.Slice((*T)(y), n))
	}
}

func wrapUnary[T, R any](f func(d []R, x []T)) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		f(unsafe.Slice((*R)(d), n), unsafe.Slice((*T)(x), n))
	}
}

// Integer division and modulo never panic: a zero divisor gives 0, and the
// most negative value divided by -1 wraps (Go's rule) to itself.

func floorDivS[T signed](x, y T) T {
	if y == 0 {
		return 0
	}
	q := x / y
	if r := x % y; r != 0 && (r < 0) != (y < 0) {
		q--
	}
	return q
}

func truncDivS[T signed](x, y T) T {
	if y == 0 {
		return 0
	}
	return x / y
}

func divU[T unsigned](x, y T) T {
	if y == 0 {
		return 0
	}
	return x / y
}

func floorModS[T signed](x, y T) T {
	if y == 0 {
		return 0
	}
	r := x % y
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

func truncModS[T signed](x, y T) T {
	if y == 0 {
		return 0
	}
	return x % y
}

func modU[T unsigned](x, y T) T {
	if y == 0 {
		return 0
	}
	return x % y
}

// floorModF is Python's float %: fmod, moved into the divisor's sign.
// fmodF is math.Mod (C's fmod: x - n*y with n = x/y truncated, exact,
// the sign of x), bit for bit, without math.Mod's loop over the exponent
// difference where the quotient is below 2^52: n is the truncated
// quotient of the rounded division, which is the true one or, where the
// division rounded up to an integer, one too large in magnitude (rounding
// never crosses an integer the other way); x - n*y is then exact in one
// fused multiply-add (the remainder is representable), and a result of
// the wrong sign means n was one too large. Anything else (an infinite or
// NaN operand, y = 0, a quotient of 2^52 or more) goes to math.Mod.
func fmodF(x, y float64) float64 {
	q := math.Trunc(x / y)
	if !(math.Abs(q) < 1<<52) || math.IsInf(y, 0) {
		return math.Mod(x, y)
	}
	r := math.FMA(-q, y, x)
	if r != 0 && (r < 0) != (x < 0) {
		q -= math.Copysign(1, q)
		r = math.FMA(-q, y, x)
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	return r
}

func floorModF[T float](x, y T) T {
	r := T(fmodF(float64(x), float64(y)))
	switch {
	case r == 0:
		r = T(math.Copysign(0, float64(y))) // Python: -4.0 % 2.0 is 0.0, 4.0 % -2.0 is -0.0
	case (r < 0) != (y < 0):
		r += y
	}
	return r
}

func powS[T signed](x, y T) T {
	if y < 0 {
		switch x {
		case 1:
			return 1
		case -1:
			if y%2 == 0 {
				return 1
			}
			return -1
		}
		return 0
	}
	return T(powU(uint64(x), uint64(y)))
}

func powU[T unsigned](x, y T) T {
	r := T(1)
	for y > 0 {
		if y&1 == 1 {
			r *= x
		}
		x *= x
		y >>= 1
	}
	return r
}

func preluS[T signed](x, y T) T {
	if x < 0 {
		return x * y
	}
	return x
}

func preluF[T float](x, y T) T {
	if x < 0 {
		return x * y
	}
	return x
}

func absS[T signed](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// floorDivF is NumPy's float floor division (npy_floor_divide, Python's
// float //): the quotient of the remainder-corrected dividend, floored, so
// that x == y*(x//y) + x%y as exactly as floats allow; x//0 is x/0 (±inf or
// NaN), and a zero quotient takes the sign of x/y. Each step rounds in T, as
// NumPy's float32 loop (npy_floor_dividef) computes in float32: the exact
// floor of a float32 quotient above 2^24 can differ from its (fmod is
// exact, (x - mod) / y rounds).
func floorDivF[T float](x, y T) T {
	if y == 0 {
		return x / y
	}
	mod := T(fmodF(float64(x), float64(y))) // exact, so representable in T
	div := (x - mod) / y
	if mod != 0 && (y < 0) != (mod < 0) {
		div -= 1
	}
	if div == 0 {
		return T(math.Copysign(0, float64(x/y)))
	}
	fl := T(math.Floor(float64(div)))
	if div-fl > 0.5 {
		fl++
	}
	return fl
}

// maxF and minF are NumPy's maximum and minimum of floats as its x86 loops
// compute them (maxps/maxss, minps/minss with a NaN fix-up, SIMD body and
// scalar tail alike): NaN if either operand is NaN, else the greater (the
// lesser), and the second operand where the two compare equal, so
// maximum(0.0, -0.0) is -0.0, as the AVX2 kernels give it.
func maxF[T float](x, y T) T {
	if x != x || x > y {
		return x
	}
	return y
}

func minF[T float](x, y T) T {
	if x != x || x < y {
		return x
	}
	return y
}

// fmaxF and fminF ignore a NaN operand (NumPy's fmax, fmin): the result is
// NaN only when both are; equal operands give the second, as maxF.
func fmaxF[T float](x, y T) T {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	}
	return maxF(x, y)
}

func fminF[T float](x, y T) T {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	}
	return minF(x, y)
}

// signS, signU and signF are NumPy's sign: -1, 0 or 1, and NaN for NaN.
func signS[T signed](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func signU[T unsigned](x T) T {
	if x > 0 {
		return 1
	}
	return 0
}

// signF is NumPy's sign: ±1 by the sign of x, +0 for either zero, x
// itself for NaN. It works on the bits without branches (random signs
// would mispredict every other element): the sign bit or'ed into 1.0,
// kept where x is not zero, replaced by x where x is NaN.
func signF[T float](x T) T {
	if unsafe.Sizeof(x) == 4 {
		u := math.Float32bits(float32(x))
		abs := u &^ (1 << 31)
		nonzero := uint32(int32(-abs) >> 31)       // all ones unless ±0
		nan := uint32(int32(0x7f800000-abs) >> 31) // all ones for NaN
		r := (u&(1<<31) | 0x3f800000) & nonzero
		return T(math.Float32frombits(r&^nan | u&nan))
	}
	u := math.Float64bits(float64(x))
	abs := u &^ (1 << 63)
	nonzero := uint64(int64(-abs) >> 63)
	nan := uint64(int64(0x7ff0000000000000-abs) >> 63)
	r := (u&(1<<63) | 0x3ff0000000000000) & nonzero
	return T(math.Float64frombits(r&^nan | u&nan))
}

// recipS and recipU are 1/x in integers (0 unless |x| is 1); 1/0 is 0, as
// every integer division by zero here.
func recipS[T signed](x T) T {
	if x == 0 {
		return 0
	}
	return 1 / x
}

func recipU[T unsigned](x T) T {
	if x == 0 {
		return 0
	}
	return 1 / x
}
