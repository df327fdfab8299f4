package expr

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
)

// Leaf returns a node reading the array a (any view, broadcast views
// included). The node does not take a reference: a must stay live until
// every evaluation that reads it has returned.
func Leaf(a *array.Array) *Node {
	if err := array.Check(a); err != nil {
		return &Node{kind: kLeaf, err: fmt.Errorf("expr.Leaf: %w", err)}
	}
	return &Node{kind: kLeaf, dtype: a.DType(), shape: broadcast.StaticShape(a.Shape()...), arr: a}
}

// Var returns a named variable of the given dtype and (possibly partial)
// shape. A plan binds it to an array at evaluation (Bindings), checking the
// array against dt and shape, so one plan serves many inputs.
func Var(name string, dt array.DType, shape broadcast.Shape) *Node {
	n := &Node{kind: kVar, name: name, dtype: dt, shape: shape}
	switch {
	case name == "":
		n.err = fmt.Errorf("expr.Var: %w: empty name", ErrArgument)
	case !dt.Valid():
		n.err = fmt.Errorf("expr.Var %q: %w: %v", name, ErrDType, dt)
	}
	return n.checkCount(fmt.Sprintf("Var %q", name))
}

// Const returns a scalar (rank 0) constant of T's dtype. It broadcasts
// against anything and promotes like an array of its dtype.
func Const[T array.Element](v T) *Node {
	a, err := array.Wrap([]T{v}, []int{}...)
	if err != nil {
		return &Node{kind: kConst, err: fmt.Errorf("expr.Const: %w", err)}
	}
	return &Node{kind: kConst, dtype: a.DType(), shape: broadcast.StaticShape(), arr: a}
}

// Scalar returns a scalar constant of dtype dt holding v converted to dt (as
// a Go conversion would).
func Scalar(v float64, dt array.DType) *Node {
	if !dt.Valid() {
		return &Node{kind: kConst, err: fmt.Errorf("expr.Scalar(%v): %w: %v", v, ErrDType, dt)}
	}
	a, err := array.New(nil, dt)
	if err == nil {
		err = array.Set(a, v)
	}
	if err != nil {
		return &Node{kind: kConst, err: fmt.Errorf("expr.Scalar(%v, %v): %w", v, dt, err)}
	}
	return &Node{kind: kConst, dtype: dt, shape: broadcast.StaticShape(), arr: a}
}

// constString renders a constant's value.
func (n *Node) constString() string {
	if n.arr == nil {
		return "const(?)"
	}
	switch {
	case n.dtype == array.Bool:
		return fmt.Sprint(array.At[bool](n.arr))
	case n.dtype.IsFloat():
		return fmt.Sprint(array.At[float64](n.arr))
	case n.dtype.IsUnsigned():
		return fmt.Sprint(array.At[uint64](n.arr))
	}
	return fmt.Sprint(array.At[int64](n.arr))
}
