//go:build !amd64 || noasm

package linalg

import "unsafe"

func init() {
	gemmF64 = goShape(goKernel[float64])
	gemmF32 = goShape(goKernel[float32])
}

// otherShapes: no other kernels.
func otherShapes() (f64, f32 []gemmShape) { return nil, nil }

// panelPackers: none (the Go loops pack).
var panelPackers = map[int]func(dst, src unsafe.Pointer, ldb, kc, panels, pstride int){}

// prefetchL2 does nothing here.
func prefetchL2(p unsafe.Pointer, lines int) {}
