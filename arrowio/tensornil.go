package arrowio

import (
	"encoding/json"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// The methods below shadow those FixedShapeTensorType and
// FixedShapeTensorArray would promote from arrow-go's embedded bases, which
// dereference the receiver (or the storage): on a nil pointer or a zero
// value those panicked (a nil array's String, issue 17 item 8). On a live
// value each does what the base does; on an array released for the last
// time, what it does on a zero one.

// ID returns arrow.EXTENSION (for a nil type too).
func (*FixedShapeTensorType) ID() arrow.Type { return arrow.EXTENSION }

// Name returns "extension", as every extension type's (for a nil type too).
func (*FixedShapeTensorType) Name() string { return "extension" }

// Fields returns the storage type's one field (the list's elements); nil
// for a nil or zero type.
func (t *FixedShapeTensorType) Fields() []arrow.Field {
	if t == nil || t.Storage == nil {
		return nil
	}
	return t.ExtensionBase.Fields()
}

// NumFields returns len(Fields()).
func (t *FixedShapeTensorType) NumFields() int {
	if t == nil || t.Storage == nil {
		return 0
	}
	return t.ExtensionBase.NumFields()
}

// Layout returns the storage type's buffer layout; the zero layout for a
// nil or zero type.
func (t *FixedShapeTensorType) Layout() arrow.DataTypeLayout {
	if t == nil || t.Storage == nil {
		return arrow.DataTypeLayout{}
	}
	return t.ExtensionBase.Layout()
}

// live reports whether a is an array arrow-go built (not nil, not zero)
// and not released for the last time (arrow-go drops the data then).
func (a *FixedShapeTensorArray) live() bool {
	if a == nil || a.ExtensionArrayBase.Storage() == nil {
		return false
	}
	d, _ := a.ExtensionArrayBase.Data().(*arrowarray.Data)
	return d != nil
}

// String prints the array as arrow-go prints extension arrays: its type,
// then its rows; "<nil>" for a nil or zero array.
func (a *FixedShapeTensorArray) String() string {
	if !a.live() {
		return "<nil>"
	}
	return a.ExtensionArrayBase.String()
}

// Storage returns the FixedSizeList storage array (nil for a nil or zero
// array).
func (a *FixedShapeTensorArray) Storage() arrow.Array {
	if !a.live() {
		return nil
	}
	return a.ExtensionArrayBase.Storage()
}

// Data returns the array's data (nil for a nil or zero array).
func (a *FixedShapeTensorArray) Data() arrow.ArrayData {
	if !a.live() {
		return nil
	}
	return a.ExtensionArrayBase.Data()
}

// DataType returns the array's type (nil for a nil or zero array).
func (a *FixedShapeTensorArray) DataType() arrow.DataType {
	if !a.live() {
		return nil
	}
	return a.ExtensionArrayBase.DataType()
}

// ExtensionType returns the array's type as an arrow.ExtensionType (nil
// for a nil or zero array).
func (a *FixedShapeTensorArray) ExtensionType() arrow.ExtensionType {
	if !a.live() {
		return nil
	}
	return a.ExtensionArrayBase.ExtensionType()
}

// Len returns the number of rows (0 for a nil or zero array).
func (a *FixedShapeTensorArray) Len() int {
	if !a.live() {
		return 0
	}
	return a.ExtensionArrayBase.Len()
}

// NullN returns the number of null rows (0 for a nil or zero array).
func (a *FixedShapeTensorArray) NullN() int {
	if !a.live() {
		return 0
	}
	return a.ExtensionArrayBase.NullN()
}

// Offset returns the array's offset into its buffers (0 for a nil or zero
// array).
func (a *FixedShapeTensorArray) Offset() int {
	if !a.live() {
		return 0
	}
	return a.ExtensionArrayBase.Offset()
}

// NullBitmapBytes returns the validity bitmap's bytes (nil for a nil or
// zero array).
func (a *FixedShapeTensorArray) NullBitmapBytes() []byte {
	if !a.live() {
		return nil
	}
	return a.ExtensionArrayBase.NullBitmapBytes()
}

// IsNull reports whether row i is null (false for a nil or zero array,
// which has no rows).
func (a *FixedShapeTensorArray) IsNull(i int) bool {
	return a.live() && a.ExtensionArrayBase.IsNull(i)
}

// IsValid reports whether row i is not null (false for a nil or zero
// array, which has no rows).
func (a *FixedShapeTensorArray) IsValid(i int) bool {
	return a.live() && a.ExtensionArrayBase.IsValid(i)
}

// GetOneForMarshal returns row i for encoding/json: its elements as a
// []any of the value array's GetOneForMarshal, nil for a null row or a nil
// or zero array. (arrow-go's FixedSizeList marshals the row itself and
// panics on NaN; here json.Marshal returns its error instead.)
func (a *FixedShapeTensorArray) GetOneForMarshal(i int) any {
	s := a.storage()
	if !a.live() || s == nil || s.IsNull(i) {
		return nil
	}
	start, end := s.ValueOffsets(i)
	vals := s.ListValues()
	row := make([]any, 0, end-start)
	for j := start; j < end; j++ {
		row = append(row, vals.GetOneForMarshal(int(j)))
	}
	return row
}

// MarshalJSON encodes the rows as a JSON array of GetOneForMarshal's rows
// ("null" for a nil or zero array); NaN or infinite elements are an error,
// as encoding/json makes them.
func (a *FixedShapeTensorArray) MarshalJSON() ([]byte, error) {
	if !a.live() {
		return []byte("null"), nil
	}
	rows := make([]any, a.Len())
	for i := range rows {
		rows[i] = a.GetOneForMarshal(i)
	}
	return json.Marshal(rows)
}

// Retain adds a reference (nothing for a nil or zero array).
func (a *FixedShapeTensorArray) Retain() {
	if a.live() {
		a.ExtensionArrayBase.Retain()
	}
}

// Release drops a reference (nothing for a nil or zero array).
func (a *FixedShapeTensorArray) Release() {
	if a.live() {
		a.ExtensionArrayBase.Release()
	}
}
