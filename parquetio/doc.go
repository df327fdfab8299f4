// Package parquetio reads and writes Parquet files of stride0 record
// batches, arrow.fixed_shape_tensor columns included: Read, ReadTable (a
// file whole, one array a column), Write, NewWriter (batches pushed one at
// a time) and Info (the footer alone).
// It is the only stride0 package that links arrow-go's parquet/pqarrow,
// and with it Thrift, gRPC and Arrow Flight; package arrowio (arrays,
// the tensor extension type, IPC, the C Data Interface) does not.
//
// # Reading and writing
//
// Write goes through arrow-go v15's parquet/pqarrow, and so does Read,
// except for the common flat columns (top-level BOOLEAN, INT32, INT64,
// FLOAT, DOUBLE and BYTE_ARRAY, required or optional, PLAIN or dictionary
// pages, version 1 or 2, uncompressed, snappy, gzip or zstd; and lists of
// fixed-width values with PLAIN pages): those are
// decoded by an internal decoder of ours straight into buffers from the
// caller's allocator, with the same results (a chunk it does not handle
// falls back to pqarrow).
// The Arrow schema is stored in the file (ARROW:schema), so
// arrow.fixed_shape_tensor columns come back as *arrowio.FixedShapeTensorArray
// with their metadata (pqarrow v15 cannot read an extension column: Read
// reads its storage and wraps it again, without a copy), and arrowio.FromArrow
// takes the decoded values without copying. Every dtype round-trips
// (float16 as Parquet's FLOAT16 logical type). Parquet cannot hold a null
// FixedSizeList row here, so a null tensor row is written as a row of null
// elements, and Read reads a row whose elements are all null as a
// null row (the rule arrowio.ToTensorColumn follows too). Read takes
// the allocator and the limits (WithAllocator, WithMaxBuffer, WithMaxTotal,
// as arrowio.ReadStream does) plus WithColumns (projection: only those columns'
// bytes are read), WithParallel (a batch's columns decoded concurrently) and
// WithBatchRows and WithRowGroups (chosen row groups, as a splitter that
// read Info's footer metadata hands them out) and WithRowGroupWorkers (n
// row groups decoded at once, ahead of the reader; with n >= 1 no batch
// spans two row groups); it holds, for each
// column read, the compressed column chunk of the current row group
// (pqarrow reads a chunk whole) and a batch (with WithRowGroupWorkers(n),
// up to n decoded row groups). The reader is an
// array.RecordReader, so package frame's computed columns and aggregates run over a Parquet file as
// over an IPC stream. Write cuts row groups of WithRowGroupRows rows
// and holds one row group (as Arrow) while writing; Writer does the
// same for batches pushed one at a time. Files are written with version 2
// data pages, and a column holding a non-nullable FixedSizeList is written
// nullable (pqarrow v15 drops such a column's values) with the caller's
// schema kept under "stride0:schema", from which Read restores it.
// Malformed files return ErrInvalid, never a panic: the stored schema is
// checked as arrowio.ReadStream checks IPC metadata, buffers are capped by
// WithMaxBuffer, and decoding runs under a recover (FuzzReadParquet).
//
// arrow-go v15 believes the sizes a Parquet file claims and allocates
// them, often on the Go heap where no allocator can refuse (a zstd frame
// claiming 60 GiB, a snappy length of 4 GiB, a dictionary of 2^31 values
// over 8 bytes, a compressed_page_size of 2 GiB: "fatal error: out of
// memory" from files of about 120 bytes). So before arrow-go touches a
// file, Read and Info check it with a reader of their own
// (internal package pqscan, a bounded Thrift compact-protocol reader):
// the PAR1 magic at both ends (else "not a Parquet file"); the footer's
// length against the file and WithMaxBuffer; every list and string of the
// footer against the bytes left; the schema (at most 64 nested groups, as
// arrowio.ReadStream bounds nesting; children counts that add up); each column
// chunk's codec, value count, offset and length against the file. Then,
// for the row groups and columns to be read, every page header: its size
// (at most 4 MiB, bounded by the chunk), compressed_page_size against the
// bytes left in the chunk, both page sizes against WithMaxBuffer and
// WithMaxTotal, a version 2 page's level lengths against its sizes, the
// codec frame against uncompressed_page_size (zstd frame content sizes and
// what its blocks can regenerate, snappy's length, an empty page's gzip or
// brotli body), a dictionary's num_values against its body for its
// physical type, a data page's num_values against the row group's rows (a
// column that does not repeat) or WithMaxTotal (one that does), and the
// block and value counts of delta-encoded pages. Failures wrap ErrInvalid
// (and ErrLimit when a limit was the reason, ErrUnsupported for encryption
// or pages arrow-go cannot skip), name the row group, column, page and
// byte offset, and give the claimed and the real sizes. The checks read
// the page headers once more (and the body of zstd and delta-encoded
// pages); what arrow-go then allocates is bounded by the file and the
// limits. Read and Info never close the reader they are
// given, and a projected column the file lacks is ErrNoColumn.
//
// # Errors
//
// Every error wraps a sentinel, for errors.Is: ErrInvalid, ErrLimit,
// ErrNoColumn and ErrUnsupported, which are arrowio's own values
// (parquetio.ErrInvalid == arrowio.ErrInvalid), so one test serves an IPC
// stream and a Parquet file; or an error of package array (array.ErrNil for
// nil arguments).
package parquetio
