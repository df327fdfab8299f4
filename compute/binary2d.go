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

// RowKernel is a row-looped binary kernel for a pass in which one operand
// is the same row every row (x + b[None, :]): dst = x op y (or y op x, the
// repeated row first) for rows rows of nbytes bytes, where y is that one
// row and dst and x advance by ds and xs bytes. nbytes is a multiple of
// RowKernelBytes. The row is read into registers once per RowKernelBytes
// of it and kept there while the rows go by, so each element costs one
// load, one op and one store (the 64x64 float32 add in L1: 244 -> 182 ns
// of CPU against the Binary2D kernel, which reloads y every row). The
// rows are walked once per RowKernelBytes of columns, so it suits data in
// cache, not streams from memory.
type RowKernel func(dst, x, y unsafe.Pointer, nbytes, rows, ds, xs int)

// RowKernelBytes is the multiple of bytes a RowKernel's rows must have.
const RowKernelBytes = 256

var tableRow [numOps][numTypes][2]RowKernel

// LookupRowKernel returns the repeated-row kernel for op on t, with the
// repeated row as the second operand (first false) or the first, where
// the build has one (AVX2 assembly; none where the 512-bit Binary2D
// kernels are used).
func LookupRowKernel(op Op, t Type, first bool) (RowKernel, bool) {
	if op >= numOps || t >= numTypes || hasAVX512 {
		return nil, false
	}
	i := 0
	if first {
		i = 1
	}
	k := tableRow[op][t][i]
	return k, k != nil
}
