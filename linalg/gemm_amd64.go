//go:build amd64 && !noasm

package linalg

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:noescape
func gemmF64AVX512(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF32AVX512(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF64AVX2(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF32AVX2(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF64AVX512x8(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF32AVX512x8(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF64AVX512x4(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF32AVX512x4(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF64AVX2x4(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF32AVX2x4(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF64AVX2x2(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF32AVX2x2(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

//go:noescape
func gemmF64AVX2T(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int, tiles, apan, cpan, c2pan int, pf unsafe.Pointer, pfstep int, kb int)

//go:noescape
func gemmF32AVX2T(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int, tiles, apan, cpan, c2pan int, pf unsafe.Pointer, pfstep int, kb int)

//go:noescape
func packRowsF64(dst, src unsafe.Pointer, lda, kc, dstep int)

//go:noescape
func packRowsF32(dst, src unsafe.Pointer, lda, kc, dstep int)

//go:noescape
func packColsF64(dst, src unsafe.Pointer, lda, kc, dstep int)

//go:noescape
func packColsF32(dst, src unsafe.Pointer, lda, kc, dstep int)

//go:noescape
func packPanels64(dst, src unsafe.Pointer, ldb, kc, panels, pstride int)

//go:noescape
func packPanels128(dst, src unsafe.Pointer, ldb, kc, panels, pstride int)

//go:noescape
func packTransF64(dst, src unsafe.Pointer, ld, kc, dstep int)

//go:noescape
func packTransF32(dst, src unsafe.Pointer, ld, kc, dstep int)

// prefetchL2 fetches lines (> 0) cache lines from p into L2.
//
//go:noescape
func prefetchL2(p unsafe.Pointer, lines int)

// panelPackers are the routines that pack B's panels, by panel width in
// bytes (for the tests).
var panelPackers = map[int]func(dst, src unsafe.Pointer, ldb, kc, panels, pstride int){64: packPanels64, 128: packPanels128}

// The kernels by the CPU: AVX-512 (12×16 float64, 12×32 float32), AVX2
// with FMA (6×8, 6×16), else the Go kernel.
func init() {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		gemmF64, gemmF32 = avx512Shapes()
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		gemmF64, gemmF32 = avx2Shapes()
	default:
		gemmF64 = goShape(goKernel[float64])
		gemmF32 = goShape(goKernel[float32])
	}
}

func avx512Shapes() (f64, f32 gemmShape) {
	f64 = gemmShape{mr: 12, nr: 16, kc: 192, mc: 240, nc: 3072, direct: 1 << 18, kern: gemmF64AVX512}
	f32 = gemmShape{mr: 12, nr: 32, kc: 512, kb: 256, mc: 240, nc: 3072, direct: 1 << 18, kern: gemmF32AVX512}
	f64.edges(map[int]gemmKernel{4: gemmF64AVX512x4, 8: gemmF64AVX512x8})
	f32.edges(map[int]gemmKernel{4: gemmF32AVX512x4, 8: gemmF32AVX512x8})
	f64.packRows, f64.packCols, f64.packPanels, f64.packTrans = packRowsF64, packColsF64, packPanels128, packTransF64
	f32.packRows, f32.packCols, f32.packPanels, f32.packTrans = packRowsF32, packColsF32, packPanels128, packTransF32
	return f64, f32
}

func avx2Shapes() (f64, f32 gemmShape) {
	f64 = gemmShape{mr: 6, nr: 8, kc: 256, mc: 120, nc: 3072, direct: 1 << 18, kern: gemmF64AVX2, prefetch: true}
	f32 = gemmShape{mr: 6, nr: 16, kc: 512, kb: 256, mc: 120, nc: 3072, direct: 1 << 18, kern: gemmF32AVX2, round: true, prefetch: true, pair: true}
	f64.tiled, f32.one = gemmF64AVX2T, gemmF32AVX2T
	f64.edges(map[int]gemmKernel{2: gemmF64AVX2x2, 4: gemmF64AVX2x4})
	f32.edges(map[int]gemmKernel{2: gemmF32AVX2x2, 4: gemmF32AVX2x4})
	f64.packRows, f64.packCols, f64.packPanels, f64.packTrans = packRowsF64, packColsF64, packPanels64, packTransF64
	f32.packRows, f32.packCols, f32.packPanels, f32.packTrans = packRowsF32, packColsF32, packPanels64, packTransF32
	return f64, f32
}

// otherShapes are the kernels this CPU can run besides the ones in use
// (for the tests): AVX2's on an AVX-512 machine.
func otherShapes() (f64, f32 []gemmShape) {
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		a, b := avx2Shapes()
		return []gemmShape{a}, []gemmShape{b}
	}
	return nil, nil
}
