package compute

import (
	"unsafe"
)

// SelectCompareFunc computes dst[i] = x[i] if a[i] op b[i] else y[i] in one
// pass, without materializing the comparison: the fused form of
// where(a op b, x, y). a and x are vectors; b and y are vectors or one
// repeated element, as the kernel was looked up.
type SelectCompareFunc func(dst, a, b, x, y unsafe.Pointer, n int)

var selTable, selNTTable [numOps][numTypes][2][2]SelectCompareFunc

// LookupSelectCompare returns the fused select-by-comparison kernel for a
// comparison op on float32 or float64, where the build has one (AVX2).
func LookupSelectCompare(op Op, t Type, bScalar, yScalar bool) (SelectCompareFunc, bool) {
	if op >= numOps || t >= numTypes {
		return nil, false
	}
	f := selTable[op][t][b2i(bScalar)][b2i(yScalar)]
	return f, f != nil
}

// LookupSelectCompareNT is LookupSelectCompare with non-temporal stores
// (call Fence after the last one of a goroutine).
func LookupSelectCompareNT(op Op, t Type, bScalar, yScalar bool) (SelectCompareFunc, bool) {
	if op >= numOps || t >= numTypes {
		return nil, false
	}
	f := selNTTable[op][t][b2i(bScalar)][b2i(yScalar)]
	return f, f != nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareGo is one comparison in Go, with the semantics of the vector
// predicates (ordered: false on NaN, except not-equal).
func compareGo[T float](op Op, a, b T) bool {
	switch op {
	case Equal:
		return a == b
	case NotEqual:
		return a != b
	case Greater:
		return a > b
	case GreaterEqual:
		return a >= b
	case Less:
		return a < b
	case LessEqual:
		return a <= b
	}
	return false
}

// selectGo is the portable loop for a run of n elements (the heads and tails
// of the vector kernels).
func selectGo[T float](op Op, dst, a, b, x, y unsafe.Pointer, n int, bs, ys bool) {
	d := unsafe.Slice((*T)(dst), n)
	av, xv := unsafe.Slice((*T)(a), n), unsafe.Slice((*T)(x), n)
	for i := range d {
		bi, yi := i, i
		if bs {
			bi = 0
		}
		if ys {
			yi = 0
		}
		if compareGo(op, av[i], *(*T)(unsafe.Add(b, bi*int(unsafe.Sizeof(av[0]))))) {
			d[i] = xv[i]
		} else {
			d[i] = *(*T)(unsafe.Add(y, yi*int(unsafe.Sizeof(av[0]))))
		}
	}
}
