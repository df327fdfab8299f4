// Package linalg holds linear algebra over stride0 arrays. Today that is
// Matmul, NumPy's matmul (the @ operator), computed eagerly.
//
// The float32 and float64 products go through gonum's BLAS
// (gonum.org/v1/gonum/blas/gonum, pure Go, blocked, and parallel across
// GOMAXPROCS for large matrices), called on the arrays' own memory whenever
// a matrix is row-major or column-major (a transposed view) with a leading
// dimension BLAS accepts; other layouts are packed into a scratch matrix
// first. Integer and bool products are simple loops, and float16 is
// computed in float32 and rounded once. A large product is split between
// up to GOMAXPROCS goroutines: by batch element, or for one integer matrix
// by rows (one big float matrix is split by gonum itself). Every output
// element is computed by one goroutine in a fixed order, so results do not
// depend on the split.
//
// The package does not import expr: a lazy matmul node can call it.
package linalg
