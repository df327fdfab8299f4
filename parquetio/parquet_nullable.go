package parquetio

import (
	"bytes"
	"encoding/base64"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// pqarrow v15 loses the values of a FixedSizeList whose field is not
// nullable (a top-level column, or a struct's or list's child): it writes
// the levels and no values, and the rows read back as nulls. Write
// therefore writes every column that holds a FixedSizeList (plain or as an
// extension's storage) with all its fields nullable, and, when that changed
// the schema, stores the caller's schema under pqSchemaKey (an IPC schema
// message, base64) so that Read gives the columns back with their
// own nullability. Other readers see the nullable columns.

// pqSchemaKey is the file metadata key of the schema the caller wrote.
const pqSchemaKey = "stride0:schema"

// hasFSL reports whether t is or holds a FixedSizeList.
func hasFSL(t arrow.DataType) bool {
	switch t := t.(type) {
	case *arrow.FixedSizeListType:
		return true
	case arrow.ExtensionType:
		return hasFSL(t.StorageType())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if hasFSL(f.Type) {
				return true
			}
		}
	case *arrow.ListType:
		return hasFSL(t.Elem())
	case *arrow.LargeListType:
		return hasFSL(t.Elem())
	}
	return false
}

// relaxType returns t with every field under it nullable, through structs,
// lists and FixedSizeLists (an extension type and a map are kept as they
// are: their storage or keys are theirs to define).
func relaxType(t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case *arrow.FixedSizeListType:
		return arrow.FixedSizeListOfField(t.Len(), relaxField(t.ElemField()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = relaxField(f)
		}
		return arrow.StructOf(fs...)
	case *arrow.ListType:
		return arrow.ListOfField(relaxField(t.ElemField()))
	case *arrow.LargeListType:
		return arrow.LargeListOfField(relaxField(t.ElemField()))
	}
	return t
}

func relaxField(f arrow.Field) arrow.Field {
	f.Type = relaxType(f.Type)
	f.Nullable = true
	return f
}

// pqWriteSchema returns the schema Write gives pqarrow for s, and
// whether it differs from s.
func pqWriteSchema(s *arrow.Schema) (*arrow.Schema, bool) {
	fs := s.Fields()
	changed := false
	for i, f := range fs {
		if !hasFSL(f.Type) {
			continue
		}
		r := relaxField(f)
		if r.Nullable != f.Nullable || !arrow.TypeEqual(r.Type, f.Type) {
			fs[i], changed = r, true
		}
	}
	if !changed {
		return s, false
	}
	md := s.Metadata()
	return arrow.NewSchema(fs, &md), true
}

// encodeSchema is s as an IPC stream holding only its schema, base64.
func encodeSchema(s *arrow.Schema) (string, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s))
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// retypeData returns d (retained) as type t, which must be d's type up to
// the nullability of fields (sameUpToNulls): the buffers are shared.
func retypeData(d arrow.ArrayData, t arrow.DataType) arrow.ArrayData {
	if arrow.TypeEqual(d.DataType(), t) {
		d.Retain()
		return d
	}
	var childTypes []arrow.DataType
	switch t := t.(type) {
	case *arrow.FixedSizeListType:
		childTypes = []arrow.DataType{t.Elem()}
	case *arrow.ListType:
		childTypes = []arrow.DataType{t.Elem()}
	case *arrow.LargeListType:
		childTypes = []arrow.DataType{t.Elem()}
	case *arrow.StructType:
		for _, f := range t.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	}
	kids := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		if i < len(childTypes) {
			kids[i] = retypeData(c, childTypes[i])
		} else {
			c.Retain()
			kids[i] = c
		}
	}
	nd := arrowarray.NewData(t, d.Len(), append([]*memory.Buffer(nil), d.Buffers()...), kids, d.NullN(), d.Offset())
	for _, k := range kids {
		k.Release()
	}
	return nd
}

// sameUpToNulls reports whether a and b differ at most in the nullability
// of their fields.
func sameUpToNulls(a, b arrow.DataType) bool {
	return arrow.TypeEqual(relaxType(a), relaxType(b))
}
