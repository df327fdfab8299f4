// Package arrowio moves stride0 arrays in and out of Apache Arrow: arrow-go
// arrays and record batches, the canonical arrow.fixed_shape_tensor
// extension type, arrow-go tensors, IPC streams and files, and the C Data
// Interface; and it evaluates expressions (package expr) over streams of
// record batches.
//
// # The mapping
//
//	Arrow                                         stride0
//	primitive array of length n (bool, int*,      1-D Array [n], same buffer (Retained),
//	  uint*, float16/32/64)                         Arrow offset honoured         FromArrow / ToArrow
//	validity bitmap                               byte mask (1 = valid), one pass
//	bool bitmap                                   one byte per element, one pass
//	arrow.fixed_shape_tensor column of N rows,    Array [N, logical shape...], same buffer;
//	  storage FixedSizeList<T>[prod(shape)]         strides follow the permutation   FromArrow / ToTensorColumn
//	FixedSizeList<T>[k] (no extension)            Array [N, k]                       FromArrow
//	chunked column                                one Array per chunk (no copy), or one
//	                                                concatenated Array               FromChunked / ConcatChunked
//	arrow/tensor (strides in bytes)               Array (strides in elements)        FromTensor / ToTensor
//
// Arrow arrays have no strides, so a view that Arrow cannot describe (a
// broadcast, with stride 0; a reversed or strided slice) is materialized with
// array.Copy before it crosses; the small operand of a broadcast can instead
// be sent as it is and broadcast by the receiver. A transposition of a
// tensor's axes whose permutation is its own inverse (any 2-D transpose)
// needs no copy: it is written as the tensor's physical shape plus a
// permutation (see FixedShapeTensorType for the exact rule: logical
// dimension i is physical dimension permutation[i]). Other transpositions
// (a cyclic (1,2,0)) are copied: Arrow C++, and so pyarrow, reads such
// permutations differently from the specification, and this package never
// writes one (it reads them per the specification).
//
// Nulls: an Arrow validity bitmap becomes the Array's validity mask; a null
// row of a tensor column makes all of its elements null. Writing, element
// nulls go to the list values' bitmap and a row is null exactly when all its
// elements are, so masks round-trip unchanged.
//
// Ownership: every conversion that shares a buffer Retains it; release what
// you get (Array.Release, arrow.Array.Release) and keep releasing what you
// passed in. Buffers that must be made (masks, unpacked bools, copies) come
// from the memory.Allocator argument.
//
// # Record batches and expressions
//
// SchemaVar declares an expression variable for a column, with the row count
// unknown; Evaluate plans expressions once against a schema and evaluates
// them batch by batch over any array.RecordReader (an IPC stream or file, on
// disk or in memory, a C stream), yielding the input columns plus the
// computed ones while holding one batch at a time. Each batch is bound
// to the schema by name, not position: a batch whose columns come in
// another order evaluates as the schema says, and one that lacks a column,
// has one more, or has a column of another type is refused with an error
// naming the column (Reduce and Reducer.Add do the same). Reduce reads a whole
// stream once and returns reductions over its rows (sum, prod, mean,
// var/std, min, max, count, any, all of row-wise expressions, see
// Reduction), merging per-batch partials so that memory stays bounded by a
// batch; it gives what the in-memory reductions of the concatenated stream
// give. ReadStream, ReadFile, WriteStream, WriteFile and WriteRecords read
// and write IPC with the extension type registered (importing the package
// registers it). The readers are hardened against malformed input: no
// panic, no allocation beyond the bytes present or the limits
// (WithMaxBuffer, WithMaxTotal; ErrLimit), and every batch they return has
// passed ValidateRecord, so a corrupt batch is an error rather than a batch
// that panics when used (see ReadStream and the fuzz targets).
// Input that is not what a reader takes (nothing, text, Parquet, the other
// IPC format, compressed bytes, a file cut short) is refused with an error
// that says what the bytes look like and which reader takes them.
//
// Parquet files are package parquetio's (parquetio.Read, Write, NewWriter,
// Info), which imports this one: arrowio does not link arrow-go's Parquet
// packages, nor the Thrift, gRPC and Arrow Flight packages they bring.
// parquetio's errors wrap this package's sentinels, so errors.Is(err,
// arrowio.ErrInvalid) holds for a malformed Parquet file too.
//
// # Handing a column to another language
//
// Python (pyarrow ≥ 12 knows the extension type):
//
//	import pyarrow as pa
//	table = pa.ipc.open_stream("out.arrows").read_all()   # or pa.ipc.open_file(...)
//	x = table.column("z").chunk(0).to_numpy_ndarray()      # numpy array [rows, shape...]
//
// JavaScript (apache-arrow from npm; it keeps the extension metadata on the
// field, and the values are the FixedSizeList storage):
//
//	import { tableFromIPC } from 'apache-arrow';
//	const t = tableFromIPC(readFileSync('out.arrow'));
//	const f = t.schema.fields.find((f) => f.name === 'z');
//	JSON.parse(f.metadata.get('ARROW:extension:metadata')).shape;  // [d1, ...]
//	t.getChild('z').get(row);                                      // the row's elements, row-major
//
// C, C++, R, Python in process (the C Data Interface, cgo builds):
// ExportCArray, ExportCRecordBatch and ExportCRecordReader fill the C
// structs without copying; ImportCArray, ImportCRecordBatch and
// ImportCRecordReader take them back, restoring extension types (arrow-go
// v15's own cdata package drops them on import and loses the child array of
// non-ListLike extension arrays on export). The importers refuse released
// (release NULL) and malformed structs before reading them and validate
// what they import; they trust only that non-NULL pointers point where the
// specification says. Every count and length arrow-go's importer would
// trust is checked first: children, buffers and dictionaries against the
// type, format and name lengths, and the schema metadata blob, whose pair
// count and key and value lengths are walked within a bound before
// arrow-go allocates anything of their size.
//
// # Errors
//
// Every error wraps a sentinel, for errors.Is, and its message names what
// was wrong (the column, the reduction, the verb):
//
//	ErrNoColumn     a name (a variable, a column of a batch) that is not in the schema; the
//	                message lists the columns there are and suggests the nearest
//	ErrInvalid      malformed Arrow data: a buffer too short, a batch that does not fit its
//	                stream's schema, input that is not an IPC stream or file (the message says
//	                what it looks like), a C struct or Reducer state no producer could make
//	ErrLimit        a reader limit (WithMaxBuffer, WithMaxTotal); also ErrInvalid
//	ErrUnsupported  a type, dtype or layout with no counterpart
//	ErrMetadata     bad arrow.fixed_shape_tensor metadata
//	ErrNulls        nulls where the destination has none (arrow/tensor)
//	ErrMismatch     Reducers (or a Reducer state) of other schemas or reductions
//	ErrEmpty        Min or Max over no rows
//	ErrCData        the C Data Interface producer's own error
//
// and errors of package array (array.ErrNil for nil arguments, array.ErrShape,
// array.ErrAlloc) or expr (expr.ErrOverflow for a Reducer whose row count
// or counts would pass 2^63-1, which Merge and Add refuse rather than wrap).
// Every method of the exported types answers on a nil or zero value (zero
// answers, or an error wrapping array.ErrNil) rather than panicking.
package arrowio
