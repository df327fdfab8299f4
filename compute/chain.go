package compute

import "unsafe"

// ChainFunc computes dst[i] = (a[i] op1 b[i]) op2 c[i] in one pass,
// rounding after each op exactly as two kernels would (no fused multiply-
// add), for a vector a and b and c each a vector or one repeated element as
// looked up. The intermediate never leaves the registers.
type ChainFunc func(dst, a, b, c unsafe.Pointer, n int)

var chainTable, chainNTTable [numOps][numOps][numTypes][2][2]ChainFunc

// LookupChain returns the fused two-op kernel for op1, op2 (add, sub or mul)
// on float32 or float64, where the build has one (AVX2), and its
// streaming-store variant.
func LookupChain(op1, op2 Op, t Type, bScalar, cScalar, streaming bool) (ChainFunc, bool) {
	if op1 >= numOps || op2 >= numOps || t >= numTypes {
		return nil, false
	}
	f := chainTable[op1][op2][t][b2i(bScalar)][b2i(cScalar)]
	if streaming {
		f = chainNTTable[op1][op2][t][b2i(bScalar)][b2i(cScalar)]
	}
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
