package arrowio

import (
	"errors"

	"github.com/stride0/stride0/internal/readlimit"
	"github.com/stride0/stride0/internal/suggest"
)

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
	ErrInvalid = readlimit.ErrInvalid
	// ErrMetadata: the arrow.fixed_shape_tensor metadata is malformed or
	// disagrees with the storage type.
	ErrMetadata = errors.New("invalid fixed_shape_tensor metadata")
	// ErrNulls: the destination cannot hold nulls (arrow/tensor) and the
	// array has some.
	ErrNulls = errors.New("nulls not representable")
	// ErrLimit: reading an IPC stream or file would allocate more than a
	// limit allows (WithMaxBuffer, WithMaxTotal). Such errors also wrap
	// ErrInvalid.
	ErrLimit = readlimit.ErrLimit
	// ErrNoColumn: a name (an expression's variable, a projected or
	// reduced column) names no column of the schema at hand. The message
	// lists the columns there are and suggests the nearest.
	ErrNoColumn = errors.New("no such column")
)

// noColumn is the error for a name that is not among have: it names what
// was asked, lists what exists (the first 20) and suggests the nearest.
func noColumn(where, name string, have []string) error {
	return suggest.MissingError(where, ErrNoColumn, name, have)
}
