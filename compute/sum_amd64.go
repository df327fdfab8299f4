//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func sumF32F64AVX2(x unsafe.Pointer, n int) float64

//go:noescape
func rowsF32F64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func rowsF32F64Z(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func rowsF32F64Y(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func sum2F64AVX2(x unsafe.Pointer, n, q int, out *[32]float64)

//go:noescape
func sum4F64AVX2(p *[4]unsafe.Pointer, q int, out *[32]float64)

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
	sumTable[Float32] = SumKernels{Fold: foldSum32AVX2, Accum: accSum32AVX2, Rows: rowsSum32AVX2, Fold4: fold4(foldSum32AVX2)}
	sumTable[Float64] = SumKernels{Fold: foldSum64AVX2, Accum: accSum64AVX2, Rows: rowsSum64AVX2, Fold4: fold4Sum64AVX2}
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
	switch {
	case m >= rowsZMin && m <= rowsZMax && hasVmath512:
		rowsF32F64Z(acc, x, m, rows, stride*4)
	case m >= rowsZMin && m <= rowsZMax:
		rowsF32F64Y(acc, x, m, rows, stride*4)
	case m > 0:
		rowsF32F64AVX2(acc, x, m, rows, stride*4)
	}
	if m < n {
		rowsSum32Go(unsafe.Add(acc, m*8), unsafe.Add(comp, m*8), unsafe.Add(x, m*4), n-m, rows, stride)
	}
}

// rowsZMin and rowsZMax bound the rows rowsF32F64Z (rowsF32F64Y without
// AVX-512) takes a row at a time (its accumulators in L1). Measured on Zen
// 5, 64 MB of float32 summed over axis 0 (ms, eight rows side by side -> a
// row at a time): 1000 columns 3.5 -> 1.8, 512 5.3 -> 1.8, 2048 3.1 ->
// 2.2, 64 1.8 -> 1.7; 32 columns 1.7 -> 3.4 and 4096 2.4 -> 3.0 went the
// other way. The AVX2 form measured the same there (1000 columns 1.9).
const rowsZMin, rowsZMax = 64, 2048

func accSum32AVX2(acc, comp, x unsafe.Pointer, n int) { rowsSum32AVX2(acc, comp, x, n, 1, 0) }

func foldSum64AVX2(acc, comp, x unsafe.Pointer, n int) {
	m := n &^ 15
	if m == 0 {
		foldSum64Go(acc, comp, x, n)
		return
	}
	var out [32]float64
	sum2F64AVX2(x, m, streamLen(m, 8), &out)
	// the sixteen lanes' sums by TwoSum in lane order, their errors summed
	a, cp := (*float64)(acc), (*float64)(comp)
	s, e := *a, *cp
	for i, v := range out[:16] {
		var d float64
		s, d = twoSum(s, v)
		e += d + out[16+i]
	}
	*a, *cp = s, e
	if m < n {
		foldSum64Go(acc, comp, unsafe.Add(x, m*8), n-m)
	}
}

// fold4Sum64AVX2 is Fold4 for float64 values: the four runs' vector
// bodies side by side (sum4F64AVX2), each run's four lanes added to its
// accumulator by TwoSum in lane order, then the tails by the Go loop.
func fold4Sum64AVX2(acc, comp, x *[4]unsafe.Pointer, n int) {
	q := n &^ 7
	if q == 0 {
		fold4(foldSum64Go)(acc, comp, x, n)
		return
	}
	var out [32]float64
	sum4F64AVX2(x, q, &out)
	for k := range x {
		a, cp := (*float64)(acc[k]), (*float64)(comp[k])
		s, e := *a, *cp
		for i := 4 * k; i < 4*k+4; i++ {
			var d float64
			s, d = twoSum(s, out[i])
			e += d + out[16+i]
		}
		*a, *cp = s, e
		if q < n {
			foldSum64Go(acc[k], comp[k], unsafe.Add(x[k], q*8), n-q)
		}
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
