package parquetio

import "github.com/stride0/stride0/arrowio"

// The sentinels this package's errors wrap: arrowio's own values, so that
// one errors.Is test serves an Arrow stream and a Parquet file alike
// (errors.Is(err, parquetio.ErrInvalid) and errors.Is(err,
// arrowio.ErrInvalid) are the same test). Errors of package array
// (array.ErrNil, ...) are wrapped as they are.
var (
	// ErrInvalid: a malformed Parquet file, or bytes that are not one.
	ErrInvalid = arrowio.ErrInvalid
	// ErrLimit: a reader limit (WithMaxBuffer, WithMaxTotal) was reached;
	// such errors also wrap ErrInvalid.
	ErrLimit = arrowio.ErrLimit
	// ErrNoColumn: a column of WithColumns the file does not have.
	ErrNoColumn = arrowio.ErrNoColumn
	// ErrUnsupported: an encrypted file, a page arrow-go cannot skip, a
	// type with no counterpart.
	ErrUnsupported = arrowio.ErrUnsupported
)
