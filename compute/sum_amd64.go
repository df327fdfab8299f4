//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func sumF32F64AVX2(x unsafe.Pointer, n int) float64

//go:noescape
func rowsF32F64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func sum2F64AVX2(x unsafe.Pointer, n int, out *[16]float64)

//go:noescape
func rows2F64AVX2(acc, comp, x unsafe.Pointer, n, rows, stride int)

// sumAsm replaces the Go sum kernels by AVX2 ones that do the same
// arithmetic on whole vectors (float32 values widened to float64 by
// VCVTPS2PD; TwoSum on four float64 lanes at a time), leaving heads and
// tails to the Go loops.
func sumAsm() {
	if !Asm {
		return
	}
	sumTable[Float32] = SumKernels{Fold: foldSum32AVX2, Accum: accSum32AVX2, Rows: rowsSum32AVX2}
	sumTable[Float64] = SumKernels{Fold: foldSum64AVX2, Accum: accSum64AVX2, Rows: rowsSum64AVX2}
}

func foldSum32AVX2(acc, comp, x unsafe.Pointer, n int) {
	m := n &^ 15
	if m == 0 {
		foldSum32Go(acc, comp, x, n)
		return
	}
	addInto(acc, comp, sumF32F64AVX2(x, m))
	if m < n { // (a pointer past the end would fail checkptr)
		foldSum32Go(acc, comp, unsafe.Add(x, m*4), n-m)
	}
}

func rowsSum32AVX2(acc, comp, x unsafe.Pointer, n, rows, stride int) {
	if rows <= 0 { // nothing to add (and x may hold no element: a pointer past it fails checkptr)
		return
	}
	m := n &^ 7
	if m > 0 {
		rowsF32F64AVX2(acc, x, m, rows, stride*4)
	}
	if m < n {
		rowsSum32Go(unsafe.Add(acc, m*8), unsafe.Add(comp, m*8), unsafe.Add(x, m*4), n-m, rows, stride)
	}
}

func accSum32AVX2(acc, comp, x unsafe.Pointer, n int) { rowsSum32AVX2(acc, comp, x, n, 1, 0) }

func foldSum64AVX2(acc, comp, x unsafe.Pointer, n int) {
	m := n &^ 15
	if m == 0 {
		foldSum64Go(acc, comp, x, n)
		return
	}
	var out [16]float64
	sum2F64AVX2(x, m, &out)
	// the eight lanes' sums, pairwise by TwoSum, their errors summed
	c := ((out[8] + out[9]) + (out[10] + out[11])) + ((out[12] + out[13]) + (out[14] + out[15]))
	s0, e0 := twoSum(out[0], out[4])
	s1, e1 := twoSum(out[1], out[5])
	s2, e2 := twoSum(out[2], out[6])
	s3, e3 := twoSum(out[3], out[7])
	combine4(acc, comp, [4]float64{s0, s1, s2, s3}, c+((e0+e1)+(e2+e3)))
	if m < n {
		foldSum64Go(acc, comp, unsafe.Add(x, m*8), n-m)
	}
}

func rowsSum64AVX2(acc, comp, x unsafe.Pointer, n, rows, stride int) {
	if rows <= 0 { // nothing to add (and x may hold no element: a pointer past it fails checkptr)
		return
	}
	m := n &^ 15
	if m > 0 {
		rows2F64AVX2(acc, comp, x, m, rows, stride*8)
	}
	if m < n {
		rowsSum64Go(unsafe.Add(acc, m*8), unsafe.Add(comp, m*8), unsafe.Add(x, m*8), n-m, rows, stride)
	}
}

func accSum64AVX2(acc, comp, x unsafe.Pointer, n int) { rowsSum64AVX2(acc, comp, x, n, 1, 0) }
