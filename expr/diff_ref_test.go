package expr_test

// The reference expression evaluator of the differential tests. A ref is a
// test-side description of an expression, built next to the expr.Node it
// stands for; eval computes every output element from the definitions:
//
//   - broadcasting: the output shape and one AxisMap per operand come from
//     the rule functions of package broadcast; out[C] = arg[p(C)], where input
//     axis i reads C[m[i]], or 0 for a dim of 1 or a dropped axis. Nothing
//     of view's or expr's stride logic is used, and views are re-derived
//     from their definitions (transpose, slice, broadcast) over the values of
//     their base array;
//   - elementwise semantics per op and dtype as expr's doc comments state
//     them (floor division for Div, x/0 = 0 for integers, FloorMod with the
//     sign of the divisor, Mod with the sign of the dividend, NumPy promotion
//     through expr.Promote, bool + as or and * as and, comparisons give bool,
//     casts follow Go's conversions (to float16: one rounding to nearest
//     even, as NumPy's astype), float16 ops are computed in float32 and
//     rounded to half precision after every op);
//   - validity: an element is valid where every broadcast operand is valid,
//     and null slots hold 0; reductions skip null elements (they count as
//     the identity, and ReduceMean divides by the number of valid elements)
//     and give results without nulls;
//   - reductions take NumPy's result dtypes, ReduceTo and ReduceAxes sum in
//     the operand's dtype, and ReduceMean is the sum divided by the count.
//
// Every element of a result carries a flag: exact (the engine must produce
// these bits, up to NaN payloads and the sign of zero), approx (a float
// reduction whose result depends on the summation order: the engine must
// be within tol of it) or unspecified (Go leaves the value of an out-of-range
// float-to-integer conversion unspecified, and anything computed from an
// approx or unspecified value is not compared either).

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/naive"
)

// element flags
const (
	fExact  uint8 = 0
	fApprox uint8 = 1
	fAny    uint8 = 2 // unspecified: not compared
)

// refTensor is a reference value: canonical bits per element in row-major
// order (bool 0/1; signed integers sign-extended; unsigned zero-extended;
// float16, float32, float64 their IEEE bits), validity and flags.
type refTensor struct {
	dt    array.DType
	shape []int
	v     []uint64
	valid []bool    // nil: all valid
	flag  []uint8   // nil: all exact
	tol   []float64 // absolute tolerance of approx elements (nil if none)
}

func newTensor(dt array.DType, shape []int) *refTensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return &refTensor{dt: dt, shape: slices.Clone(shape), v: make([]uint64, n)}
}

func (t *refTensor) numel() int { return len(t.v) }

func (t *refTensor) isValid(i int) bool { return t.valid == nil || t.valid[i] }

func (t *refTensor) flagAt(i int) uint8 {
	if t.flag == nil {
		return fExact
	}
	return t.flag[i]
}

func (t *refTensor) setFlag(i int, f uint8) {
	if f == fExact && t.flag == nil {
		return
	}
	if t.flag == nil {
		t.flag = make([]uint8, len(t.v))
	}
	t.flag[i] = f
}

func (t *refTensor) setValid(i int, ok bool) {
	if ok && t.valid == nil {
		return
	}
	if t.valid == nil {
		t.valid = make([]bool, len(t.v))
		for k := range t.valid {
			t.valid[k] = true
		}
	}
	t.valid[i] = ok
}

func (t *refTensor) setTol(i int, tol float64) {
	if t.tol == nil {
		t.tol = make([]float64, len(t.v))
	}
	t.tol[i] = tol
}

// flat is the row-major index of coordinate c in shape.
func flatIndex(shape, c []int) int {
	k := 0
	for i, x := range c {
		k = k*shape[i] + x
	}
	return k
}

// gather returns out[C] = t[src(C)] over shape, validity and flags included.
func (t *refTensor) gather(shape []int, src func(c []int) []int) *refTensor {
	o := newTensor(t.dt, shape)
	k := 0
	naive.ForEach(shape, func(c []int) bool {
		j := flatIndex(t.shape, src(c))
		o.v[k] = t.v[j]
		o.setValid(k, t.isValid(j))
		o.setFlag(k, t.flagAt(j))
		if t.tol != nil && t.tol[j] != 0 {
			o.setTol(k, t.tol[j])
		}
		k++
		return true
	})
	return o
}

// broadcastTo materializes t broadcast to out through the axis map m.
func (t *refTensor) broadcastTo(out []int, m broadcast.AxisMap) *refTensor {
	p := make([]int, len(t.shape))
	return t.gather(out, func(c []int) []int {
		for i, o := range m {
			if o < 0 || t.shape[i] == 1 {
				p[i] = 0
			} else {
				p[i] = c[o]
			}
		}
		return p
	})
}

// ---- element values ----

func isFloatDT(dt array.DType) bool { return dt.IsFloat() }

// fval is the exact value of a float (or the converted value of an
// integer) element.
func fval(dt array.DType, u uint64) float64 {
	switch dt {
	case array.Float16:
		return f16ToFloat64(uint16(u))
	case array.Float32:
		return float64(math.Float32frombits(uint32(u)))
	case array.Float64:
		return math.Float64frombits(u)
	case array.Int8, array.Int16, array.Int32, array.Int64:
		return float64(int64(u))
	}
	return float64(u)
}

// wrapInt reduces the 64-bit pattern u to dt's width (sign-extending signed
// types, masking unsigned ones and bool to 0/1).
func wrapInt(dt array.DType, u uint64) uint64 {
	switch dt {
	case array.Bool:
		if u != 0 {
			return 1
		}
		return 0
	case array.Int8:
		return uint64(int64(int8(u)))
	case array.Int16:
		return uint64(int64(int16(u)))
	case array.Int32:
		return uint64(int64(int32(u)))
	case array.Uint8:
		return uint64(uint8(u))
	case array.Uint16:
		return uint64(uint16(u))
	case array.Uint32:
		return uint64(uint32(u))
	}
	return u
}

// kernelType is the type a float op computes in: float16 in float32.
func kernelType(dt array.DType) array.DType {
	if dt == array.Float16 {
		return array.Float32
	}
	return dt
}

// roundKT rounds an exact or float64 value to kt (float32 or float64).
func roundKT(kt array.DType, f float64) float64 {
	if kt == array.Float32 {
		return float64(float32(f))
	}
	return f
}

// fbits stores a float value as dt's bits, rounding once to nearest even
// (callers computing half-precision ops pass the float32 result).
func fbits(dt array.DType, f float64) uint64 {
	switch dt {
	case array.Float16:
		return uint64(float64ToF16(f))
	case array.Float32:
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// floatFor is the float dtype that holds every value of d (expr's rule for
// sqrt, exp, log and MeanOf).
func floatFor(d array.DType) array.DType {
	switch {
	case d.IsFloat():
		return d
	case d.Size() <= 1:
		return array.Float16
	case d.Size() == 2:
		return array.Float32
	}
	return array.Float64
}

// castElem converts one element; ok is false when Go leaves the result
// unspecified (NaN, an infinity or an out-of-range value to an integer).
func castElem(from, to array.DType, u uint64) (uint64, bool) {
	if from == to {
		return u, true
	}
	if !isFloatDT(from) {
		// bool and integers: the exact value is int64(u) (signed, bool) or u
		signed := from.IsSigned()
		switch {
		case to == array.Bool:
			return wrapInt(array.Bool, u), true
		case to.IsInteger():
			return wrapInt(to, u), true
		}
		// Go's conversion to float64 or float32; to float16 one rounding
		// of the value (beyond 2^53, where float64 rounds, half is +-Inf)
		var f float64
		switch {
		case signed && to == array.Float32:
			f = float64(float32(int64(u)))
		case signed:
			f = float64(int64(u))
		case to == array.Float32:
			f = float64(float32(u))
		default:
			f = float64(u)
		}
		return fbits(to, f), true
	}
	f := fval(from, u)
	switch {
	case to == array.Bool:
		if f != 0 || math.IsNaN(f) {
			return 1, true
		}
		return 0, true
	case to.IsInteger():
		if from == array.Float16 {
			f = float64(float32(f))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		t := math.Trunc(f)
		lo, hi := intLimits(to)
		if t < lo || t >= hi {
			return 0, false
		}
		if to.IsSigned() {
			return wrapInt(to, uint64(int64(t))), true
		}
		return uint64(t), true
	case to == array.Float64:
		return math.Float64bits(f), true
	}
	return fbits(to, f), true // float32 (Go rounds), float16 (rounded once)
}

// intLimits returns the range [lo, hi) of an integer dtype as floats
// (powers of two, exact): every truncated float in it converts exactly.
func intLimits(dt array.DType) (float64, float64) {
	n := dt.Size() * 8
	if dt.IsSigned() {
		return -math.Ldexp(1, n-1), math.Ldexp(1, n-1)
	}
	return 0, math.Ldexp(1, n)
}

// binElem computes op on two elements already converted to ct (the
// promoted dtype; bool for logical ops). Comparisons return 0/1.
func binElem(op compute.Op, ct array.DType, x, y uint64) uint64 {
	b := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	switch {
	case ct == array.Bool:
		xb, yb := x != 0, y != 0
		switch op {
		case compute.Add, compute.Maximum, compute.LogicalOr, compute.Fmax, compute.BitwiseOr:
			return b(xb || yb)
		case compute.Mul, compute.Minimum, compute.LogicalAnd, compute.Fmin, compute.BitwiseAnd:
			return b(xb && yb)
		case compute.LogicalXor, compute.NotEqual, compute.BitwiseXor:
			return b(xb != yb)
		case compute.Equal:
			return b(xb == yb)
		case compute.Greater:
			return b(xb && !yb)
		case compute.GreaterEqual:
			return b(xb || !yb)
		case compute.Less:
			return b(!xb && yb)
		case compute.LessEqual:
			return b(!xb || yb)
		}
	case ct.IsSigned():
		xi, yi := int64(x), int64(y)
		var r int64
		switch op {
		case compute.Add:
			r = xi + yi
		case compute.Sub:
			r = xi - yi
		case compute.Mul:
			r = xi * yi
		case compute.FloorDiv: // x/0 = 0
			if yi != 0 {
				r = xi / yi
				if xi%yi != 0 && (xi < 0) != (yi < 0) {
					r--
				}
			}
		case compute.TruncDiv:
			if yi != 0 {
				r = xi / yi
			}
		case compute.Remainder: // sign of the divisor
			if yi != 0 {
				r = xi % yi
				if r != 0 && (r < 0) != (yi < 0) {
					r += yi
				}
			}
		case compute.Fmod: // sign of the dividend
			if yi != 0 {
				r = xi % yi
			}
		case compute.Power:
			switch {
			case yi >= 0:
				r = int64(upow(uint64(xi), uint64(yi)))
			case xi == 1:
				r = 1
			case xi == -1 && yi%2 == 0:
				r = 1
			case xi == -1:
				r = -1
			}
		case compute.Maximum, compute.Fmax:
			r = max(xi, yi)
		case compute.Minimum, compute.Fmin:
			r = min(xi, yi)
		case compute.BitwiseAnd:
			r = xi & yi
		case compute.BitwiseOr:
			r = xi | yi
		case compute.BitwiseXor:
			r = xi ^ yi
		case compute.LeftShift: // by the width or more, or negative: 0
			if yi >= 0 && yi < int64(ct.Size()*8) {
				r = xi << yi
			}
		case compute.RightShift: // sign fill past the width
			switch {
			case yi >= 0 && yi < int64(ct.Size()*8):
				r = xi >> yi
			case xi < 0:
				r = -1
			}
		case compute.SquaredDiff:
			r = (xi - yi) * (xi - yi)
		case compute.PRelu:
			r = xi
			if xi < 0 {
				r = xi * yi
			}
		case compute.Equal:
			return b(xi == yi)
		case compute.NotEqual:
			return b(xi != yi)
		case compute.Greater:
			return b(xi > yi)
		case compute.GreaterEqual:
			return b(xi >= yi)
		case compute.Less:
			return b(xi < yi)
		case compute.LessEqual:
			return b(xi <= yi)
		default:
			panic("binElem signed: " + op.String())
		}
		return wrapInt(ct, uint64(r))
	case ct.IsUnsigned():
		var r uint64
		switch op {
		case compute.Add:
			r = x + y
		case compute.Sub:
			r = x - y
		case compute.Mul:
			r = x * y
		case compute.FloorDiv, compute.TruncDiv:
			if y != 0 {
				r = x / y
			}
		case compute.Remainder, compute.Fmod:
			if y != 0 {
				r = x % y
			}
		case compute.Power:
			r = upow(x, y)
		case compute.Maximum, compute.Fmax:
			r = max(x, y)
		case compute.Minimum, compute.Fmin:
			r = min(x, y)
		case compute.BitwiseAnd:
			r = x & y
		case compute.BitwiseOr:
			r = x | y
		case compute.BitwiseXor:
			r = x ^ y
		case compute.LeftShift:
			if y < uint64(ct.Size()*8) {
				r = x << y
			}
		case compute.RightShift:
			if y < uint64(ct.Size()*8) {
				r = x >> y
			}
		case compute.SquaredDiff:
			r = (x - y) * (x - y)
		case compute.PRelu:
			r = x
		case compute.Equal:
			return b(x == y)
		case compute.NotEqual:
			return b(x != y)
		case compute.Greater:
			return b(x > y)
		case compute.GreaterEqual:
			return b(x >= y)
		case compute.Less:
			return b(x < y)
		case compute.LessEqual:
			return b(x <= y)
		default:
			panic("binElem unsigned: " + op.String())
		}
		return wrapInt(ct, r)
	}
	// floats: exact operands, each op rounded once to the kernel type
	kt := kernelType(ct)
	xf, yf := fval(ct, x), fval(ct, y)
	rk := func(f float64) float64 { return roundKT(kt, f) }
	var r float64
	switch op {
	case compute.Add:
		r = rk(xf + yf)
	case compute.Sub:
		r = rk(xf - yf)
	case compute.Mul:
		r = rk(xf * yf)
	case compute.Div:
		r = rk(xf / yf)
	case compute.TruncDiv:
		r = math.Trunc(rk(xf / yf))
	case compute.FloorDiv:
		if kt == array.Float32 {
			r = float64(naive.FloorDiv32(float32(xf), float32(yf)))
		} else {
			r = naive.FloorDiv(xf, yf)
		}
	case compute.Fmax, compute.Fmin:
		switch {
		case math.IsNaN(xf):
			r = yf
		case math.IsNaN(yf):
			r = xf
		case op == compute.Fmax:
			r = max(xf, yf)
		default:
			r = min(xf, yf)
		}
	case compute.Arctan2:
		r = rk(math.Atan2(xf, yf))
	case compute.Hypot:
		r = rk(math.Hypot(xf, yf))
	case compute.Logaddexp, compute.Logaddexp2:
		m, n := max(xf, yf), min(xf, yf) // max, min propagate NaN
		switch {
		case math.IsNaN(m) || math.IsInf(m, 1) || (math.IsInf(m, -1) && m == n):
			r = m
		case op == compute.Logaddexp:
			r = rk(m + math.Log1p(math.Exp(n-m)))
		default:
			r = rk(m + math.Log2E*math.Log1p(math.Exp2(n-m)))
		}
	case compute.Heaviside:
		switch {
		case math.IsNaN(xf):
			r = math.NaN()
		case xf == 0:
			r = yf
		case xf < 0:
			r = 0
		default:
			r = 1
		}
	case compute.FloatPower:
		r = rk(bigPow(xf, yf))
	case compute.Copysign:
		r = math.Copysign(xf, yf)
	case compute.Power:
		r = rk(bigPow(xf, yf))
	case compute.Fmod:
		r = math.Mod(xf, yf)
	case compute.Remainder:
		// Python's %: fmod (exact), moved into the divisor's sign; a zero
		// result takes the divisor's sign.
		r = math.Mod(xf, yf)
		switch {
		case r != 0 && (r < 0) != (yf < 0):
			r = rk(r + yf)
		case r == 0:
			r = math.Copysign(0, yf)
		}
	case compute.Maximum:
		r = max(xf, yf) // NaN propagates; max(-0, +0) = +0
	case compute.Minimum:
		r = min(xf, yf)
	case compute.SquaredDiff:
		d := rk(xf - yf)
		r = rk(d * d)
	case compute.PRelu:
		r = xf
		if xf < 0 {
			r = rk(xf * yf)
		}
	case compute.Equal:
		return b(xf == yf)
	case compute.NotEqual:
		return b(xf != yf)
	case compute.Greater:
		return b(xf > yf)
	case compute.GreaterEqual:
		return b(xf >= yf)
	case compute.Less:
		return b(xf < yf)
	case compute.LessEqual:
		return b(xf <= yf)
	default:
		panic("binElem float: " + op.String())
	}
	return fbits(ct, r)
}

// upow is x**y modulo 2^64 by square and multiply.
func upow(x, y uint64) uint64 {
	r := uint64(1)
	for ; y > 0; y >>= 1 {
		if y&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// unElem computes a unary op on an element of dtype ct (the op's compute
// dtype, refTypes); ops with a bool result return 0/1.
func unElem(op compute.Op, ct array.DType, x uint64) uint64 {
	b := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case compute.LogicalNot:
		return 1 - wrapInt(array.Bool, x)
	case compute.IsNaN, compute.IsInf, compute.IsFinite, compute.Signbit:
		if !ct.IsFloat() {
			return b(op == compute.IsFinite)
		}
		f := fval(ct, x)
		switch op {
		case compute.IsNaN:
			return b(math.IsNaN(f))
		case compute.IsInf:
			return b(math.IsInf(f, 0))
		case compute.Signbit:
			return b(math.Signbit(f))
		}
		return b(!math.IsNaN(f) && !math.IsInf(f, 0))
	}
	switch {
	case ct == array.Bool: // abs, floor, ceil, trunc keep it; invert is not
		if op == compute.Invert {
			return 1 - x
		}
		return x
	case ct.IsSigned():
		xi := int64(x)
		var r int64
		switch op {
		case compute.Neg:
			r = -xi
		case compute.Abs:
			r = xi
			if xi < 0 {
				r = -xi
			}
		case compute.Sign:
			r = int64(cmpSign(xi))
		case compute.Square:
			r = xi * xi
		case compute.Reciprocal:
			if xi == 1 || xi == -1 {
				r = xi
			}
		case compute.Floor, compute.Ceil, compute.Trunc, compute.Positive:
			r = xi
		case compute.Invert:
			r = ^xi
		default:
			panic("unElem signed: " + op.String())
		}
		return wrapInt(ct, uint64(r))
	case ct.IsUnsigned():
		var r uint64
		switch op {
		case compute.Neg:
			r = -x
		case compute.Abs, compute.Floor, compute.Ceil, compute.Trunc, compute.Positive:
			r = x
		case compute.Sign:
			r = b(x != 0)
		case compute.Square:
			r = x * x
		case compute.Reciprocal:
			r = b(x == 1)
		case compute.Invert:
			r = ^x
		default:
			panic("unElem unsigned: " + op.String())
		}
		return wrapInt(ct, r)
	}
	kt := kernelType(ct)
	f := fval(ct, x)
	rk := func(v float64) float64 { return roundKT(kt, v) }
	var r float64
	switch op {
	case compute.Neg:
		r = -f
	case compute.Positive:
		r = f
	case compute.Abs:
		r = math.Abs(f)
	case compute.Sign:
		switch {
		case math.IsNaN(f):
			r = f
		default:
			r = float64(cmpSign(f))
		}
	case compute.Square:
		r = rk(f * f)
	case compute.Reciprocal:
		r = rk(1 / f)
	case compute.Floor:
		r = math.Floor(f)
	case compute.Ceil:
		r = math.Ceil(f)
	case compute.Trunc:
		r = math.Trunc(f)
	case compute.Rint:
		r = math.RoundToEven(f)
	case compute.Deg2rad, compute.Rad2deg:
		// npy_math: one product by NumPy's constant of the type; float32's
		// are NPY_PIf/180.0f and 180.0f/NPY_PIf, divided in float32
		r = rk(mathFuncs[op](f))
		if kt == array.Float32 {
			pi, d := float32(math.Pi), float32(180)
			k := pi / d
			if op == compute.Rad2deg {
				k = d / pi
			}
			r = float64(float32(f) * k)
		}
	default:
		fn, ok := mathFuncs[op]
		if !ok {
			panic("unElem: " + op.String())
		}
		r = rk(fn(f))
	}
	return fbits(ct, r)
}

// approxMath marks an exact float result of pow, sin, cos, tan, exp, log,
// log2, log10, tanh, log1p, expm1, arctan, arcsin, arccos or arctan2
// approx within 2 ulp (3 for float64 tanh, arcsin and arccos): the
// kernels compute them with AVX2 or AVX-512 polynomials
// (arctan2 also in its Go loop, within 1.5 ulp of the exact result; float32
// arctan2 in vmath32gen.go's float32 polynomial, within 1 ulp), pow
// with integer exponents in
// double-double and reduce trigonometric arguments of 2^29 and more
// exactly, where this reference takes Go's math as it is (so those
// arguments, whose Go results are 16 ulp off, are not compared here: the
// compute tests and the NumPy edge cases check them).
func approxMath(o *refTensor, i int, op compute.Op, ct array.DType, x uint64) {
	tol := 2.0
	switch op {
	case compute.Power, compute.Sin, compute.Cos, compute.Tan, compute.Arctan2, compute.FloatPower, compute.Logaddexp, compute.Logaddexp2:
	case compute.Exp, compute.Log, compute.Log2, compute.Log10, compute.Tanh, compute.Log1p, compute.Expm1, compute.Arctan, compute.Arcsin,
		compute.Arccos:
		// AVX2 polynomials (compute/asmgen.go, vmathgen.go) within 2 ulp;
		// float64 tanh, arcsin and arccos within 1.9, 1.7 and 1.5 ulp of
		// the exact result, so 3 of the reference
		if ct == array.Float64 && (op == compute.Tanh || op == compute.Arcsin || op == compute.Arccos) {
			tol = 3
		}
	default:
		return
	}
	if !ct.IsFloat() || o.flagAt(i) != fExact {
		return
	}
	if op != compute.Power && math.Abs(fval(ct, x)) >= 1<<29 {
		o.setFlag(i, fAny)
		return
	}
	o.setFlag(i, fApprox)
	o.setTol(i, tol*ulp(ct, fval(ct, o.v[i])))
}

// bigPow is x**y: for an integer exponent up to 1024, the exact power in
// math/big rounded once; for a larger integer exponent (up to 2^53, as the
// kernel's double-double path), square and multiply in 320-bit floats,
// whose relative error (about 2 log2(y) * 2^-320) is far below the final
// rounding; where the result is a normal float64. Else math.Pow.
func bigPow(x, y float64) float64 {
	if y != math.Trunc(y) || math.Abs(y) < 2 || math.Abs(y) > 1<<53 || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		if x > 0 && !math.IsInf(x, 0) && y != 0 && y != 1 && !math.IsInf(y, 0) && !math.IsNaN(y) {
			if r := bigPowExpLog(x, y); r != 0 && !math.IsInf(r, 0) && math.Abs(r) >= 0x1p-1022 {
				return r // math.Pow is up to ~30 ulp off (1e100**2.5)
			}
		}
		return math.Pow(x, y)
	}
	n := uint64(math.Abs(y))
	prec := uint(320)
	if n <= 1024 {
		prec = uint(53*n + 128) // exact
	}
	p := new(big.Float).SetPrec(prec).SetFloat64(1)
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	for k := n; ; {
		if k&1 == 1 {
			p.Mul(p, b)
		}
		k >>= 1
		if k == 0 {
			break
		}
		b.Mul(b, b)
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

// cmpSign is -1, 0 or 1.
func cmpSign[T int64 | float64](v T) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// mathFuncs are the transcendental ops, each Go's math function in float64
// rounded once to the compute type (the kernels may differ by an ulp: the
// comparison allows it, see tolerance).
var mathFuncs = map[compute.Op]func(float64) float64{
	compute.Sqrt: math.Sqrt, compute.Exp: math.Exp, compute.Exp2: math.Exp2, compute.Expm1: math.Expm1,
	compute.Log: math.Log, compute.Log2: refLog2, compute.Log10: refLog10, compute.Log1p: math.Log1p,
	compute.Sin: math.Sin, compute.Cos: math.Cos, compute.Tan: math.Tan, compute.Arcsin: math.Asin,
	compute.Arccos: refAcos, compute.Arctan: math.Atan, compute.Sinh: math.Sinh, compute.Cosh: math.Cosh,
	compute.Tanh: math.Tanh, compute.Arcsinh: math.Asinh, compute.Arccosh: math.Acosh,
	compute.Arctanh: math.Atanh, compute.Cbrt: math.Cbrt,
	compute.Deg2rad: func(x float64) float64 { return x * 0.017453292519943295 }, // NumPy's constants
	compute.Rad2deg: func(x float64) float64 { return x * 57.29577951308232 },
	compute.Fabs:    math.Abs,
}

// refLog2 and refLog10 are log2 and log10 as Go's log (denormals scaled)
// times 1/ln2 or 1/ln10 in two parts, powers of two and ten exactly: Go's
// math.Log2 cancels near 1 (log2(1+2^-50) 3e14 ulp off) and its Log10 is
// Log2 times a rounded constant.
func refLog2(x float64) float64 {
	if fr, e := math.Frexp(x); fr == 0.5 {
		return float64(e - 1)
	}
	return refLogScaled(x, 1.4426950408889634, 2.0355273740931033e-17)
}

func refLog10(x float64) float64 {
	r := refLogScaled(x, 0.43429448190325182, 1.0983196502167651e-17)
	if k := math.Round(r); k >= 0 && k <= 22 && x == math.Pow(10, k) {
		return k
	}
	return r
}

func refLogScaled(x, c, cl float64) float64 {
	l := math.Log(x)
	if x > 0 && x < 0x1p-1022 {
		l = math.Log(x*0x1p54) - 54*math.Ln2
	}
	r := l * c
	if l != 0 && l-l == 0 {
		r += math.FMA(l, c, -r) + l*cl
	}
	return r
}

// refTypes is the compute and result dtype of op over operands of dts,
// from the op table: the first loop of the op that holds every operand
// (true division: that holds their promotion); true division of integers in float64;
// logical ops on bool. ok is false where NumPy raises TypeError.
func refTypes(op compute.Op, dts ...array.DType) (ct, rt array.DType, ok bool) {
	p := dts[0]
	for _, d := range dts[1:] {
		p = expr.Promote(p, d)
	}
	info := op.Info()
	if info.BoolIn {
		return array.Bool, array.Bool, true
	}
	if p == array.Bool && (op == compute.Sub || op == compute.Neg || op == compute.Sign || op == compute.Positive) {
		return 0, 0, false
	}
	ts := make([]compute.Type, len(dts))
	for i, d := range dts {
		ts[i] = compute.Type(d)
	}
	if info.Result == compute.IntsToF64 {
		ts = []compute.Type{compute.Type(p)}
	}
	l, ok := op.LoopFor(ts...)
	if !ok {
		return 0, 0, false
	}
	ct = array.DType(l)
	if info.Result == compute.IntsToF64 && !ct.IsFloat() {
		ct = array.Float64
	}
	rt = ct
	if info.Result == compute.BoolOut {
		rt = array.Bool
	}
	return ct, rt, true
}

// ---- reference expressions ----

type refKind uint8

const (
	rLeaf refKind = iota + 1
	rBinary
	rUnary
	rCast
	rWhere
	rBroadcast
	rReduce // Reduce{Sum,Prod,Max,Min,Mean}
	rReduceTo
	rReduceAxes
)

// ruleSpec is the test's copy of an auto-broadcast rule.
type ruleSpec struct {
	kind string // "numpy", "none", "pdpd", "uni"
	axis int
}

func (r ruleSpec) rule() expr.Rule {
	switch r.kind {
	case "none":
		return expr.NoBroadcast
	case "pdpd":
		return expr.PDPD(r.axis)
	case "uni":
		return expr.Unidirectional
	}
	return expr.Numpy
}

type refNode struct {
	kind refKind
	op   compute.Op // binary, unary; reductions: Add, Mul, Maximum, Minimum, or DivTrunc for mean
	args []*refNode
	leaf *refTensor // rLeaf
	rule ruleSpec
	dt   array.DType // rCast target

	// rBroadcast
	mode   expr.Mode
	target []int
	axes   []int // explicit mapping, ngraph broadcast axes; reduction axes (as given)
	axis   int

	keep bool
	to   []int // rReduceTo shape

	weak int // rLeaf: a weak constant: 1 bool, 2 int, 3 float (NEP 50)
}

// weakDType is the dtype a weak constant of kind w takes among operands of
// the strong dtypes dts (NEP 50, written from its text): with none, its
// default (bool, int64, float64); a weak int takes an integer or float
// dtype and makes bool int64; a weak float takes a float dtype and makes
// anything else float64; a weak bool takes any dtype.
func weakDType(w int, dts []array.DType) array.DType {
	if len(dts) == 0 {
		return [...]array.DType{array.Invalid, array.Bool, array.Int64, array.Float64}[w]
	}
	p := dts[0]
	for _, d := range dts[1:] {
		p = expr.Promote(p, d)
	}
	switch {
	case w == 3 && !p.IsFloat():
		return array.Float64
	case w == 2 && p == array.Bool:
		return array.Int64
	}
	return p
}

// opMean marks ReduceMean in ref.op.
const opMean = compute.TruncDiv

func (r *refNode) String() string {
	switch r.kind {
	case rLeaf:
		return fmt.Sprintf("leaf<%v%v>", r.leaf.dt, r.leaf.shape)
	case rBinary:
		return fmt.Sprintf("%v(%v, %v; %v)", r.op, r.args[0], r.args[1], r.rule)
	case rUnary:
		return fmt.Sprintf("%v(%v)", r.op, r.args[0])
	case rCast:
		return fmt.Sprintf("cast(%v, %v)", r.args[0], r.dt)
	case rWhere:
		return fmt.Sprintf("where(%v, %v, %v; %v)", r.args[0], r.args[1], r.args[2], r.rule)
	case rBroadcast:
		return fmt.Sprintf("broadcast_%s(%v, %v, axes=%v, axis=%d)", r.mode, r.args[0], r.target, r.axes, r.axis)
	case rReduce:
		return fmt.Sprintf("reduce_%v(%v, axes=%v, keep=%v)", r.op, r.args[0], r.axes, r.keep)
	case rReduceTo:
		return fmt.Sprintf("reduce_to(%v, %v)", r.args[0], r.to)
	case rReduceAxes:
		return fmt.Sprintf("reduce_axes(%v, %v)", r.args[0], r.axes)
	}
	return "?"
}

// eval computes the reference value of r.
func (r *refNode) eval() (*refTensor, error) {
	if r.kind == rLeaf {
		return r.leaf, nil
	}
	args := make([]*refTensor, len(r.args))
	for i, a := range r.args {
		t, err := a.eval()
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	switch r.kind {
	case rBinary, rWhere:
		// weak constants take the dtype NEP 50 gives them among the others
		var strongDTs []array.DType
		for i, a := range r.args {
			if r.kind == rWhere && i == 0 {
				continue
			}
			if a.weak == 0 {
				strongDTs = append(strongDTs, args[i].dt)
			}
		}
		for i, a := range r.args {
			if a.weak != 0 && !(r.kind == rWhere && i == 0) {
				args[i] = evalMap(args[i], weakDType(a.weak, strongDTs), func(u uint64) (uint64, bool) {
					return castElem(args[i].dt, weakDType(a.weak, strongDTs), u)
				})
			}
		}
	}
	switch r.kind {
	case rBinary:
		return evalBinary(r.op, r.rule, args[0], args[1])
	case rUnary:
		return evalUnary(r.op, args[0]), nil
	case rCast:
		return evalMap(args[0], r.dt, func(u uint64) (uint64, bool) { return castElem(args[0].dt, r.dt, u) }), nil
	case rWhere:
		return evalWhere(r.rule, args[0], args[1], args[2])
	case rBroadcast:
		x := args[0]
		var (
			out []int
			m   broadcast.AxisMap
			err error
		)
		switch r.mode {
		case expr.ModeNumpy:
			out, m, err = broadcast.Numpy(x.shape, r.target)
		case expr.ModeBidirectional:
			out, m, err = broadcast.Bidirectional(x.shape, r.target)
		case expr.ModeExplicit:
			out, m, err = broadcast.Explicit(x.shape, r.target, r.axes)
		case expr.ModePDPD:
			out, m, err = broadcast.PDPD(x.shape, r.target, r.axis)
		case expr.ModeNGraph:
			out, m, err = broadcast.NGraph(x.shape, r.target, r.axes)
		}
		if err != nil {
			return nil, err
		}
		return x.broadcastTo(out, m), nil
	case rReduce, rReduceAxes:
		axes, err := normAxes(r.axes, len(args[0].shape))
		if err != nil {
			return nil, err
		}
		if r.kind == rReduceAxes {
			return evalReduce(compute.Add, args[0], axes, false, args[0].dt), nil
		}
		return evalReduce(r.op, args[0], axes, r.keep, 0), nil
	case rReduceTo:
		axes, err := broadcast.ReduceTo(args[0].shape, r.to)
		if err != nil {
			return nil, err
		}
		t := evalReduce(compute.Add, args[0], axes, true, args[0].dt)
		t.shape = slices.Clone(r.to) // same elements, in order
		return t, nil
	}
	return nil, fmt.Errorf("ref: bad kind %d", r.kind)
}

// normAxes resolves reduction axes: nil is every axis, negatives count from
// the end.
func normAxes(axes []int, rank int) ([]int, error) {
	if axes == nil {
		out := make([]int, rank)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	out := make([]int, 0, len(axes))
	for _, a := range axes {
		if a < 0 {
			a += rank
		}
		if a < 0 || a >= rank || slices.Contains(out, a) {
			return nil, fmt.Errorf("ref: bad axes %v for rank %d", axes, rank)
		}
		out = append(out, a)
	}
	slices.Sort(out)
	return out, nil
}

// combine finishes element i of an elementwise result from its operands'
// elements at the flat indices idx: validity is the and of theirs (null
// slots hold 0), the flag the worst of theirs.
func combine(o *refTensor, i int, ops []*refTensor, idx []int) bool {
	ok := true
	f := fExact
	for k, t := range ops {
		if !t.isValid(idx[k]) {
			ok = false
		}
		if t.flagAt(idx[k]) != fExact {
			f = fAny
		}
	}
	o.setValid(i, ok)
	o.setFlag(i, f)
	return ok
}

// evalMap applies a per-element conversion (cast) to x.
func evalMap(x *refTensor, dt array.DType, f func(u uint64) (uint64, bool)) *refTensor {
	o := newTensor(dt, x.shape)
	for i, u := range x.v {
		v, ok := f(u)
		if combine(o, i, []*refTensor{x}, []int{i}) {
			o.v[i] = v
			if !ok {
				o.setFlag(i, fAny)
			}
		}
	}
	return o
}

func evalUnary(op compute.Op, x *refTensor) *refTensor {
	ct, rt, _ := refTypes(op, x.dt)
	o := newTensor(rt, x.shape)
	for i, u := range x.v {
		if !combine(o, i, []*refTensor{x}, []int{i}) {
			continue
		}
		v, ok := castElem(x.dt, ct, u)
		if !ok {
			o.setFlag(i, fAny)
		}
		o.v[i] = unElem(op, ct, v)
		approxMath(o, i, op, ct, v)
		if op == compute.Signbit && ct.IsFloat() && math.IsNaN(fval(ct, v)) {
			o.setFlag(i, fAny) // a NaN's sign is not specified (see evalBinary's copysign)
		}
	}
	return o
}

// ruleMaps applies an elementwise rule to operand shapes. first is the
// operand the others are broadcast onto under pdpd and unidirectional
// rules (0; 1 for where, whose pdpd axis -1 is resolved from the third
// operand, as OpenVINO's Select does).
func ruleMaps(rule ruleSpec, shapes [][]int, first int) ([]int, []broadcast.AxisMap, error) {
	switch rule.kind {
	case "numpy":
		return broadcast.Multidirectional(shapes...)
	case "none":
		return broadcast.None(shapes...)
	}
	out := shapes[first]
	maps := make([]broadcast.AxisMap, len(shapes))
	axis := rule.axis
	if first == 1 && rule.kind == "pdpd" && axis == -1 {
		axis = len(out) - len(shapes[2])
	}
	for i, s := range shapes {
		if i == first {
			m := make(broadcast.AxisMap, len(s))
			for k := range m {
				m[k] = k
			}
			maps[i] = m
			continue
		}
		var (
			got []int
			err error
		)
		if rule.kind == "uni" {
			got, maps[i], err = broadcast.Numpy(s, out)
		} else {
			got, maps[i], err = broadcast.PDPDElementwise(out, s, axis)
		}
		if err != nil {
			return nil, nil, err
		}
		if !slices.Equal(got, out) {
			return nil, nil, fmt.Errorf("ref: %v does not broadcast onto %v", s, out)
		}
	}
	return out, maps, nil
}

func evalBinary(op compute.Op, rule ruleSpec, a, b *refTensor) (*refTensor, error) {
	if op == compute.PRelu {
		rule = ruleSpec{kind: "uni"}
	}
	out, maps, err := ruleMaps(rule, [][]int{a.shape, b.shape}, 0)
	if err != nil {
		return nil, err
	}
	a, b = a.broadcastTo(out, maps[0]), b.broadcastTo(out, maps[1])
	ct, rt, ok := refTypes(op, a.dt, b.dt)
	if !ok {
		return nil, fmt.Errorf("ref: no %v loop for %v and %v", op, a.dt, b.dt)
	}
	o := newTensor(rt, out)
	idx := []int{0, 0}
	for i := range o.v {
		idx[0], idx[1] = i, i
		if !combine(o, i, []*refTensor{a, b}, idx) {
			continue
		}
		x, okx := castElem(a.dt, ct, a.v[i])
		y, oky := castElem(b.dt, ct, b.v[i])
		if !okx || !oky {
			o.setFlag(i, fAny)
		}
		o.v[i] = binElem(op, ct, x, y)
		approxMath(o, i, op, ct, 0)
		switch op {
		case compute.Maximum, compute.Minimum, compute.Fmax, compute.Fmin:
			// the sign of max(-0, +0) is unspecified (NumPy's too): compare
			// as numbers (approx, tolerance 0: -0 == +0)
			if ct.IsFloat() && fval(ct, x) == 0 && fval(ct, y) == 0 && o.flagAt(i) == fExact {
				o.setFlag(i, fApprox)
				o.setTol(i, 0)
			}
		case compute.Copysign:
			// the sign of a NaN is not specified (NumPy's neither: it is
			// whatever the CPU's operations made; this reference, in Go on
			// float64, does not keep it through every conversion): the
			// sign copied from a NaN y is not compared
			if ct.IsFloat() && math.IsNaN(fval(ct, y)) {
				o.setFlag(i, fAny)
			}
		}
	}
	return o, nil
}

func evalWhere(rule ruleSpec, c, x, y *refTensor) (*refTensor, error) {
	var (
		out  []int
		maps []broadcast.AxisMap
		err  error
	)
	if rule.kind == "pdpd" || rule.kind == "uni" {
		out, maps, err = ruleMaps(rule, [][]int{c.shape, x.shape, y.shape}, 1)
	} else {
		out, maps, err = ruleMaps(rule, [][]int{c.shape, x.shape, y.shape}, 0)
	}
	if err != nil {
		return nil, err
	}
	c, x, y = c.broadcastTo(out, maps[0]), x.broadcastTo(out, maps[1]), y.broadcastTo(out, maps[2])
	ct := expr.Promote(x.dt, y.dt)
	o := newTensor(ct, out)
	for i := range o.v {
		ok := c.isValid(i) && x.isValid(i) && y.isValid(i)
		o.setValid(i, ok)
		if !ok {
			continue
		}
		cb, okc := castElem(c.dt, array.Bool, c.v[i])
		src := y
		if cb != 0 {
			src = x
		}
		v, okv := castElem(src.dt, ct, src.v[i])
		o.v[i] = v
		if !okc || !okv || c.flagAt(i) != fExact || src.flagAt(i) != fExact {
			o.setFlag(i, fAny)
		}
	}
	return o, nil
}

// reduceDType is NumPy's result dtype of a reduction.
func reduceDType(op compute.Op, dt array.DType) array.DType {
	switch op {
	case compute.Add, compute.Mul:
		switch {
		case dt == array.Bool || dt.IsSigned():
			return array.Int64
		case dt.IsUnsigned():
			return array.Uint64
		}
	case opMean:
		if !dt.IsFloat() {
			return array.Float64
		}
	}
	return dt
}

// evalReduce reduces x over axes (sorted) with op. A valid out dtype (the
// ReduceTo / ReduceAxes case) sums in NumPy's sum dtype and converts the
// result to it.
func evalReduce(op compute.Op, x *refTensor, axes []int, keep bool, out array.DType) *refTensor {
	var shape, kshape []int
	for i, d := range x.shape {
		switch {
		case !slices.Contains(axes, i):
			shape = append(shape, d)
			kshape = append(kshape, d)
		case keep:
			shape = append(shape, 1)
			kshape = append(kshape, 1)
		default:
			kshape = append(kshape, 1)
		}
	}
	if shape == nil {
		shape = []int{}
	}
	rdt := reduceDType(op, x.dt) // result dtype
	at := rdt                    // accumulator: NumPy's dtype, float16 in float32
	if op == compute.Maximum || op == compute.Minimum {
		at = x.dt
	}
	at = kernelType(at)
	final := rdt
	if out.Valid() {
		final = out
	}
	// group the elements of x by output element
	groups := make([][]int, 1)
	n := 1
	for _, d := range kshape {
		n *= d
	}
	groups = make([][]int, n)
	k := 0
	naive.ForEach(x.shape, func(c []int) bool {
		j := 0
		for i, ci := range c {
			if kshape[i] != 1 {
				j = j*kshape[i] + ci
			} else {
				j = j * 1
			}
		}
		groups[j] = append(groups[j], k)
		k++
		return true
	})
	o := newTensor(final, shape)
	for j, g := range groups {
		vals := make([]uint64, 0, len(g))
		f := fExact
		for _, e := range g {
			if !x.isValid(e) {
				continue
			}
			if x.flagAt(e) != fExact {
				f = fAny
			}
			v, ok := castElem(x.dt, at, x.v[e])
			if !ok {
				f = fAny
			}
			vals = append(vals, v)
		}
		v, rf, tol := reduceGroup(op, at, vals)
		if f == fAny || rf == fAny {
			o.setFlag(j, fAny)
		} else if rf == fApprox {
			o.setFlag(j, fApprox)
		}
		// convert the accumulator to the result dtype
		r, ok := castElem(at, final, v)
		if !ok {
			o.setFlag(j, fAny)
		}
		o.v[j] = r
		if o.flagAt(j) == fApprox {
			// the final rounding to a narrower float adds up to one unit
			// in the last place of the result
			o.setTol(j, tol+ulp(final, fval(final, r)))
		}
	}
	return o
}

// ulp is the spacing of dt's floats near f (for tolerances).
func ulp(dt array.DType, f float64) float64 {
	f = math.Abs(f)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0
	}
	switch dt {
	case array.Float16:
		return math.Max(math.Ldexp(f, -10), math.Ldexp(1, -24))
	case array.Float32:
		return math.Max(math.Ldexp(f, -23), math.Ldexp(1, -149))
	}
	return math.Max(math.Ldexp(f, -52), math.Ldexp(1, -1074))
}

// reduceGroup reduces the valid elements of one output element, given as
// at's bits. It returns the result, its flag and, for approx, a bound on how
// far any summation order can be from it.
func reduceGroup(op compute.Op, at array.DType, vals []uint64) (uint64, uint8, float64) {
	if !isFloatDT(at) {
		// integers and bool: wrap-around arithmetic is exact in any order
		var r uint64
		switch op {
		case compute.Add:
			for _, v := range vals {
				r += v
			}
		case compute.Mul:
			r = 1
			for _, v := range vals {
				r *= v
			}
		case compute.Maximum, compute.Minimum:
			r = extreme(at, op == compute.Minimum)
			for _, v := range vals {
				var less bool // v < r
				if at.IsSigned() {
					less = int64(v) < int64(r)
				} else {
					less = v < r
				}
				if (op == compute.Minimum && less) || (op == compute.Maximum && !less && v != r) {
					r = v
				}
			}
		}
		return wrapInt(at, r), fExact, 0
	}
	fs := make([]float64, len(vals))
	for i, v := range vals {
		fs[i] = fval(at, v)
	}
	switch op {
	case compute.Maximum, compute.Minimum:
		r := math.Inf(-1)
		if op == compute.Minimum {
			r = math.Inf(1)
		}
		for _, f := range fs {
			if op == compute.Maximum {
				r = max(r, f)
			} else {
				r = min(r, f)
			}
		}
		return fbits(at, r), fExact, 0
	case compute.Mul:
		return prodGroup(at, fs)
	}
	s, flag, tol := sumGroup(at, fs)
	if op == opMean {
		cnt := float64(len(fs))
		q := roundKT(at, s/cnt) // NaN for no element
		return fbits(at, q), flag, tol/cnt + ulp(at, q)
	}
	return fbits(at, s), flag, tol
}

// extreme is the identity of max (the lowest value) or min (the highest).
func extreme(dt array.DType, hi bool) uint64 {
	n := uint(dt.Size() * 8)
	switch {
	case dt == array.Bool:
		if hi {
			return 1
		}
		return 0
	case dt.IsSigned():
		if hi {
			return uint64(1)<<(n-1) - 1
		}
		return wrapInt(dt, uint64(1)<<(n-1)) // sign-extended minimum
	case dt.IsUnsigned():
		if hi {
			return wrapInt(dt, math.MaxUint64)
		}
		return 0
	}
	if hi {
		return fbits(dt, math.Inf(1))
	}
	return fbits(dt, math.Inf(-1))
}

// mantBits is the precision of a float accumulator.
func mantBits(at array.DType) int {
	if at == array.Float32 {
		return 24
	}
	return 53
}

// sumGroup sums floats. When every value is a multiple of 2^e and the sum of
// magnitudes is below 2^(p+e), every partial sum in any order is exactly
// representable, so the engine must give the exact sum; otherwise the
// result is approx, within 2*n*u*sum|x| of the float64 sum (n-1 roundings
// of at most u times a partial sum of magnitudes each, for both sums).
func sumGroup(at array.DType, fs []float64) (float64, uint8, float64) {
	var s, abs float64
	emin := math.MaxInt
	nan, pinf, ninf := false, false, false
	for _, f := range fs {
		switch {
		case math.IsNaN(f):
			nan = true
		case math.IsInf(f, 1):
			pinf = true
		case math.IsInf(f, -1):
			ninf = true
		case f != 0:
			emin = min(emin, lowBit(f))
			abs += math.Abs(f)
			s += f
		}
	}
	p := mantBits(at)
	exact := abs == 0 || abs < math.Ldexp(1, p+emin)
	if exact && abs >= math.Ldexp(1, 127) && at == array.Float32 {
		exact = false
	}
	switch {
	case nan || (pinf && ninf):
		if exact {
			return math.NaN(), fExact, 0
		}
		return math.NaN(), fAny, 0
	case pinf || ninf:
		if exact {
			return math.Copysign(math.Inf(1), b2f(pinf)), fExact, 0
		}
		return 0, fAny, 0
	}
	if s == 0 {
		s = 0 // +0: the accumulator starts at +0
	}
	if exact {
		return roundKT(at, s), fExact, 0
	}
	if at == array.Float32 && abs >= math.MaxFloat32/2 {
		return 0, fAny, 0 // a partial sum may overflow
	}
	u := math.Ldexp(1, -p)
	return roundKT(at, s), fApprox, 2*float64(len(fs))*u*abs + ulp(at, s)
}

func b2f(pos bool) float64 {
	if pos {
		return 1
	}
	return -1
}

// lowBit is the exponent of the lowest set bit of a finite non-zero f.
func lowBit(f float64) int {
	fr, e := math.Frexp(math.Abs(f)) // f = fr * 2^e, fr in [0.5, 1)
	m := uint64(math.Ldexp(fr, 53))  // exact integer
	tz := 0
	for m&1 == 0 {
		m >>= 1
		tz++
	}
	return e - 53 + tz
}

// prodGroup multiplies floats: exact when no partial product can round,
// overflow or underflow, approx with a relative bound otherwise.
func prodGroup(at array.DType, fs []float64) (uint64, uint8, float64) {
	nan, zero, inf := false, false, false
	neg := false
	bitsSum := 0
	hiExp, loExp := 0.0, 0.0
	for _, f := range fs {
		switch {
		case math.IsNaN(f):
			nan = true
			continue
		case f == 0:
			zero = true
		case math.IsInf(f, 0):
			inf = true
		default:
			l := math.Log2(math.Abs(f))
			if l > 0 {
				hiExp += l
			} else {
				loExp += l
			}
			fr, _ := math.Frexp(math.Abs(f))
			m := uint64(math.Ldexp(fr, 53))
			for m&1 == 0 {
				m >>= 1
			}
			bitsSum += 64 - leadingZeros(m)
		}
		if math.Signbit(f) {
			neg = !neg
		}
	}
	sign := 1.0
	if neg {
		sign = -1
	}
	switch {
	case nan || (zero && inf):
		return fbits(at, math.NaN()), fExact, 0
	case inf:
		// finite partial products might still overflow first: same result
		return fbits(at, math.Copysign(math.Inf(1), sign)), fExact, 0
	}
	maxE, minE := 127.0, -126.0
	if at == array.Float64 {
		maxE, minE = 1023, -1022
	}
	if hiExp >= maxE-1 {
		// some order overflows to Inf before (or without) meeting a zero:
		// then Inf * 0 is NaN (float32 products in order, as NumPy's)
		return 0, fAny, 0
	}
	if zero {
		return fbits(at, math.Copysign(0, sign)), fExact, 0
	}
	if loExp <= minE+float64(mantBits(at))+1 {
		return 0, fAny, 0 // some order may go subnormal
	}
	r := 1.0
	for _, f := range fs {
		r *= f
	}
	if bitsSum <= mantBits(at) {
		return fbits(at, roundKT(at, r)), fExact, 0
	}
	u := math.Ldexp(1, -mantBits(at))
	return fbits(at, roundKT(at, r)), fApprox, 2 * float64(len(fs)+1) * u * math.Abs(r)
}

func leadingZeros(m uint64) int {
	n := 0
	for i := 63; i >= 0 && m&(1<<uint(i)) == 0; i-- {
		n++
	}
	return n
}

// ---- float16 ----

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

// float64ToF16 rounds v to the nearest half, ties to even, subnormals kept,
// from 65520 up to infinity.
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
	case v < math.Ldexp(1, -14):
		return sign | uint16(math.RoundToEven(math.Ldexp(v, 24)))
	}
	_, e := math.Frexp(v)
	e--
	m := math.RoundToEven(math.Ldexp(v, 10-e))
	if m == 2048 {
		m, e = 1024, e+1
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(m-1024)
}

// bigPowExpLog is exp(y log x) in 200-bit floats, rounded once (x > 0).
func bigPowExpLog(x, y float64) float64 {
	const prec = 200
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	atanh := func(s *big.Float) *big.Float { // atanh(s) for |s| < 0.2
		s2 := new(big.Float).SetPrec(prec).Mul(s, s)
		sum := new(big.Float).SetPrec(prec)
		pow := new(big.Float).SetPrec(prec).Set(s)
		for k := 0; k < 70; k++ {
			sum.Add(sum, new(big.Float).SetPrec(prec).Quo(pow, bf(float64(2*k+1))))
			pow.Mul(pow, s2)
		}
		return sum
	}
	ln2 := new(big.Float).SetPrec(prec).Mul(bf(2), atanh(new(big.Float).SetPrec(prec).Quo(bf(1), bf(3))))
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, e = 2*m, e-1
	}
	bm := bf(m)
	s := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Sub(bm, bf(1)), new(big.Float).SetPrec(prec).Add(bm, bf(1)))
	lg := atanh(s)
	lg.Mul(lg, bf(2))
	lg.Add(lg, new(big.Float).SetPrec(prec).Mul(ln2, bf(float64(e))))
	t := lg.Mul(lg, bf(y))
	q, _ := new(big.Float).SetPrec(prec).Quo(t, ln2).Float64()
	k := math.Round(q)
	if math.Abs(k) > 1100 {
		return math.Pow(x, y)
	}
	r := new(big.Float).SetPrec(prec).Sub(t, new(big.Float).SetPrec(prec).Mul(ln2, bf(k)))
	sum, term := bf(1), bf(1)
	for i := 1; i < 60; i++ {
		term.Mul(term, r)
		term.Quo(term, bf(float64(i)))
		sum.Add(sum, term)
	}
	f, _ := sum.SetMantExp(sum, int(k)).Float64()
	return f
}

// refAcos is arccos(x) as 2 arctan(sqrt((1 - x)/(1 + x))), a formula of
// its own (Go's math.Acos cancels near 1).
func refAcos(x float64) float64 {
	if !(math.Abs(x) <= 1) {
		return math.Acos(x)
	}
	return 2 * math.Atan(math.Sqrt((1-x)/(1+x)))
}
