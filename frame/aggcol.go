package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/half"
)

// number is an element type the aggregates compute on: float16 values are
// read as float32 and bools as uint8 (0 or 1).
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// colData is one batch's column as the aggregates read it: row i's
// elements are vals[base+i*width : base+(i+1)*width], typed as the state
// expects ([]float32 for float16, []uint8 for bool).
type colData struct {
	col   arrow.Array // the column (row validity)
	elems arrow.Array // the values (element validity)
	vals  any
	base  int
	width int
	rowOK []bool  // rowMask's answer, once asked
	at    []int64 // each row's position in the input (nil: pos + row)
}

// posOf is row i's position in the input, row 0 being at pos unless the
// rows have positions of their own (at).
func (c *colData) posOf(pos int64, i int) int64 {
	if c.at != nil {
		return c.at[i]
	}
	return pos + int64(i)
}

func (c *colData) rowValid(i int) bool { return c.col.IsValid(i) }

func (c *colData) elemValid(j int) bool { return c.elems.IsValid(c.base + j) }

// dense reports whether every row and element is valid, and rows have one
// element: the case the aggregates' tight loops take.
func (c *colData) dense() bool {
	return c.width == 1 && c.col.NullN() == 0 && c.elems.NullN() == 0
}

// elemsDense reports whether no element is null (rows may be: rowMask),
// the case of the typed loops of aggdense.go.
func (c *colData) elemsDense() bool {
	return c.vals != nil && c.width >= 1 && c.elems.NullN() == 0
}

// rowMask returns whether each row is valid, or nil when all are.
func (c *colData) rowMask() []bool {
	if c.col.NullN() == 0 {
		return nil
	}
	if c.rowOK == nil {
		c.rowOK = make([]bool, c.col.Len())
		for i := range c.rowOK {
			c.rowOK[i] = c.col.IsValid(i)
		}
	}
	return c.rowOK
}

// numericShape returns the dtype and element shape of a column the
// numeric aggregates can read, or ErrType naming the type.
func numericShape(t arrow.DataType) (array.DType, []int, error) {
	dt, shape, err := arrowio.ColumnShape(t)
	if err != nil {
		return array.Invalid, nil, fmt.Errorf("%w: %s is not numeric", ErrType, typeName(t))
	}
	return dt, shape, nil
}

// readColumn prepares column c for the numeric aggregates.
func readColumn(c arrow.Array, width int) (*colData, error) {
	d := &colData{col: c, elems: c, width: width}
	if ext, ok := c.(arrowarray.ExtensionArray); ok {
		c = ext.Storage()
	}
	if l, ok := c.(*arrowarray.FixedSizeList); ok {
		d.elems = l.ListValues()
		d.base = l.Data().Offset() * width
	}
	switch e := d.elems.(type) {
	case *arrowarray.Int8:
		d.vals = e.Int8Values()
	case *arrowarray.Int16:
		d.vals = e.Int16Values()
	case *arrowarray.Int32:
		d.vals = e.Int32Values()
	case *arrowarray.Int64:
		d.vals = e.Int64Values()
	case *arrowarray.Uint8:
		d.vals = e.Uint8Values()
	case *arrowarray.Uint16:
		d.vals = e.Uint16Values()
	case *arrowarray.Uint32:
		d.vals = e.Uint32Values()
	case *arrowarray.Uint64:
		d.vals = e.Uint64Values()
	case *arrowarray.Float32:
		d.vals = e.Float32Values()
	case *arrowarray.Float64:
		d.vals = e.Float64Values()
	case *arrowarray.Float16:
		v := make([]float32, e.Len())
		for i, h := range e.Values() {
			v[i] = float32(half.ToFloat64(h.Uint16()))
		}
		d.vals = v
	case *arrowarray.Boolean:
		v := make([]uint8, e.Len())
		for i := range v {
			if e.Value(i) {
				v[i] = 1
			}
		}
		d.vals = v
	case *arrowarray.Date32:
		d.vals = ints[int32](e.Date32Values())
	case *arrowarray.Time32:
		d.vals = ints[int32](e.Time32Values())
	case *arrowarray.Date64:
		d.vals = ints[int64](e.Date64Values())
	case *arrowarray.Timestamp:
		d.vals = ints[int64](e.TimestampValues())
	case *arrowarray.Time64:
		d.vals = ints[int64](e.Time64Values())
	case *arrowarray.Duration:
		d.vals = ints[int64](e.DurationValues())
	default:
		return nil, fmt.Errorf("%w: %s values are not numeric", ErrType, typeName(d.elems.DataType()))
	}
	return d, nil
}

// typed returns c's values as []T, starting at row 0's first element.
func typed[T number](c *colData) []T {
	return c.vals.([]T)[c.base:]
}

// ints copies temporal values to their integers.
func ints[I int32 | int64, T ~int32 | ~int64](v []T) []I {
	out := make([]I, len(v))
	for i, x := range v {
		out[i] = I(x)
	}
	return out
}
