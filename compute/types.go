package compute

import (
	"fmt"
	"unsafe"
)

// Type is an element type. Its numbering is that of array.DType (a test
// keeps the two in step), so a DType converts with compute.Type(dt).
type Type uint8

// The element types.
const (
	Invalid Type = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
	numTypes
)

var typeNames = [...]string{"invalid", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"}

var typeSizes = [...]int{0, 1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8}

// String returns the type's name, as array.DType's String does.
func (t Type) String() string {
	if t >= numTypes {
		return fmt.Sprintf("Type(%d)", uint8(t))
	}
	return typeNames[t]
}

// Size is the byte size of one element.
func (t Type) Size() int {
	if t >= numTypes {
		return 0
	}
	return typeSizes[t]
}

// Form says how each operand of a binary kernel is read: as a vector of n
// elements (V) or as one element repeated n times (S).
type Form uint8

// The forms of a binary kernel.
const (
	VV Form = iota
	VS
	SV
	numForms
)

// BinaryFunc computes dst[i] = x[i] op y[i] for i < n, reading x or y as one
// repeated element when the kernel was looked up with that form.
type BinaryFunc func(dst, x, y unsafe.Pointer, n int)

// UnaryFunc computes dst[i] = f(x[i]) for i < n. Casts are unary functions.
type UnaryFunc func(dst, x unsafe.Pointer, n int)

// AccumulateFunc folds x into acc element by element: acc[i] = acc[i] op x[i].
// acc and x must not overlap.
type AccumulateFunc func(acc, x unsafe.Pointer, n int)

// FoldFunc folds the n elements of x into the one element at acc:
// *acc = *acc op x[0] op x[1] ...
type FoldFunc func(acc, x unsafe.Pointer, n int)

// WhereFunc computes dst[i] = x[i] if c[i] != 0 else y[i], where c is bool
// and each of c, x and y is read with its own step, 0 (repeated) or 1.
type WhereFunc func(dst, c, x, y unsafe.Pointer, n, cs, xs, ys int)

// MoveFunc copies n elements between a strided and a contiguous run:
// Gather reads src[i*stride] into dst[i]; Scatter writes src[i] to
// dst[i*stride]. The stride is in elements and may be 0 or negative.
type MoveFunc func(dst, src unsafe.Pointer, n, stride int)
