package compute

import "unsafe"

// ChainFunc computes dst[i] = (a[i] op1 b[i]) op2 c[i] in one pass,
// rounding after each op exactly as two kernels would (no fused multiply-
// add), for a vector a and b and c each a vector or one repeated element as
// looked up. The intermediate never leaves the registers.
type ChainFunc func(dst, a, b, c unsafe.Pointer, n int)

// chainTable holds the chain kernels by op1, op2 (chainOp), dtype
// (chainType), b scalar, c scalar and streaming stores. It has a slot for
// the ops and dtypes that have kernels only: a table over every Op and Type
// (3.4 MB of func values) was scanned by the garbage collector in every
// cycle, which made each small allocation of the program dearer.
var chainTable [3][3][2][2][2][2]ChainFunc

// chainOp is op's index in chainTable (add, sub, mul).
func chainOp(op Op) (int, bool) {
	switch op {
	case Add:
		return 0, true
	case Sub:
		return 1, true
	case Mul:
		return 2, true
	}
	return 0, false
}

// chainType is t's index in chainTable (float32, float64).
func chainType(t Type) (int, bool) {
	switch t {
	case Float32:
		return 0, true
	case Float64:
		return 1, true
	}
	return 0, false
}

// setChain registers f (generated code calls it at init).
func setChain(op1, op2 Op, t Type, bScalar, cScalar, streaming bool, f ChainFunc) {
	i, ok1 := chainOp(op1)
	j, ok2 := chainOp(op2)
	k, ok3 := chainType(t)
	if !ok1 || !ok2 || !ok3 {
		return // generated code only; TestChainMatchesTwoOps finds every kernel
	}
	chainTable[i][j][k][b2i(bScalar)][b2i(cScalar)][b2i(streaming)] = f
}

// LookupChain returns the fused two-op kernel for op1, op2 (add, sub or mul)
// on float32 or float64, where the build has one (AVX2), and its
// streaming-store variant.
func LookupChain(op1, op2 Op, t Type, bScalar, cScalar, streaming bool) (ChainFunc, bool) {
	i, ok1 := chainOp(op1)
	j, ok2 := chainOp(op2)
	k, ok3 := chainType(t)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	f := chainTable[i][j][k][b2i(bScalar)][b2i(cScalar)][b2i(streaming)]
	return f, f != nil
}

// arithGo is one add, sub or mul in Go.
func arithGo[T float](op Op, x, y T) T {
	switch op {
	case Add:
		return x + y
	case Sub:
		return x - y
	}
	return x * y
}

// chainGo is the portable loop for a run of n elements (the heads and tails
// of the vector kernels).
func chainGo[T float](op1, op2 Op, dst, a, b, c unsafe.Pointer, n int, bs, cs bool) {
	var z T
	sz := int(unsafe.Sizeof(z))
	for i := 0; i < n; i++ {
		bi, ci := i, i
		if bs {
			bi = 0
		}
		if cs {
			ci = 0
		}
		t := arithGo(op1, *(*T)(unsafe.Add(a, i*sz)), *(*T)(unsafe.Add(b, bi*sz)))
		*(*T)(unsafe.Add(dst, i*sz)) = arithGo(op2, t, *(*T)(unsafe.Add(c, ci*sz)))
	}
}
