package compute

import "fmt"

// Op is an elementwise operator (binary or unary). Its properties are one
// row of the op table (Info); its kernels are generated from the row of the
// same name in gen.go, and some are replaced by vek or assembly.
type Op uint8

// The operators. Binary ones first, then unary; the order is the table's.
const (
	OpInvalid Op = iota
	Add
	Sub
	Mul
	Div      // true division: integers are computed in float64
	FloorDiv // floor division (Python //); integers: x//0 = 0
	TruncDiv // division truncated toward zero (C, ONNX Div); integers: x/0 = 0
	Remainder
	Fmod
	Power
	Maximum
	Minimum
	Fmax
	Fmin
	Arctan2
	Hypot
	Copysign
	SquaredDiff
	PRelu
	Equal
	NotEqual
	Greater
	GreaterEqual
	Less
	LessEqual
	LogicalAnd
	LogicalOr
	LogicalXor
	BitwiseAnd
	BitwiseOr
	BitwiseXor
	LeftShift
	RightShift

	Neg
	Abs
	Sign
	Square
	Reciprocal
	Sqrt
	Exp
	Exp2
	Expm1
	Log
	Log2
	Log10
	Log1p
	Sin
	Cos
	Tan
	Arcsin
	Arccos
	Arctan
	Sinh
	Cosh
	Tanh
	Floor
	Ceil
	Trunc
	Rint
	IsNaN
	IsInf
	IsFinite
	LogicalNot
	Invert
	Arcsinh
	Arccosh
	Arctanh
	Cbrt
	Deg2rad
	Rad2deg
	Fabs
	Signbit
	Positive
	Logaddexp
	Logaddexp2
	Heaviside
	FloatPower

	numOps
)

// Loops is a set of element types: the types an op has a kernel (a NumPy
// type loop) for. An operand of another type is computed in the first type
// of the set, in the order of Type, it converts to safely (CanCast).
type Loops uint16

// Sets of loops.
const (
	LoopBool   Loops = 1 << Bool
	LoopInts   Loops = 1<<Int8 | 1<<Int16 | 1<<Int32 | 1<<Int64 | 1<<Uint8 | 1<<Uint16 | 1<<Uint32 | 1<<Uint64
	LoopFloats Loops = 1<<Float16 | 1<<Float32 | 1<<Float64
	LoopAll          = LoopBool | LoopInts | LoopFloats
)

// Has reports whether t is in the set.
func (l Loops) Has(t Type) bool { return t < numTypes && l&(1<<t) != 0 }

// Result says what type an op's result has.
type Result uint8

// The result rules.
const (
	SameType  Result = iota // the loop's type
	BoolOut                 // bool (comparisons, logical ops, isnan...)
	IntsToF64               // the loop's type, except integers and bool: computed and returned in float64 (true division)
)

// Nulls is an op's rule for validity masks.
type Nulls uint8

// The null rules.
const (
	// NullIfAny: a result is null where any operand is (Arrow's rule).
	NullIfAny Nulls = iota
)

// OpInfo is one row of the op table: what an op is, independent of the
// kernels that compute it.
type OpInfo struct {
	Op     Op
	Name   string // NumPy's name (the spec's for ops NumPy lacks)
	Arity  int
	Loops  Loops  // NumPy 2's type loops
	Result Result // result type
	BoolIn bool   // operands are read as bool (x != 0) first: logical ops
	Nulls  Nulls
}

// opTable is the op table. Loops are NumPy 2's (numpy.<ufunc>.types);
// SquaredDiff and PRelu, which NumPy lacks, take those of subtract. Every
// row has generated kernels for each of its loop types (gen.go; float16 is
// computed in float32), a test checks it.
var opTable = [numOps]OpInfo{
	//  op            name                  arity loops                          result     boolIn
	Add:          {Add, "add", 2, LoopAll, SameType, false, NullIfAny},
	Sub:          {Sub, "subtract", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Mul:          {Mul, "multiply", 2, LoopAll, SameType, false, NullIfAny},
	Div:          {Div, "true_divide", 2, LoopInts | LoopFloats, IntsToF64, false, NullIfAny},
	FloorDiv:     {FloorDiv, "floor_divide", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	TruncDiv:     {TruncDiv, "trunc_divide", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Remainder:    {Remainder, "remainder", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Fmod:         {Fmod, "fmod", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Power:        {Power, "power", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Maximum:      {Maximum, "maximum", 2, LoopAll, SameType, false, NullIfAny},
	Minimum:      {Minimum, "minimum", 2, LoopAll, SameType, false, NullIfAny},
	Fmax:         {Fmax, "fmax", 2, LoopAll, SameType, false, NullIfAny},
	Fmin:         {Fmin, "fmin", 2, LoopAll, SameType, false, NullIfAny},
	Arctan2:      {Arctan2, "arctan2", 2, LoopFloats, SameType, false, NullIfAny},
	Hypot:        {Hypot, "hypot", 2, LoopFloats, SameType, false, NullIfAny},
	Copysign:     {Copysign, "copysign", 2, LoopFloats, SameType, false, NullIfAny},
	SquaredDiff:  {SquaredDiff, "squared_difference", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	PRelu:        {PRelu, "prelu", 2, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Equal:        {Equal, "equal", 2, LoopAll, BoolOut, false, NullIfAny},
	NotEqual:     {NotEqual, "not_equal", 2, LoopAll, BoolOut, false, NullIfAny},
	Greater:      {Greater, "greater", 2, LoopAll, BoolOut, false, NullIfAny},
	GreaterEqual: {GreaterEqual, "greater_equal", 2, LoopAll, BoolOut, false, NullIfAny},
	Less:         {Less, "less", 2, LoopAll, BoolOut, false, NullIfAny},
	LessEqual:    {LessEqual, "less_equal", 2, LoopAll, BoolOut, false, NullIfAny},
	LogicalAnd:   {LogicalAnd, "logical_and", 2, LoopAll, BoolOut, true, NullIfAny},
	LogicalOr:    {LogicalOr, "logical_or", 2, LoopAll, BoolOut, true, NullIfAny},
	LogicalXor:   {LogicalXor, "logical_xor", 2, LoopAll, BoolOut, true, NullIfAny},
	BitwiseAnd:   {BitwiseAnd, "bitwise_and", 2, LoopBool | LoopInts, SameType, false, NullIfAny},
	BitwiseOr:    {BitwiseOr, "bitwise_or", 2, LoopBool | LoopInts, SameType, false, NullIfAny},
	BitwiseXor:   {BitwiseXor, "bitwise_xor", 2, LoopBool | LoopInts, SameType, false, NullIfAny},
	LeftShift:    {LeftShift, "left_shift", 2, LoopInts, SameType, false, NullIfAny},
	RightShift:   {RightShift, "right_shift", 2, LoopInts, SameType, false, NullIfAny},

	Neg:        {Neg, "negative", 1, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Abs:        {Abs, "absolute", 1, LoopAll, SameType, false, NullIfAny},
	Sign:       {Sign, "sign", 1, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Square:     {Square, "square", 1, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Reciprocal: {Reciprocal, "reciprocal", 1, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Sqrt:       {Sqrt, "sqrt", 1, LoopFloats, SameType, false, NullIfAny},
	Exp:        {Exp, "exp", 1, LoopFloats, SameType, false, NullIfAny},
	Exp2:       {Exp2, "exp2", 1, LoopFloats, SameType, false, NullIfAny},
	Expm1:      {Expm1, "expm1", 1, LoopFloats, SameType, false, NullIfAny},
	Log:        {Log, "log", 1, LoopFloats, SameType, false, NullIfAny},
	Log2:       {Log2, "log2", 1, LoopFloats, SameType, false, NullIfAny},
	Log10:      {Log10, "log10", 1, LoopFloats, SameType, false, NullIfAny},
	Log1p:      {Log1p, "log1p", 1, LoopFloats, SameType, false, NullIfAny},
	Sin:        {Sin, "sin", 1, LoopFloats, SameType, false, NullIfAny},
	Cos:        {Cos, "cos", 1, LoopFloats, SameType, false, NullIfAny},
	Tan:        {Tan, "tan", 1, LoopFloats, SameType, false, NullIfAny},
	Arcsin:     {Arcsin, "arcsin", 1, LoopFloats, SameType, false, NullIfAny},
	Arccos:     {Arccos, "arccos", 1, LoopFloats, SameType, false, NullIfAny},
	Arctan:     {Arctan, "arctan", 1, LoopFloats, SameType, false, NullIfAny},
	Sinh:       {Sinh, "sinh", 1, LoopFloats, SameType, false, NullIfAny},
	Cosh:       {Cosh, "cosh", 1, LoopFloats, SameType, false, NullIfAny},
	Tanh:       {Tanh, "tanh", 1, LoopFloats, SameType, false, NullIfAny},
	Floor:      {Floor, "floor", 1, LoopAll, SameType, false, NullIfAny},
	Ceil:       {Ceil, "ceil", 1, LoopAll, SameType, false, NullIfAny},
	Trunc:      {Trunc, "trunc", 1, LoopAll, SameType, false, NullIfAny},
	Rint:       {Rint, "rint", 1, LoopFloats, SameType, false, NullIfAny},
	IsNaN:      {IsNaN, "isnan", 1, LoopAll, BoolOut, false, NullIfAny},
	IsInf:      {IsInf, "isinf", 1, LoopAll, BoolOut, false, NullIfAny},
	IsFinite:   {IsFinite, "isfinite", 1, LoopAll, BoolOut, false, NullIfAny},
	LogicalNot: {LogicalNot, "logical_not", 1, LoopAll, BoolOut, true, NullIfAny},
	Invert:     {Invert, "invert", 1, LoopBool | LoopInts, SameType, false, NullIfAny},
	Arcsinh:    {Arcsinh, "arcsinh", 1, LoopFloats, SameType, false, NullIfAny},
	Arccosh:    {Arccosh, "arccosh", 1, LoopFloats, SameType, false, NullIfAny},
	Arctanh:    {Arctanh, "arctanh", 1, LoopFloats, SameType, false, NullIfAny},
	Cbrt:       {Cbrt, "cbrt", 1, LoopFloats, SameType, false, NullIfAny},
	Deg2rad:    {Deg2rad, "deg2rad", 1, LoopFloats, SameType, false, NullIfAny},
	Rad2deg:    {Rad2deg, "rad2deg", 1, LoopFloats, SameType, false, NullIfAny},
	Fabs:       {Fabs, "fabs", 1, LoopFloats, SameType, false, NullIfAny},
	Signbit:    {Signbit, "signbit", 1, LoopFloats, BoolOut, false, NullIfAny},
	Positive:   {Positive, "positive", 1, LoopInts | LoopFloats, SameType, false, NullIfAny},
	Logaddexp:  {Logaddexp, "logaddexp", 2, LoopFloats, SameType, false, NullIfAny},
	Logaddexp2: {Logaddexp2, "logaddexp2", 2, LoopFloats, SameType, false, NullIfAny},
	Heaviside:  {Heaviside, "heaviside", 2, LoopFloats, SameType, false, NullIfAny},
	FloatPower: {FloatPower, "float_power", 2, 1 << Float64, SameType, false, NullIfAny},
}

// Info returns o's row of the op table (the zero OpInfo for an invalid op).
func (o Op) Info() OpInfo {
	if o == OpInvalid || o >= numOps {
		return OpInfo{}
	}
	return opTable[o]
}

// Ops returns every valid op, in table order.
func Ops() []Op {
	ops := make([]Op, 0, numOps-1)
	for o := Op(1); o < numOps; o++ {
		ops = append(ops, o)
	}
	return ops
}

// OpByName returns the op with NumPy's name (Info().Name).
func OpByName(name string) (Op, bool) {
	for o := Op(1); o < numOps; o++ {
		if opTable[o].Name == name {
			return o, true
		}
	}
	return OpInvalid, false
}

// String returns the operator's name (NumPy's: "add", "floor_divide", ...).
func (o Op) String() string {
	if o == OpInvalid || o >= numOps {
		return fmt.Sprintf("Op(%d)", uint8(o))
	}
	return opTable[o].Name
}

// IsComparison reports whether o yields bool from two numeric operands.
func (o Op) IsComparison() bool { return o >= Equal && o <= LessEqual }

// IsLogical reports whether o is a boolean connective (and, or, xor, not).
func (o Op) IsLogical() bool { return o.Info().BoolIn }

// ArithmeticBound reports whether o's kernels do so much arithmetic per
// element (a transcendental function) that a pass computing o over data
// in memory is bound by the arithmetic, not by the memory: there the
// loads and stores overlap the arithmetic, and streaming (non-temporal)
// stores of the result cost time instead of saving it. Measured on
// 2026-11-29 (Zen 5, one thread, 16M float64 into an existing output):
// sin 11.4 ms with plain stores against 16.8 streamed, log 14.3 against
// 18.7, arctan 13.9 against 18.3, while add streamed in 8.3 against 10.6.
func (o Op) ArithmeticBound() bool {
	switch o {
	case Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sin, Cos, Tan, Arcsin, Arccos, Arctan,
		Sinh, Cosh, Tanh, Arcsinh, Arccosh, Arctanh, Cbrt, Arctan2, Hypot, Logaddexp, Logaddexp2:
		return true
	}
	return false
}

// IsUnary reports whether o takes one operand.
func (o Op) IsUnary() bool { return o.Info().Arity == 1 }

// CanCast reports whether every value of from is exactly a value of to
// (NumPy's "safe" casting): bool to anything; an integer to a wider
// integer of a signedness that holds it, or to a float whose mantissa
// holds it (8-bit: float16, 16-bit: float32, wider: float64, as NumPy
// counts it); a float to a wider float.
func CanCast(from, to Type) bool {
	switch {
	case from == to:
		return true
	case from == Bool:
		return to > Bool && to < numTypes
	case to == Bool, from >= numTypes, to >= numTypes, from == Invalid, to == Invalid:
		return false
	case isFloatT(from):
		return isFloatT(to) && to.Size() >= from.Size()
	case isFloatT(to):
		return to.Size() > from.Size() || (to == Float64 && from.Size() == 8)
	case isSignedT(from):
		return isSignedT(to) && to.Size() >= from.Size()
	case isSignedT(to): // unsigned to signed
		return to.Size() > from.Size()
	}
	return to.Size() >= from.Size() // unsigned to unsigned
}

func isFloatT(t Type) bool  { return t >= Float16 && t <= Float64 }
func isSignedT(t Type) bool { return t >= Int8 && t <= Int64 }

// loopOrder is NumPy's order of loops: a type is computed in the first
// loop it casts to safely.
var loopOrder = [...]Type{Bool, Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float16, Float32, Float64}

// LoopFor returns the type o computes operands of the types ts in: the
// first of its loops, in NumPy's order (bool, int8, uint8, int16, ...
// float64), that every operand converts to safely (NumPy's linear search
// of a ufunc's loops: arctan2 of int8 and uint8 is float16, although the
// two promote to int16). ok is false when there is none (NumPy's
// TypeError: a bitwise op on floats, a shift of floats...).
func (o Op) LoopFor(ts ...Type) (Type, bool) {
	l := o.Info().Loops
	for _, c := range loopOrder {
		if !l.Has(c) {
			continue
		}
		all := true
		for _, t := range ts {
			all = all && CanCast(t, c)
		}
		if all {
			return c, true
		}
	}
	return Invalid, false
}
