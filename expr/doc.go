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
//   - reductions (ReduceSum, ReduceProd, ReduceMax, ReduceMin, ReduceMean)
//     and the adjoints of broadcasting, ReduceTo and ReduceAxes.
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
// # Dtypes
//
// Operands of different dtypes are promoted by NumPy's table (Promote),
// without value-based casting: a constant promotes like an array of its
// dtype. Comparisons and logical ops give bool; logical ops read their
// operands as x != 0. sqrt, exp and log of integers give the float dtype
// that holds them (int8: float16, int16: float32, wider: float64). On bool
// operands Add and Maximum are "or", Mul and Minimum are "and"; the other
// arithmetic ops are an error. float16 is computed in float32 and rounded to
// nearest-even after each op.
//
// Integer semantics, as the specification's sources define them:
//
//	Div       floor division (Python //, OpenVINO Divide with pythondivision)
//	DivTrunc  truncated division (C, Go, ONNX Div)
//	FloorMod  remainder with the divisor's sign (Python %, OpenVINO FloorMod, ONNX Mod fmod=0)
//	Mod       remainder with the dividend's sign (C fmod, OpenVINO Mod, ONNX Mod fmod=1)
//	x/0, x%0  0 (no panic; NumPy gives 0 with a warning)
//	overflow  wraps around (two's complement), MinInt/-1 = MinInt
//	Pow       repeated multiplication; a negative exponent gives 0 unless |x| = 1
//
// Reductions give NumPy's dtypes: sum and prod of bool and signed integers
// are int64, of unsigned integers uint64; mean of integers is float64; max
// and min keep the dtype. ReduceTo and ReduceAxes, being adjoints, keep the
// operand's dtype (the sum is taken in the wider type, then converted).
//
// # Nulls
//
// An array may carry a validity mask (array.SetNull). An elementwise result
// is valid where every operand, broadcast like its data, is valid: Arrow's
// rule. Null slots of a result hold zero. Reductions skip nulls (a null
// counts as the operation's identity, and a mean divides by the number of
// valid elements, NaN when there are none).
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
// evaluated once, ahead, into a temporary. The rest of the tree is fused:
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
// for every type. A plan that is evaluated again with arrays of the same
// layout reuses its built pass: a small evaluation into a preallocated
// output allocates nothing.
package expr
