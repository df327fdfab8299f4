package frame

import (
	"errors"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/suggest"
)

// Sentinel errors. Every error of this package wraps one of them, or the
// error of the package it called (expr's, arrowio's, arrow-go's), so that
// callers can test with errors.Is. Messages name the verb and the column.
var (
	// ErrNoColumn: a verb named a column the frame does not have. It is
	// arrowio's sentinel, so that one errors.Is test covers both packages.
	ErrNoColumn = arrowio.ErrNoColumn
	// ErrDuplicate: a verb would give two columns one name, or named a
	// column twice, or the schema has two columns of the name used.
	ErrDuplicate = errors.New("duplicate column")
	// ErrArgument: an argument has no meaning (a negative limit, an empty
	// name, a nil expression).
	ErrArgument = errors.New("invalid argument")
	// ErrType: a column's type does not fit its use (a string column in an
	// arithmetic expression, a predicate that is not boolean).
	ErrType = errors.New("column type mismatch")
	// ErrSource: a source cannot be read (again): a RecordReader that a
	// previous run consumed, a batch whose schema differs from the source's.
	ErrSource = errors.New("source")
	// ErrOverflow: an exact integer sum does not fit its type. It is expr's
	// sentinel.
	ErrOverflow = expr.ErrOverflow
)

// noColumn is ErrNoColumn for name, listing have and the nearest.
func noColumn(where, name string, have []string) error {
	return suggest.MissingError(where, ErrNoColumn, name, have)
}

// The errors of an Aggregator's Merge and UnmarshalBinary.
var (
	// ErrMismatch: two Aggregators (or an Aggregator and an encoded
	// state) were made from different schemas or aggregates.
	ErrMismatch = errors.New("aggregators differ")
	// ErrInvalid: bytes that are not an Aggregator's state, or a state no
	// Add or Merge could build. It is arrowio's sentinel for malformed
	// input.
	ErrInvalid = arrowio.ErrInvalid
)
