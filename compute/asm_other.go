//go:build !amd64 || noasm

package compute

import "unsafe"

// Asm reports whether the AVX2 assembly kernels are in use. This build has
// none (not amd64, or the noasm tag): every kernel is vek's or Go's.
var Asm = false

func registerAsm() {}

// CopyNT copies n bytes from src to dst (plainly, in this build).
func CopyNT(dst, src unsafe.Pointer, n int) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

// StreamPiece copies n bytes from src to dst (plainly, in this build).
func StreamPiece(dst, src unsafe.Pointer, n int) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

// Fence is a no-op in this build.
func Fence() {}

// Prefetch is a no-op in this build.
func Prefetch(p unsafe.Pointer, n int) {}

var hasAVX512 = false
