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

// ErrIndex is wrapped by every error of an index into an array: At,
// IsValid, Set and SetNull given an index outside [0, dim) on some axis or
// with the wrong number of entries (one per axis; as NumPy's IndexError, a
// wrong count is an index error, not a shape error), and expr's Take and
// Compress given an index outside the axis. The message names the index
// and the shape.
var ErrIndex = errors.New("index out of range")

// ErrAlloc is wrapped by every *AllocError: an allocation refused because it
// is too large for the limit or the machine, or because its size overflows.
var ErrAlloc = errors.New("cannot allocate memory")
