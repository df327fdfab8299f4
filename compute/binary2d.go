package compute

import "unsafe"

// Binary2D is a binary kernel with its own row loop: Func computes
// dst = x op y for rows rows of n elements, n a multiple of Lanes; after
// each row dst, x and y advance by ds, xs and ys bytes (0: the operand
// repeats every row; a scalar operand of the VS or SV form is then the same
// element every row, or with a stride, one element per row). NumPy's
// two-dimensional inner loop: a pass whose whole program is one binary
// kernel runs a block of rows per call, with no tiles and no scratch.
type Binary2D struct {
	Func  func(dst, x, y unsafe.Pointer, n, rows, ds, xs, ys int)
	Lanes int
}

var table2D, table2DNT, table2DZ [numOps][numTypes][numForms]Binary2D

// LookupBinary2D returns the row-looped kernel for op, t and form, where
// the build has one (AVX2 assembly), and its streaming-store variant; the
// streaming one needs dst and every row of it 32-byte aligned.
func LookupBinary2D(op Op, t Type, form Form, streaming bool) (Binary2D, bool) {
	if op >= numOps || t >= numTypes || form >= numForms {
		return Binary2D{}, false
	}
	k := table2D[op][t][form]
	if streaming {
		k = table2DNT[op][t][form]
	}
	return k, k.Func != nil
}

// LookupBinary2DCached returns the row-looped kernel for data that is in
// cache: 512-bit vectors where the CPU has AVX-512F (twice the work per
// instruction, measured 1.8x on a 64x64 add in L1), else the AVX2 one. For
// data streaming from memory AVX-512 brings nothing here, so that case
// keeps LookupBinary2D.
func LookupBinary2DCached(op Op, t Type, form Form) (Binary2D, bool) {
	if op >= numOps || t >= numTypes || form >= numForms {
		return Binary2D{}, false
	}
	if hasAVX512 {
		if k := table2DZ[op][t][form]; k.Func != nil {
			return k, true
		}
	}
	return LookupBinary2D(op, t, form, false)
}
