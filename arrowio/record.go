package arrowio

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// ColumnShape returns the dtype of a column type's values and the shape of
// one row: [] for a primitive column, the logical tensor shape for a
// fixed_shape_tensor column (or [k] for a FixedSizeList<primitive>[k]).
func ColumnShape(t arrow.DataType) (array.DType, []int, error) {
	switch tt := t.(type) {
	case arrow.ExtensionType:
		if tt.ExtensionName() != ExtensionName {
			return array.Invalid, nil, fmt.Errorf("arrowio: %w: extension type %q", ErrUnsupported, tt.ExtensionName())
		}
		ft, err := asTensorType(tt)
		if err != nil {
			return array.Invalid, nil, err
		}
		dt, err := valueDType(ft.ValueType())
		return dt, ft.LogicalShape(), err
	case *arrow.FixedSizeListType:
		dt, err := valueDType(tt.Elem())
		return dt, []int{int(tt.Len())}, err
	}
	dt, err := valueDType(t)
	return dt, []int{}, err
}

func valueDType(t arrow.DataType) (array.DType, error) {
	dt, err := array.FromArrowType(t)
	if err != nil || !arrow.TypeEqual(t, dt.ArrowType()) {
		return array.Invalid, fmt.Errorf("arrowio: %w: Arrow type %v has no dtype", ErrUnsupported, t)
	}
	return dt, nil
}

// SchemaVar returns the expression variable that stands for the column
// name of s: its dtype, and shape [?, row shape...] where ? is the row
// count, unknown until a batch arrives (broadcast.UnknownDim). Package
// frame binds it to each batch's column.
func SchemaVar(s *arrow.Schema, name string) (*expr.Node, error) {
	if s == nil {
		return nil, fmt.Errorf("arrowio.SchemaVar: %w: nil schema", array.ErrNil)
	}
	idx := s.FieldIndices(name)
	if len(idx) == 0 {
		return nil, noColumn("arrowio.SchemaVar", name, fieldNames(s.Fields()))
	}
	dt, row, err := ColumnShape(s.Field(idx[0]).Type)
	if err != nil {
		return nil, fmt.Errorf("arrowio.SchemaVar %q: %w", name, err)
	}
	dims := []broadcast.Dim{broadcast.UnknownDim()}
	for _, d := range row {
		dims = append(dims, broadcast.StaticDim(d))
	}
	return expr.Var(name, dt, broadcast.Shape{Dims: dims, RankKnown: true}), nil
}

// fieldNames returns the fields' names.
func fieldNames(fs []arrow.Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}
