package expr

import "github.com/stride0/stride0/compute"

// The binary elementwise ops. Each broadcasts its operands by rule (default
// Numpy) and has NumPy 2's dtype rules: the operands are promoted (weak
// constants take the other operand's dtype) and computed in the first of
// the op's type loops that holds them (compute's op table); an op with no
// loop for them is an ErrDType error, as NumPy's TypeError. Integer
// division and remainders by zero give 0 (NumPy: 0 with a warning), and
// integers wrap around on overflow.

// Add returns a + b (bool: or).
func Add(a, b *Node, rule ...Rule) *Node { return binary(compute.Add, a, b, rule) }

// Sub returns a - b. Bool operands are an error, as in NumPy.
func Sub(a, b *Node, rule ...Rule) *Node { return binary(compute.Sub, a, b, rule) }

// Mul returns a * b (bool: and).
func Mul(a, b *Node, rule ...Rule) *Node { return binary(compute.Mul, a, b, rule) }

// Div returns a / b, true division (numpy.true_divide): integers and bool
// give float64; float16 stays float16.
func Div(a, b *Node, rule ...Rule) *Node { return binary(compute.Div, a, b, rule) }

// FloorDiv returns a // b, floor division (numpy.floor_divide, OpenVINO
// Divide with python_division): the integer types are kept, x // 0 is 0;
// floats follow Python (x // 0.0 is ±inf or NaN, inf // y is NaN).
func FloorDiv(a, b *Node, rule ...Rule) *Node { return binary(compute.FloorDiv, a, b, rule) }

// TruncDiv returns a / b truncated toward zero (C, Go, ONNX Div on
// integers, OpenVINO Divide without python_division); x / 0 is 0 for
// integers. Floats give trunc(a / b).
func TruncDiv(a, b *Node, rule ...Rule) *Node { return binary(compute.TruncDiv, a, b, rule) }

// Remainder returns a mod b with the sign of b (numpy.remainder, Python %,
// OpenVINO FloorMod, ONNX Mod with fmod=0). Integers: x mod 0 is 0; floats:
// NaN.
func Remainder(a, b *Node, rule ...Rule) *Node { return binary(compute.Remainder, a, b, rule) }

// Fmod returns a mod b with the sign of a (numpy.fmod, C fmod, OpenVINO
// Mod, ONNX Mod with fmod=1). Integers: x mod 0 is 0; floats: NaN.
func Fmod(a, b *Node, rule ...Rule) *Node { return binary(compute.Fmod, a, b, rule) }

// Power returns a raised to b, as numpy.power. Integers raised to a
// negative integer power are an error, as NumPy's ValueError: evaluation
// returns an error wrapping ErrArgument when an exponent element (a valid
// one) is negative and the result dtype is a signed integer. Floats follow
// C's pow.
func Power(a, b *Node, rule ...Rule) *Node {
	n := binary(compute.Power, a, b, rule)
	n.strictPow = true
	return n
}

// PowerTruncating returns a raised to b as OpenVINO's Power and ONNX's Pow
// compute integers: a negative exponent gives the real power truncated
// toward zero (0 unless |a| is 1) instead of an error. Otherwise it is
// Power.
func PowerTruncating(a, b *Node, rule ...Rule) *Node { return binary(compute.Power, a, b, rule) }

// Maximum returns the elementwise maximum; a NaN operand gives NaN.
func Maximum(a, b *Node, rule ...Rule) *Node { return binary(compute.Maximum, a, b, rule) }

// Minimum returns the elementwise minimum; a NaN operand gives NaN.
func Minimum(a, b *Node, rule ...Rule) *Node { return binary(compute.Minimum, a, b, rule) }

// Fmax returns the elementwise maximum ignoring NaN: NaN only where both are.
func Fmax(a, b *Node, rule ...Rule) *Node { return binary(compute.Fmax, a, b, rule) }

// Fmin returns the elementwise minimum ignoring NaN: NaN only where both are.
func Fmin(a, b *Node, rule ...Rule) *Node { return binary(compute.Fmin, a, b, rule) }

// Arctan2 returns the angle of the point (b, a), in a float dtype.
func Arctan2(a, b *Node, rule ...Rule) *Node { return binary(compute.Arctan2, a, b, rule) }

// Hypot returns sqrt(a² + b²) without overflow, in a float dtype.
func Hypot(a, b *Node, rule ...Rule) *Node { return binary(compute.Hypot, a, b, rule) }

// Copysign returns |a| with the sign of b, in a float dtype.
func Copysign(a, b *Node, rule ...Rule) *Node { return binary(compute.Copysign, a, b, rule) }

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

// LogicalAnd returns the logical and of a and b (each read as x != 0).
func LogicalAnd(a, b *Node, rule ...Rule) *Node { return binary(compute.LogicalAnd, a, b, rule) }

// LogicalOr returns the logical or of a and b.
func LogicalOr(a, b *Node, rule ...Rule) *Node { return binary(compute.LogicalOr, a, b, rule) }

// LogicalXor returns the logical exclusive or of a and b.
func LogicalXor(a, b *Node, rule ...Rule) *Node { return binary(compute.LogicalXor, a, b, rule) }

// BitwiseAnd returns a & b (integers and bool).
func BitwiseAnd(a, b *Node, rule ...Rule) *Node { return binary(compute.BitwiseAnd, a, b, rule) }

// BitwiseOr returns a | b (integers and bool).
func BitwiseOr(a, b *Node, rule ...Rule) *Node { return binary(compute.BitwiseOr, a, b, rule) }

// BitwiseXor returns a ^ b (integers and bool).
func BitwiseXor(a, b *Node, rule ...Rule) *Node { return binary(compute.BitwiseXor, a, b, rule) }

// LeftShift returns a << b (integers; bool is computed in int8). A shift by
// the width or more, or by a negative count, gives 0.
func LeftShift(a, b *Node, rule ...Rule) *Node { return binary(compute.LeftShift, a, b, rule) }

// RightShift returns a >> b, arithmetic for signed integers. A shift by the
// width or more, or by a negative count, gives 0 (-1 for a negative a).
func RightShift(a, b *Node, rule ...Rule) *Node { return binary(compute.RightShift, a, b, rule) }

// Logaddexp returns log(e^a + e^b) without overflow, in a float dtype
// (numpy.logaddexp).
func Logaddexp(a, b *Node, rule ...Rule) *Node { return binary(compute.Logaddexp, a, b, rule) }

// Logaddexp2 returns log2(2^a + 2^b) without overflow, in a float dtype
// (numpy.logaddexp2).
func Logaddexp2(a, b *Node, rule ...Rule) *Node { return binary(compute.Logaddexp2, a, b, rule) }

// Heaviside returns the step function of a: 0 below zero, 1 above, h0 at
// zero, NaN for NaN, in a float dtype (numpy.heaviside(a, h0)).
func Heaviside(a, h0 *Node, rule ...Rule) *Node { return binary(compute.Heaviside, a, h0, rule) }

// FloatPower returns a ** b computed in float64 whatever the operands
// (numpy.float_power): integers to negative powers are fractions, not an
// error as in Power.
func FloatPower(a, b *Node, rule ...Rule) *Node { return binary(compute.FloatPower, a, b, rule) }
