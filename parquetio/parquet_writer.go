package parquetio

import (
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/readlimit"
)

// Writer writes record batches pushed to it as one Parquet file, as
// Write writes those of a reader (Write is a Writer
// fed by a loop): for a producer that has batches one at a time rather than
// a RecordReader, such as a Beam DoFn. Memory: at most one row group's
// batches are held (retained or, when a batch is cut, sliced), then
// written. Not safe for concurrent use.
type Writer struct {
	fw     *pqarrow.FileWriter
	fast   *fastWriter // instead of fw for flat primitive and string columns
	sink   *footerSink
	g      *pqGroup
	schema *arrow.Schema // the caller's
	ws     *arrow.Schema // the one pqarrow writes (see pqWriteSchema)
	mem    memory.Allocator
	rg     int64
	done   bool
	err    error
}

// NewWriter starts a Parquet file of the given schema on w, with
// Write's options. Write batches with Write and finish the file with
// Close (which does not close w); after an error, Close releases what the
// writer holds and returns the error.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...WriteOption) (*Writer, error) {
	if w == nil || schema == nil {
		return nil, fmt.Errorf("parquetio.NewWriter: %w: nil writer or schema", array.ErrNil)
	}
	return newWriter("parquetio.NewWriter", w, schema, opts)
}

func newWriter(what string, w io.Writer, schema *arrow.Schema, opts []WriteOption) (pw *Writer, err error) {
	c := writeConfig{mem: memory.DefaultAllocator, rowGroup: DefaultRowGroupRows}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.mem == nil {
		c.mem = memory.DefaultAllocator
	}
	if c.rowGroup <= 0 {
		c.rowGroup = DefaultRowGroupRows
	}
	// Data pages are version 2 unless the caller's properties say otherwise:
	// arrow-go v15 writes the repetition and definition levels of a version
	// 1 page (tensor columns, nullable columns) by growing their buffer a
	// few bytes at a time, copying it whole each time, which made a 64Ki-row
	// tensor column take 26 s to write instead of 20 ms. Version 2 pages
	// are read by pyarrow, DuckDB, Spark and arrow-go alike.
	props := append(append([]parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2)}, c.props...),
		parquet.WithAllocator(c.mem), parquet.WithMaxRowGroupLength(math.MaxInt64))
	defer readlimit.Guard(&err, what)
	if len(c.props) == 0 {
		if cols := fastColumns(schema); cols != nil {
			return &Writer{fast: newFastWriter(w, schema, cols, c.workers, c.pageBytes), g: &pqGroup{mem: c.mem, schema: schema},
				schema: schema, ws: schema, mem: c.mem, rg: c.rowGroup}, nil
		}
	}
	ws, relaxed := pqWriteSchema(schema)
	// pqarrow's Close closes its sink when it is an io.Closer: the sink
	// hides w's Close, as the writer leaves w open.
	sink := &footerSink{w: w, schema: ws}
	fw, err := pqarrow.NewFileWriter(ws, sink, parquet.NewWriterProperties(props...),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(c.mem)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: schema %v: %w", what, ErrUnsupported, schema, err)
	}
	if relaxed {
		enc, err := encodeSchema(schema)
		if err == nil {
			err = fw.AppendKeyValueMetadata(pqSchemaKey, enc)
		}
		if err != nil {
			fw.Close()
			return nil, fmt.Errorf("%s: %w: storing the schema %v: %w", what, ErrUnsupported, schema, err)
		}
	}
	return &Writer{fw: fw, sink: sink, g: &pqGroup{mem: c.mem, schema: ws}, schema: schema, ws: ws, mem: c.mem, rg: c.rowGroup}, nil
}

// Write adds rec's rows to the file; rec must have the writer's schema. The
// writer keeps what it needs of rec (the caller may release it). An error
// of the file (a batch of another schema, pqarrow's) sticks: later Writes
// and Close return it. A nil record is refused and changes nothing.
func (pw *Writer) Write(rec arrow.Record) error {
	if pw == nil || (pw.fw == nil && pw.fast == nil) {
		return fmt.Errorf("parquetio.Writer.Write: %w: nil or zero writer", array.ErrNil)
	}
	if rec == nil {
		return fmt.Errorf("parquetio.Writer.Write: %w: nil record", array.ErrNil)
	}
	return pw.write("parquetio.Writer.Write", rec)
}

// write cuts rec at row-group boundaries. pqarrow v15 ignores the offset
// of a sliced FixedSizeList when it writes one (the rows of a slice come
// out as the first rows of the list), and its buffered row groups
// (WriteBuffered) leak a buffer per column chunk. So every FixedSizeList is
// rebuilt with offset 0 (pqWritable), the pieces of one row group are
// concatenated, and each row group is written with Write.
func (pw *Writer) write(what string, rec arrow.Record) (err error) {
	if pw.err != nil {
		return pw.err
	}
	if pw.done {
		return fmt.Errorf("%s: %w: the writer is closed", what, ErrInvalid)
	}
	defer func() {
		if err != nil && pw.err == nil {
			pw.err = err
		}
	}()
	defer readlimit.Guard(&err, what)
	if !rec.Schema().Equal(pw.schema) {
		return fmt.Errorf("%s: %w: batch schema %v differs from the writer's %v", what, ErrInvalid, rec.Schema(), pw.schema)
	}
	g := pw.g
	for off := int64(0); off < rec.NumRows(); {
		n := min(rec.NumRows()-off, pw.rg-g.rows)
		part := rec.NewSlice(off, off+n)
		out := part
		if pw.fast == nil {
			var err error
			out, err = pqWritable(pw.mem, part, pw.ws)
			part.Release()
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
		g.parts = append(g.parts, out)
		g.rows += n
		off += n
		if g.rows == pw.rg {
			if err := pw.flush(); err != nil {
				pw.done = true // pqarrow closes the writer on error
				return err
			}
		}
	}
	return nil
}

// Close writes the last row group and the footer. It does not close the
// io.Writer. After an error of Write it releases what the writer holds and
// returns that error; a second Close returns nil.
func (pw *Writer) Close() error {
	if pw == nil || (pw.fw == nil && pw.fast == nil) {
		return fmt.Errorf("parquetio.Writer.Close: %w: nil or zero writer", array.ErrNil)
	}
	return pw.close("parquetio.Writer.Close")
}

func (pw *Writer) close(what string) (err error) {
	if pw.err != nil {
		pw.abort()
		err, pw.err = pw.err, nil
		return err
	}
	if pw.done {
		return nil
	}
	defer readlimit.Guard(&err, what)
	defer pw.g.release()
	pw.done = true
	if err := pw.flush(); err != nil {
		return err // pqarrow closed the writer
	}
	if pw.fast != nil {
		if err := pw.fast.close(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	pw.sink.hold = true
	if err := pw.fw.Close(); err != nil {
		return fmt.Errorf("%s: closing: %w", what, err)
	}
	if err := pw.sink.finish(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// abort releases what the writer holds without finishing the file.
func (pw *Writer) abort() {
	pw.g.release()
	if !pw.done && pw.fast != nil {
		pw.done = true
	}
	if !pw.done {
		pw.done = true
		func() {
			defer func() { _ = recover() }()
			pw.fw.Close()
		}()
	}
}

// flush writes the gathered row group with the writer's backend.
func (pw *Writer) flush() error {
	if pw.fast == nil {
		return pw.g.flush(pw.fw)
	}
	g := pw.g
	defer g.release()
	if g.rows == 0 {
		return nil
	}
	parts := g.parts
	if !fastParts(parts, g.rows) {
		rec, err := g.concat()
		if err != nil {
			return err
		}
		defer rec.Release()
		parts = []arrow.Record{rec}
	}
	if err := pw.fast.writeGroup(parts, g.rows); err != nil {
		return fmt.Errorf("parquetio.Write: %w", err)
	}
	return nil
}
