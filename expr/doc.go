// Package expr builds lazy array expressions and evaluates them in fused,
// tiled passes.
//
// # Building
//
// An expression is a tree of *Node. Leaves are arrays and views (Leaf),
// scalar constants (Const, Scalar) and named variables (Var) that are bound
// to arrays at evaluation, so that one plan serves many inputs. Above them:
//
//   - Broadcast nodes of every rule: BroadcastNumpy, BroadcastBidirectional,
//     BroadcastExplicit (axes_mapping), BroadcastPDPD, BroadcastNGraph, and
//     Broadcast, which takes target_shape and axes_mapping as 1-D integer
//     arrays, as the specification's op does;
//   - elementwise ops, each broadcasting its operands by a Rule: Numpy
//     (multidirectional, the default), NoBroadcast, PDPD(axis), and
//     Unidirectional for PRelu's slope;
//   - Where (select), Cast, the variadic SumOf, MeanOf, MaxOf and MinOf;
//   - reductions (ReduceSum, ReduceProd, ReduceMax, ReduceMin, ReduceMean,
//     ReduceVar, ReduceStd, Argmin, Argmax, Any, All, CountNonzero, Nansum,
//     Nanmean, Nanmin, Nanmax), the scans Cumsum and Cumprod, and the
//     adjoints of broadcasting, ReduceTo and ReduceAxes;
//   - structural functions (see below): Transpose, Reshape, Flip, Tile,
//     Repeat, Concatenate, Stack, Take, Sort, Argsort, Matmul, and the eager
//     Compress.
//
// Every constructor infers the node's dtype and shape at once; shapes are
// partial (broadcast.Shape) where variables have unknown dims. A bad
// combination does not panic: it is recorded in the node, reported by Err,
// passed on to every node built on it, and returned by evaluation, naming
// the op and the shapes. So an expression reads naturally and is checked
// once:
//
//	e := expr.Mul(expr.Add(x, bias), scale)
//	if err := e.Err(); err != nil { ... }
//
// # Parsing
//
// Parse builds the same trees from text in numexpr's language, which is a
// Python expression (numexpr.evaluate("(x - m) * s > 0.5")):
//
//	e, err := expr.Parse("(x - m) * s > 0.5", map[string]*expr.Node{"x": x, "m": m, "s": s})
//
// The grammar, lowest precedence first, as Python's (each level is left
// associative except **; a comparison chain a < b < c means
// (a < b) and (b < c), as in Python):
//
//	expr    = and_expr { "or" and_expr }                   logical_or
//	and_expr= not_expr { "and" not_expr }                  logical_and
//	not_expr= "not" not_expr | compare                     logical_not
//	compare = bor { ("<"|"<="|">"|">="|"=="|"!=") bor }
//	bor     = bxor { "|" bxor }                            bitwise_or
//	bxor    = band { "^" band }                            bitwise_xor
//	band    = shift { "&" shift }                          bitwise_and
//	shift   = arith { ("<<"|">>") arith }
//	arith   = term { ("+"|"-") term }
//	term    = factor { ("*"|"/"|"//"|"%") factor }         / true_divide, // floor_divide, % remainder
//	factor  = ("-"|"+"|"~") factor | power                 negative, (itself), invert
//	power   = primary [ "**" factor ]                      right associative: -x**2 is -(x**2), 2**-1 is 0.5
//	primary = number | "True" | "False" | name | call | "(" expr ")"
//	call    = function "(" [ arg { "," arg } [","] ] ")"   arg = expr | keyword "=" expr
//
// (None, and tuples such as (0, 1) or (), are values only as an axis or a
// clip bound.)
//
// & | ^ ~ are NumPy's operators: logical on bool, bitwise on integers (an
// error on floats). and, or and not are elementwise too (logical_and,
// logical_or, logical_not, as pandas.eval reads them; numexpr has only
// & | ~): every operand is evaluated, nothing short-circuits. Whitespace,
// newlines included, is free. Python's other syntax (attributes, indexing,
// strings, conditional expressions, in, is, lambda) is an error.
//
// Numbers are Python's literals (1_000, 0x1f, 0o17, 0b101, 2.5, .5, 1e-3;
// no complex) and are weak scalars, as Python numbers are in NumPy 2: an
// int is Const(int), a float Const(float64), True and False Const(bool), so
// f32 * 2.5 stays float32. Arithmetic on numbers alone is done first, as
// Python does, with Python's semantics (exact integers, // and % floored,
// int / int a correctly rounded float, 2**-1 = 0.5, 1/0 an error; a float
// ** by Go's math.Pow, within an ulp of Python's); the result is one weak
// scalar: f32 * (1/3) is float32, x * -2**63 holds
// MinInt64. An int that ends up beyond int64 is an error (ErrOverflow),
// except a clip bound that bounds nothing (below); folding stops with
// ErrOverflow before any int passes 4096 bits (2**10**10, 1 << 2**63-1),
// so no text makes Parse compute for long.
//
// A name is env's node of that name; a name followed by "(" is a function:
// every elementwise op of compute's op table under NumPy's name (sqrt, exp,
// arctan2, maximum, fmax, power, isnan, floor, logical_xor, left_shift,
// arcsinh, cbrt, deg2rad, fabs, signbit, positive, logaddexp, heaviside,
// float_power...; a new op is callable
// as soon as it is in the table) and NumPy's aliases (abs, divide, mod,
// pow, asin, acos, atan, atan2, asinh, acosh, atanh, radians, degrees,
// bitwise_not...), all
// with their operands only; where(cond, x, y); clip(x, lo, hi), which is
// Clip, with None for no bound (nil) and, on an integer x, an int bound
// beyond x's range on its own side (lo at or below the minimum, hi at or
// above the maximum, even beyond int64: clip(u8, -2, 2**70)) dropped as
// NumPy 2.1 and later do; round(x, decimals=0) (also around); and the reductions
// sum, prod, min, max, mean, std, var (these two also with ddof=0), any,
// all, argmin, argmax, count_nonzero, nansum, nanmean, nanmin and nanmax as
// name(x, axis=None, keepdims=False), axis an int (negative counts from the
// end), a tuple of ints or None, given by keyword or second (argmin and
// argmax with axis None read the flattened array; as in NumPy, axis=0 or
// axis=-1 of a 0-d operand reduces nothing, except in mean, std, var and
// nanmean of an integer, which reject it as any other axis of a 0-d
// operand). ParseFunctions lists the
// names. An operator or a function is built by the constructor of its op,
// exactly as a Go caller would build it: a ** b, power(a, b) and pow(a, b)
// are Power(a, b), so an integer to a negative integer power is an error at
// evaluation, as in NumPy (2 ** i with i = [-1 0 1] fails; 2.0 ** i does
// not); PowerTruncating has no name in Parse.
//
// Errors are *ParseError values whose message reads "parse error at 7:
// unexpected ')'": Pos is the 0-based byte offset of the token at fault,
// and the message names it (unknown names and functions with the nearest
// known one: unknown function "mena" (did you mean "mean"?)). They wrap
// ErrSyntax, or, when an op Parse built fails (shapes, dtypes, a weak int
// out of range), that op's error. Input is limited to MaxParseLength bytes
// and MaxParseDepth levels of nesting and of tree height, so no text makes
// Parse recurse without bound or panic (FuzzParse).
//
// # Dtypes
//
// Dtypes follow NumPy 2. Array operands of different dtypes are promoted by
// NumPy's table (Promote), and each op then computes in the first of its
// NumPy type loops (compute's op table: compute.Op.Info) that every operand
// converts to safely, in NumPy's order bool, int8, uint8, int16, uint16,
// int32, uint32, int64, uint64, float16, float32, float64. So the math
// functions, whose loops are float only, compute an int8 or uint8 in
// float16, a 16-bit integer in float32 and wider ones in float64
// (arctan2(int8, uint8) is float16); Floor, Ceil, Trunc, Abs, Sign and
// Square keep integers; IsNaN, IsInf and IsFinite accept every dtype. An op
// with no loop for its operands is an error wrapping ErrDType, like NumPy's
// TypeError: bitwise ops and shifts of floats, Invert of a float, Sub, Neg
// and Sign of bool. Comparisons and logical ops give bool; logical ops read
// their operands as x != 0. On bool, Add and Maximum are "or", Mul and
// Minimum "and". float16 is computed in float32 and rounded to
// nearest-even after each op.
//
// Scalars. A plain Go number is weak, as a Python number is in NumPy 2 (NEP
// 50): Const(2), Const(2.5) and Const(true) (an untyped constant's default
// types int, float64 and bool) take the dtype of the operands they meet. A
// sized Go value (Const(int8(1)), Const(float32(2))) and Scalar(v, dtype)
// are strong: they promote like arrays of their dtype.
//
//	operands                      computed in          NumPy 2 example
//	float32 array, Const(2.5)     float32              f32 * 2.5 -> float32
//	float32 array, Const(2)       float32              f32 + 2   -> float32
//	int8 array, Const(1)          int8                 i8 + 1    -> int8
//	int8 array, Const(2.5)        float64              i8 * 2.5  -> float64
//	bool array, Const(2)          int64                b + 2     -> int64
//	bool array, Const(2.5)        float64
//	any array, Const(true)        the array's dtype
//	uint8 array, Const(300)       ErrOverflow          u8 + 300  -> OverflowError
//	uint8 array, Const(-1)        ErrOverflow
//	Const(2), Const(3)            int64 (the defaults: int64, float64, bool)
//	int8 array, Const(int64(1))   int64 (strong)       i8 + np.int64(1) -> int64
//	int8 array, Scalar(1, Int16)  int16 (strong)
//
// A weak int is checked against the dtype of the op's loop when the op is
// built: Add(u8, Const(300)) is an error naming 300 and uint8, while
// Arctan2(u16, Const(-2)) computes in float32 and is fine. A comparison
// with a weak int out of the operand's range compares the exact values
// (Less(u8, Const(300)) is true). Weakness belongs to the constant as a
// direct operand of an elementwise op, Where or Clip (Clip drops a weak
// int bound beyond an integer x's range on its own side and keeps x's
// dtype, as numpy.clip since NumPy 2.1: Clip(u8, Const(-2), Const(12)) is
// uint8; a bound beyond the range on the other side, Clip(u8, Const(300),
// nil), is ErrOverflow); under Broadcast,
// Cast or a reduction it is its default dtype. Scalar(v, dt) and strong
// constants reject a value dt cannot hold (Scalar(300, Int8), NaN to an
// integer: ErrOverflow); a fraction converted to an integer truncates
// toward zero.
//
// Division and remainders (NumPy's functions, and where the spec's ops map):
//
//	Div        true division (numpy.true_divide, /): integers and bool give float64
//	FloorDiv   floor division (numpy.floor_divide, //; OpenVINO Divide with python_division)
//	TruncDiv   division truncated toward zero (C, ONNX Div on integers)
//	Remainder  remainder with the divisor's sign (numpy.remainder, %, OpenVINO FloorMod, ONNX Mod fmod=0)
//	Fmod       remainder with the dividend's sign (numpy.fmod, C fmod, OpenVINO Mod, ONNX Mod fmod=1)
//	x//0, x%0  integers: 0 (NumPy: 0 with a warning); floats: inf/NaN as NumPy
//	overflow   wraps around (two's complement), MinInt/-1 = MinInt
//	Power      integers: repeated multiplication; a negative exponent is an
//	           error at evaluation (NumPy's ValueError); PowerTruncating
//	           (OpenVINO Power, ONNX Pow) gives 0 there unless |x| = 1
//	shifts     by the width or more, or by a negative count: 0 (-1 for a
//	           negative x shifted right), as NumPy
//
// Float results follow NumPy: Maximum and Minimum propagate NaN, Fmax and
// Fmin ignore it, and where the operands tie as 0.0 and -0.0 the four give
// the second operand for float32 and float64 and the first for float16, as
// NumPy's x86 loops do; Sign of NaN is NaN; Rint and Round round halves to even;
// FloorDiv of floats is Python's (x//0.0 is ±inf or NaN, inf//y NaN).
// Transcendental functions are Go's math in float64, rounded to the
// result type, or AVX2 polynomials (float32 exp, log, tanh, sin, cos;
// float64 exp): within 4 ulp of NumPy's, with exact argument reduction for
// sin, cos and tan past 2^29 (a huge base with a fractional exponent in
// Power can be further off).
//
// # Reductions and scans
//
// Every reduction and scan is a lazy node: its result's shape is known when
// it is built, so it composes, plans and explains like the rest. It is
// evaluated once, before the pass that reads it (a reduction ends a fused
// pass; its operand's tree is fused into the reduction's own pass). axes
// nil means every axis (for Argmin, Argmax, Cumsum and Cumprod: the
// flattened array, as NumPy's axis=None), negative axes count from the end,
// an empty non-nil list reduces nothing, and keepDims keeps the reduced
// axes as size 1. A bad or repeated axis is an error wrapping
// broadcast.ErrAxes. NumPy 2's result dtypes:
//
//	ReduceSum, ReduceProd, Nansum,   bool, signed -> int64; unsigned -> uint64; floats kept
//	  Cumsum, Cumprod, CountNonzero  (CountNonzero: int64)
//	ReduceMean, Nanmean,             bool, integers -> float64; floats kept (float16 and
//	  ReduceVar, ReduceStd           float32 accumulate in float32 or wider)
//	ReduceMax, ReduceMin,            the dtype kept
//	  Nanmax, Nanmin
//	Argmin, Argmax                   int64 (first occurrence; the first NaN wins)
//	Any, All                         bool (NaN is nonzero)
//
// How they run: ReduceSum, ReduceProd, ReduceMax, ReduceMin, ReduceMean,
// Nanmax, Nanmin, Any and All fold tiles of the fused operand into an
// accumulator; Nansum, Nanmean and CountNonzero are built from those
// (Where, IsNaN, Cast) and fuse the same way; ReduceVar, ReduceStd, Argmin
// and Argmax run their own pass over the operand (read in place when it is
// an array, else its fused pass is evaluated first), along the reduced axis
// or, when a kept axis is the one contiguous in memory, over whole rows of
// it; Cumsum and Cumprod convert the operand into the result in one fused
// pass and then accumulate in place along the axis, rounding each partial
// result to the result dtype as NumPy does.
//
// Accuracy. Float sums and means (and so Nansum and Nanmean) accumulate
// in float64 whatever the dtype, each accumulator with a compensation
// term: float16 and float32 values are added in float64 (an error of at
// most n·2^-53 of Σ|x|, far below float32's half ulp), float64 values by
// TwoSum, which keeps the rounding of every addition (Neumaier's bound:
// 2ε|S| + O(nε²)·Σ|x|); the result is rounded once to its dtype (a mean
// after the division). So every sum is at least as accurate as NumPy's
// pairwise one (ε·log2(n)·Σ|x|), along the contiguous axis or across rows,
// and does not depend on the number of workers beyond that bound: partial
// accumulators of workers are merged with TwoSum, in worker order. The
// mean of 10^7 float32 values of 0.1 is float32(0.1) at any worker count
// (NumPy's pairwise sum gives 0.09999894, a float32 running sum 0.1088).
// The kernels are AVX2 (float32 widened by VCVTPS2PD, TwoSum on vectors
// of float64; package compute, LookupSum) and cost no more than the
// float32 accumulation they replace. A float product is NumPy's: one
// running product per output element in index order (float16 and float32
// values multiplied in float64 and rounded once), never split between
// workers, so a float64 product is NumPy's bit for bit and overflows,
// underflows and rounds the same at any worker count (a split product of
// [1e200, 1e200, ..., 1e-200, 1e-200] was NaN, the overflowed part times
// the underflowed one, where NumPy's is +Inf). ReduceVar and ReduceStd merge two-pass blocks (above) whose
// means and M2 are kept with a compensation (compute.Moments), so that
// thousands of merges are as accurate as NumPy's two-pass variance.
// Integer reductions are exact (wrapping).
//
// Values as NumPy: reducing an axis of size 0 is an error (ErrArgument) for
// ReduceMax, ReduceMin, Nanmax, Nanmin, Argmin and Argmax, which have no
// identity; the others give their identity (0, 1, false, true), NaN for a
// mean, a variance or a standard deviation. Nanmax and Nanmin of a slice of
// NaNs are NaN. ReduceVar and ReduceStd divide by max(n - ddof, 0). ReduceTo
// and ReduceAxes, being adjoints, keep the operand's dtype (the sum is
// taken in the wider type, then converted).
//
// # Structural functions: lazy where the shape is known, eager where not
//
// NumPy's everyday array functions are nodes when their result's shape
// follows from the operands' shapes, so they plan and compose like the
// rest, and are evaluated only with the expression; each ends a fused pass,
// as a reduction does, and the pass above reads its result as a leaf.
//
//	function                           lazy/eager  how it is evaluated
//	Transpose, Flip                    lazy        a view of an array operand (permuted or
//	                                               negated strides): no copy
//	Reshape (one -1 allowed)           lazy        a view when the strides allow, else one copy pass
//	Tile, Repeat (one count)           lazy        a stride-0 view where one exists (the repeated axis
//	                                               has size 1, as broadcast_to), else one copy pass
//	                                               from a stride-0 expanded view
//	Repeat (a count per element)       lazy        each slice along the axis copied count times
//	Concatenate, Stack                 lazy        each piece evaluated (fused with what it computes)
//	                                               into its slice of the output; a piece that is an
//	                                               array is copied by memmove per contiguous run
//	Take (TakeFlat: axis None)         lazy        rows of the trailing axes copied at the indices;
//	                                               an index out of range fails evaluation (array.ErrIndex)
//	Sort, Argsort (…Flat: axis None)   lazy        each lane sorted stably, NaNs then nulls last
//	Matmul                             lazy        operands evaluated, then linalg.Matmul
//	Compress (CompressFlat)            eager       the result's size depends on the mask's values:
//	                                               cond and x are evaluated, a new array returned
//
// An operand that is not an array (x + 1 under a Transpose) is evaluated
// into a temporary first; a view node over an array costs only a header.
// Bad axes, shapes and repeats are errors when the node is built (or, over
// variables of unknown dims, at evaluation), never panics. Dtypes: a join
// promotes its pieces (NumPy's result_type), Argsort gives int64, Matmul
// promotes its operands, the rest keep the operand's dtype.
//
// # Nulls
//
// An array may carry a validity mask (array.SetNull). An elementwise result
// is valid where every operand, broadcast like its data, is valid: Arrow's
// rule. Null slots of a result hold zero. Reductions skip nulls (a null
// counts as the operation's identity, and a mean divides by the number of
// valid elements, NaN when there are none; a variance of no valid element
// is NaN, Argmin and Argmax of nulls only give -1) and have no nulls
// themselves. Cumsum and Cumprod keep the operand's nulls, and the running
// total goes on past them (Arrow's skip_nulls).
//
// # Evaluation
//
// Eval returns a new array; EvalInto writes into any writable array of the
// right dtype and shape, strided or transposed views included. An output that
// shares memory with an input is detected and evaluated through a
// temporary, never silently wrong. Compile returns a Plan to evaluate many
// times with different Bindings; Explain shows what a plan does.
//
// A plan runs in passes. Broadcast nodes over leaves cost nothing: each leaf
// gets strides in the output's index space, 0 along the axes it is
// broadcast over. Dimensions that every operand steps through uniformly are
// coalesced, and size-1 dimensions vanish. A subexpression smaller than the
// space it is broadcast over, and every reduction below the root, is
// evaluated once, ahead, into a temporary. A node used several times (the
// same *Node, or equal nodes over the same arrays and variables) is
// evaluated once per evaluation: `mean` in (x - mean) / sqrt(mean((x -
// mean)^2)) is one reduction into one temporary, and inside a fused pass a
// shared value is computed once per tile. The rest of the tree is fused:
// the output is split between workers (WithWorkers; by default GOMAXPROCS
// for outputs of 65536 elements or more), and each walks its part in tiles
// of WithTileSize elements (DefaultTile), evaluating the whole tree per
// tile into cache-resident scratch registers. Per operand a tile reads in
// place (unit stride), repeats one element (stride 0: the scalar kernel
// form), gathers (any other stride), or, when rows are short, reads a row
// expanded once per batch. Dtype dispatch happens once per plan: kernels
// are chosen when the pass is built, never per element.
//
// Kernels come from package compute: AVX2 assembly on amd64 (one pass, and
// streaming stores for results of 16 MiB or more written into an existing
// output), vek for float32 and float64 otherwise, and generated Go loops
// for every type. A plan that is evaluated again with arrays of a layout it
// has seen (it keeps up to 8: dtypes, shapes, strides, nulls) reuses the
// pass it built: a small evaluation into a preallocated output allocates
// nothing, also when batch sizes alternate. Worker scratch is pooled
// across calls, so even a one-shot Eval allocates little beyond its
// result.
package expr
