package expr

import (
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// Promote returns the dtype two operands of an elementwise op are computed
// in: NumPy's promotion table (numpy.promote_types), without value-based
// casting, so a scalar constant promotes like an array of its dtype.
//
//   - bool with any type gives that type;
//   - two integers of the same signedness give the wider one;
//   - a signed and an unsigned integer give the narrowest signed type that
//     holds both (int8+uint8 = int16), and float64 for int64+uint64;
//   - an integer and a float give the wider of the float and the smallest
//     float that holds the integer (int8/uint8: float16, int16/uint16:
//     float32, wider: float64);
//   - two floats give the wider one.
//
// It is array.PromoteTypes, which linalg uses too.
func Promote(a, b array.DType) array.DType { return array.PromoteTypes(a, b) }

// floatFor is the smallest float that holds every value of an integer (or
// bool) type, as NumPy uses for sqrt(int8) -> float16.
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

// weakKind marks a constant given as a plain Go number (Const of an int,
// a float64 or a bool): a weak scalar in the sense of NumPy's NEP 50, which
// takes the dtype of the operands it meets.
type weakKind uint8

const (
	strong    weakKind = iota
	weakBool           // Go bool
	weakInt            // Go int
	weakFloat          // Go float64
)

func (w weakKind) String() string {
	switch w {
	case weakBool:
		return "bool"
	case weakInt:
		return "int"
	case weakFloat:
		return "float"
	}
	return "strong"
}

// promoteWeak returns the dtype operands are promoted to, NEP 50's rules:
// the strong operands are promoted together (array.PromoteTypesN, which is
// Promote for two; three, as Clip's, follow NumPy's n-ary rule); then a weak int leaves an
// integer or float dtype as it is and turns bool into int64; a weak float
// leaves a float dtype as it is and turns an integer or bool into float64;
// a weak bool changes nothing. With only weak operands the result is the
// default dtype of the highest kind (bool, int64, float64).
func promoteWeak(args ...*Node) array.DType {
	var strongs []array.DType
	hi := strong
	for _, a := range args {
		if a.weak != strong {
			hi = max(hi, a.weak)
			continue
		}
		strongs = append(strongs, a.dtype)
	}
	dt := array.PromoteTypesN(strongs...) // NumPy's n-ary rule (Clip's three operands), Invalid for none
	switch {
	case dt == array.Invalid:
		switch hi {
		case weakFloat:
			return array.Float64
		case weakInt:
			return array.Int64
		}
		return array.Bool
	case hi == weakFloat && !dt.IsFloat():
		return array.Float64
	case hi == weakInt && dt == array.Bool:
		return array.Int64
	}
	return dt
}

// loopFor is the dtype op computes args in, NumPy 2's rules: each weak
// constant stands for the dtype promoteWeak gives it, p; then the first of
// the op's type loops that every operand converts to safely
// (compute.Op.LoopFor). True division is computed in p's float type
// instead (NumPy's resolver for it promotes first). It reports an ErrDType
// error, like NumPy's TypeError, when there is no loop.
func loopFor(op compute.Op, p array.DType, args ...*Node) (array.DType, error) {
	ts := make([]compute.Type, len(args))
	for i, a := range args {
		ts[i] = compute.Type(a.dtype)
		if a.weak != strong {
			ts[i] = compute.Type(p)
		}
	}
	if op.Info().Result == compute.IntsToF64 {
		ts = []compute.Type{compute.Type(p)}
	}
	l, ok := op.LoopFor(ts...)
	if !ok {
		ds := make([]string, len(args))
		for i, a := range args {
			ds[i] = fmt.Sprintf("%v%v", a.dtype, a.shape)
			if a.weak != strong {
				ds[i] = "weak " + a.weak.String()
			}
		}
		return array.Invalid, fmt.Errorf("expr.%v: %w: no loop for operands %v (promoted to %v)", op, ErrDType, ds, p)
	}
	return array.DType(l), nil
}
