package compute

import (
	"math"
	"unsafe"
)

// Extrema of float vectors (max, min, argmax, argmin) with AVX2 where the
// build has it. The vector kernels only see whole blocks of 32 values: they
// return the block's extreme and whether it holds a NaN; the Go wrappers
// keep the scalar rules. A NaN anywhere makes max and min NaN (NumPy's rule);
// a zero extreme, whose sign the vector instructions do not choose, is
// recomputed by the Go loop (max(-0, 0) = 0, min(-0, 0) = -0, as Go's max
// and min); argmax and argmin return the first NaN when there is one, else
// the first index holding the extreme.

// [0] min, [1] max; nil without assembly.
var (
	extF32   [2]func(x unsafe.Pointer, n, q int) (float32, bool)
	extF64   [2]func(x unsafe.Pointer, n, q int) (float64, bool)
	firstF32 [2]func(x unsafe.Pointer, n int, v float32) int // first x[i] <= v, >= v
	firstF64 [2]func(x unsafe.Pointer, n int, v float64) int
	// one-pass argmin/argmax by lanes over four streams (see lanesBest)
	argF32 [2]func(p *[4]unsafe.Pointer, q int, best *[32]float32, idx *[32]int32) (nan bool)
	argF64 [2]func(p *[4]unsafe.Pointer, q int, best *[16]float64, idx *[16]int64) (nan bool)
)

// extBlock: the vector kernels take multiples of this many elements.
const extBlock = 32

// maxStream is the most bytes of one stream of a kernel that reads a run
// as four streams side by side (see streamLen).
const maxStream = 256 << 10

// streamLen returns the elements of each of the four streams in which a
// multi-stream kernel reads a run of n elements of size bytes: at most
// maxStream bytes, a multiple of 64, and 0 (one stream) when a stream would
// be shorter than minStream. One sequential stream from memory keeps fewer
// loads in flight than the machine allows; four interleaved streams read
// 64 MiB about 25 % faster here (the kernels take blocks of four streams of
// this length, then split what is left into four shorter ones). Short
// streams lose more than they gain (a run of 8 KiB read as four of 2 KiB
// took 20 % longer than as one), and a run that short is usually a tile in
// cache anyway.
func streamLen(n, size int) int {
	q := min(maxStream/size, n/4) &^ (64/size - 1)
	if q*size < minStream {
		return 0
	}
	return q
}

// minStream is the shortest stream, in bytes, that streamLen splits a run
// into.
const minStream = 4 << 10

func b2k(isMax bool) int {
	if isMax {
		return 1
	}
	return 0
}

// foldExtreme returns a fold of max (isMax) or min built on the vector
// kernel ext, with goFold for heads, tails and zero results.
func foldExtreme[T float](ext func(unsafe.Pointer, int, int) (T, bool), isMax bool, goFold FoldFunc) FoldFunc {
	return func(acc, x unsafe.Pointer, n int) {
		m := n &^ (extBlock - 1)
		if m == 0 {
			goFold(acc, x, n)
			return
		}
		var z T
		v, nan := ext(x, m, streamLen(m, int(unsafe.Sizeof(z))))
		if nan {
			*(*T)(acc) = T(math.NaN())
			return
		}
		if v == 0 {
			goFold(acc, x, n)
			return
		}
		s := *(*T)(acc)
		if isMax {
			s = max(s, v)
		} else {
			s = min(s, v)
		}
		*(*T)(acc) = s
		if m < n {
			goFold(acc, unsafe.Add(x, m*int(unsafe.Sizeof(z))), n-m)
		}
	}
}

// ArgExtremeFloat32 returns the index of the first maximum (isMax) or
// minimum of the n float32 values at x, or of the first NaN when there is
// one (NumPy's argmax and argmin); -1 when n is 0. With assembly the values
// are read once: four streams side by side, each lane keeping its best
// value and where it first saw it (argmaxF32x4), the lanes then merged by
// value and index; a NaN among them sends the run to the two-pass path
// (the extreme, then its first index, or the first NaN).
func ArgExtremeFloat32(x unsafe.Pointer, n int, isMax bool) int {
	k := b2k(isMax)
	if argF32[k] != nil && n >= 64 {
		q := n / 4 &^ 7
		p := [4]unsafe.Pointer{x, unsafe.Add(x, q*4), unsafe.Add(x, 2*q*4), unsafe.Add(x, 3*q*4)}
		var best [32]float32
		var idx [32]int32
		if !argF32Call(k, &p, q, &best, &idx) {
			return argExtremeGo(unsafe.Slice((*float32)(x), n), 4*q, lanesBest(best[:], idx[:], 8, q, isMax), isMax)
		}
	}
	return argExtreme(x, n, isMax, extF32[k], firstF32[k])
}

// ArgExtremeFloat64 is ArgExtremeFloat32 for float64 values.
func ArgExtremeFloat64(x unsafe.Pointer, n int, isMax bool) int {
	k := b2k(isMax)
	if argF64[k] != nil && n >= 64 {
		q := n / 4 &^ 3
		p := [4]unsafe.Pointer{x, unsafe.Add(x, q*8), unsafe.Add(x, 2*q*8), unsafe.Add(x, 3*q*8)}
		var best [16]float64
		var idx [16]int64
		if !argF64Call(k, &p, q, &best, &idx) {
			return argExtremeGo(unsafe.Slice((*float64)(x), n), 4*q, lanesBest(best[:], idx[:], 4, q, isMax), isMax)
		}
	}
	return argExtreme(x, n, isMax, extF64[k], firstF64[k])
}

// ArgExtreme4Float32 sets at[i] to ArgExtremeFloat32(p[i], n, isMax) for
// four runs of n values at once, reading them side by side (four
// sequential streams: rows far apart in a matrix keep more loads in
// flight than one row after another). It reports false, and does nothing,
// without the assembly kernels or for runs shorter than 64 values.
func ArgExtreme4Float32(p *[4]unsafe.Pointer, n int, isMax bool, at *[4]int) bool {
	k := b2k(isMax)
	if argF32[k] == nil || n < 64 {
		return false
	}
	var best [32]float32
	var idx [32]int32
	q := n &^ 7
	nan := argF32Call(k, p, q, &best, &idx)
	for i, x := range p {
		if nan { // some run has a NaN: each on its own
			at[i] = ArgExtremeFloat32(x, n, isMax)
			continue
		}
		b := lanesBest(best[8*i:8*i+8], idx[8*i:8*i+8], 8, 0, isMax)
		at[i] = argExtremeGo(unsafe.Slice((*float32)(x), n), q, b, isMax)
	}
	return true
}

// ArgExtreme4Float64 is ArgExtreme4Float32 for float64 values.
func ArgExtreme4Float64(p *[4]unsafe.Pointer, n int, isMax bool, at *[4]int) bool {
	k := b2k(isMax)
	if argF64[k] == nil || n < 64 {
		return false
	}
	var best [16]float64
	var idx [16]int64
	q := n &^ 3
	nan := argF64Call(k, p, q, &best, &idx)
	for i, x := range p {
		if nan {
			at[i] = ArgExtremeFloat64(x, n, isMax)
			continue
		}
		b := lanesBest(best[4*i:4*i+4], idx[4*i:4*i+4], 4, 0, isMax)
		at[i] = argExtremeGo(unsafe.Slice((*float64)(x), n), q, b, isMax)
	}
	return true
}

// lanesBest merges the lanes of a one-pass argmax (argmin) kernel: best
// holds streams of q values laid end to end (or one stream, q unused),
// lanes lanes per stream, lane j's best value first seen in vector idx[j]
// of its stream. It returns the element index of the best value, the
// smallest index among equal ones (the first occurrence; -0 and 0 are
// equal, as for the Go loop).
func lanesBest[T float, I int32 | int64](best []T, idx []I, lanes, q int, isMax bool) int {
	b := best[0]
	for _, v := range best[1:] {
		if isMax && v > b || !isMax && v < b {
			b = v
		}
	}
	at := -1
	for k := 0; k*lanes < len(best); k++ {
		for l, v := range best[k*lanes : (k+1)*lanes] {
			if v == b {
				if i := k*q + int(idx[k*lanes+l])*lanes + l; at < 0 || i < at {
					at = i
				}
			}
		}
	}
	return at
}

func argExtreme[T float](x unsafe.Pointer, n int, isMax bool, ext func(unsafe.Pointer, int, int) (T, bool), first func(unsafe.Pointer, int, T) int) int {
	xs := unsafe.Slice((*T)(x), n)
	m := n &^ (extBlock - 1)
	if ext == nil || m == 0 {
		return argExtremeGo(xs, 0, -1, isMax)
	}
	var z T
	v, nan := ext(x, m, streamLen(m, int(unsafe.Sizeof(z))))
	if nan {
		for i, u := range xs[:m] {
			if u != u {
				return i
			}
		}
	}
	at := first(x, m, v)
	if at < 0 { // cannot happen: v is one of the values
		return argExtremeGo(xs, 0, -1, isMax)
	}
	return argExtremeGo(xs, m, at, isMax)
}

// argExtremeGo continues an argmax (argmin) whose best so far is at index
// at (-1: none) from index i0 on.
func argExtremeGo[T float](xs []T, i0, at int, isMax bool) int {
	var best T
	if at >= 0 {
		best = xs[at]
		if best != best {
			return at
		}
	}
	for i := i0; i < len(xs); i++ {
		u := xs[i]
		if u != u {
			return i
		}
		if at < 0 || (isMax && u > best) || (!isMax && u < best) {
			best, at = u, i
		}
	}
	return at
}

// registerExtrema replaces the float max and min folds by the vector ones.
func registerExtrema() {
	extremaAsm()
	if extF32[0] == nil {
		return
	}
	foldTable[Minimum][Float32] = foldExtreme(extF32[0], false, foldMin[float32])
	foldTable[Maximum][Float32] = foldExtreme(extF32[1], true, foldMax[float32])
	foldTable[Minimum][Float64] = foldExtreme(extF64[0], false, foldMin[float64])
	foldTable[Maximum][Float64] = foldExtreme(extF64[1], true, foldMax[float64])
}

// foldAnyBool and foldAllBool are the bool max (any) and min (all) folds:
// an accumulator already decided reads nothing, else the search stops at
// the deciding byte. foldAnyBool is the or of n bools (max): the first
// nonzero byte.
func foldAnyBool(acc, x unsafe.Pointer, n int) {
	if a := (*uint8)(acc); *a == 0 && firstNonzero(x, n) >= 0 {
		*a = 1
	}
}

// foldAllBool is the and of n bools (min): the first zero byte.
func foldAllBool(acc, x unsafe.Pointer, n int) {
	if a := (*uint8)(acc); *a != 0 && firstZero(x, n) >= 0 {
		*a = 0
	}
}

// firstNonzero returns the index of the first nonzero of the n bytes at x,
// or -1 (a vector kernel where the build has one, firstNonzeroGo
// otherwise). A bool's argmax and any: true is any nonzero byte.
var firstNonzero = firstNonzeroGo

// firstZero returns the index of the first zero of the n bytes at x, or
// -1 (a bool's argmin and all).
var firstZero = func(x unsafe.Pointer, n int) int {
	var zero [8]byte
	return firstEqGo(x, n, unsafe.Pointer(&zero), 1)
}

func firstNonzeroGo(x unsafe.Pointer, n int) int {
	i := 0
	for i+8 <= n && *(*uint64)(unsafe.Add(x, i)) == 0 {
		i += 8
	}
	for ; i < n; i++ {
		if *(*uint8)(unsafe.Add(x, i)) != 0 {
			return i
		}
	}
	return -1
}

// Fused any(x op c) of a float vector and a constant: the comparisons
// that AnyCompare takes, in the order of the kernel tables.
var cmpOps = [...]Op{Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual}

const numCmp = len(cmpOps)

// The vector kernels of AnyCompare, indexed like cmpOps; nil without
// assembly. They take multiples of 128 bytes.
var (
	anyCmpF32 [numCmp]func(x unsafe.Pointer, n int, c float32) bool
	anyCmpF64 [numCmp]func(x unsafe.Pointer, n int, c float64) bool
)

// anyBlock is how many bytes AnyCompare hands to a vector kernel at a
// time: the scan stops within a block of the first true element.
const anyBlock = 16 << 10

// AnyCompare reports whether x[i] op c holds for some i < n, for the n
// values of type t (Float32 or Float64) at x and the constant c of the same
// type at cp: the fused form of any(x op c), which reads x once, writes no
// bool array and stops at the first true comparison. op is one of Greater,
// GreaterEqual, Less, LessEqual, Equal and NotEqual, with Go's (and
// NumPy's) rules for NaN: every comparison with NaN is false except
// NotEqual. ok is false (and nothing is read) for any other op or type.
func AnyCompare(op Op, t Type, x unsafe.Pointer, n int, cp unsafe.Pointer) (found, ok bool) {
	k := -1
	for i, o := range cmpOps {
		if o == op {
			k = i
		}
	}
	if k < 0 || (t != Float32 && t != Float64) {
		return false, false
	}
	if n <= 0 {
		return false, true
	}
	if t == Float32 {
		return anyCompare(k, x, n, *(*float32)(cp), anyCmpF32[k]), true
	}
	return anyCompare(k, x, n, *(*float64)(cp), anyCmpF64[k]), true
}

func anyCompare[T float](k int, x unsafe.Pointer, n int, c T, vec func(unsafe.Pointer, int, T) bool) bool {
	var z T
	size := int(unsafe.Sizeof(z))
	m := 0
	if vec != nil {
		m = n &^ (128/size - 1)
		step := anyBlock / size
		for i := 0; i < m; i += step {
			if vec(unsafe.Add(x, i*size), min(step, m-i), c) {
				return true
			}
		}
	}
	if m == n {
		return false
	}
	for _, v := range unsafe.Slice((*T)(unsafe.Add(x, m*size)), n-m) {
		var hit bool
		switch k {
		case 0:
			hit = v > c
		case 1:
			hit = v >= c
		case 2:
			hit = v < c
		case 3:
			hit = v <= c
		case 4:
			hit = v == c
		default:
			hit = v != c
		}
		if hit {
			return true
		}
	}
	return false
}

// firstEq[size] returns the index of the first of n elements of size
// bytes at x whose bytes equal those at v, or -1 (vector kernels where
// the build has them, firstEqGo otherwise).
var firstEq = [9]func(x unsafe.Pointer, n int, v unsafe.Pointer) int{
	1: func(x unsafe.Pointer, n int, v unsafe.Pointer) int { return firstEqGo(x, n, v, 1) },
	2: func(x unsafe.Pointer, n int, v unsafe.Pointer) int { return firstEqGo(x, n, v, 2) },
	4: func(x unsafe.Pointer, n int, v unsafe.Pointer) int { return firstEqGo(x, n, v, 4) },
	8: func(x unsafe.Pointer, n int, v unsafe.Pointer) int { return firstEqGo(x, n, v, 8) },
}

func firstEqGo(x unsafe.Pointer, n int, v unsafe.Pointer, size int) int {
	want := unsafe.Slice((*byte)(v), size)
	b := unsafe.Slice((*byte)(x), n*size)
	for i := 0; i < n; i++ {
		if string(b[i*size:(i+1)*size]) == string(want) {
			return i
		}
	}
	return -1
}

// argExtremeIntFast, when set, is ArgExtremeInt of the integer types by
// the vector kernels, with nothing allocated (foldint_amd64.go).
var argExtremeIntFast func(t Type, x unsafe.Pointer, n int, isMax bool) int

// ArgExtremeInt returns the index of the first maximum (isMax) or minimum
// of the n integers (or bools) of type t at x (NumPy's argmax and argmin),
// or -1 when n is 0 or t is not an integer or bool type. The extreme comes
// from the vector fold, then its first occurrence from a vector search;
// a bool's argmax is the first true (argmin: the first false), else 0.
func ArgExtremeInt(t Type, x unsafe.Pointer, n int, isMax bool) int {
	if n <= 0 || t >= Float16 {
		return -1
	}
	if t == Bool { // true is any nonzero byte
		if isMax {
			return max(firstNonzero(x, n), 0)
		}
		return max(firstZero(x, n), 0)
	}
	if argExtremeIntFast != nil {
		return argExtremeIntFast(t, x, n, isMax)
	}
	size := t.Size()
	var v [8]byte // (it escapes through the func values: one allocation a call)
	op := Minimum
	if isMax {
		op = Maximum
	}
	copy(v[:size], unsafe.Slice((*byte)(x), size))
	foldTable[op][t](unsafe.Pointer(&v[0]), x, n)
	return firstEq[size](x, n, unsafe.Pointer(&v[0]))
}
