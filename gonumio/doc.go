// Package gonumio converts between stride0 arrays and gonum's float64
// matrices and vectors (gonum.org/v1/gonum/mat), sharing memory where the
// layouts allow and copying otherwise. It is a package of its own so that
// the rest of stride0 does not import gonum unless a program does.
//
// From gonum to stride0 (FromDense, FromVecDense, FromMatrix) the array
// always shares the gonum storage when it is a *mat.Dense, a *mat.VecDense or
// the transpose of one: gonum's layouts (a row stride, a vector increment)
// are stride0 views. The Go slice stays alive as long as the array's buffer
// does (the garbage collector sees it), so there is nothing to keep alive by
// hand; writes through either side show in the other. Other mat.Matrix
// implementations are copied.
//
// From stride0 to gonum (ToDense, ToVecDense) the result shares the array's
// buffer when the array is float64 without a validity mask and its layout is
// one gonum can describe: a matrix with a column stride of 1 and a row stride
// of at least the column count, a vector with a positive stride. Otherwise
// (another dtype, a transposed, reversed or broadcast view, a mask) the
// values are copied into new gonum storage, converted to float64, nulls as
// NaN. Both functions report whether they shared.
//
// Lifetime of a shared conversion to gonum: the gonum value points into
// memory that belongs to the Arrow buffer, which Go's garbage collector does
// not track. It is valid only while the array holds the buffer: keep a
// reference (do not Release the array, or Retain it first) until the last
// use of the gonum value. After the buffer is released its memory may be
// reused or unmapped, and reading the matrix reads garbage or faults. When
// that discipline is inconvenient, use the copy (CopyToDense) instead.
//
// gonum matrices have no zero-size dimension: an array with one converts to
// an empty mat.Dense or mat.VecDense (IsEmpty reports true), and an empty
// gonum value converts to an array of shape [0 0] or [0].
package gonumio
