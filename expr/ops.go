package expr

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

// firstErr returns the first error recorded in args: a nil operand is
// reported as an error of op (naming which operand), an operand that
// recorded an error passes that error on.
func firstErr(op string, args ...*Node) error {
	for i, a := range args {
		if a == nil {
			return fmt.Errorf("expr.%s: operand %d: %w", op, i, ErrNilNode)
		}
		if err := a.Err(); err != nil {
			return err
		}
	}
	return nil
}

// elementwiseShape infers the result shape of operands combined under rule.
func elementwiseShape(op string, rule Rule, args ...*Node) (broadcast.Shape, error) {
	shapes := make([]broadcast.Shape, len(args))
	for i, a := range args {
		shapes[i] = a.shape
	}
	var (
		s   broadcast.Shape
		err error
	)
	switch rule.kind {
	case ruleNumpy:
		s, err = broadcast.InferMultidirectional(shapes...)
	case ruleNone:
		s, err = broadcast.InferNone(shapes...)
	case rulePDPD, ruleUni:
		// B (and, for select, cond) onto the first operand.
		s = shapes[0]
		for _, b := range shapes[1:] {
			if rule.kind == ruleUni {
				_, err = broadcast.InferNumpy(b, s)
			} else {
				s, err = broadcast.InferPDPDElementwise(s, b, rule.axis)
			}
			if err != nil {
				break
			}
		}
	default:
		err = fmt.Errorf("%w: unknown rule %v", ErrArgument, rule)
	}
	if err != nil {
		return s, fmt.Errorf("expr.%s: %w", op, err)
	}
	if err := countErr(s); err != nil {
		return s, fmt.Errorf("expr.%s: result shape %v: %w", op, s, err)
	}
	return s, nil
}

func binary(op compute.Op, a, b *Node, rules []Rule) *Node {
	n := &Node{kind: kBinary, op: op, args: []*Node{a, b}}
	if len(rules) > 1 {
		n.err = fmt.Errorf("expr.%v: %w: %d rules given, want at most 1", op, ErrArgument, len(rules))
		return n
	}
	if len(rules) == 1 {
		n.rule = rules[0]
	}
	if op == compute.PRelu {
		n.rule = Unidirectional
	}
	if n.err = firstErr(op.String(), a, b); n.err != nil {
		return n
	}
	n.shape, n.err = elementwiseShape(op.String(), n.rule, a, b)
	if n.err != nil {
		return n
	}
	ct := Promote(a.dtype, b.dtype)
	switch {
	case op.IsComparison():
		n.ctype, n.dtype = ct, array.Bool
	case op.IsLogical():
		n.ctype, n.dtype = array.Bool, array.Bool
	case ct == array.Bool:
		// NumPy's boolean arithmetic: + and max are or, * and min are and.
		switch op {
		case compute.Add, compute.Maximum:
			n.op = compute.Or
		case compute.Mul, compute.Minimum:
			n.op = compute.And
		default:
			n.err = fmt.Errorf("expr.%v: %w: bool operands %v and %v (cast them first)", op, ErrDType, a.shape, b.shape)
			return n
		}
		n.ctype, n.dtype = array.Bool, array.Bool
	default:
		n.ctype, n.dtype = ct, ct
	}
	return n
}

// Add returns a + b, broadcast by rule (default Numpy).
func Add(a, b *Node, rule ...Rule) *Node { return binary(compute.Add, a, b, rule) }

// Sub returns a - b. Integers wrap around on overflow, as in Go and NumPy.
func Sub(a, b *Node, rule ...Rule) *Node { return binary(compute.Sub, a, b, rule) }

// Mul returns a * b.
func Mul(a, b *Node, rule ...Rule) *Node { return binary(compute.Mul, a, b, rule) }

// Div returns a / b. For integers it is floor division (Python //,
// OpenVINO Divide with pythondivision), and x / 0 is 0.
func Div(a, b *Node, rule ...Rule) *Node { return binary(compute.Div, a, b, rule) }

// DivTrunc returns a / b with integer division truncated toward zero (C, Go,
// ONNX Div); x / 0 is 0. For floats it equals Div.
func DivTrunc(a, b *Node, rule ...Rule) *Node { return binary(compute.DivTrunc, a, b, rule) }

// Pow returns a raised to b. For integers a negative exponent gives 0 unless
// |a| is 1.
func Pow(a, b *Node, rule ...Rule) *Node { return binary(compute.Pow, a, b, rule) }

// FloorMod returns the remainder with the sign of b (Python %, OpenVINO
// FloorMod, ONNX Mod with fmod=0). For integers x mod 0 is 0.
func FloorMod(a, b *Node, rule ...Rule) *Node { return binary(compute.FloorMod, a, b, rule) }

// Mod returns the remainder with the sign of a (C fmod, OpenVINO Mod, ONNX
// Mod with fmod=1). For integers x mod 0 is 0.
func Mod(a, b *Node, rule ...Rule) *Node { return binary(compute.Mod, a, b, rule) }

// Maximum returns the elementwise maximum; a NaN operand gives NaN.
func Maximum(a, b *Node, rule ...Rule) *Node { return binary(compute.Maximum, a, b, rule) }

// Minimum returns the elementwise minimum; a NaN operand gives NaN.
func Minimum(a, b *Node, rule ...Rule) *Node { return binary(compute.Minimum, a, b, rule) }

// SquaredDiff returns (a - b)².
func SquaredDiff(a, b *Node, rule ...Rule) *Node { return binary(compute.SquaredDiff, a, b, rule) }

// PRelu returns x where x >= 0 and x*slope elsewhere; slope is broadcast
// unidirectionally onto x (ONNX PRelu).
func PRelu(x, slope *Node) *Node { return binary(compute.PRelu, x, slope, nil) }

// Equal returns a == b as bool.
func Equal(a, b *Node, rule ...Rule) *Node { return binary(compute.Equal, a, b, rule) }

// NotEqual returns a != b as bool.
func NotEqual(a, b *Node, rule ...Rule) *Node { return binary(compute.NotEqual, a, b, rule) }

// Greater returns a > b as bool.
func Greater(a, b *Node, rule ...Rule) *Node { return binary(compute.Greater, a, b, rule) }

// GreaterEqual returns a >= b as bool.
func GreaterEqual(a, b *Node, rule ...Rule) *Node { return binary(compute.GreaterEqual, a, b, rule) }

// Less returns a < b as bool.
func Less(a, b *Node, rule ...Rule) *Node { return binary(compute.Less, a, b, rule) }

// LessEqual returns a <= b as bool.
func LessEqual(a, b *Node, rule ...Rule) *Node { return binary(compute.LessEqual, a, b, rule) }

// And returns the logical and of a and b (each read as x != 0).
func And(a, b *Node, rule ...Rule) *Node { return binary(compute.And, a, b, rule) }

// Or returns the logical or of a and b.
func Or(a, b *Node, rule ...Rule) *Node { return binary(compute.Or, a, b, rule) }

// Xor returns the logical exclusive or of a and b.
func Xor(a, b *Node, rule ...Rule) *Node { return binary(compute.Xor, a, b, rule) }

func unary(op compute.Op, x *Node) *Node {
	n := &Node{kind: kUnary, op: op, args: []*Node{x}}
	if n.err = firstErr(op.String(), x); n.err != nil {
		return n
	}
	n.shape = x.shape
	switch op {
	case compute.Not:
		n.ctype, n.dtype = array.Bool, array.Bool
	case compute.Neg:
		if x.dtype == array.Bool {
			n.err = fmt.Errorf("expr.negative: %w: bool operand %v (use Not)", ErrDType, x.shape)
		}
		n.ctype, n.dtype = x.dtype, x.dtype
	case compute.Abs:
		n.ctype, n.dtype = x.dtype, x.dtype
	default: // sqrt, exp, log: float results
		n.ctype = floatFor(x.dtype)
		n.dtype = n.ctype
	}
	return n
}

// Neg returns -x (integers wrap around).
func Neg(x *Node) *Node { return unary(compute.Neg, x) }

// Abs returns |x| (the most negative integer stays itself, as in NumPy).
func Abs(x *Node) *Node { return unary(compute.Abs, x) }

// Sqrt returns the square root; integer inputs give the float dtype that
// holds them (Promote's rule).
func Sqrt(x *Node) *Node { return unary(compute.Sqrt, x) }

// Exp returns e**x, in a float dtype like Sqrt.
func Exp(x *Node) *Node { return unary(compute.Exp, x) }

// Log returns the natural logarithm, in a float dtype like Sqrt.
func Log(x *Node) *Node { return unary(compute.Log, x) }

// Not returns the logical negation (x == 0).
func Not(x *Node) *Node { return unary(compute.Not, x) }

// Cast converts x to dt with Go's conversion rules (float to integer
// truncates; anything to bool is x != 0).
func Cast(x *Node, dt array.DType) *Node {
	n := &Node{kind: kCast, args: []*Node{x}, dtype: dt, ctype: dt}
	if n.err = firstErr("Cast", x); n.err != nil {
		return n
	}
	if !dt.Valid() {
		n.err = fmt.Errorf("expr.Cast: %w: %v", ErrDType, dt)
	}
	n.shape = x.shape
	return n
}

// Where returns x where cond is true (non-zero) and y elsewhere (OpenVINO
// Select, ONNX Where), the three broadcast by rule. With PDPD, cond and y are
// broadcast onto x's shape.
func Where(cond, x, y *Node, rule ...Rule) *Node {
	n := &Node{kind: kWhere, args: []*Node{cond, x, y}}
	if len(rule) > 1 {
		n.err = fmt.Errorf("expr.select: %w: %d rules given, want at most 1", ErrArgument, len(rule))
		return n
	}
	if len(rule) == 1 {
		n.rule = rule[0]
	}
	if n.err = firstErr("select", cond, x, y); n.err != nil {
		return n
	}
	switch {
	case n.rule.kind == rulePDPD && x.shape.RankKnown && y.shape.RankKnown && cond.shape.RankKnown:
		// OpenVINO's Select: else at the rule's axis (-1: right-aligned),
		// cond at the same axis, or further left if it would not fit
		// (see selectAxes); resolveRule places them alike at evaluation.
		ay, ac := selectAxes(len(x.shape.Dims), len(y.shape.Dims), trimmedRank(cond.shape), n.rule.axis)
		if n.shape, n.err = broadcast.InferPDPDElementwise(x.shape, y.shape, ay); n.err == nil {
			n.shape, n.err = broadcast.InferPDPDElementwise(n.shape, cond.shape, ac)
		}
		if n.err != nil {
			n.err = fmt.Errorf("expr.select: %w", n.err)
		}
	case n.rule.kind == rulePDPD || n.rule.kind == ruleUni:
		n.shape, n.err = elementwiseShape("select", n.rule, x, y, cond)
	default:
		n.shape, n.err = elementwiseShape("select", n.rule, cond, x, y)
	}
	n.ctype = Promote(x.dtype, y.dtype)
	n.dtype = n.ctype
	return n
}

// variadic folds op over xs with Numpy broadcasting (ONNX Sum, Max, Min).
func variadic(name string, op func(a, b *Node, r ...Rule) *Node, xs []*Node) *Node {
	if len(xs) == 0 {
		return &Node{kind: kBinary, err: fmt.Errorf("expr.%s: %w: no operands", name, ErrArgument)}
	}
	if err := firstErr(name, xs...); err != nil {
		return &Node{kind: kBinary, err: err}
	}
	acc := xs[0]
	if len(xs) == 1 {
		return Add(acc, Scalar(0, acc.DType()))
	}
	for _, x := range xs[1:] {
		acc = op(acc, x)
	}
	return acc
}

// SumOf returns the elementwise sum of any number of operands (ONNX Sum).
func SumOf(xs ...*Node) *Node { return variadic("SumOf", Add, xs) }

// MaxOf returns the elementwise maximum of any number of operands (ONNX Max).
func MaxOf(xs ...*Node) *Node { return variadic("MaxOf", Maximum, xs) }

// MinOf returns the elementwise minimum of any number of operands (ONNX Min).
func MinOf(xs ...*Node) *Node { return variadic("MinOf", Minimum, xs) }

// MeanOf returns the elementwise mean of any number of operands (ONNX Mean),
// computed as their sum divided by their count, in the operands' promoted
// dtype (floats; integers use their float dtype, as Sqrt does).
func MeanOf(xs ...*Node) *Node {
	if len(xs) == 0 {
		return &Node{kind: kBinary, err: fmt.Errorf("expr.MeanOf: %w: no operands", ErrArgument)}
	}
	if err := firstErr("MeanOf", xs...); err != nil {
		return &Node{kind: kBinary, err: err}
	}
	s := SumOf(xs...)
	if s.err != nil {
		return s
	}
	dt := floatFor(s.dtype)
	return Div(Cast(s, dt), Scalar(float64(len(xs)), dt))
}

// selectAxes gives the pdpd start axes of else and cond for a select whose
// then has rank rx: else at axis (-1: rx - ry); cond, whose trailing 1s are
// dropped (trimmed rank rc), at the same axis, moved left as far as needed
// for it to fit, as OpenVINO's Select reference pads it (front 1s while it
// is shorter than then).
func selectAxes(rx, ry, rc, axis int) (int, int) {
	if axis == -1 {
		axis = rx - ry
	}
	return axis, max(min(axis, rx-rc), 0)
}

// trimmedRank is the rank of s without its trailing static 1s.
func trimmedRank(s broadcast.Shape) int {
	r := len(s.Dims)
	for r > 0 && s.Dims[r-1] == broadcast.StaticDim(1) {
		r--
	}
	return r
}
