package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/view"
)

// meanOverBatch is the report's Evaluate of ReduceMean(v, [0]) over batches
// of 3 rows of 3 features, now frame's WithColumns (arrowio.Evaluate moved
// there): a per-feature mean is not a per-row column, so it must be
// refused (frame evaluates it over the whole column, whose 3 values do not
// fill its 6 rows).
func meanOverBatch() (string, string) {
	mem := newTracker()
	x, err := array.Arange(mem, array.Float64, 0, 9, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	defer x.Release()
	m, err := view.Reshape(x, 3, 3)
	if err != nil {
		return vFailed, err.Error()
	}
	defer m.Release()
	col, err := arrowio.ToTensorColumn(mem, m)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	defer col.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType(), Nullable: true}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{col}, 3)
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(s, []arrow.Record{rec, rec})
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	defer rr.Release()
	f := frame.FromReader(rr)
	out, err := f.WithColumns(frame.LetExpr("m", expr.ReduceMean(f.Col("x"), []int{0}, false))).Reader(context.Background(), frame.WithAllocator(mem))
	if err != nil {
		return vError, err.Error()
	}
	defer out.Release()
	for out.Next() {
		r := out.Record()
		return vFailed, fmt.Sprintf("WithColumns accepted the output and returned column %v as per-row values", r.Column(int(r.NumCols())-1))
	}
	if err := out.Err(); err != nil {
		return vError, err.Error()
	}
	return vFailed, "accepted at planning, no batch"
}

// calls runs each named call under recover and lists the ones that panic.
func calls(fs map[string]func()) []string {
	var bad []string
	for name, f := range fs {
		func() {
			defer func() {
				if p := recover(); p != nil {
					bad = append(bad, fmt.Sprintf("%s: %v", name, p))
				}
			}()
			f()
		}()
	}
	slices.Sort(bad)
	return bad
}

// nilTensorType calls the methods of a nil *FixedShapeTensorType.
func nilTensorType() (string, string) {
	var t *arrowio.FixedShapeTensorType
	bad := calls(map[string]func(){
		"String": func() { _ = t.String() }, "Serialize": func() { _ = t.Serialize() },
		"Shape": func() { _ = t.Shape() }, "ListSize": func() { _ = t.ListSize() },
		"Fingerprint": func() { _ = t.Fingerprint() }, "ValueType": func() { _ = t.ValueType() },
		"DimNames": func() { _ = t.DimNames() }, "Permutation": func() { _ = t.Permutation() },
		"LogicalShape": func() { _ = t.LogicalShape() }, "LogicalDimNames": func() { _ = t.LogicalDimNames() },
		"ExtensionEquals": func() { _ = t.ExtensionEquals(t) },
	})
	if len(bad) > 0 {
		return vFailed, fmt.Sprintf("%d methods panic: %s", len(bad), strings.Join(bad, "; "))
	}
	return vRight, "String, Serialize, Shape, ListSize, Fingerprint, ValueType and the others answer zero values"
}

// nilTensorArray calls the methods of a nil *FixedShapeTensorArray.
func nilTensorArray() (string, string) {
	var a *arrowio.FixedShapeTensorArray
	bad := calls(map[string]func(){
		"TensorType": func() { _ = a.TensorType() }, "ValueStr": func() { _ = a.ValueStr(0) },
		"ListValues": func() { _ = a.ListValues() }, "ValueOffsets": func() { _, _ = a.ValueOffsets(0) },
	})
	if len(bad) > 0 {
		return vFailed, fmt.Sprintf("%d methods panic: %s", len(bad), strings.Join(bad, "; "))
	}
	return vRight, "TensorType, ValueStr, ListValues and ValueOffsets answer zero values"
}

// nilRecord is WriteRecords(w, true, schema, []arrow.Record{nil}).
func nilRecord() (string, string) {
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	var buf bytes.Buffer
	var err error
	bad := calls(map[string]func(){
		"WriteRecords": func() { err = arrowio.WriteRecords(&buf, true, s, []arrow.Record{nil}) },
	})
	switch {
	case len(bad) > 0:
		return vFailed, bad[0]
	case err == nil:
		return vFailed, "a nil record written without error"
	}
	return vError, err.Error()
}

// permutations writes transposed tensor columns whose permutations would
// not be their own inverse ((0,2,3,1) and (0,3,1,2) views of [2 2 3 4]): the
// type written must carry only involutions (pyarrow reads others
// differently), and the values must read back.
func permutations() (string, string) {
	mem := newTracker()
	x, err := array.Arange(mem, array.Float32, 0, 48, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	defer x.Release()
	base, err := view.Reshape(x, 2, 2, 3, 4)
	if err != nil {
		return vFailed, err.Error()
	}
	defer base.Release()
	var notes []string
	for _, perm := range [][]int{{0, 2, 3, 1}, {0, 3, 1, 2}, {0, 2, 1, 3}} {
		v, err := view.Transpose(base, perm...)
		if err != nil {
			return vFailed, err.Error()
		}
		verdict, note := writePerm(mem, v, perm)
		v.Release()
		if verdict != vRight {
			return verdict, note
		}
		notes = append(notes, note)
	}
	return vRight, strings.Join(notes, "; ")
}

func writePerm(mem *tracker, v *array.Array, perm []int) (string, string) {
	col, err := arrowio.ToTensorColumn(mem, v)
	if err != nil {
		return vFailed, fmt.Sprintf("view %v: %v", perm, err)
	}
	defer col.Release()
	p := col.TensorType().Permutation()
	for i, j := range p {
		if p[j] != i {
			return vFailed, fmt.Sprintf("view %v written with permutation %v, which is not its own inverse (pyarrow misreads it)", perm, p)
		}
	}
	back, err := arrowio.FromArrow(mem, col)
	if err != nil {
		return vFailed, fmt.Sprintf("view %v: reading back: %v", perm, err)
	}
	defer back.Release()
	want, _ := array.ToSlice[float32](v)
	got, _ := array.ToSlice[float32](back)
	if !slices.Equal(back.Shape(), v.Shape()) || !slices.Equal(got, want) {
		return vFailed, fmt.Sprintf("view %v: read back shape %v values %v, want %v %v", perm, back.Shape(), got, v.Shape(), want)
	}
	return vRight, fmt.Sprintf("view %v written with permutation %v, values round-trip", perm, p)
}
