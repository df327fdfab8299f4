package compute

import (
	"math/bits"
	"unsafe"
)

// Floor division and remainder of signed integers by one divisor (the VS
// form: x // c, x % c) without a divide per element. The quotient of
// magnitudes is a multiply-high and shifts (Granlund and Montgomery's
// round-up method, valid for every dividend below 2^N), and the floor for
// the signs is folded around it:
//
//	c > 0: x // c = (u // c) ^ s, s = x >> (bits-1), u = x ^ s (~x for x < 0)
//	c < 0: x // c = ^((x - 1) // |c|) for x > 0, (-x) // |c| for x <= 0
//
// in unsigned magnitudes, so that MinInt // -1 wraps to MinInt as NumPy's
// does. The remainder is x - (x // c) * c (sign of c, wrapping). A zero
// divisor keeps the element-wise kernel's result (0).

// udiv divides magnitudes u < 2^N by D >= 2: q = (t + (u - t) >> 1) >> sh,
// t = mulhi_N(m, u).
type udiv struct {
	m  uint64
	sh uint
}

// newUdiv returns the constants for D >= 2 and dividends below 2^n (n is
// 32 or 64).
func newUdiv(D uint64, n uint) udiv {
	l := uint(bits.Len64(D - 1)) // ceil(log2 D)
	hi := uint64(1)<<l - D       // (2^l - D) < D; l = 64 wraps to 2^64 - D
	var m uint64
	if n == 64 {
		m, _ = bits.Div64(hi, 0, D)
	} else {
		m = (hi << 32) / D
	}
	return udiv{m: m + 1, sh: l - 1}
}

func (d udiv) q32(u uint64) uint64 {
	t := (d.m * u) >> 32
	return (t + (u-t)>>1) >> d.sh
}

// udiv31 divides magnitudes u < 2^31 by D >= 2, D < 2^31, with one
// multiply: q = (m*u) >> (31+l), m = floor(2^(31+l)/D) + 1 < 2^32,
// l = ceil(log2 D) (Granlund and Montgomery's round-up method with N = 31:
// the product stays below 2^63 and no fix-up add is needed). The int32
// kernels divide magnitudes x ^ (x >> 31), which are below 2^31.
type udiv31 struct {
	m uint64
	l uint
}

func newUdiv31(D uint64) udiv31 {
	l := uint(bits.Len64(D - 1))
	return udiv31{m: uint64(1)<<(31+l)/D + 1, l: l}
}

func (d udiv31) q(u uint64) uint64 { return (d.m * u) >> (31 + d.l) }

func (d udiv) q64(u uint64) uint64 {
	t, _ := bits.Mul64(d.m, u)
	return (t + (u-t)>>1) >> d.sh
}

// floorDivI32Vec, where the build has it, is the int32 loop below for c >= 2
// on whole vectors of 8, with newUdiv31(c)'s m and l (mod != 0: the
// remainder; nt != 0: streaming stores to a 32-byte aligned dst).
var floorDivI32Vec func(dst, x unsafe.Pointer, n int, m, l uint64, c int64, mod, nt int)

// floorDivSmallVec, where the build has it, is floorDivI32Vec for int8,
// int16, uint8 and uint16 values (size bytes, unsigned when set): whole
// blocks of 32 widened to int32, divided and narrowed back. It returns the
// elements it did (n rounded down to a multiple of 32).
var floorDivSmallVec func(dst, x unsafe.Pointer, n, size int, unsigned bool, m, l uint64, c int64, mod int) int

// floorDivI64Vec is floorDivI32Vec for int64, on whole vectors of 4, with
// newUdiv(c, 64)'s m and sh; m31, when c < 2^31, is newUdiv31(c).m, with
// which four lanes of magnitudes below 2^31 take one 32-bit multiply (0:
// no such path).
var floorDivI64Vec func(dst, x unsafe.Pointer, n int, m, sh uint64, c int64, mod, nt int, m31 uint64)

// floorDivVVI32Vec, where the build has it, is floor division (mod != 0:
// the remainder) of two int32 vectors on whole vectors of 8 (nt != 0:
// streaming stores to a 32-byte aligned dst), through float64 division:
//
// q = floor(fl(float64(x) / float64(y))) is floor(x / y) exactly for int32
// x and y != 0. The conversions are exact (|x|, |y| <= 2^31 < 2^53). Let
// k = floor(x / y). If x / y is an integer it is k itself, representable, and
// the correctly rounded quotient is k. Otherwise k < x/y < k+1, and as
// rounding is monotone and k, k+1 are representable (|k+1| <= 2^31), the
// rounded quotient r lies in [k, k+1]: floor(r) = k unless r = k+1. That
// needs |x/y - (k+1)| <= half an ulp of k+1 <= |k+1| 2^-53. But x/y - (k+1)
// = (x - (k+1)y) / y with a nonzero integer numerator, so |x/y - (k+1)| >=
// 1/|y|, while |k+1| <= |x|/|y| + 1 gives |k+1| 2^-53 <= (|x| + |y|) / |y|
// 2^-53 < 1/|y| as |x| + |y| <= 2^32 < 2^53. So r != k+1. (k+1 = 0 would
// need r = 0, that is x = 0, an integer quotient.) The one quotient out of
// int32's range, MinInt32 / -1 = 2^31, converts to MinInt32 (VCVTTPD2DQ's
// out-of-range value), Go's and NumPy's wrapped result; a zero divisor gives
// 0 for both, as floorDivS and floorModS.
var floorDivVVI32Vec func(dst, x, y unsafe.Pointer, n int, mod, nt int)

// floorDivVVI32 runs floorDivVVI32Vec over the whole vectors of 8 and
// generic (the element-wise kernel) over the rest.
func floorDivVVI32(mod bool, generic BinaryFunc, nt bool) BinaryFunc {
	vec := floorDivVVI32Vec
	return func(dst, x, y unsafe.Pointer, n int) {
		m := n &^ 7
		if m > 0 {
			vec(dst, x, y, m, b2i(mod), b2i(nt))
		}
		if m < n {
			generic(unsafe.Add(dst, 4*m), unsafe.Add(x, 4*m), unsafe.Add(y, 4*m), n-m)
		}
	}
}

// floorDivVVI64Vec, where the CPU has it (AVX-512 F and DQ), is floor
// division (mod != 0: the remainder) of two int64 vectors in float64, 8
// lanes a step while both operands are below 2^52 in magnitude, stopping
// at the first vector with one beyond (or fewer than 8 left) and returning
// how many it did (nt != 0: streaming stores to a 64-byte aligned dst).
// floorDivVVI32Vec's argument holds for any |x| + |y| < 2^53 (the
// conversions are exact and 1/|y| exceeds half an ulp of k+1), so the
// rounded quotient's floor is floor(x/y), and r = x - q y by FMA is exact;
// a zero divisor gives 0.
var floorDivVVI64Vec func(dst, x, y unsafe.Pointer, n int, mod, nt int) int

// floorDivVVI64 runs floorDivVVI64Vec from the start, and generic (the
// element-wise kernel) over each vector it stops at and the rest.
func floorDivVVI64(mod bool, generic BinaryFunc, nt bool) BinaryFunc {
	vec := floorDivVVI64Vec
	return func(dst, x, y unsafe.Pointer, n int) {
		for done := 0; done < n; {
			done += vec(unsafe.Add(dst, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), n-done, b2i(mod), b2i(nt))
			if c := min(8, n-done); c > 0 {
				generic(unsafe.Add(dst, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), c)
				done += c
			}
		}
	}
}

type narrowSigned interface{ ~int8 | ~int16 | ~int32 }

// floorDivNarrow computes dst = x // c (mod: x % c) for int8, int16 and
// int32, whose magnitudes (at most 2^31) fit the 32-bit constants. nt: the
// vector loop streams its stores (dst 32-byte aligned: see ntSplitVS).
func floorDivNarrow[T narrowSigned](mod bool, generic BinaryFunc, nt bool) BinaryFunc {
	return func(dst, x, y unsafe.Pointer, n int) {
		c := *(*T)(y)
		if c == 0 || n == 0 {
			generic(dst, x, y, n)
			return
		}
		xs, ds := unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(dst), n)
		w := uint(unsafe.Sizeof(c))*8 - 1
		if c > 0 {
			if c == 1 {
				for i, v := range xs {
					if mod {
						ds[i] = 0
					} else {
						ds[i] = v
					}
				}
				return
			}
			d := newUdiv31(uint64(c))
			if vec := floorDivI32Vec; vec != nil && w == 31 && n >= 8 {
				m := n &^ 7
				vec(dst, x, m, d.m, uint64(d.l), int64(c), b2i(mod), b2i(nt))
				xs, ds = xs[m:], ds[m:]
			} else if sv := floorDivSmallVec; sv != nil && w < 31 && n >= 32 {
				m := sv(dst, x, n, int(w+1)/8, false, d.m, uint64(d.l), int64(c), b2i(mod))
				xs, ds = xs[m:], ds[m:]
			}
			for i, v := range xs {
				s := v >> w
				q := T(d.q(uint64(uint32(int32(v^s))))) ^ s
				if mod {
					q = v - q*c
				}
				ds[i] = q
			}
			return
		}
		D := uint64(-int64(c))
		if D == 1 {
			for i, v := range xs {
				if mod {
					ds[i] = 0
				} else {
					ds[i] = -v
				}
			}
			return
		}
		d := newUdiv(D, 32)
		for i, v := range xs {
			var q T
			if v > 0 {
				q = ^T(d.q32(uint64(v - 1)))
			} else {
				q = T(d.q32(uint64(-int64(v))))
			}
			if mod {
				q = v - q*c
			}
			ds[i] = q
		}
	}
}

// floorDiv64 is floorDivNarrow for int64 (64-bit constants).
func floorDiv64(mod bool, generic BinaryFunc, nt bool) BinaryFunc {
	return func(dst, x, y unsafe.Pointer, n int) {
		c := *(*int64)(y)
		if c == 0 || n == 0 {
			generic(dst, x, y, n)
			return
		}
		xs, ds := unsafe.Slice((*int64)(x), n), unsafe.Slice((*int64)(dst), n)
		if c > 0 {
			if c == 1 {
				for i, v := range xs {
					if mod {
						ds[i] = 0
					} else {
						ds[i] = v
					}
				}
				return
			}
			d := newUdiv(uint64(c), 64)
			if vec := floorDivI64Vec; vec != nil && n >= 4 {
				m := n &^ 3
				var m31 uint64
				if c < 1<<31 {
					m31 = newUdiv31(uint64(c)).m
				}
				vec(dst, x, m, d.m, uint64(d.sh), c, b2i(mod), b2i(nt), m31)
				xs, ds = xs[m:], ds[m:]
			}
			for i, v := range xs {
				s := v >> 63
				q := int64(d.q64(uint64(v^s))) ^ s
				if mod {
					q = v - q*c
				}
				ds[i] = q
			}
			return
		}
		D := uint64(-c) // 2^63 for MinInt64
		if D == 1 {
			for i, v := range xs {
				if mod {
					ds[i] = 0
				} else {
					ds[i] = -v
				}
			}
			return
		}
		d := newUdiv(D, 64)
		for i, v := range xs {
			var q int64
			if v > 0 {
				q = ^int64(d.q64(uint64(v - 1)))
			} else {
				q = int64(d.q64(uint64(-v))) // -MinInt64 wraps to 2^63 as uint64
			}
			if mod {
				q = v - q*c
			}
			ds[i] = q
		}
	}
}

// registerIntDiv installs the by-one-divisor kernels over the generated
// element-wise ones (kept for a zero divisor).
func registerIntDiv() {
	for _, mod := range []bool{false, true} {
		op := FloorDiv
		if mod {
			op = Remainder
		}
		g32, g64 := binTable[op][Int32][VS], binTable[op][Int64][VS]
		binTable[op][Int8][VS] = floorDivNarrow[int8](mod, binTable[op][Int8][VS], false)
		binTable[op][Int16][VS] = floorDivNarrow[int16](mod, binTable[op][Int16][VS], false)
		binTable[op][Uint8][VS] = floorDivUnsignedSmall[uint8](mod, binTable[op][Uint8][VS])
		binTable[op][Uint16][VS] = floorDivUnsignedSmall[uint16](mod, binTable[op][Uint16][VS])
		binTable[op][Int32][VS] = floorDivNarrow[int32](mod, g32, false)
		binTable[op][Int64][VS] = floorDiv64(mod, g64, false)
		if Asm { // the vector loops of intdiv_amd64.s
			ntTable[op][Int32][VS] = ntSplitVS(binTable[op][Int32][VS], floorDivNarrow[int32](mod, g32, true), 4)
			ntTable[op][Int64][VS] = ntSplitVS(binTable[op][Int64][VS], floorDiv64(mod, g64, true), 8)
		}
		if floorDivVVI32Vec != nil {
			g := binTable[op][Int32][VV]
			binTable[op][Int32][VV] = floorDivVVI32(mod, g, false)
			ntTable[op][Int32][VV] = ntSplitVV(binTable[op][Int32][VV], floorDivVVI32(mod, g, true), 4)
		}
		if floorDivVVI64Vec != nil {
			g := binTable[op][Int64][VV]
			binTable[op][Int64][VV] = floorDivVVI64(mod, g, false)
			ntTable[op][Int64][VV] = ntSplitBin(binTable[op][Int64][VV], floorDivVVI64(mod, g, true), 8, 8, 64)
		}
	}
}

// ntSplitVS runs nt (a VS kernel whose vector loop streams its stores,
// which needs a 32-byte aligned dst) from the first element of d on a
// 32-byte boundary, and plain (the same results) on the elements before
// it; a dst not aligned to its elements goes to plain whole.
func ntSplitVS(plain, nt BinaryFunc, size int) BinaryFunc { return ntSplitBin(plain, nt, size, 0, 32) }

// ntSplitVV is ntSplitVS for VV kernels (y advances with x).
func ntSplitVV(plain, nt BinaryFunc, size int) BinaryFunc {
	return ntSplitBin(plain, nt, size, size, 32)
}

// ntSplitBin is ntSplitVS and ntSplitVV: y advances ystep bytes an
// element, and nt starts at the first element of d on an align-byte
// boundary (32, or 64 for kernels of 64-byte vectors).
func ntSplitBin(plain, nt BinaryFunc, size, ystep, align int) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		h := 0
		if a := int(uintptr(d) & uintptr(align-1)); a != 0 {
			if a%size != 0 {
				plain(d, x, y, n)
				return
			}
			h = min(n, (align-a)/size)
			plain(d, x, y, h)
		}
		if h < n {
			nt(unsafe.Add(d, size*h), unsafe.Add(x, size*h), unsafe.Add(y, ystep*h), n-h)
		}
	}
}

// floorDivUnsignedSmall is floor division (mod: the remainder) of uint8
// or uint16 values by one divisor: whole blocks of 32 by floorDivSmallVec
// (the values and divisor are nonnegative int32s there), the rest and a
// zero divisor by generic.
func floorDivUnsignedSmall[T uint8 | uint16](mod bool, generic BinaryFunc) BinaryFunc {
	return func(dst, x, y unsafe.Pointer, n int) {
		c := *(*T)(y)
		done := 0
		if sv := floorDivSmallVec; sv != nil && c >= 2 && n >= 32 {
			d := newUdiv31(uint64(c))
			done = sv(dst, x, n, int(unsafe.Sizeof(c)), true, d.m, uint64(d.l), int64(c), b2i(mod))
		}
		if done < n {
			sz := int(unsafe.Sizeof(c))
			generic(unsafe.Add(dst, done*sz), unsafe.Add(x, done*sz), y, n-done)
		}
	}
}
