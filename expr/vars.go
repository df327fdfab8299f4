package expr

import (
	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// Variables returns the variable nodes of n, one per name (the first met),
// in the order of Vars, so that a caller binding them (a table layer
// matching them to columns) can check each one's dtype and shape before
// evaluating.
func (n *Node) Variables() []*Node {
	var vs []*Node
	seen := map[string]bool{}
	n.walk(func(m *Node) {
		if m.kind == kVar && !seen[m.name] {
			seen[m.name] = true
			vs = append(vs, m)
		}
	})
	return vs
}

// VarName returns the name of a variable node, and "" for any other node
// (and for nil).
func (n *Node) VarName() string {
	if n == nil || n.kind != kVar {
		return ""
	}
	return n.name
}

// Connective reports whether n is a boolean connective and returns its
// name and operands: "and" (logical_and, or bitwise_and of bools), "or"
// (logical_or, or bitwise_or of bools) or "not" (logical_not, or invert of
// a bool); "" and nil for any other node. expr propagates nulls through
// them (null or true is null, Arrow's default); a table layer that
// evaluates predicates with SQL's three-valued logic (null or true is
// true) evaluates the operands itself and combines them.
func (n *Node) Connective() (string, []*Node) {
	if n == nil || n.err != nil {
		return "", nil
	}
	bools := true
	for _, a := range n.args {
		bools = bools && a.dtype == array.Bool
	}
	switch {
	case n.kind == kBinary && (n.op == compute.LogicalAnd || (n.op == compute.BitwiseAnd && bools)):
		return "and", n.args
	case n.kind == kBinary && (n.op == compute.LogicalOr || (n.op == compute.BitwiseOr && bools)):
		return "or", n.args
	case n.kind == kUnary && (n.op == compute.LogicalNot || (n.op == compute.Invert && bools)):
		return "not", n.args
	}
	return "", nil
}

// Comparison reports whether n compares a variable with a weak numeric
// constant (as Parse builds "x > 0.5" or "3 <= k"), and returns the
// operator with the variable on the left ("==", "!=", "<", "<=", ">",
// ">="), the variable's name and the constant's value. A table layer uses
// it to skip stored blocks whose statistics cannot match; ok is false for
// any other node.
func (n *Node) Comparison() (op, name string, value float64, ok bool) {
	if n == nil || n.err != nil || n.kind != kBinary || len(n.args) != 2 {
		return "", "", 0, false
	}
	ops := map[compute.Op][2]string{
		compute.Equal: {"==", "=="}, compute.NotEqual: {"!=", "!="},
		compute.Less: {"<", ">"}, compute.LessEqual: {"<=", ">="},
		compute.Greater: {">", "<"}, compute.GreaterEqual: {">=", "<="},
	}
	o, found := ops[n.op]
	if !found {
		return "", "", 0, false
	}
	a, b := n.args[0], n.args[1]
	switch {
	case a.kind == kVar && b.kind == kConst:
		if v, ok := b.number(); ok {
			return o[0], a.name, v, true
		}
	case b.kind == kVar && a.kind == kConst:
		if v, ok := a.number(); ok {
			return o[1], b.name, v, true
		}
	}
	return "", "", 0, false
}

// number is a numeric constant's value (a weak one's, or a rank-0
// array's of a number dtype, as a weak int becomes when it meets a float
// operand).
func (n *Node) number() (float64, bool) {
	switch {
	case n.weak == weakBool:
		return 0, false
	case n.weak != strong:
		return n.wv, true
	case n.arr != nil && n.arr.Rank() == 0 && n.dtype != array.Bool && n.dtype.Valid():
		v, err := array.At[float64](n.arr) // a released array is no constant
		return v, err == nil
	}
	return 0, false
}
