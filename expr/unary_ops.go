package expr

import "github.com/stride0/stride0/compute"

// The unary elementwise ops, with NumPy 2's type loops: the math functions
// (Sqrt, Exp, Sin, ... Rint) have only float loops, so an integer operand
// is computed in the smallest float that holds it (int8, uint8 and bool:
// float16; 16-bit: float32; wider: float64); Floor, Ceil and Trunc keep
// integers as they are; IsNaN, IsInf and IsFinite accept every dtype.

// Neg returns -x (integers wrap around; bool is an error).
func Neg(x *Node) *Node { return unary(compute.Neg, x) }

// Abs returns |x| (the most negative integer stays itself, as in NumPy).
func Abs(x *Node) *Node { return unary(compute.Abs, x) }

// Sign returns -1, 0 or 1 by the sign of x, NaN for NaN.
func Sign(x *Node) *Node { return unary(compute.Sign, x) }

// Square returns x*x.
func Square(x *Node) *Node { return unary(compute.Square, x) }

// Reciprocal returns 1/x; for integers 0 unless |x| is 1 (1/0 is 0).
func Reciprocal(x *Node) *Node { return unary(compute.Reciprocal, x) }

// Sqrt returns the square root.
func Sqrt(x *Node) *Node { return unary(compute.Sqrt, x) }

// Exp returns e**x.
func Exp(x *Node) *Node { return unary(compute.Exp, x) }

// Exp2 returns 2**x.
func Exp2(x *Node) *Node { return unary(compute.Exp2, x) }

// Expm1 returns e**x - 1, accurate near 0.
func Expm1(x *Node) *Node { return unary(compute.Expm1, x) }

// Log returns the natural logarithm.
func Log(x *Node) *Node { return unary(compute.Log, x) }

// Log2 returns the base-2 logarithm.
func Log2(x *Node) *Node { return unary(compute.Log2, x) }

// Log10 returns the base-10 logarithm.
func Log10(x *Node) *Node { return unary(compute.Log10, x) }

// Log1p returns log(1 + x), accurate near 0.
func Log1p(x *Node) *Node { return unary(compute.Log1p, x) }

// Sin returns the sine (radians).
func Sin(x *Node) *Node { return unary(compute.Sin, x) }

// Cos returns the cosine.
func Cos(x *Node) *Node { return unary(compute.Cos, x) }

// Tan returns the tangent.
func Tan(x *Node) *Node { return unary(compute.Tan, x) }

// Arcsin returns the inverse sine.
func Arcsin(x *Node) *Node { return unary(compute.Arcsin, x) }

// Arccos returns the inverse cosine.
func Arccos(x *Node) *Node { return unary(compute.Arccos, x) }

// Arctan returns the inverse tangent.
func Arctan(x *Node) *Node { return unary(compute.Arctan, x) }

// Sinh returns the hyperbolic sine.
func Sinh(x *Node) *Node { return unary(compute.Sinh, x) }

// Cosh returns the hyperbolic cosine.
func Cosh(x *Node) *Node { return unary(compute.Cosh, x) }

// Tanh returns the hyperbolic tangent.
func Tanh(x *Node) *Node { return unary(compute.Tanh, x) }

// Floor rounds toward -inf (integers and bool are kept as they are).
func Floor(x *Node) *Node { return unary(compute.Floor, x) }

// Ceil rounds toward +inf (integers and bool are kept as they are).
func Ceil(x *Node) *Node { return unary(compute.Ceil, x) }

// Trunc rounds toward zero (integers and bool are kept as they are).
func Trunc(x *Node) *Node { return unary(compute.Trunc, x) }

// Rint rounds to the nearest integer, halves to even, in a float dtype.
func Rint(x *Node) *Node { return unary(compute.Rint, x) }

// IsNaN reports x != x as bool (false for integers and bool).
func IsNaN(x *Node) *Node { return unary(compute.IsNaN, x) }

// IsInf reports whether x is ±inf (false for integers and bool).
func IsInf(x *Node) *Node { return unary(compute.IsInf, x) }

// IsFinite reports whether x is neither NaN nor ±inf (true for integers).
func IsFinite(x *Node) *Node { return unary(compute.IsFinite, x) }

// LogicalNot returns x == 0 as bool.
func LogicalNot(x *Node) *Node { return unary(compute.LogicalNot, x) }

// Invert returns ^x, the bitwise complement (integers; bool: not).
func Invert(x *Node) *Node { return unary(compute.Invert, x) }

// Arcsinh returns the inverse hyperbolic sine.
func Arcsinh(x *Node) *Node { return unary(compute.Arcsinh, x) }

// Arccosh returns the inverse hyperbolic cosine (NaN below 1).
func Arccosh(x *Node) *Node { return unary(compute.Arccosh, x) }

// Arctanh returns the inverse hyperbolic tangent (±inf at ±1, NaN beyond).
func Arctanh(x *Node) *Node { return unary(compute.Arctanh, x) }

// Cbrt returns the real cube root (negative for negative x).
func Cbrt(x *Node) *Node { return unary(compute.Cbrt, x) }

// Deg2rad converts degrees to radians: x·(π/180), as numpy.deg2rad
// (numpy.radians).
func Deg2rad(x *Node) *Node { return unary(compute.Deg2rad, x) }

// Rad2deg converts radians to degrees: x·(180/π), as numpy.rad2deg
// (numpy.degrees).
func Rad2deg(x *Node) *Node { return unary(compute.Rad2deg, x) }

// Fabs returns the absolute value in a float dtype: integers and bool are
// computed in the float they convert to safely (numpy.fabs), where Abs
// keeps them.
func Fabs(x *Node) *Node { return unary(compute.Fabs, x) }

// Signbit reports whether x's sign bit is set, as bool: true for -0.0 and
// for NaNs with the bit set (integers are read as the float they convert
// to safely).
func Signbit(x *Node) *Node { return unary(compute.Signbit, x) }

// Positive returns x unchanged, as numpy.positive (+x): a copy for numbers,
// an error for bool, which has no loop (NumPy's TypeError).
func Positive(x *Node) *Node { return unary(compute.Positive, x) }
