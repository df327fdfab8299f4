package frame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// source is where a plan's batches come from. open starts one read; a
// source that can be read only once says so with ErrSource.
type source interface {
	open(ctx context.Context, mem memory.Allocator) (batches, error)
	describe() string
}

// batches yields a source's record batches in order. next returns the
// next batch, which the caller releases, or io.EOF after the last; close
// ends the read early or late (always called once).
type batches interface {
	next() (arrow.Record, error)
	close()
}

// sizedBatches is batches that know how many rows they have left (an
// in-memory source): a group-by sizes its tables from it.
type sizedBatches interface {
	rowsLeft() int64
}

// FromRecords returns a Frame over in-memory record batches, which must
// share one schema (field names and types; a batch that differs is an
// error naming the first column that does). The records stay the
// caller's: the Frame does not retain them, so they must outlive every
// run of it, and the caller releases them after the last. Each run
// retains the batch it hands on.
func FromRecords(recs ...arrow.Record) Frame {
	if len(recs) == 0 {
		return Frame{}
	}
	for i, r := range recs {
		if r == nil {
			return failed(fmt.Errorf("frame.FromRecords: %w: record %d is nil", ErrArgument, i))
		}
	}
	s := recs[0].Schema()
	for i, r := range recs[1:] {
		if err := sameSchema(s, r.Schema()); err != nil {
			return failed(fmt.Errorf("frame.FromRecords: record %d: %w", i+1, err))
		}
	}
	return Frame{&node{kind: stepSource, schema: s, src: recordSource{schema: s, recs: recs}}}
}

// FromReader returns a Frame over the batches of rr, which can be read
// once: the first run consumes rr, a second returns ErrSource. The reader
// stays the caller's (release it after the run). Each batch binds to
// rr.Schema() by name: its columns may come in another order, but a batch
// that lacks a column (ErrNoColumn, listing the batch's columns), has one
// more or twice, or has one of another type (ErrSource) ends the run with
// an error naming the column.
func FromReader(rr arrowarray.RecordReader) Frame {
	if rr == nil {
		return failed(fmt.Errorf("frame.FromReader: %w: nil reader", ErrArgument))
	}
	s := rr.Schema()
	if s == nil {
		return failed(fmt.Errorf("frame.FromReader: %w: the reader has no schema", ErrArgument))
	}
	return Frame{&node{kind: stepSource, schema: s, src: &readerSource{schema: s, rr: rr}}}
}

// FromArrays returns a Frame of one batch whose columns are stride0
// arrays: names[i] is the name of arrays[i]. A rank-1 array becomes a
// primitive column, a higher rank a fixed_shape_tensor column whose
// tensors are the array's rows. Every array must have the same length
// (axis 0). The arrays stay the caller's and must outlive the Frame's
// runs: each run wraps them without copying where Arrow's layout allows
// (a contiguous array whose dtype is not bool).
func FromArrays(names []string, arrays []*array.Array) Frame {
	if len(names) != len(arrays) {
		return failed(fmt.Errorf("frame.FromArrays: %w: %d names for %d arrays", ErrArgument, len(names), len(arrays)))
	}
	if err := unique("frame.FromArrays", names); err != nil {
		return failed(err)
	}
	fields := make([]arrow.Field, len(arrays))
	rows := -1
	for i, a := range arrays {
		if names[i] == "" {
			return failed(fmt.Errorf("frame.FromArrays: %w: array %d has an empty name", ErrArgument, i))
		}
		if a == nil {
			return failed(fmt.Errorf("frame.FromArrays %q: %w: nil array", names[i], ErrArgument))
		}
		if a.Rank() < 1 {
			return failed(fmt.Errorf("frame.FromArrays %q: %w: a column needs a row axis; the array has rank 0", names[i], array.ErrShape))
		}
		if rows >= 0 && a.Dim(0) != rows {
			return failed(fmt.Errorf("frame.FromArrays %q: %w: %d rows, column %q has %d", names[i], array.ErrShape, a.Dim(0), names[0], rows))
		}
		rows = a.Dim(0)
		t, err := arrayType(a)
		if err != nil {
			return failed(fmt.Errorf("frame.FromArrays %q: %w", names[i], err))
		}
		fields[i] = arrow.Field{Name: names[i], Type: t, Nullable: true}
	}
	s := arrow.NewSchema(fields, nil)
	return Frame{&node{kind: stepSource, schema: s, src: arraySource{schema: s, arrays: arrays}}}
}

// arrayType is the Arrow type a column made of a takes.
func arrayType(a *array.Array) (arrow.DataType, error) {
	t := a.DType().ArrowType()
	if a.Rank() == 1 {
		return t, nil
	}
	return arrowio.NewFixedShapeTensorType(t, a.Shape()[1:], nil, nil)
}

// sameSchema reports the first difference of got from want: a column
// missing, added, renamed or retyped.
func sameSchema(want, got *arrow.Schema) error {
	if got == nil {
		return fmt.Errorf("%w: batch without a schema", ErrSource)
	}
	for i, f := range want.Fields() {
		if i >= got.NumFields() {
			return fmt.Errorf("%w: the batch lacks column %q", ErrSource, f.Name)
		}
		g := got.Field(i)
		if g.Name != f.Name {
			return fmt.Errorf("%w: column %d is %q, not %q as in the schema", ErrSource, i, g.Name, f.Name)
		}
		if !arrow.TypeEqual(g.Type, f.Type) {
			return fmt.Errorf("%w: column %q is %v, not %v as in the schema", ErrSource, f.Name, g.Type, f.Type)
		}
	}
	if got.NumFields() > want.NumFields() {
		return fmt.Errorf("%w: the batch has a column %q the schema lacks", ErrSource, got.Field(want.NumFields()).Name)
	}
	return nil
}

// recordSource reads in-memory records.
type recordSource struct {
	schema *arrow.Schema
	recs   []arrow.Record
}

func (s recordSource) describe() string { return fmt.Sprintf("%d records", len(s.recs)) }

func (s recordSource) open(context.Context, memory.Allocator) (batches, error) {
	return &sliceBatches{recs: s.recs}, nil
}

// morselRows is the most rows a batch of an in-memory source has: a larger
// record is handed on in zero-copy slices of this many rows, so that the
// workers share it (a collected table is one record).
const morselRows = 64 << 10

// sliceBatches hands on records in order, in slices of at most morselRows,
// retaining each; owned ones (made by the source for this run) are
// released by close.
type sliceBatches struct {
	recs  []arrow.Record
	i     int
	at    int64 // rows of recs[i] already handed on
	owned bool
}

func (b *sliceBatches) next() (arrow.Record, error) {
	for b.i < len(b.recs) {
		r := b.recs[b.i]
		n := r.NumRows()
		if b.at == 0 && n <= morselRows {
			b.i++
			r.Retain()
			return r, nil
		}
		if b.at >= n {
			b.i, b.at = b.i+1, 0
			continue
		}
		end := min(n, b.at+morselRows)
		s := r.NewSlice(b.at, end)
		b.at = end
		return s, nil
	}
	return nil, io.EOF
}

// rowsLeft is the rows not yet handed on.
func (b *sliceBatches) rowsLeft() int64 {
	n := -b.at
	for _, r := range b.recs[b.i:] {
		n += r.NumRows()
	}
	return n
}

func (b *sliceBatches) close() {
	if b.owned {
		for _, r := range b.recs {
			r.Release()
		}
		b.recs, b.owned = nil, false
	}
}

// readerSource reads a RecordReader, once.
type readerSource struct {
	schema *arrow.Schema
	rr     arrowarray.RecordReader
	used   atomic.Bool
}

func (s *readerSource) describe() string { return "a record reader" }

func (s *readerSource) open(context.Context, memory.Allocator) (batches, error) {
	if s.used.Swap(true) {
		return nil, fmt.Errorf("frame: %w: the RecordReader was read by an earlier run (a reader can be read once; collect it, or use a source that can be read again)", ErrSource)
	}
	return &readerBatches{s: s}, nil
}

type readerBatches struct {
	s    *readerSource
	done bool
}

func (b *readerBatches) next() (arrow.Record, error) {
	if b.done {
		return nil, io.EOF
	}
	if !b.s.rr.Next() {
		b.done = true
		if err := b.s.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("frame: reading the source: %w", err)
		}
		return nil, io.EOF
	}
	r := b.s.rr.Record()
	if r == nil {
		b.done = true
		return nil, fmt.Errorf("frame: %w: the reader returned a nil record", ErrSource)
	}
	rec, err := bindRecord("frame: reading the source", b.s.schema, r)
	if err != nil {
		b.done = true
		return nil, err
	}
	return rec, nil
}

func (b *readerBatches) close() {}

// arraySource wraps stride0 arrays as one batch.
type arraySource struct {
	schema *arrow.Schema
	arrays []*array.Array
}

func (s arraySource) describe() string { return fmt.Sprintf("%d arrays", len(s.arrays)) }

func (s arraySource) open(_ context.Context, mem memory.Allocator) (batches, error) {
	cols := make([]arrow.Array, len(s.arrays))
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	rows := int64(0)
	for i, a := range s.arrays {
		var err error
		if a.Rank() == 1 {
			cols[i], err = arrowio.ToArrow(mem, a)
		} else {
			cols[i], err = arrowio.ToTensorColumn(mem, a)
		}
		if err != nil {
			release()
			return nil, fmt.Errorf("frame.FromArrays %q: %w", s.schema.Field(i).Name, err)
		}
		rows = int64(a.Dim(0))
	}
	rec := arrowarray.NewRecord(s.schema, cols, rows)
	release()
	return &sliceBatches{recs: []arrow.Record{rec}, owned: true}, nil
}
