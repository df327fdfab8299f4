//go:build amd64 && !noasm

package compute

import (
	"math"
	"unsafe"
)

// The float32 remainder of fmodvec_amd64.s.

//go:noescape
func remF32VVAVX2(d, x, y unsafe.Pointer, n int) int

//go:noescape
func remF32VSAVX2(d, x, y unsafe.Pointer, n int) int

// remVec runs a remainder kernel that stops at a block it does not
// handle: the Go loop tail computes that block of 8, and the kernel goes
// on after it. ys is y's step in bytes (0: a scalar).
func remVec(k func(d, x, y unsafe.Pointer, n int) int, tail BinaryFunc, ys int) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		done := 0
		for done < n {
			if m := (n - done) &^ 7; m > 0 {
				done += k(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), unsafe.Add(y, ys*done), m)
			}
			if done < n {
				c := min(8, n-done)
				tail(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), unsafe.Add(y, ys*done), c)
				done += c
			}
		}
	}
}

// registerRemVec installs the vector float32 remainder (x % y, Python's
// and NumPy's floor remainder) for an array or scalar divisor; a scalar
// divisor the kernel cannot take (zero, infinite, NaN) goes to the Go
// loop whole.
func registerRemVec() {
	if !Asm {
		return
	}
	vv, vs := binTable[Remainder][Float32][VV], binTable[Remainder][Float32][VS]
	binTable[Remainder][Float32][VV] = remVec(remF32VVAVX2, vv, 4)
	fast := remVec(remF32VSAVX2, vs, 0)
	binTable[Remainder][Float32][VS] = func(d, x, y unsafe.Pointer, n int) {
		if b := float64(*(*float32)(y)); b == 0 || math.IsInf(b, 0) || b != b {
			vs(d, x, y, n)
			return
		}
		fast(d, x, y, n)
	}
}
