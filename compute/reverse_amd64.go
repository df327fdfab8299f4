//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func reverse8AVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func reverse4AVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func reverse8NTAVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func reverse4NTAVX2(dst, src unsafe.Pointer, n int)

// reverseAsm copies the whole steps of a reversed copy of n elements of
// size sz (dst[i] = the element i places below src) with the AVX2 kernels
// and returns how many it copied (a multiple of the step; 0 when this CPU
// or size has no kernel). With nt the stores are non-temporal, and dst
// must be 32-byte aligned (else it copies nothing).
func reverseAsm(dst, src unsafe.Pointer, n, sz int, nt bool) int {
	if !Asm || nt && uintptr(dst)&31 != 0 {
		return 0
	}
	switch sz {
	case 8:
		m := n &^ 15
		switch {
		case m == 0:
		case nt:
			reverse8NTAVX2(dst, src, m)
		default:
			reverse8AVX2(dst, src, m)
		}
		return m
	case 4:
		m := n &^ 31
		switch {
		case m == 0:
		case nt:
			reverse4NTAVX2(dst, src, m)
		default:
			reverse4AVX2(dst, src, m)
		}
		return m
	}
	return 0
}
