package arrowio

import "errors"

// Sentinel errors. Every error this package returns wraps one of them, or an
// error of package array (array.ErrNil, array.ErrShape, ...), so callers can
// test with errors.Is.
var (
	// ErrUnsupported: the Arrow type, dtype or layout has no counterpart on
	// the other side (a string column, a float16 arrow/tensor, ...).
	ErrUnsupported = errors.New("unsupported")
	// ErrInvalid: the Arrow data is malformed (a buffer too short for the
	// length and offset it claims, a child array too short, ...), or an IPC
	// stream or file could not be decoded.
	ErrInvalid = errors.New("invalid Arrow data")
	// ErrMetadata: the arrow.fixed_shape_tensor metadata is malformed or
	// disagrees with the storage type.
	ErrMetadata = errors.New("invalid fixed_shape_tensor metadata")
	// ErrNulls: the destination cannot hold nulls (arrow/tensor) and the
	// array has some.
	ErrNulls = errors.New("nulls not representable")
	// ErrLimit: reading an IPC stream or file would allocate more than a
	// limit allows (WithMaxBuffer, WithMaxTotal). Such errors also wrap
	// ErrInvalid.
	ErrLimit = errors.New("reader limit exceeded")
)
