package compute

import "unsafe"

// Accurate float sums. A float sum accumulates into float64 with a
// compensation term per accumulator (acc, comp): the value of the sum is
// acc + comp. Values of type float32 (float16 is computed in float32) are
// added in float64 without compensation, whose rounding (at most n·2^-53 of
// the sum of magnitudes) stays far below float32's; float64 values are added
// by Knuth's TwoSum, which keeps the rounding error of every addition in
// comp, so the result is within a few units of float64's last place of the
// exact sum however many values (Neumaier's bound: 2ε|S| + O(nε²)·Σ|x|).
// Either way the result does not depend on the order or grouping of the
// additions beyond that bound, so it does not depend on how a pass is split
// between workers.

// SumKernels are the accurate sum kernels for values of one type (see
// LookupSum). acc and comp are float64; x is of the kernels' value type.
type SumKernels struct {
	// Fold adds x[0] + ... + x[n-1] into the one accumulator (*acc, *comp).
	Fold func(acc, comp, x unsafe.Pointer, n int)
	// Accum adds x[i] into the accumulator (acc[i], comp[i]), i < n.
	Accum func(acc, comp, x unsafe.Pointer, n int)
	// Rows adds rows rows of n values, stride elements apart, into the n
	// accumulators: acc[i] += x[i] + x[stride+i] + ..., reading the rows as
	// one sequential stream.
	Rows func(acc, comp, x unsafe.Pointer, n, rows, stride int)
	// Fold4 adds the n values at x[k] into the accumulator (*acc[k],
	// *comp[k]), k < 4, as Fold does, reading the four runs side by side
	// (four sequential streams from memory).
	Fold4 func(acc, comp, x *[4]unsafe.Pointer, n int)
}

// fold4 is Fold4 made of four calls of fold.
func fold4(fold func(acc, comp, x unsafe.Pointer, n int)) func(acc, comp, x *[4]unsafe.Pointer, n int) {
	return func(acc, comp, x *[4]unsafe.Pointer, n int) {
		for k := range x {
			fold(acc[k], comp[k], x[k], n)
		}
	}
}

var sumTable [numTypes]SumKernels

// LookupSum returns the accurate float64 sum kernels for values of type t
// (Float32 or Float64).
func LookupSum(t Type) (SumKernels, bool) {
	if t >= numTypes || sumTable[t].Fold == nil {
		return SumKernels{}, false
	}
	return sumTable[t], true
}

// MergeSums adds the accumulators (acc2[i], comp2[i]) into (acc[i],
// comp[i]), i < n, keeping the rounding of the sums in comp.
func MergeSums(acc, comp, acc2, comp2 unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	a, c := unsafe.Slice((*float64)(acc), n), unsafe.Slice((*float64)(comp), n)
	a2, c2 := unsafe.Slice((*float64)(acc2), n), unsafe.Slice((*float64)(comp2), n)
	for i := range a {
		s, e := twoSum(a[i], a2[i])
		a[i] = s
		c[i] += e + c2[i]
	}
}

// FinishSums stores the value of each accumulator, acc[i] + comp[i], in
// acc[i], i < n. An accumulator that is infinite or NaN (an infinite
// value, or an overflow, was added) is kept as it is: its compensation is
// then NaN (TwoSum of an infinity), and the sum is what the plain sum is.
func FinishSums(acc, comp unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	a, c := unsafe.Slice((*float64)(acc), n), unsafe.Slice((*float64)(comp), n)
	for i, v := range a {
		if v-v == 0 { // finite
			a[i] = v + c[i]
		}
	}
}

// twoSum returns s = fl(a + b) and the rounding error e, a + b = s + e
// exactly (Knuth; no branch, any order of magnitudes). An infinite or NaN
// sum makes e NaN, which FinishSums ignores.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// foldSum32Go is Fold for float32 values: eight float64 partial sums,
// combined pairwise, then added to the accumulator with TwoSum.
func foldSum32Go(acc, comp, x unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	v := unsafe.Slice((*float32)(x), n)
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	i := 0
	for ; i+8 <= n; i += 8 {
		s0 += float64(v[i])
		s1 += float64(v[i+1])
		s2 += float64(v[i+2])
		s3 += float64(v[i+3])
		s4 += float64(v[i+4])
		s5 += float64(v[i+5])
		s6 += float64(v[i+6])
		s7 += float64(v[i+7])
	}
	for ; i < n; i++ {
		s0 += float64(v[i])
	}
	addInto(acc, comp, ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)))
}

// addInto adds v to the accumulator (*acc, *comp) with TwoSum.
func addInto(acc, comp unsafe.Pointer, v float64) {
	a := (*float64)(acc)
	s, e := twoSum(*a, v)
	*a = s
	*(*float64)(comp) += e
}

// accSum32Go is Accum for float32 values.
func accSum32Go(acc, comp, x unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	a := unsafe.Slice((*float64)(acc), n)
	for i, v := range unsafe.Slice((*float32)(x), n) {
		a[i] += float64(v)
	}
}

// rowsSum32Go is Rows for float32 values.
func rowsSum32Go(acc, comp, x unsafe.Pointer, n, rows, stride int) {
	for r := 0; r < rows; r++ {
		accSum32Go(acc, comp, unsafe.Add(x, r*stride*4), n)
	}
}

// foldSum64Go is Fold for float64 values: four TwoSum accumulators, their
// errors summed apart, combined at the end.
func foldSum64Go(acc, comp, x unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	v := unsafe.Slice((*float64)(x), n)
	var s0, s1, s2, s3, c0, c1, c2, c3 float64
	i := 0
	for ; i+4 <= n; i += 4 {
		var e0, e1, e2, e3 float64
		s0, e0 = twoSum(s0, v[i])
		s1, e1 = twoSum(s1, v[i+1])
		s2, e2 = twoSum(s2, v[i+2])
		s3, e3 = twoSum(s3, v[i+3])
		c0 += e0
		c1 += e1
		c2 += e2
		c3 += e3
	}
	for ; i < n; i++ {
		var e float64
		s0, e = twoSum(s0, v[i])
		c0 += e
	}
	combine4(acc, comp, [4]float64{s0, s1, s2, s3}, (c0+c1)+(c2+c3))
}

// combine4 adds four partial sums and their summed errors into the
// accumulator, each with TwoSum.
func combine4(acc, comp unsafe.Pointer, s [4]float64, c float64) {
	a, cp := (*float64)(acc), (*float64)(comp)
	sum, e := *a, *cp+c
	for _, v := range s {
		var d float64
		sum, d = twoSum(sum, v)
		e += d
	}
	*a, *cp = sum, e
}

// accSum64Go is Accum for float64 values.
func accSum64Go(acc, comp, x unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	a, c := unsafe.Slice((*float64)(acc), n), unsafe.Slice((*float64)(comp), n)
	for i, v := range unsafe.Slice((*float64)(x), n) {
		s, e := twoSum(a[i], v)
		a[i] = s
		c[i] += e
	}
}

// rowsSum64Go is Rows for float64 values.
func rowsSum64Go(acc, comp, x unsafe.Pointer, n, rows, stride int) {
	for r := 0; r < rows; r++ {
		accSum64Go(acc, comp, unsafe.Add(x, r*stride*8), n)
	}
}

func registerSums() {
	sumTable[Float32] = SumKernels{Fold: foldSum32Go, Accum: accSum32Go, Rows: rowsSum32Go, Fold4: fold4(foldSum32Go)}
	sumTable[Float64] = SumKernels{Fold: foldSum64Go, Accum: accSum64Go, Rows: rowsSum64Go, Fold4: fold4(foldSum64Go)}
	sumAsm()
}
