package frame

import (
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// AsTensor makes the list column col (list or large_list of numbers, as
// Parquet files written elsewhere hold arrays) a fixed_shape_tensor column
// of the given shape, so that expressions and aggregates compute on it.
// Every non-null row must hold exactly the shape's element count (an error
// names the first row that does not). The values are not copied when the
// rows are contiguous, as a list column's are.
func (f Frame) AsTensor(col string, shape ...int) Frame {
	return f.then(func(in *node) (*node, error) {
		i, err := columnIndex(in.schema, "frame.AsTensor", col)
		if err != nil {
			return nil, err
		}
		var elem arrow.DataType
		switch t := in.schema.Field(i).Type.(type) {
		case *arrow.ListType:
			elem = t.Elem()
		case *arrow.LargeListType:
			elem = t.Elem()
		default:
			if tt, ok := t.(*arrowio.FixedShapeTensorType); ok && fmt.Sprint(tt.LogicalShape()) == fmt.Sprint(shape) {
				return &node{kind: stepProject, schema: in.schema, pick: identity(in.schema.NumFields())}, nil
			}
			return nil, fmt.Errorf("frame.AsTensor %q: %w: %s is not a list column", col, ErrType, typeName(t))
		}
		if _, err := array.FromArrowType(elem); err != nil {
			return nil, fmt.Errorf("frame.AsTensor %q: %w: a list of %s has no dtype", col, ErrType, typeName(elem))
		}
		tt, err := arrowio.NewFixedShapeTensorType(elem, shape, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("frame.AsTensor %q: %w", col, err)
		}
		fields := append([]arrow.Field(nil), in.schema.Fields()...)
		fields[i].Type = tt
		md := in.schema.Metadata()
		return &node{kind: stepCompute, schema: arrow.NewSchema(fields, &md), cast: &castPlan{col: i, to: tt}}, nil
	})
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// castPlan is an AsTensor step.
type castPlan struct {
	col int
	to  *arrowio.FixedShapeTensorType
}

// toTensor converts one batch's list column.
func (c *castPlan) toTensor(mem memory.Allocator, rec arrow.Record, schema *arrow.Schema) (arrow.Record, error) {
	col := rec.Column(c.col)
	k := int64(c.to.ListSize())
	var values arrow.Array
	var off func(i int) (int64, int64)
	switch l := col.(type) {
	case *arrowarray.List:
		values, off = l.ListValues(), l.ValueOffsets
	case *arrowarray.LargeList:
		values, off = l.ListValues(), l.ValueOffsets
	}
	n := col.Len()
	start := int64(-1)
	contiguous := true
	for i := 0; i < n; i++ {
		a, b := off(i)
		if col.IsNull(i) {
			if b != a && b-a != k {
				return nil, fmt.Errorf("frame.AsTensor %q: %w: row %d is null over %d values", schema.Field(c.col).Name, array.ErrShape, i, b-a)
			}
			if b == a {
				contiguous = false
			}
		} else if b-a != k {
			return nil, fmt.Errorf("frame.AsTensor %q: %w: row %d holds %d values, not %d", schema.Field(c.col).Name, array.ErrShape, i, b-a, k)
		}
		if start < 0 {
			start = a
		}
		if a != start+int64(i)*k && !(col.IsNull(i) && b == a) {
			contiguous = false
		}
	}
	var child arrow.Array
	if contiguous {
		if start < 0 {
			start = 0
		}
		child = arrowarray.NewSlice(values, start, start+int64(n)*k)
	} else {
		// rows apart, or nulls without values: gather the rows' values
		idx := make([]int64, 0, int64(n)*k)
		for i := 0; i < n; i++ {
			a, e := off(i)
			for j := int64(0); j < k; j++ {
				if e == a {
					idx = append(idx, -1)
				} else {
					idx = append(idx, a+j)
				}
			}
		}
		var err error
		var ix arrow.Array
		defer func() {
			if ix != nil {
				ix.Release()
			}
		}()
		indices := func() arrow.Array {
			ib := arrowarray.NewInt64Builder(mem)
			defer ib.Release()
			for _, i := range idx {
				if i < 0 {
					ib.AppendNull()
				} else {
					ib.Append(i)
				}
			}
			ix = ib.NewArray()
			return ix
		}
		if child, err = takeColumn(context.Background(), mem, values, idx, indices); err != nil {
			return nil, fmt.Errorf("frame.AsTensor %q: %w", schema.Field(c.col).Name, err)
		}
	}
	defer child.Release()
	fsl := arrow.FixedSizeListOfField(int32(k), arrow.Field{Name: "item", Type: values.DataType(), Nullable: true})
	// child holds row 0's values at its index 0, so the list's offset
	// cannot carry over: its validity moves to offset 0 as well
	valid := col.Data().Buffers()[0]
	if o := col.Data().Offset(); o != 0 && valid != nil {
		if col.NullN() == 0 {
			valid = nil
		} else {
			b := memory.NewResizableBuffer(mem)
			b.Resize(int(bitutil.BytesForBits(int64(n))))
			bitutil.CopyBitmap(valid.Bytes(), o, n, b.Bytes(), 0)
			defer b.Release()
			valid = b
		}
	}
	d := arrowarray.NewData(fsl, n, []*memory.Buffer{valid}, []arrow.ArrayData{child.Data()}, col.NullN(), 0)
	defer d.Release()
	storage := arrowarray.MakeFromData(d)
	defer storage.Release()
	ext := arrowarray.NewExtensionArrayWithStorage(c.to, storage)
	defer ext.Release()
	cols := append([]arrow.Array(nil), rec.Columns()...)
	cols[c.col] = ext
	return arrowarray.NewRecord(schema, cols, rec.NumRows()), nil
}
