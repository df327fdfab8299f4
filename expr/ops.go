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

// resolveOp sets n's compute and result dtypes for op over args by NumPy 2's
// rules (promoteWeak, then the op's loops; see the package documentation)
// and replaces each weak constant of args by a strong one of the compute
// dtype, checking that it fits.
func (n *Node) resolveOp(op compute.Op, args []*Node) {
	info := op.Info()
	p := promoteWeak(args...)
	if p == array.Bool && (op == compute.Sub || op == compute.Neg || op == compute.Sign || op == compute.Positive) {
		// NumPy refuses these rather than computing them in int8 (sign and
		// positive of bool have no loop: their resolvers take the
		// operand's type as is).
		hint := "use LogicalXor or LogicalNot"
		if op == compute.Positive {
			hint = "cast to an integer first"
		}
		n.err = fmt.Errorf("expr.%v: %w: bool operands %v (%s)", op, ErrDType, shapesOf(args), hint)
		return
	}
	l, err := loopFor(op, p, args...)
	if err != nil {
		n.err = err
		return
	}
	switch {
	case info.BoolIn:
		l = array.Bool
	case info.Result == compute.IntsToF64 && !l.IsFloat():
		l = array.Float64
	case op.IsComparison():
		l = widenForWeak(l, args)
	}
	n.ctype, n.dtype = l, l
	if info.Result == compute.BoolOut {
		n.dtype = array.Bool
	}
	for i, a := range args {
		if n.args[i], n.err = a.asDType(l, op.String()); n.err != nil {
			return
		}
	}
}

func shapesOf(args []*Node) []broadcast.Shape {
	s := make([]broadcast.Shape, len(args))
	for i, a := range args {
		s[i] = a.shape
	}
	return s
}

// widenForWeak gives the dtype a comparison with weak ints computes in: dt,
// unless some weak int is out of dt's range (uint8 < 300, uint32 == -1),
// where NumPy 2 compares the exact values: then int64, or float64 for
// uint64 against a negative int (its order and equality are exact there).
func widenForWeak(dt array.DType, args []*Node) array.DType {
	if !dt.IsInteger() {
		return dt
	}
	for _, a := range args {
		if a.weak == weakInt && !intFits(a.wi, dt) {
			if dt == array.Uint64 {
				return array.Float64
			}
			return array.Int64
		}
	}
	return dt
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
	n.resolveOp(op, n.args)
	return n
}

func unary(op compute.Op, x *Node) *Node {
	n := &Node{kind: kUnary, op: op, args: []*Node{x}}
	if n.err = firstErr(op.String(), x); n.err != nil {
		return n
	}
	n.shape = x.shape
	n.resolveOp(op, n.args)
	return n
}

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
// Select, ONNX Where, numpy.where), the three broadcast by rule. The result
// dtype promotes x and y, weak constants included (where(c, u8, 2.5) is
// float64, where(c, f32, 1) float32). With PDPD, cond and y are
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
	if n.err != nil {
		return n
	}
	n.ctype = promoteWeak(x, y)
	n.dtype = n.ctype
	if n.args[0], n.err = cond.asDType(array.Bool, "select"); n.err != nil {
		return n
	}
	for i := 1; i < 3; i++ {
		if n.args[i], n.err = n.args[i].asDType(n.ctype, "select"); n.err != nil {
			return n
		}
	}
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
