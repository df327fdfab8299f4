//go:build !amd64 || noasm

package linalg

func init() {
	gemmF64 = goShape(goKernel[float64])
	gemmF32 = goShape(goKernel[float32])
}
