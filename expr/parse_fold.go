package expr

import (
	"math"
	"math/big"
)

// Python folds arithmetic on numbers before NumPy sees them: in
// x * (1/3) or x > -2 the operand is one Python float or int, a weak scalar.
// pyNum is such a number while Parse reads the source, and fold applies
// Python's operators to two of them.

type pyKind uint8

const (
	pyNone pyKind = iota // not a number
	pyIntK
	pyFloatK
	pyBoolK
)

// pyNum is a Python int (exact), float or bool.
type pyNum struct {
	kind pyKind
	i    *big.Int
	f    float64
	b    bool
}

func pyInt(v *big.Int) pyNum   { return pyNum{kind: pyIntK, i: v} }
func pyFloat(f float64) pyNum  { return pyNum{kind: pyFloatK, f: f} }
func pyBool(b bool) pyNum      { return pyNum{kind: pyBoolK, b: b} }
func (p pyNum) isNum() bool    { return p.kind != pyNone }
func (p pyNum) isIntish() bool { return p.kind == pyIntK || p.kind == pyBoolK }

// errTooLarge is the message of a fold whose int would exceed maxIntBits.
const errTooLarge = "integer too large (more than 4096 bits)"

// Python's OverflowError messages of folding (the others, division by zero
// and complex results, are ValueError or ZeroDivisionError).
const (
	errIntToFloat  = "int too large to convert to float"
	errDivToFloat  = "integer division result too large for a float"
	errFloatPowBig = "float power out of range"
)

// foldSentinel is the error a fold's message wraps: ErrOverflow for a
// result beyond a bound (Python's OverflowError, or the size bound of
// maxIntBits), ErrArgument otherwise.
func foldSentinel(msg string) error {
	switch msg {
	case errTooLarge, errIntToFloat, errDivToFloat, errFloatPowBig:
		return ErrOverflow
	}
	return ErrArgument
}

// maxIntBits bounds the intermediate ints folding may build (2**10**9 would
// otherwise take gigabytes); a result must fit int64 in the end anyway.
const maxIntBits = 4096

// asInt returns an int or bool as a big.Int (True is 1).
func (p pyNum) asInt() *big.Int {
	if p.kind == pyBoolK {
		if p.b {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return p.i
}

// asFloat converts as Python's float(): an int too large is an error.
func (p pyNum) asFloat() (float64, string) {
	if p.kind == pyFloatK {
		return p.f, ""
	}
	f, _ := new(big.Float).SetInt(p.asInt()).Float64()
	if math.IsInf(f, 0) {
		return 0, errIntToFloat
	}
	return f, ""
}

// node returns the weak constant p stands for, or an error message when p
// is an int beyond int64 (and int).
func (p pyNum) node() (*Node, string) {
	switch p.kind {
	case pyBoolK:
		return Const(p.b), ""
	case pyFloatK:
		return Const(p.f), ""
	}
	if !p.i.IsInt64() || p.i.Int64() > math.MaxInt || p.i.Int64() < math.MinInt {
		return nil, "integer " + abbreviate(p.i.String()) + " does not fit in int64"
	}
	return Const(int(p.i.Int64())), ""
}

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:18] + "..." + s[len(s)-18:]
	}
	return s
}

// foldUnary applies a unary operator to a number as Python does. ok is false
// when Python's result would not be a plain number (~ of a float): the op is
// then built as a node and reports its own error.
func foldUnary(op string, x pyNum) (r pyNum, ok bool) {
	switch {
	case x.kind == pyFloatK && op == "-":
		return pyFloat(-x.f), true
	case x.kind == pyFloatK && op == "+":
		return x, true
	case x.isIntish() && op == "-":
		return pyInt(new(big.Int).Neg(x.asInt())), true
	case x.isIntish() && op == "+":
		return pyInt(x.asInt()), true
	case x.isIntish() && op == "~":
		return pyInt(new(big.Int).Not(x.asInt())), true
	}
	return pyNum{}, false
}

// foldBinary applies a binary operator to two numbers as Python does. ok is
// false for operators it leaves to nodes; msg is Python's error
// (ZeroDivisionError, OverflowError...).
func foldBinary(op string, a, b pyNum) (r pyNum, ok bool, msg string) {
	if a.isIntish() && b.isIntish() {
		return foldInts(op, a, b)
	}
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		return foldCompare(op, a, b), true, ""
	case "+", "-", "*", "/", "//", "%", "**":
	default:
		return pyNum{}, false, "" // bitwise ops of floats: the node's dtype error
	}
	x, m := a.asFloat()
	if m != "" {
		return pyNum{}, true, m
	}
	y, m := b.asFloat()
	if m != "" {
		return pyNum{}, true, m
	}
	switch op {
	case "+":
		return pyFloat(x + y), true, ""
	case "-":
		return pyFloat(x - y), true, ""
	case "*":
		return pyFloat(x * y), true, ""
	case "/":
		if y == 0 {
			return pyNum{}, true, "float division by zero"
		}
		return pyFloat(x / y), true, ""
	case "//", "%":
		if y == 0 {
			return pyNum{}, true, "float floor division or modulo by zero"
		}
		div, mod := pyFloatDivmod(x, y)
		if op == "//" {
			return pyFloat(div), true, ""
		}
		return pyFloat(mod), true, ""
	}
	// "**"
	switch {
	case x == 0 && y < 0:
		return pyNum{}, true, "0.0 cannot be raised to a negative power"
	case x < 0 && !math.IsInf(x, 0) && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y):
		return pyNum{}, true, "a negative number to a fractional power is complex, not supported"
	}
	p := math.Pow(x, y)
	if math.IsInf(p, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return pyNum{}, true, errFloatPowBig
	}
	return pyFloat(p), true, ""
}

// pyFloatDivmod is Python's float divmod (Objects/floatobject.c): the
// remainder has the divisor's sign, the quotient is floored.
func pyFloatDivmod(x, y float64) (float64, float64) {
	mod := math.Mod(x, y)
	div := (x - mod) / y
	if mod != 0 {
		if (y < 0) != (mod < 0) {
			mod += y
			div -= 1
		}
	} else {
		mod = math.Copysign(0, y)
	}
	if div != 0 {
		fl := math.Floor(div)
		if div-fl > 0.5 {
			fl += 1
		}
		div = fl
	} else {
		div = math.Copysign(0, x/y)
	}
	return div, mod
}

func foldCompare(op string, a, b pyNum) pyNum {
	if (a.kind == pyFloatK && math.IsNaN(a.f)) || (b.kind == pyFloatK && math.IsNaN(b.f)) {
		return pyBool(op == "!=")
	}
	c := bigOf(a).Cmp(bigOf(b))
	switch op {
	case "<":
		return pyBool(c < 0)
	case "<=":
		return pyBool(c <= 0)
	case ">":
		return pyBool(c > 0)
	case ">=":
		return pyBool(c >= 0)
	case "==":
		return pyBool(c == 0)
	}
	return pyBool(c != 0)
}

// bigOf is a number as an exact big.Float (ints and ±Inf included).
func bigOf(p pyNum) *big.Float {
	if p.kind == pyFloatK {
		return new(big.Float).SetFloat64(p.f)
	}
	i := p.asInt()
	return new(big.Float).SetPrec(uint(max(i.BitLen(), 64))).SetInt(i)
}

func foldInts(op string, a, b pyNum) (pyNum, bool, string) {
	x, y := a.asInt(), b.asInt()
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		if x.BitLen()+y.BitLen() > maxIntBits {
			return pyNum{}, true, errTooLarge
		}
		r.Mul(x, y)
	case "/":
		if y.Sign() == 0 {
			return pyNum{}, true, "division by zero"
		}
		f, _ := new(big.Rat).SetFrac(x, y).Float64()
		if math.IsInf(f, 0) {
			return pyNum{}, true, errDivToFloat
		}
		return pyFloat(f), true, ""
	case "//", "%":
		if y.Sign() == 0 {
			return pyNum{}, true, "integer division or modulo by zero"
		}
		q, m := new(big.Int).QuoRem(x, y, new(big.Int))
		if m.Sign() != 0 && m.Sign() != y.Sign() {
			q.Sub(q, big.NewInt(1))
			m.Add(m, y)
		}
		r = m
		if op == "//" {
			r = q
		}
	case "**":
		if y.Sign() < 0 { // a float, as in Python (2 ** -1 is 0.5)
			fx, m := a.asFloat()
			if m == "" {
				var fy float64
				if fy, m = b.asFloat(); m == "" {
					return foldBinary("**", pyFloat(fx), pyFloat(fy))
				}
			}
			return pyNum{}, true, m
		}
		switch {
		case y.Sign() == 0:
			return pyInt(big.NewInt(1)), true, "" // 0**0 is 1, as in Python
		case x.Sign() == 0 || x.Cmp(big.NewInt(1)) == 0:
			return pyInt(new(big.Int).Set(x)), true, ""
		case x.Cmp(big.NewInt(-1)) == 0: // ±1 by the exponent's parity
			return pyInt(big.NewInt(1 - 2*int64(y.Bit(0)))), true, ""
		}
		// |x| >= 2 has at least (bits(x)-1)*y + 1 bits; y is compared
		// first, so that the product cannot overflow (issue 17 item 10:
		// 4 ** 4611686018427387904 wrapped the product and ran unbounded).
		if !y.IsInt64() || y.Int64() > maxIntBits || int64(x.BitLen()-1)*y.Int64() > maxIntBits {
			return pyNum{}, true, errTooLarge
		}
		r.Exp(x, y, nil)
	case "&", "|", "^":
		if a.kind == pyBoolK && b.kind == pyBoolK {
			switch op {
			case "&":
				return pyBool(a.b && b.b), true, ""
			case "|":
				return pyBool(a.b || b.b), true, ""
			}
			return pyBool(a.b != b.b), true, ""
		}
		switch op {
		case "&":
			r.And(x, y)
		case "|":
			r.Or(x, y)
		default:
			r.Xor(x, y)
		}
	case "<<", ">>":
		if y.Sign() < 0 {
			return pyNum{}, true, "negative shift count"
		}
		// the count is compared before it is added, so that no sum can
		// overflow (1 << 9223372036854775807 wrapped it and made Lsh
		// allocate without bound)
		if !y.IsInt64() || (op == "<<" && x.Sign() != 0 && (y.Int64() > maxIntBits || int64(x.BitLen())+y.Int64() > maxIntBits)) {
			if op == ">>" {
				if x.Sign() < 0 {
					return pyInt(big.NewInt(-1)), true, ""
				}
				return pyInt(new(big.Int)), true, ""
			}
			if x.Sign() == 0 {
				return pyInt(new(big.Int)), true, ""
			}
			return pyNum{}, true, errTooLarge
		}
		if op == "<<" {
			r.Lsh(x, uint(y.Int64()))
		} else {
			r.Rsh(x, uint(min(y.Int64(), maxIntBits+1)))
		}
	case "<", "<=", ">", ">=", "==", "!=":
		return foldCompare(op, a, b), true, ""
	default:
		return pyNum{}, false, ""
	}
	if r.BitLen() > maxIntBits {
		return pyNum{}, true, errTooLarge
	}
	return pyInt(r), true, ""
}
