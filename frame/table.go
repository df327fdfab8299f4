package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// Table is the in-memory result of Collect: one Arrow record batch. Its
// columns become stride0 arrays without copying (Column), and it prints
// like a Polars DataFrame (String). Release it when done; a nil *Table is
// an empty table.
type Table struct {
	rec arrow.Record
	mem memory.Allocator
}

// NewTable wraps a record batch as a Table, retaining it (the caller keeps
// its own reference).
func NewTable(rec arrow.Record) (*Table, error) {
	if rec == nil {
		return nil, fmt.Errorf("frame.NewTable: %w: nil record", ErrArgument)
	}
	rec.Retain()
	return &Table{rec: rec, mem: memory.DefaultAllocator}, nil
}

// Release gives back the table's buffers (those that no array made by
// Column still holds).
func (t *Table) Release() {
	if t != nil && t.rec != nil {
		t.rec.Release()
		t.rec = nil
	}
}

// NumRows returns the number of rows.
func (t *Table) NumRows() int64 {
	if t == nil || t.rec == nil {
		return 0
	}
	return t.rec.NumRows()
}

// Schema returns the table's schema (an empty one for a nil or released
// table).
func (t *Table) Schema() *arrow.Schema {
	if t == nil || t.rec == nil {
		return emptySchema
	}
	return t.rec.Schema()
}

// Columns returns the column names, in order.
func (t *Table) Columns() []string { return fieldNames(t.Schema()) }

// Record returns the table's record batch; it stays the table's (Retain it
// to keep it past Release). nil for a nil or released table.
func (t *Table) Record() arrow.Record {
	if t == nil {
		return nil
	}
	return t.rec
}

// Arrow returns the column name as an Arrow array, the table's (Retain it
// to keep it past Release).
func (t *Table) Arrow(name string) (arrow.Array, error) {
	i, err := columnIndex(t.Schema(), "frame.Table.Arrow", name)
	if err != nil {
		return nil, err
	}
	return t.rec.Column(i), nil
}

// Column returns the column name as a stride0 array, sharing its buffer
// (arrowio.FromArrow): shape [rows] for a primitive column, [rows, tensor
// shape...] for a fixed_shape_tensor column. Release the array when done;
// it keeps the buffer alive after the table's Release. A column of a type
// with no dtype (strings, times) is ErrType.
func (t *Table) Column(name string) (*array.Array, error) {
	c, err := t.Arrow(name)
	if err != nil {
		return nil, err
	}
	if _, _, err := arrowio.ColumnShape(c.DataType()); err != nil {
		return nil, fmt.Errorf("frame.Table.Column %q: %w: %s has no stride0 dtype (%v)", name, ErrType, typeName(c.DataType()), err)
	}
	a, err := arrowio.FromArrow(t.mem, c)
	if err != nil {
		return nil, fmt.Errorf("frame.Table.Column %q: %w", name, err)
	}
	return a, nil
}

// Frame returns a Frame over the table, for a further query. The table
// must outlive the Frame's runs.
func (t *Table) Frame() Frame {
	if t == nil || t.rec == nil {
		return Frame{}
	}
	return FromRecords(t.rec)
}
