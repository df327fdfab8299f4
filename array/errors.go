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

// ErrAlloc is wrapped by every *AllocError: an allocation refused because it
// is too large for the limit or the machine, or because its size overflows.
var ErrAlloc = errors.New("cannot allocate memory")
