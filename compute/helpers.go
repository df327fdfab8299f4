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
func floorModF[T float](x, y T) T {
	r := T(math.Mod(float64(x), float64(y)))
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
