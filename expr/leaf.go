package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow/float16"

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

// Const returns a scalar (rank 0) constant holding v.
//
// A plain Go number, as an untyped constant gives (Const(2): int,
// Const(2.5): float64, Const(true): bool), is weak, like a Python scalar in
// NumPy 2 (NEP 50): it takes the dtype of the operands it meets (see the
// package documentation), and an int that the resulting dtype cannot hold is
// an error (ErrOverflow) when the op is built. On its own, or under a node
// that is not an elementwise op, it is int64, float64 or bool.
//
// A sized Go type (int8(1), float32(2), uint64(7), float16.Num) is strong:
// it promotes like an array of its dtype.
func Const[T array.Element | int](v T) *Node {
	switch x := any(v).(type) {
	case int:
		a, err := array.Wrap([]int64{int64(x)}, []int{}...)
		if err != nil {
			return &Node{kind: kConst, err: fmt.Errorf("expr.Const: %w", err)}
		}
		return &Node{kind: kConst, dtype: array.Int64, shape: broadcast.StaticShape(), arr: a, weak: weakInt, wv: float64(x), wi: int64(x)}
	case float64:
		return weakConst(array.Float64, weakFloat, x)
	case bool:
		f := 0.0
		if x {
			f = 1
		}
		return weakConst(array.Bool, weakBool, f)
	}
	var (
		a   *array.Array
		err error
	)
	switch x := any(v).(type) {
	case int8:
		a, err = array.Wrap([]int8{x}, []int{}...)
	case int16:
		a, err = array.Wrap([]int16{x}, []int{}...)
	case int32:
		a, err = array.Wrap([]int32{x}, []int{}...)
	case int64:
		a, err = array.Wrap([]int64{x}, []int{}...)
	case uint8:
		a, err = array.Wrap([]uint8{x}, []int{}...)
	case uint16:
		a, err = array.Wrap([]uint16{x}, []int{}...)
	case uint32:
		a, err = array.Wrap([]uint32{x}, []int{}...)
	case uint64:
		a, err = array.Wrap([]uint64{x}, []int{}...)
	case float16.Num:
		a, err = array.Wrap([]float16.Num{x}, []int{}...)
	case float32:
		a, err = array.Wrap([]float32{x}, []int{}...)
	}
	if err == nil && a == nil {
		err = fmt.Errorf("%w: %T", ErrDType, v)
	}
	if err != nil {
		return &Node{kind: kConst, err: fmt.Errorf("expr.Const: %w", err)}
	}
	return &Node{kind: kConst, dtype: a.DType(), shape: broadcast.StaticShape(), arr: a}
}

func weakConst(dt array.DType, w weakKind, v float64) *Node {
	n := Scalar(v, dt)
	n.weak, n.wv = w, v
	return n
}

// Scalar returns a strong scalar constant of dtype dt holding v. A fraction
// converted to an integer dtype is truncated toward zero (NumPy's
// conversion); a value the integer dtype cannot hold then (np.int8(300)),
// or a NaN or infinity, is an error wrapping ErrOverflow. Bool is v != 0; a
// float dtype rounds to nearest.
func Scalar(v float64, dt array.DType) *Node {
	if !dt.Valid() {
		return &Node{kind: kConst, err: fmt.Errorf("expr.Scalar(%v): %w: %v", v, ErrDType, dt)}
	}
	if dt.IsInteger() {
		t := math.Trunc(v)
		if lo, hi := intRange(dt); math.IsNaN(v) || t < lo || t > hi {
			return &Node{kind: kConst, err: fmt.Errorf("expr.Scalar(%v, %v): %w: %v cannot hold %v", v, dt, ErrOverflow, dt, v)}
		}
		v = t
	}
	a, err := array.New(nil, dt)
	if err == nil {
		err = array.Set(a, v)
	}
	if err != nil {
		a.Release()
		return &Node{kind: kConst, err: fmt.Errorf("expr.Scalar(%v, %v): %w", v, dt, err)}
	}
	return &Node{kind: kConst, dtype: dt, shape: broadcast.StaticShape(), arr: a}
}

// intRange is the range of an integer dtype as float64 bounds: the largest
// float64 at most the maximum (exact for every type but the 64-bit ones,
// where 2^63 and 2^64 are excluded by comparing with the next float down).
func intRange(dt array.DType) (float64, float64) {
	switch dt {
	case array.Int8:
		return math.MinInt8, math.MaxInt8
	case array.Int16:
		return math.MinInt16, math.MaxInt16
	case array.Int32:
		return math.MinInt32, math.MaxInt32
	case array.Int64:
		return math.MinInt64, math.Nextafter(1<<63, 0)
	case array.Uint8:
		return 0, math.MaxUint8
	case array.Uint16:
		return 0, math.MaxUint16
	case array.Uint32:
		return 0, math.MaxUint32
	}
	return 0, math.Nextafter(1<<64, 0)
}

// asDType returns the strong constant a weak one becomes among operands
// computed in dt, or an error wrapping ErrOverflow (NumPy's OverflowError)
// when it is an int that dt, an integer dtype, cannot hold. A strong node
// is returned as it is.
func (n *Node) asDType(dt array.DType, op string) (*Node, error) {
	if n.weak == strong || n.dtype == dt {
		return n, nil
	}
	if n.weak == weakInt && dt.IsInteger() && !intFits(n.wi, dt) {
		return nil, fmt.Errorf("expr.%s: %w: Go int %d out of bounds for %v", op, ErrOverflow, n.wi, dt)
	}
	v := n.wv
	if n.weak == weakInt && !dt.IsInteger() {
		v = float64(n.wi)
	}
	c := Scalar(v, dt)
	if c.err != nil {
		return nil, fmt.Errorf("expr.%s: %w", op, c.err)
	}
	if n.weak == weakInt && dt.IsInteger() {
		// exact for the 64-bit types too (float64 would round)
		var err error
		if dt.IsUnsigned() {
			err = array.Set(c.arr, uint64(n.wi))
		} else {
			err = array.Set(c.arr, n.wi)
		}
		if err != nil {
			return nil, fmt.Errorf("expr.%s: %w", op, err)
		}
	}
	return c, nil
}

// intFits reports whether dt holds v.
func intFits(v int64, dt array.DType) bool {
	switch dt {
	case array.Int8:
		return v >= math.MinInt8 && v <= math.MaxInt8
	case array.Int16:
		return v >= math.MinInt16 && v <= math.MaxInt16
	case array.Int32:
		return v >= math.MinInt32 && v <= math.MaxInt32
	case array.Int64:
		return true
	case array.Uint8:
		return v >= 0 && v <= math.MaxUint8
	case array.Uint16:
		return v >= 0 && v <= math.MaxUint16
	case array.Uint32:
		return v >= 0 && v <= math.MaxUint32
	case array.Uint64:
		return v >= 0
	case array.Bool:
		return v == 0 || v == 1
	}
	return false
}

// constString renders a constant's value.
func (n *Node) constString() string {
	if n.arr == nil {
		return "const(?)"
	}
	var v any
	var err error
	switch {
	case n.dtype == array.Bool:
		v, err = array.At[bool](n.arr)
	case n.dtype.IsFloat():
		v, err = array.At[float64](n.arr)
	case n.dtype.IsUnsigned():
		v, err = array.At[uint64](n.arr)
	default:
		v, err = array.At[int64](n.arr)
	}
	if err != nil {
		return "const(?)" // released
	}
	return fmt.Sprint(v)
}
