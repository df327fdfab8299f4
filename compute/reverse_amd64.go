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
// or size has no kernel).
func reverseAsm(dst, src unsafe.Pointer, n, sz int) int {
	if !Asm {
		return 0
	}
	switch sz {
	case 8:
		if m := n &^ 15; m > 0 {
			reverse8AVX2(dst, src, m)
			return m
		}
	case 4:
		if m := n &^ 31; m > 0 {
			reverse4AVX2(dst, src, m)
			return m
		}
	}
	return 0
}

// reverseNTAsm is reverseAsm with non-temporal stores, for a dst that is
// 32-byte aligned: it copies the whole steps and returns how many.
func reverseNTAsm(dst, src unsafe.Pointer, n, sz int) int {
	if !Asm || uintptr(dst)&31 != 0 {
		return 0
	}
	switch sz {
	case 8:
		if m := n &^ 15; m > 0 {
			reverse8NTAVX2(dst, src, m)
			return m
		}
	case 4:
		if m := n &^ 31; m > 0 {
			reverse4NTAVX2(dst, src, m)
			return m
		}
	}
	return 0
}
