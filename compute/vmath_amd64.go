//go:build amd64 && !noasm

package compute

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// registerVmath installs the float64 transcendental kernels and the power
// of a vector to a scalar exponent of vmath_amd64.s (vmathgen.go), over the
// Go loops and asmgen's kernels (called at the end of registerAsm).
func registerVmath() {
	if !Asm || !cpu.X86.HasFMA {
		return
	}
	unTable[Sin][Float64] = asmMathF64(sinF64AVX2, unTable[Sin][Float64])
	unTable[Cos][Float64] = asmMathF64(cosF64AVX2, unTable[Cos][Float64])
	unTable[Log][Float64] = asmMathF64(logF64AVX2, unTable[Log][Float64])
	unTable[Log1p][Float64] = asmMathF64(log1pF64AVX2, unTable[Log1p][Float64])
	unTable[Arctan][Float64] = asmMathF64(arctanF64AVX2, unTable[Arctan][Float64])
	unTable[Expm1][Float64] = asmMathF64(expm1F64AVX2, unTable[Expm1][Float64])
	unTable[Tanh][Float64] = asmMathF64(tanhF64AVX2, unTable[Tanh][Float64])
	unTable[Arcsin][Float64] = asmMathF64(arcsinF64AVX2, unTable[Arcsin][Float64])
	unTable[Tan][Float64] = asmMathF64(tanF64AVX2, unTable[Tan][Float64])
	binTable[Arctan2][Float64][VV] = asmMath2F64(atan2F64AVX2, binTable[Arctan2][Float64][VV])
	unTable[Tan][Float32] = asmMath4F32(tanF32AVX2, unTable[Tan][Float32])
	binTable[Power][Float64][VS] = powVS(8, binTable[Power][Float64][VS], unTable[Square][Float64], powF64AVX2, cubeF64AVX2)
	binTable[Power][Float32][VS] = powVS(4, binTable[Power][Float32][VS], unTable[Square][Float32], powF32AVX2, cubeF32AVX2)
}

// powVS is x**y for a scalar y: y = 2 is square (NumPy's x*x), y = 3 the
// cube rounded once (cube), a finite y other than 0 and 1 the routine pow
// (exp(y log x) in double-double, for positive normal x; it stops at the
// first block of 4 it does not do, which the Go loop slow computes), and
// every other y the Go loop.
func powVS(size int, slow BinaryFunc, square UnaryFunc, pow func(d, x unsafe.Pointer, n int, y float64) int, cube func(d, x unsafe.Pointer, n int)) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		var yv float64
		if size == 4 {
			yv = float64(*(*float32)(y))
		} else {
			yv = *(*float64)(y)
		}
		switch {
		case yv == 2:
			square(d, x, n)
			return
		case yv == 3:
			m := n &^ 7
			if m > 0 {
				cube(d, x, m)
			}
			if m < n {
				slow(unsafe.Add(d, m*size), unsafe.Add(x, m*size), y, n-m)
			}
			return
		case yv == 0 || yv == 1 || math.IsInf(yv, 0) || math.IsNaN(yv):
			slow(d, x, y, n)
			return
		}
		done := 0
		for done < n {
			if m := (n - done) &^ 3; m > 0 {
				done += pow(unsafe.Add(d, size*done), unsafe.Add(x, size*done), m, yv)
			}
			if done < n {
				c := min(4, n-done)
				slow(unsafe.Add(d, size*done), unsafe.Add(x, size*done), y, c)
				done += c
			}
		}
	}
}

// asmMath2F64 is asmMathF64 for a binary routine of float64 vectors
// (blocks of 4): the Go loop slow does each block k stops at.
func asmMath2F64(k func(d, x, y unsafe.Pointer, n int) int, slow BinaryFunc) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		done := 0
		for done < n {
			if m := (n - done) &^ 3; m > 0 {
				done += k(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), m)
			}
			if done < n {
				c := min(4, n-done)
				slow(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), c)
				done += c
			}
		}
	}
}

// asmMath4F32 is asmMathF32 for float32 routines computed in float64
// (blocks of 4).
func asmMath4F32(k func(d, x unsafe.Pointer, n int) int, slow UnaryFunc) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		done := 0
		for done < n {
			if m := (n - done) &^ 3; m > 0 {
				done += k(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), m)
			}
			if done < n {
				c := min(4, n-done)
				slow(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), c)
				done += c
			}
		}
	}
}
