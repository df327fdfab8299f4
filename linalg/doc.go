// Package linalg holds linear algebra over stride0 arrays. Today that is
// Matmul, NumPy's matmul (the @ operator), computed eagerly.
//
// The float32 and float64 products go through a packed, cache-blocked
// GEMM with SIMD micro-kernels (AVX-512 or AVX2 with FMA, Go assembly; a
// Go kernel under the noasm tag), reading operands of any strides; a
// matrix times a vector goes through gonum's BLAS. float32 sums runs of
// at most 256 terms of k in float32 (with AVX2, two runs added in float32)
// and adds them in float64: the error of a float32 sum of 256 terms and a
// rounding, where OpenBLAS's is that of all of k. Integer and bool
// products are simple loops, and float16 is computed in float32 and
// rounded once. A large product is split between up to GOMAXPROCS
// goroutines (MatmulWorkers: a given number): by batch element, or each
// matrix by column or row blocks. Every output element is computed by one
// goroutine in a fixed order, so results do not depend on the split.
//
// The package does not import expr: a lazy matmul node can call it.
package linalg
