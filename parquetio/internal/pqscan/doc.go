// Package pqscan checks a Parquet file before arrow-go reads it: a
// pre-flight scan, with a bounded Thrift compact-protocol reader of its own,
// of the footer (schema depth and counts, row groups, column chunk offsets
// and sizes against the file) and of the page headers of the column chunks
// to be read (every size a page header, a codec frame or a dictionary
// claims against the page's real bytes and the caller's limits). arrow-go
// v15 allocates what these sizes claim before it reads the bytes (a
// compressed_page_size of 2 GiB, a zstd frame content size of 60 GiB, a
// snappy length of 4 GiB, a dictionary of 2^31 values over 8 bytes), often
// on the Go heap where no allocator can refuse it, so a file that passes
// the scan allocates at most a bounded multiple of what it holds and of
// the limits.
//
// Errors wrap ErrInvalid (malformed), ErrLimit (within the format but over
// a limit; also ErrInvalid) or ErrUnsupported (a valid feature arrow-go v15
// or this scan does not read: encryption, external column chunks).
package pqscan

import "errors"

// Sentinel errors (see the package comment).
var (
	// ErrInvalid: the file is malformed (a size that does not fit the
	// bytes, a count that does not fit the schema or the rows).
	ErrInvalid = errors.New("malformed Parquet")
	// ErrLimit: the file is well formed as far as checked, but reading it
	// would take a buffer or a total over Limits. Such errors also wrap
	// ErrInvalid.
	ErrLimit = errors.New("over a reader limit")
	// ErrUnsupported: a valid feature that arrow-go v15 (or the scan)
	// does not read: encryption, a column chunk in another file, an index
	// page, LZO or LZ4 compression.
	ErrUnsupported = errors.New("unsupported Parquet feature")
)

// Limits bounds the sizes the scan lets through.
type Limits struct {
	// MaxBuffer is the largest single buffer the reader may allocate (a
	// footer, a page, compressed or not).
	MaxBuffer int64
	// MaxTotal is the most the reader may allocate in all, < 0 for no
	// limit. Counts that cost memory per item (a page's values) are
	// checked against it.
	MaxTotal int64
}

// MaxSchemaDepth is the deepest nesting of groups a schema may have (as
// the Arrow IPC reader's bound on nested fields).
const MaxSchemaDepth = 64
