package array

import "errors"

// Sentinel errors. Errors returned by this package wrap one of them (test with
// errors.Is) and say which array, shape or index was at fault.
var (
	ErrNil      = errors.New("nil array")
	ErrReleased = errors.New("array already released")
	ErrDType    = errors.New("dtype mismatch")
	ErrShape    = errors.New("invalid shape")
	ErrBounds   = errors.New("out of bounds")
	ErrReadOnly = errors.New("read-only array (two indices reach one element)")
)

// ErrIndex is wrapped by the error of an index outside an axis (expr's
// Take, and Compress given a condition longer than its axis); the message
// names the index and the shape.
var ErrIndex = errors.New("index out of range")

// ErrAlloc is wrapped by every *AllocError: an allocation refused because it
// is too large for the limit or the machine, or because its size overflows.
var ErrAlloc = errors.New("cannot allocate memory")
