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

var table2D, table2DNT [numOps][numTypes][numForms]Binary2D

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
