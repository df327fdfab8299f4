package expr

import (
	"sort"

	"github.com/stride0/stride0/compute"
)

// The functions Parse calls. Elementwise ones come from compute's op table
// (every op under its NumPy name, so a new ufunc is callable as soon as it
// has a row there), plus NumPy 2's aliases of them and the few that take
// more than operands (where, clip, round). Reductions are in
// parseReductions.

// parseAliases are NumPy's other names of table ops (numpy.abs is
// numpy.absolute; NumPy 2's array-API names asin, atan2, pow...).
var parseAliases = map[string]string{
	"abs":                 "absolute",
	"divide":              "true_divide",
	"mod":                 "remainder",
	"pow":                 "power",
	"bitwise_not":         "invert",
	"bitwise_invert":      "invert",
	"bitwise_left_shift":  "left_shift",
	"bitwise_right_shift": "right_shift",
	"asin":                "arcsin",
	"acos":                "arccos",
	"atan":                "arctan",
	"atan2":               "arctan2",
	"asinh":               "arcsinh",
	"acosh":               "arccosh",
	"atanh":               "arctanh",
	"radians":             "deg2rad",
	"degrees":             "rad2deg",
}

// parseElementwise maps each callable elementwise name to its op.
var parseElementwise = func() map[string]compute.Op {
	m := make(map[string]compute.Op)
	for _, op := range compute.Ops() {
		if a := op.Info().Arity; a == 1 || a == 2 {
			m[op.String()] = op
		}
	}
	for alias, name := range parseAliases {
		if op, ok := m[name]; ok {
			m[alias] = op
		}
	}
	return m
}()

// parseBinaryBuilders and parseUnaryBuilders are the exported constructors
// of the table's ops: Parse builds an operator or a function call with the
// constructor of its op, so that a ** b and power(a, b) are Power(a, b)
// (integers to negative powers an error, as NumPy), never a node the Go
// API would not build. An op of the table without a row here (a new one)
// is built as its constructor would be, by the generic builder; the tests
// require a row for every op.
var (
	parseBinaryBuilders = map[compute.Op]func(a, b *Node, rule ...Rule) *Node{
		compute.Add: Add, compute.Sub: Sub, compute.Mul: Mul, compute.Div: Div,
		compute.FloorDiv: FloorDiv, compute.TruncDiv: TruncDiv, compute.Power: Power,
		compute.Remainder: Remainder, compute.Fmod: Fmod, compute.Maximum: Maximum,
		compute.Minimum: Minimum, compute.Fmax: Fmax, compute.Fmin: Fmin,
		compute.Arctan2: Arctan2, compute.Hypot: Hypot, compute.Copysign: Copysign,
		compute.SquaredDiff: SquaredDiff, compute.Equal: Equal, compute.NotEqual: NotEqual,
		compute.Greater: Greater, compute.GreaterEqual: GreaterEqual, compute.Less: Less,
		compute.LessEqual: LessEqual, compute.LogicalAnd: LogicalAnd, compute.LogicalOr: LogicalOr,
		compute.LogicalXor: LogicalXor, compute.BitwiseAnd: BitwiseAnd, compute.BitwiseOr: BitwiseOr,
		compute.BitwiseXor: BitwiseXor, compute.LeftShift: LeftShift, compute.RightShift: RightShift,
		compute.PRelu:     func(a, b *Node, _ ...Rule) *Node { return PRelu(a, b) },
		compute.Logaddexp: Logaddexp, compute.Logaddexp2: Logaddexp2, compute.Heaviside: Heaviside,
		compute.FloatPower: FloatPower,
	}
	parseUnaryBuilders = map[compute.Op]func(*Node) *Node{
		compute.Neg: Neg, compute.Abs: Abs, compute.Sign: Sign, compute.Square: Square,
		compute.Reciprocal: Reciprocal, compute.Sqrt: Sqrt, compute.Exp: Exp, compute.Exp2: Exp2,
		compute.Expm1: Expm1, compute.Log: Log, compute.Log2: Log2, compute.Log10: Log10,
		compute.Log1p: Log1p, compute.Sin: Sin, compute.Cos: Cos, compute.Tan: Tan,
		compute.Arcsin: Arcsin, compute.Arccos: Arccos, compute.Arctan: Arctan, compute.Sinh: Sinh,
		compute.Cosh: Cosh, compute.Tanh: Tanh, compute.Floor: Floor, compute.Ceil: Ceil,
		compute.Trunc: Trunc, compute.Rint: Rint, compute.IsNaN: IsNaN, compute.IsInf: IsInf,
		compute.IsFinite: IsFinite, compute.LogicalNot: LogicalNot, compute.Invert: Invert,
		compute.Arcsinh: Arcsinh, compute.Arccosh: Arccosh, compute.Arctanh: Arctanh, compute.Cbrt: Cbrt,
		compute.Deg2rad: Deg2rad, compute.Rad2deg: Rad2deg, compute.Fabs: Fabs, compute.Signbit: Signbit,
		compute.Positive: Positive,
	}
)

// buildBinary builds the binary op as its constructor does.
func buildBinary(op compute.Op, a, b *Node) *Node {
	if f, ok := parseBinaryBuilders[op]; ok {
		return f(a, b)
	}
	return binary(op, a, b, nil)
}

// buildUnary builds the unary op as its constructor does.
func buildUnary(op compute.Op, x *Node) *Node {
	if f, ok := parseUnaryBuilders[op]; ok {
		return f(x)
	}
	return unary(op, x)
}

// parseSpecial are the elementwise functions with their own argument lists:
// numpy.where(cond, x, y), numpy.clip(a, a_min, a_max) (None for no bound),
// numpy.round(a, decimals=0) and its alias around.
var parseSpecial = map[string]bool{"where": true, "clip": true, "round": true, "around": true}

// reducer builds one reduction from its operand and keywords: axes is nil
// for every axis (axis absent or None).
type reducer struct {
	ddof  bool // accepts ddof= (std and var)
	build func(x *Node, axes []int, ddof int, keepDims bool) *Node
}

// parseReductions are the reductions Parse calls, as numpy.<name>(a,
// axis=None, keepdims=False) (std and var: also ddof=0). An entry without
// build is a name NumPy has that this build cannot compute yet: calling it
// is an error saying so.
var parseReductions = map[string]reducer{
	"sum":  {build: func(x *Node, axes []int, _ int, keep bool) *Node { return ReduceSum(x, axes, keep) }},
	"prod": {build: func(x *Node, axes []int, _ int, keep bool) *Node { return ReduceProd(x, axes, keep) }},
	"min":  {build: func(x *Node, axes []int, _ int, keep bool) *Node { return ReduceMin(x, axes, keep) }},
	"max":  {build: func(x *Node, axes []int, _ int, keep bool) *Node { return ReduceMax(x, axes, keep) }},
	"mean": {build: func(x *Node, axes []int, _ int, keep bool) *Node { return ReduceMean(x, axes, keep) }},
	"var":  {ddof: true, build: ReduceVar},
	"std":  {ddof: true, build: ReduceStd},
	// NumPy's other reductions, with numpy.<name>(a, axis=None,
	// keepdims=False) (argmin and argmax: axis None is the flattened array)
	"any":           {build: noDdof(Any)},
	"all":           {build: noDdof(All)},
	"argmin":        {build: noDdof(Argmin)},
	"argmax":        {build: noDdof(Argmax)},
	"count_nonzero": {build: noDdof(CountNonzero)},
	"nansum":        {build: noDdof(Nansum)},
	"nanmean":       {build: noDdof(Nanmean)},
	"nanmin":        {build: noDdof(Nanmin)},
	"nanmax":        {build: noDdof(Nanmax)},
}

// noDdof adapts a reduction without ddof to the reducer form.
func noDdof(f func(x *Node, axes []int, keepDims bool) *Node) func(*Node, []int, int, bool) *Node {
	return func(x *Node, axes []int, _ int, keep bool) *Node { return f(x, axes, keep) }
}

// parseFuncNames lists every name Parse can call (for suggestions).
var parseFuncNames = func() []string {
	var names []string
	for n := range parseElementwise {
		names = append(names, n)
	}
	for n := range parseSpecial {
		names = append(names, n)
	}
	for n := range parseReductions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}()

// isParseFunc reports whether name is callable in Parse.
func isParseFunc(name string) bool {
	_, e := parseElementwise[name]
	_, r := parseReductions[name]
	return e || r || parseSpecial[name]
}

// ParseFunctions returns the names of the functions Parse can call, sorted:
// every elementwise op of compute's table under NumPy's name and aliases,
// where, clip, round, around, and the reductions.
func ParseFunctions() []string { return append([]string(nil), parseFuncNames...) }
