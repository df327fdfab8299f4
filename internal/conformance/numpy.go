package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
)

// Kind numpy: a NumPy 2 function applied to arrays and Python scalars.
//
// Every ufunc of compute's op table is found by its NumPy name (aliases:
// divide, mod, abs, bitwise_not); where, clip and round, and the
// reductions (sum, prod, mean, var, std, min, max, argmin, argmax, any,
// all, count_nonzero, nansum, nanmean, nanmin, nanmax) and scans (cumsum,
// cumprod) map to their expr functions (numpy_reduce.go). A
// Python scalar input becomes a weak constant (expr.Const of a Go int,
// float64 or bool), so that NEP 50's promotion is what is tested. Each
// case is computed from the inputs as given, from views of them with
// negative strides, with small tiles and several workers, and into a
// transposed output (see Library.eval); the result must have the expected
// shape, dtype and values, within the case's ulp tolerance (NaN equals NaN,
// -0 equals 0), or every path must fail when NumPy raised.

// numpyOps are the functions of kind numpy that are not table ufuncs.
var numpyAliases = map[string]string{
	"divide":         "true_divide",
	"mod":            "remainder",
	"abs":            "absolute",
	"bitwise_not":    "invert",
	"bitwise_invert": "invert",
	"around":         "round",
	"amin":           "min",
	"amax":           "max",
}

// numpyBuilder builds the expression of a case from its input nodes.
type numpyBuilder func(xs []*expr.Node) (*expr.Node, error)

// numpyOp maps a case to its builder and arity (-1: any), or says why it
// is skipped.
func numpyOp(c Case) (numpyBuilder, int, string) {
	name := strings.ToLower(c.Op)
	if a, ok := numpyAliases[name]; ok {
		name = a
	}
	if op, ok := compute.OpByName(name); ok {
		if op.IsUnary() {
			f := unaryByOp[op]
			return func(xs []*expr.Node) (*expr.Node, error) { return f(xs[0]), nil }, 1, ""
		}
		f := binaryByOp[op]
		return func(xs []*expr.Node) (*expr.Node, error) { return f(xs[0], xs[1]), nil }, 2, ""
	}
	switch name {
	case "where":
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Where(xs[0], xs[1], xs[2]), nil }, 3, ""
	case "clip":
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Clip(xs[0], xs[1], xs[2]), nil }, 3, ""
	case "round":
		d, err := intArg(c, "decimals", 0)
		if err != nil {
			return nil, 0, "malformed: " + err.Error()
		}
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Round(xs[0], d), nil }, 1, ""
	case "sum", "prod", "mean", "min", "max", "var", "std", "argmin", "argmax", "any", "all",
		"count_nonzero", "cumsum", "cumprod", "nansum", "nanmean", "nanmin", "nanmax":
		return reductionOp(c, name)
	}
	if b, arity, why, ok := structuralOp(c, name); ok {
		return b, arity, why
	}
	return nil, 0, fmt.Sprintf("op %q is not supported", c.Op)
}

// intArg reads an integer keyword argument.
func intArg(c Case, key string, def int) (int, error) {
	raw, ok := c.Args[key]
	if !ok || isNull(raw) {
		return def, nil
	}
	n, err := parseInt(raw)
	if err != nil {
		return 0, fmt.Errorf("args.%s: %w", key, err)
	}
	return n, nil
}

// axesArg reads axis: absent or null (every axis), an int, or a list.
func axesArg(c Case) ([]int, error) {
	raw, ok := c.Args["axis"]
	if !ok || isNull(raw) {
		return nil, nil
	}
	if n, err := parseInt(raw); err == nil {
		return []int{n}, nil
	}
	var l []int
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("args.axis: %w", err)
	}
	if l == nil {
		l = []int{}
	}
	return l, nil
}

var binaryByOp = map[compute.Op]func(a, b *expr.Node, r ...expr.Rule) *expr.Node{
	compute.Add: expr.Add, compute.Sub: expr.Sub, compute.Mul: expr.Mul, compute.Div: expr.Div,
	compute.FloorDiv: expr.FloorDiv, compute.TruncDiv: expr.TruncDiv, compute.Power: expr.Power,
	compute.Remainder: expr.Remainder, compute.Fmod: expr.Fmod, compute.Maximum: expr.Maximum,
	compute.Minimum: expr.Minimum, compute.Fmax: expr.Fmax, compute.Fmin: expr.Fmin,
	compute.Arctan2: expr.Arctan2, compute.Hypot: expr.Hypot, compute.Copysign: expr.Copysign,
	compute.SquaredDiff: expr.SquaredDiff, compute.Equal: expr.Equal, compute.NotEqual: expr.NotEqual,
	compute.Greater: expr.Greater, compute.GreaterEqual: expr.GreaterEqual, compute.Less: expr.Less,
	compute.LessEqual: expr.LessEqual, compute.LogicalAnd: expr.LogicalAnd, compute.LogicalOr: expr.LogicalOr,
	compute.LogicalXor: expr.LogicalXor, compute.BitwiseAnd: expr.BitwiseAnd, compute.BitwiseOr: expr.BitwiseOr,
	compute.BitwiseXor: expr.BitwiseXor, compute.LeftShift: expr.LeftShift, compute.RightShift: expr.RightShift,
	compute.PRelu:     func(a, b *expr.Node, _ ...expr.Rule) *expr.Node { return expr.PRelu(a, b) },
	compute.Logaddexp: expr.Logaddexp, compute.Logaddexp2: expr.Logaddexp2, compute.Heaviside: expr.Heaviside,
	compute.FloatPower: expr.FloatPower,
}

var unaryByOp = map[compute.Op]func(*expr.Node) *expr.Node{
	compute.Neg: expr.Neg, compute.Abs: expr.Abs, compute.Sign: expr.Sign, compute.Square: expr.Square,
	compute.Reciprocal: expr.Reciprocal, compute.Sqrt: expr.Sqrt, compute.Exp: expr.Exp, compute.Exp2: expr.Exp2,
	compute.Expm1: expr.Expm1, compute.Log: expr.Log, compute.Log2: expr.Log2, compute.Log10: expr.Log10,
	compute.Log1p: expr.Log1p, compute.Sin: expr.Sin, compute.Cos: expr.Cos, compute.Tan: expr.Tan,
	compute.Arcsin: expr.Arcsin, compute.Arccos: expr.Arccos, compute.Arctan: expr.Arctan, compute.Sinh: expr.Sinh,
	compute.Cosh: expr.Cosh, compute.Tanh: expr.Tanh, compute.Floor: expr.Floor, compute.Ceil: expr.Ceil,
	compute.Trunc: expr.Trunc, compute.Rint: expr.Rint, compute.IsNaN: expr.IsNaN, compute.IsInf: expr.IsInf,
	compute.IsFinite: expr.IsFinite, compute.LogicalNot: expr.LogicalNot, compute.Invert: expr.Invert,
	compute.Arcsinh: expr.Arcsinh, compute.Arccosh: expr.Arccosh, compute.Arctanh: expr.Arctanh, compute.Cbrt: expr.Cbrt,
	compute.Deg2rad: expr.Deg2rad, compute.Rad2deg: expr.Rad2deg, compute.Fabs: expr.Fabs, compute.Signbit: expr.Signbit,
	compute.Positive: expr.Positive,
}

// clipNoBound reports whether the Python int bound in, beyond Go's int,
// bounds nothing in numpy.clip of the integer array x (NumPy 2.1 and later,
// numpy/numpy#26892): a lower bound at or below x's dtype's minimum, an
// upper one at or above its maximum. expr.Clip decides so itself for the
// weak ints a Const holds; the others can only be passed as nil (None).
func clipNoBound(x, in Input, lower bool) bool {
	dt, err := array.ParseDType(x.DType)
	if x.Weak || err != nil || !dt.IsInteger() || in.DType != "int" {
		return false
	}
	v, ok := new(big.Int).SetString(string(bytes.TrimSpace(in.Value)), 10)
	if !ok {
		return false
	}
	bits := uint(8 * dt.Size())
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), bits)
	if dt.IsSigned() {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	if lower {
		return v.Cmp(lo) <= 0
	}
	return v.Cmp(hi) >= 0
}

// weakNode is a Python scalar input as a weak constant.
func weakNode(in Input) (*expr.Node, string) {
	raw := bytes.TrimSpace(in.Value)
	switch in.DType {
	case "bool":
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, "malformed: weak bool: " + err.Error()
		}
		return expr.Const(b), ""
	case "int":
		v, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, fmt.Sprintf("weak int %s: outside Go's int", raw)
		}
		return expr.Const(int(v)), ""
	case "float":
		var s string
		if json.Unmarshal(raw, &s) == nil {
			switch strings.ToLower(s) {
			case "nan":
				return expr.Const(math.NaN()), ""
			case "inf", "+inf":
				return expr.Const(math.Inf(1)), ""
			case "-inf":
				return expr.Const(math.Inf(-1)), ""
			}
			return nil, "malformed: weak float " + s
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return nil, "malformed: weak float: " + err.Error()
		}
		return expr.Const(f), ""
	}
	return nil, fmt.Sprintf("malformed: weak scalar of dtype %q", in.DType)
}

func (l *Library) numpyCase(c Case) Result {
	build, arity, why := numpyOp(c)
	if why != "" {
		if strings.HasPrefix(why, "malformed: ") {
			return malformed("%s", strings.TrimPrefix(why, "malformed: "))
		}
		return skipped(why)
	}
	if arity >= 0 && len(c.Inputs) != arity {
		return malformed("%s needs %d inputs, has %d", c.Op, arity, len(c.Inputs))
	}
	mem := l.mem()
	var arrs []*array.Array
	defer func() {
		for _, a := range arrs {
			a.Release()
		}
	}()
	plain := make([]*expr.Node, len(c.Inputs))
	rev := make([]*expr.Node, len(c.Inputs))
	for k, in := range c.Inputs {
		if in.Weak {
			n, why := weakNode(in)
			if why != "" && strings.EqualFold(c.Op, "clip") && k > 0 && clipNoBound(c.Inputs[0], in, k == 1) {
				continue // None: Clip's nil bound
			}
			if why != "" {
				if strings.HasPrefix(why, "malformed: ") {
					return malformed("inputs[%d]: %s", k, strings.TrimPrefix(why, "malformed: "))
				}
				return skipped(fmt.Sprintf("inputs[%d]: %s", k, why))
			}
			plain[k], rev[k] = n, n
			continue
		}
		dt, err := array.ParseDType(in.DType)
		if err != nil {
			return skipped(fmt.Sprintf("inputs[%d]: dtype %q: not supported by the library", k, in.DType))
		}
		shape, ok := in.Shape.Static()
		if !ok || in.Values == nil {
			return malformed("inputs[%d]: an array needs a static shape and values", k)
		}
		size, err := broadcast.Size(shape)
		if err != nil {
			return malformed("inputs[%d]: %v", k, err)
		}
		t, err := decodeTensor(in.Values, dt, shape)
		if err != nil {
			return malformed("inputs[%d]: %v", k, err)
		}
		if t.len() != size {
			return malformed("inputs[%d]: %d values for shape %v", k, t.len(), shape)
		}
		a, err := newArray(mem, t)
		if err != nil {
			return failure("building an input: " + err.Error())
		}
		arrs = append(arrs, a)
		r, err := reversed(mem, t)
		if err != nil {
			return failure("building a reversed input: " + err.Error())
		}
		arrs = append(arrs, r)
		plain[k], rev[k] = expr.Leaf(a), expr.Leaf(r)
	}
	if strings.EqualFold(c.Op, "compress") {
		return l.compressCase(c, [][]*expr.Node{plain, rev})
	}
	var paths []path
	for _, p := range []struct {
		label string
		xs    []*expr.Node
	}{{"expr", plain}, {"expr of reversed inputs", rev}} {
		n, err := build(p.xs)
		if err != nil {
			paths = append(paths, path{label: p.label, err: err})
			continue
		}
		paths = append(paths, l.eval(p.label, n)...)
	}
	return judge(c, variant{label: "as given"}, c.Expected.DType, paths)
}
