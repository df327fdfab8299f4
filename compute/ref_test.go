package compute_test

// Plain scalar Go references for every kernel, written from the definitions
// in the compute and expr documentation rather than from the kernels: integer
// results are computed exactly with math/big and then wrapped to the type's
// width, float32 results are computed in float64 and rounded once (which is
// the correctly rounded float32 result for +, -, *, / and sqrt), and float16
// conversions round to nearest, ties to even, subnormals included.

import (
	"math"
	"math/big"
	"sync"

	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/internal/naive"
)

type elem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

func isSigned(t compute.Type) bool   { return t >= compute.Int8 && t <= compute.Int64 }
func isUnsigned(t compute.Type) bool { return t >= compute.Uint8 && t <= compute.Uint64 }
func isInt(t compute.Type) bool      { return isSigned(t) || isUnsigned(t) }
func isFloat(t compute.Type) bool    { return t == compute.Float32 || t == compute.Float64 }

func bits(t compute.Type) uint { return uint(t.Size() * 8) }

var bigOne = big.NewInt(1)

// wrap reduces v modulo 2^n into the signed or unsigned range of an n-bit
// integer, returned as the int64 / uint64 bit pattern.
func wrap(v *big.Int, n uint, signed bool) uint64 {
	m := new(big.Int).Lsh(bigOne, n)
	r := new(big.Int).Mod(v, m) // 0 <= r < 2^n
	if signed && r.Bit(int(n-1)) == 1 {
		r.Sub(r, m)
		return uint64(r.Int64())
	}
	return r.Uint64()
}

// floorDiv is floor(x / y) for y != 0, derived from the Euclidean quotient
// (big.Int.DivMod: x = q*y + m with 0 <= m < |y|).
func floorDiv(x, y *big.Int) *big.Int {
	q, m := new(big.Int).DivMod(x, y, new(big.Int))
	if y.Sign() < 0 && m.Sign() != 0 {
		q.Sub(q, bigOne)
	}
	return q
}

// refInt computes op on integers x, y (exact values) and returns the wrapped
// n-bit result, or for comparisons the truth value.
func refInt(op compute.Op, x, y *big.Int, n uint, signed bool) (uint64, bool) {
	r := new(big.Int)
	w := func(v *big.Int) (uint64, bool) { return wrap(v, n, signed), false }
	switch op {
	case compute.Add:
		return w(r.Add(x, y))
	case compute.Sub:
		return w(r.Sub(x, y))
	case compute.Mul:
		return w(r.Mul(x, y))
	case compute.FloorDiv:
		if y.Sign() == 0 {
			return 0, false
		}
		return w(floorDiv(x, y))
	case compute.TruncDiv:
		if y.Sign() == 0 {
			return 0, false
		}
		return w(r.Quo(x, y))
	case compute.Remainder:
		if y.Sign() == 0 {
			return 0, false
		}
		return w(r.Sub(x, r.Mul(y, floorDiv(x, y))))
	case compute.Fmod:
		if y.Sign() == 0 {
			return 0, false
		}
		return w(r.Rem(x, y))
	case compute.Power:
		if y.Sign() < 0 {
			switch {
			case x.Cmp(bigOne) == 0:
				return 1, false
			case x.Cmp(big.NewInt(-1)) == 0:
				if y.Bit(0) == 0 {
					return 1, false
				}
				return w(big.NewInt(-1))
			}
			return 0, false
		}
		m := new(big.Int).Lsh(bigOne, n)
		xm := new(big.Int).Mod(x, m)
		return w(r.Exp(xm, y, m))
	case compute.Maximum, compute.Fmax:
		if x.Cmp(y) >= 0 {
			return w(x)
		}
		return w(y)
	case compute.BitwiseAnd:
		return w(r.And(x, y))
	case compute.BitwiseOr:
		return w(r.Or(x, y))
	case compute.BitwiseXor:
		return w(r.Xor(x, y))
	case compute.LeftShift:
		if y.Sign() < 0 || y.Cmp(big.NewInt(int64(n))) >= 0 {
			return 0, false
		}
		return w(r.Lsh(x, uint(y.Int64())))
	case compute.RightShift:
		if y.Sign() < 0 || y.Cmp(big.NewInt(int64(n))) >= 0 {
			if x.Sign() < 0 {
				return w(big.NewInt(-1))
			}
			return 0, false
		}
		return w(r.Rsh(x, uint(y.Int64())))
	case compute.Minimum, compute.Fmin:
		if x.Cmp(y) <= 0 {
			return w(x)
		}
		return w(y)
	case compute.SquaredDiff:
		d := new(big.Int).Sub(x, y)
		return w(r.Mul(d, d))
	case compute.PRelu:
		if x.Sign() < 0 {
			return w(r.Mul(x, y))
		}
		return w(x)
	case compute.Equal:
		return 0, x.Cmp(y) == 0
	case compute.NotEqual:
		return 0, x.Cmp(y) != 0
	case compute.Greater:
		return 0, x.Cmp(y) > 0
	case compute.GreaterEqual:
		return 0, x.Cmp(y) >= 0
	case compute.Less:
		return 0, x.Cmp(y) < 0
	case compute.LessEqual:
		return 0, x.Cmp(y) <= 0
	}
	panic("refInt: " + op.String())
}

// refFloat computes op on floats of the given type (x, y hold values of that
// type) and returns the result rounded to the type, or the truth value.
func refFloat(t compute.Type, op compute.Op, x, y float64) (float64, bool) {
	rnd := func(v float64) float64 {
		if t == compute.Float32 {
			return float64(float32(v))
		}
		return v
	}
	nan := math.IsNaN(x) || math.IsNaN(y)
	switch op {
	case compute.Add:
		return rnd(x + y), false
	case compute.Sub:
		return rnd(x - y), false
	case compute.Mul:
		return rnd(x * y), false
	case compute.Div:
		return rnd(x / y), false
	case compute.TruncDiv:
		return math.Trunc(rnd(x / y)), false
	case compute.FloorDiv:
		if t == compute.Float32 {
			return float64(naive.FloorDiv32(float32(x), float32(y))), false
		}
		return rnd(naive.FloorDiv(x, y)), false
	case compute.Fmax, compute.Fmin:
		switch {
		case math.IsNaN(x):
			return y, false
		case math.IsNaN(y):
			return x, false
		case op == compute.Fmax:
			return max(x, y), false // Go orders -0 below +0, as NumPy may
		}
		return min(x, y), false
	case compute.Arctan2:
		return rnd(math.Atan2(x, y)), false
	case compute.Hypot:
		return rnd(math.Hypot(x, y)), false
	case compute.Logaddexp, compute.Logaddexp2:
		return rnd(refLogaddexp(op == compute.Logaddexp2, x, y)), false
	case compute.Heaviside:
		switch {
		case math.IsNaN(x):
			return math.NaN(), false
		case x > 0:
			return 1, false
		case x < 0:
			return 0, false
		}
		return y, false
	case compute.FloatPower:
		return rnd(refPow(x, y)), false
	case compute.Copysign:
		return rnd(math.Copysign(x, y)), false
	case compute.Power:
		return rnd(refPow(x, y)), false
	case compute.Fmod:
		return rnd(math.Mod(x, y)), false
	case compute.Remainder:
		// Python's float %: fmod (exact), moved into the sign of y; a zero
		// remainder takes y's sign (-4.0 % 2.0 is 0.0).
		r := math.Mod(x, y)
		switch {
		case r == 0:
			r = math.Copysign(0, y)
		case (r < 0) != (y < 0):
			r = rnd(r + y)
		}
		return r, false
	case compute.Maximum:
		switch {
		case nan:
			return math.NaN(), false
		case x > y:
			return x, false
		}
		return y, false
	case compute.Minimum:
		switch {
		case nan:
			return math.NaN(), false
		case x < y:
			return x, false
		}
		return y, false
	case compute.SquaredDiff:
		d := rnd(x - y)
		return rnd(d * d), false
	case compute.PRelu:
		if x < 0 {
			return rnd(x * y), false
		}
		return x, false
	case compute.Equal:
		return 0, x == y
	case compute.NotEqual:
		return 0, x != y
	case compute.Greater:
		return 0, x > y
	case compute.GreaterEqual:
		return 0, x >= y
	case compute.Less:
		return 0, x < y
	case compute.LessEqual:
		return 0, x <= y
	}
	panic("refFloat: " + op.String())
}

// refBool computes op on bools (0 or 1).
func refBool(op compute.Op, x, y bool) bool {
	switch op {
	case compute.Maximum, compute.LogicalOr, compute.Add, compute.Fmax, compute.BitwiseOr:
		return x || y
	case compute.Minimum, compute.LogicalAnd, compute.Mul, compute.Fmin, compute.BitwiseAnd:
		return x && y
	case compute.LogicalXor, compute.NotEqual, compute.BitwiseXor:
		return x != y
	case compute.Equal:
		return x == y
	case compute.Greater:
		return x && !y
	case compute.GreaterEqual:
		return x || !y
	case compute.Less:
		return !x && y
	case compute.LessEqual:
		return !x || y
	}
	panic("refBool: " + op.String())
}

// bigOf returns the exact value of an integer element of type t.
func bigOf[T elem](t compute.Type, v T) *big.Int {
	if isSigned(t) {
		return big.NewInt(int64(v))
	}
	return new(big.Int).SetUint64(uint64(v))
}

// fromBits converts the wrapped bit pattern back to T.
func fromBits[T elem](t compute.Type, u uint64) T {
	if isSigned(t) {
		return T(int64(u))
	}
	return T(u)
}

// refBinary returns the expected result of x op y for elements of type t:
// the value (arithmetic ops) or the truth value (comparisons).
func refBinary[T elem](t compute.Type, op compute.Op, x, y T) (T, bool) {
	switch {
	case t == compute.Bool:
		r := refBool(op, x != 0, y != 0)
		if r {
			return 1, r
		}
		return 0, r
	case isInt(t):
		u, b := refInt(op, bigOf(t, x), bigOf(t, y), bits(t), isSigned(t))
		return fromBits[T](t, u), b
	}
	f, b := refFloat(t, op, float64(x), float64(y))
	return T(f), b
}

// refUnary returns op(x) for elements of type t.
func refUnary[T elem](t compute.Type, op compute.Op, x T) T {
	switch {
	case t == compute.Bool:
		switch op {
		case compute.LogicalNot, compute.Invert:
			return 1 - x
		case compute.Abs, compute.Floor, compute.Ceil, compute.Trunc:
			return x
		}
		panic("refUnary bool: " + op.String())
	case isInt(t):
		v := bigOf(t, x)
		switch op {
		case compute.Neg:
			v.Neg(v)
		case compute.Abs:
			v.Abs(v)
		case compute.Sign:
			v.SetInt64(int64(v.Sign()))
		case compute.Square:
			v.Mul(v, v)
		case compute.Reciprocal:
			if v.CmpAbs(bigOne) != 0 {
				v.SetInt64(0)
			}
		case compute.Floor, compute.Ceil, compute.Trunc, compute.Positive:
		case compute.Invert:
			v.Not(v)
		default:
			panic("refUnary int: " + op.String())
		}
		return fromBits[T](t, wrap(v, bits(t), isSigned(t)))
	}
	f := float64(x)
	var r float64
	switch op {
	case compute.Neg:
		return -x
	case compute.Abs:
		r = math.Abs(f)
	case compute.Sign:
		switch {
		case f > 0:
			r = 1
		case f < 0:
			r = -1
		case f == 0:
			r = 0
		default:
			r = f
		}
	case compute.Square:
		return x * x
	case compute.Reciprocal:
		return 1 / x
	case compute.Sqrt:
		r = math.Sqrt(f)
	case compute.Exp:
		r = math.Exp(f)
	case compute.Exp2:
		r = math.Exp2(f)
	case compute.Expm1:
		r = math.Expm1(f)
	case compute.Log:
		r = math.Log(f)
		if f > 0 && f < 0x1p-1022 { // Go's math.Log is wrong for denormals on amd64
			r = math.Log(f*0x1p54) - 54*math.Ln2
		}
	case compute.Log2, compute.Log10:
		// log(x) times 1/ln2 or 1/ln10 in two parts (Go's math.Log2 cancels
		// near 1, its Log10 is Log2 times a rounded constant), denormals
		// scaled; powers of two as math.Log2 gives them, exactly
		l := math.Log(f)
		if f > 0 && f < 0x1p-1022 {
			l = math.Log(f*0x1p54) - 54*math.Ln2
		}
		c, cl := 1.4426950408889634, 2.0355273740931033e-17
		if op == compute.Log10 {
			c, cl = 0.43429448190325182, 1.0983196502167651e-17
		}
		r = l * c
		if l != 0 && l-l == 0 {
			r += math.FMA(l, c, -r) + l*cl
		}
		if fr, _ := math.Frexp(f); fr == 0.5 && op == compute.Log2 {
			r = math.Log2(f)
		}
	case compute.Log1p:
		r = math.Log1p(f)
	case compute.Sin, compute.Cos, compute.Tan:
		r = refTrig(op, f)
	case compute.Arcsin:
		r = math.Asin(f)
	case compute.Arccos:
		r = refAcos(f)
	case compute.Arctan:
		r = math.Atan(f)
	case compute.Sinh:
		r = math.Sinh(f)
	case compute.Cosh:
		r = math.Cosh(f)
	case compute.Tanh:
		r = math.Tanh(f)
	case compute.Floor:
		r = math.Floor(f)
	case compute.Ceil:
		r = math.Ceil(f)
	case compute.Trunc:
		r = math.Trunc(f)
	case compute.Rint:
		r = math.RoundToEven(f)
	case compute.Positive:
		return x
	case compute.Fabs:
		r = math.Abs(f)
	case compute.Deg2rad: // NumPy's npy_deg2rad: x*(NPY_PI/180.0), in float32 x*(NPY_PIf/180.0f)
		if t == compute.Float32 {
			pi, d := float32(math.Pi), float32(180)
			return T(float32(f) * (pi / d))
		}
		r = f * 0.017453292519943295
	case compute.Rad2deg: // npy_rad2deg: x*(180.0/NPY_PI), in float32 x*(180.0f/NPY_PIf)
		if t == compute.Float32 {
			pi, d := float32(math.Pi), float32(180)
			return T(float32(f) * (d / pi))
		}
		r = f * 57.29577951308232
	case compute.Arcsinh, compute.Arccosh, compute.Arctanh, compute.Cbrt:
		r = refInverseHyperbolic(op, f)
	default:
		panic("refUnary float: " + op.String())
	}
	return T(r)
}

// f16ToFloat64 is the exact value of a half-precision bit pattern.
func f16ToFloat64(h uint16) float64 {
	s := 1.0
	if h&0x8000 != 0 {
		s = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return s * math.Ldexp(m, -24)
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return s * math.Inf(1)
	}
	return s * math.Ldexp(1024+m, e-25)
}

// float64ToF16 rounds v to the nearest half-precision value, ties to even:
// subnormals are kept, magnitudes from 65520 up become infinities.
func float64ToF16(v float64) uint16 {
	if math.IsNaN(v) {
		return 0x7e00
	}
	var sign uint16
	if math.Signbit(v) {
		sign, v = 0x8000, -v
	}
	switch {
	case v >= 65520:
		return sign | 0x7c00
	case v < math.Ldexp(1, -14): // subnormal: a multiple of 2^-24
		return sign | uint16(math.RoundToEven(math.Ldexp(v, 24))) // 1024 is the smallest normal
	}
	_, e := math.Frexp(v) // v = f * 2^e, 0.5 <= f < 1
	e--                   // v = g * 2^e, 1 <= g < 2
	m := math.RoundToEven(math.Ldexp(v, 10-e))
	if m == 2048 {
		m, e = 1024, e+1
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(m-1024)
}

// castRef is the expected conversion of one element, as exact values: from
// the source element (value, or NaN/Inf) to the destination. ok is false
// when Go leaves the result unspecified (a float out of the integer range or
// NaN converted to an integer), which tests then do not compare.
type castVal struct {
	i   *big.Int // integer destination
	f   float64  // float destination (float16: its exact value)
	b   bool     // bool destination
	ok  bool
	nan bool
}

// refCast converts the exact source value (an integer as *big.Int, or a
// float as float64) to type to.
func refCast(isrc *big.Int, fsrc float64, fromFloat bool, to compute.Type) castVal {
	switch {
	case to == compute.Bool:
		if fromFloat {
			return castVal{b: fsrc != 0 || math.IsNaN(fsrc), ok: true}
		}
		return castVal{b: isrc.Sign() != 0, ok: true}
	case isInt(to):
		if fromFloat {
			if math.IsNaN(fsrc) || math.IsInf(fsrc, 0) {
				return castVal{}
			}
			tr := math.Trunc(fsrc)
			v, _ := new(big.Float).SetFloat64(tr).Int(nil)
			lo, hi := intRange(to)
			if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
				return castVal{}
			}
			return castVal{i: v, ok: true}
		}
		return castVal{i: new(big.Int).SetUint64(wrap(isrc, bits(to), isSigned(to))), ok: true}
	}
	// float destination
	var v float64
	var nan bool
	if fromFloat {
		v, nan = fsrc, math.IsNaN(fsrc)
	} else {
		v = roundBig(new(big.Float).SetInt(isrc), compute.Float64)
		if to == compute.Float32 {
			v = roundBig(new(big.Float).SetInt(isrc), compute.Float32)
		}
	}
	if nan {
		return castVal{f: math.NaN(), ok: true, nan: true}
	}
	switch to {
	case compute.Float32:
		v = float64(float32(v)) // float64 -> float32: Go rounds to nearest even
	case compute.Float16:
		// one rounding of the value (as NumPy's astype), not two through
		// float32; integers beyond 2^53 are far beyond half's range anyway
		v = f16ToFloat64(float64ToF16(v))
	}
	return castVal{f: v, ok: true}
}

// roundBig rounds an exact value to float32 or float64, to nearest even.
func roundBig(x *big.Float, t compute.Type) float64 {
	if t == compute.Float32 {
		f, _ := x.Float32()
		return float64(f)
	}
	f, _ := x.Float64()
	return f
}

func intRange(t compute.Type) (lo, hi *big.Int) {
	n := bits(t)
	if isSigned(t) {
		hi = new(big.Int).Sub(new(big.Int).Lsh(bigOne, n-1), bigOne)
		return new(big.Int).Neg(new(big.Int).Lsh(bigOne, n-1)), hi
	}
	return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(bigOne, n), bigOne)
}

// refPow is x**y: for an integer exponent, the exact power in math/big
// rounded once (where the result is a normal float64); else math.Pow.
func refPow(x, y float64) float64 {
	if y != math.Trunc(y) || math.Abs(y) < 2 || math.Abs(y) > 1024 || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		if x > 0 && !math.IsInf(x, 0) && y != 0 && y != 1 && !math.IsInf(y, 0) && !math.IsNaN(y) {
			// exp(y log x) in 160 bits, rounded once (math.Pow is up to
			// ~30 ulp off for large bases and fractional exponents)
			r, _ := bigExp(new(big.Float).SetPrec(bprec).Mul(bigLog(x), bnew(y))).Float64()
			if a := math.Abs(r); a >= 0x1p-1022 && !math.IsInf(r, 0) {
				return r
			}
		}
		return math.Pow(x, y)
	}
	n := int(math.Abs(y))
	prec := uint(53*n + 128)
	p := new(big.Float).SetPrec(prec).SetFloat64(1)
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	for range n {
		p.Mul(p, bx)
	}
	if y < 0 {
		p.Quo(new(big.Float).SetPrec(prec).SetFloat64(1), p)
	}
	r, _ := p.Float64()
	if a := math.Abs(r); a < 0x1p-1022 || math.IsInf(r, 0) {
		return math.Pow(x, y)
	}
	return r
}

// refTrig is sin, cos or tan; an argument of 2^29 or more is reduced
// modulo pi/2 in math/big with pi from the Gauss-Legendre iteration (the
// kernels use Machin's formula).
func refTrig(op compute.Op, x float64) float64 {
	f := map[compute.Op]func(float64) float64{compute.Sin: math.Sin, compute.Cos: math.Cos, compute.Tan: math.Tan}[op]
	if math.Abs(x) < 1<<29 || math.IsInf(x, 0) || math.IsNaN(x) {
		return f(x)
	}
	const prec = 1400
	pi := gaussLegendrePi(prec)
	half := new(big.Float).SetPrec(prec).Quo(pi, big.NewFloat(2))
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	q := new(big.Float).SetPrec(prec).Quo(bx, half)
	k, _ := q.Int(nil) // truncated; r in (-pi/2, pi/2)
	r := new(big.Float).SetPrec(prec).Mul(new(big.Float).SetPrec(prec).SetInt(k), half)
	r.Sub(bx, r)
	rf, _ := r.Float64()
	n := new(big.Int).Mod(k, big.NewInt(4)).Int64()
	s, c := math.Sin(rf), math.Cos(rf)
	sin := [4]float64{s, c, -s, -c}[n]
	cos := [4]float64{c, -s, -c, s}[n]
	switch op {
	case compute.Sin:
		return sin
	case compute.Cos:
		return cos
	}
	if n%2 == 1 {
		return -1 / math.Tan(rf)
	}
	return math.Tan(rf)
}

var (
	glPiOnce sync.Once
	glPi     *big.Float
)

func gaussLegendrePi(prec uint) *big.Float {
	glPiOnce.Do(func() {
		one := new(big.Float).SetPrec(prec).SetFloat64(1)
		a := new(big.Float).SetPrec(prec).SetFloat64(1)
		b := new(big.Float).SetPrec(prec).Quo(one, new(big.Float).SetPrec(prec).Sqrt(big.NewFloat(2)))
		t := new(big.Float).SetPrec(prec).SetFloat64(0.25)
		p := new(big.Float).SetPrec(prec).SetFloat64(1)
		for range 12 {
			an := new(big.Float).SetPrec(prec).Add(a, b)
			an.Quo(an, big.NewFloat(2))
			bn := new(big.Float).SetPrec(prec).Mul(a, b)
			bn.Sqrt(bn)
			d := new(big.Float).SetPrec(prec).Sub(a, an)
			d.Mul(d, d)
			d.Mul(d, p)
			t.Sub(t, d)
			p.Mul(p, big.NewFloat(2))
			a, b = an, bn
		}
		s := new(big.Float).SetPrec(prec).Add(a, b)
		s.Mul(s, s)
		glPi = s.Quo(s, new(big.Float).SetPrec(prec).Mul(t, big.NewFloat(4)))
	})
	return glPi
}

// refInverseHyperbolic computes arcsinh, arccosh, arctanh and cbrt by
// other formulas than the kernels' (Go's math.Asinh...): logarithms of
// expressions written without cancellation, and a cube root from Pow
// refined by a Newton step. Within 2 float64 ulps of the exact value
// (nearFloat's tolerance) away from overflow.
func refInverseHyperbolic(op compute.Op, f float64) float64 {
	if math.IsNaN(f) {
		return f
	}
	a := math.Abs(f)
	switch op {
	case compute.Arcsinh:
		var r float64
		switch {
		case math.IsInf(f, 0) || a < 0x1p-28:
			return f
		case a > 0x1p28:
			r = math.Log(a) + math.Ln2
		default: // a + sqrt(a^2+1) - 1 = a + a^2/(1 + sqrt(a^2+1))
			r = math.Log1p(a + a*a/(1+math.Sqrt(1+a*a)))
		}
		return math.Copysign(r, f)
	case compute.Arccosh:
		switch {
		case f < 1:
			return math.NaN()
		case math.IsInf(f, 1):
			return f
		case f > 0x1p28:
			return math.Log(f) + math.Ln2
		}
		t := f - 1 // exact (Sterbenz) for f < 2; f + sqrt(f^2-1) - 1 = t + sqrt(t(t+2))
		return math.Log1p(t + math.Sqrt(t*(t+2)))
	case compute.Arctanh:
		switch {
		case a > 1:
			return math.NaN()
		case a == 1:
			return math.Copysign(math.Inf(1), f)
		case a < 0x1p-28:
			return f
		}
		return math.Copysign(0.5*math.Log1p(2*a/(1-a)), f)
	case compute.Cbrt:
		if a == 0 || math.IsInf(f, 0) {
			return f
		}
		if a < 0x1p-900 || a > 0x1p900 { // scale by a cube so that r^3 stays in range
			s := 999.0
			if a > 1 {
				s = -s
			}
			return refInverseHyperbolic(op, math.Ldexp(f, int(s))) * math.Ldexp(1, -int(s)/3)
		}
		r := math.Pow(a, 1.0/3)
		r -= (r*r*r - a) / (3 * r * r)
		return math.Copysign(r, f)
	}
	panic("refInverseHyperbolic: " + op.String())
}

// refLogaddexp is log(e^x + e^y) (base 2: log2(2^x + 2^y)) written from the
// larger operand m as m + log1p(e^(min-m)), not as the kernels' branches
// on the sign of x - y (a -Inf min adds log1p(0) = +0: -0 becomes +0, as
// NumPy's).
func refLogaddexp(base2 bool, x, y float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	m, n := max(x, y), min(x, y)
	if math.IsInf(m, 0) && m == n { // both the same infinity
		return m
	}
	if math.IsInf(m, 1) {
		return m
	}
	if base2 { // NumPy's log2(1+v): log2(e)·log1p(v)
		return m + math.Log2E*math.Log1p(math.Exp2(n-m))
	}
	return m + math.Log1p(math.Exp(n-m))
}

// refAcos is arccos(x) as 2 arctan(sqrt((1 - x)/(1 + x))), a formula of
// its own (Go's math.Acos cancels near 1).
func refAcos(x float64) float64 {
	if !(math.Abs(x) <= 1) {
		return math.Acos(x)
	}
	return 2 * math.Atan(math.Sqrt((1-x)/(1+x)))
}
