package compute

import "unsafe"

// halfMagnitude and halfSign are the masks of float16's absolute value and
// negation.
var halfMagnitude, halfSign uint16 = 0x7fff, 0x8000

// registerHalfBits installs float16's absolute value and negation as
// NumPy's half loops compute them: the sign bit cleared or flipped by the
// uint16 bitwise kernels, every NaN's payload kept (a signalling NaN
// stays signalling, which a trip through float32 by F16C would not keep).
// Every other float16 op computes in float32 (expr's kernelType).
func registerHalfBits() {
	and := binTable[BitwiseAnd][Uint16][VS]
	xor := binTable[BitwiseXor][Uint16][VS]
	unTable[Abs][Float16] = func(d, s unsafe.Pointer, n int) { and(d, s, unsafe.Pointer(&halfMagnitude), n) }
	unTable[Neg][Float16] = func(d, s unsafe.Pointer, n int) { xor(d, s, unsafe.Pointer(&halfSign), n) }
}
