// Package linalg holds linear algebra over stride0 arrays. Today that is
// Matmul, NumPy's matmul (the @ operator), computed eagerly.
//
// The float32 and float64 products go through gonum's BLAS
// (gonum.org/v1/gonum/blas/gonum, pure Go, blocked, and parallel across
// GOMAXPROCS for large matrices), called on the arrays' own memory whenever
// a matrix is row-major or column-major (a transposed view) with a leading
// dimension BLAS accepts; other layouts are packed into a scratch matrix
// first. Integer and bool products are simple loops, and float16 is
// computed in float32 and rounded once.
//
// The package does not import expr: a lazy matmul node can call it.
package linalg
