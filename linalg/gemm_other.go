//go:build !amd64 || noasm

package linalg

func init() {
	gemmF64 = goShape(goKernel[float64])
	gemmF32 = goShape(goKernel[float32])
}

// otherShapes: no other kernels.
func otherShapes() (f64, f32 []gemmShape) { return nil, nil }
