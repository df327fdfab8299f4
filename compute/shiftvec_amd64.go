//go:build amd64 && !noasm

package compute

import "unsafe"

// The 8- and 16-bit shifts by one count of shiftvec_amd64.s.

//go:noescape
func shl16AVX2(d, x unsafe.Pointer, n int, s, m1, m2 uint64)

//go:noescape
func shr16AVX2(d, x unsafe.Pointer, n int, s, m1, m2 uint64)

//go:noescape
func sar16AVX2(d, x unsafe.Pointer, n int, s, m1, m2 uint64)

//go:noescape
func shl8AVX2(d, x unsafe.Pointer, n int, s, m1, m2 uint64)

//go:noescape
func shr8AVX2(d, x unsafe.Pointer, n int, s, m1, m2 uint64)

//go:noescape
func sar8AVX2(d, x unsafe.Pointer, n int, s, m1, m2 uint64)

// signBytes is 32 bytes of 0x80 (SAR8's bias).
var signBytes = [32]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}

// rep8 repeats byte b over 64 bits.
func rep8(b uint64) uint64 { return (b & 0xff) * 0x0101010101010101 }

// shiftVS builds the VS form of a shift of 8- or 16-bit integers (type
// t) over the vector kernel k: the count (Go's: a negative or too large
// count empties the lane, or fills it with the sign for an arithmetic
// right shift) clamped and its byte masks made once a call, whole vectors
// in k and the rest in tail.
func shiftVS(k func(d, x unsafe.Pointer, n int, s, m1, m2 uint64), tail BinaryFunc, t Type, left, arith bool) BinaryFunc {
	size := t.Size()
	width := int64(8 * size)
	lanes := 32 / size
	return func(d, x, y unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			s := expOf(y, t) // -1 also for counts of 2^62 and more
			if s < 0 || s >= width {
				s = width
				if arith {
					s = width - 1
				}
			}
			var m1, m2 uint64
			switch {
			case size == 2:
			case left:
				m1 = rep8(0xff << s)
			default:
				m1 = rep8(0xff >> s)
				m2 = rep8(0x80 >> s)
			}
			k(d, x, m, uint64(s), m1, m2)
		}
		if m < n {
			tail(unsafe.Add(d, m*size), unsafe.Add(x, m*size), y, n-m)
		}
	}
}

// registerShiftVec installs the vector shifts of 8- and 16-bit integers
// by a scalar count.
func registerShiftVec() {
	for _, c := range []struct {
		t        Type
		shl, shr func(d, x unsafe.Pointer, n int, s, m1, m2 uint64)
		arith    bool
	}{
		{Int8, shl8AVX2, sar8AVX2, true}, {Uint8, shl8AVX2, shr8AVX2, false},
		{Int16, shl16AVX2, sar16AVX2, true}, {Uint16, shl16AVX2, shr16AVX2, false},
	} {
		binTable[LeftShift][c.t][VS] = shiftVS(c.shl, binTable[LeftShift][c.t][VS], c.t, true, false)
		binTable[RightShift][c.t][VS] = shiftVS(c.shr, binTable[RightShift][c.t][VS], c.t, false, c.arith)
	}
}
