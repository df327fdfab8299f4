//go:build cgo

package arrowio

/*
#cgo CFLAGS: -I${SRCDIR}/internal/cabi
#include <stdlib.h>
#include "abi.h"

static int s0_stream_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out) { return s->get_schema(s, out); }
static int s0_stream_get_next(struct ArrowArrayStream* s, struct ArrowArray* out) { return s->get_next(s, out); }
static const char* s0_stream_last_error(struct ArrowArrayStream* s) { return s->get_last_error ? s->get_last_error(s) : NULL; }
static void s0_stream_release(struct ArrowArrayStream* s) { if (s->release) s->release(s); }
static int s0_stream_released(struct ArrowArrayStream* s) { return s->release == NULL; }
static void s0_array_release(struct ArrowArray* a) { if (a->release) a->release(a); }
static int s0_array_released(struct ArrowArray* a) { return a->release == NULL; }
static void s0_schema_release(struct ArrowSchema* s) { if (s->release) s->release(s); }
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/cdata"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// ErrCData wraps failures reported by the other side of the C Data
// Interface (a stream's get_schema or get_next returning an error code).
var ErrCData = errors.New("C data interface")

// ExportCArray fills out (and outSchema, when not nil) so that a consumer of
// the Arrow C Data Interface reads arr without a copy: the buffers are shared
// and Retained until the consumer calls the release callbacks. out and
// outSchema must be zeroed, preferably C memory (see cdata.ExportArrowArray).
//
// Extension arrays are exported as their storage with the extension name and
// metadata in the schema (ARROW:extension:name, ARROW:extension:metadata).
// arrow-go v15's exporter writes no child arrays for an extension array that
// is not array.ListLike, so a FixedSizeList-backed extension array of another
// implementation would reach the consumer without its values; ExportCArray
// exports the storage array instead. (*FixedShapeTensorArray is ListLike, so
// cdata.ExportArrowArray also works for it.)
func ExportCArray(arr arrow.Array, out *cdata.CArrowArray, outSchema *cdata.CArrowSchema) error {
	if isNil(arr) || isNilData(arr.Data()) || out == nil {
		return fmt.Errorf("arrowio.ExportCArray: %w: nil array or output", array.ErrNil)
	}
	if err := exportable(arr.DataType()); err != nil {
		return fmt.Errorf("arrowio.ExportCArray: %v: %w", arr.DataType(), err)
	}
	ext, isExt := arr.(arrowarray.ExtensionArray)
	if _, listLike := arr.(arrowarray.ListLike); !isExt || listLike {
		cdata.ExportArrowArray(arr, out, outSchema)
		return nil
	}
	if outSchema != nil {
		// The schema depends on the type only: export it from an empty
		// slice, whose (childless) array export is released at once.
		empty := arrowarray.NewSlice(arr, 0, 0)
		tmp := (*cdata.CArrowArray)(C.calloc(1, C.sizeof_struct_ArrowArray))
		cdata.ExportArrowArray(empty, tmp, outSchema)
		C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(tmp)))
		C.free(unsafe.Pointer(tmp))
		empty.Release()
	}
	cdata.ExportArrowArray(ext.Storage(), out, nil)
	return nil
}

// ExportCRecordBatch fills out (and outSchema, when not nil) with rec as a
// struct array, without copying; extension columns travel as in
// ExportCArray.
func ExportCRecordBatch(rec arrow.Record, out *cdata.CArrowArray, outSchema *cdata.CArrowSchema) error {
	if isNil(rec) || out == nil {
		return fmt.Errorf("arrowio.ExportCRecordBatch: %w: nil record or output", array.ErrNil)
	}
	if rec.NumCols() == 0 {
		return fmt.Errorf("arrowio.ExportCRecordBatch: %w: a batch with no columns is a struct with no fields, which arrow-go v15 cannot export", ErrUnsupported)
	}
	for i, f := range rec.Schema().Fields() {
		if err := exportable(f.Type); err != nil {
			return fmt.Errorf("arrowio.ExportCRecordBatch: column %d (%q, %v): %w", i, f.Name, f.Type, err)
		}
	}
	if outSchema != nil {
		cdata.ExportArrowSchema(rec.Schema(), outSchema)
	}
	st := storageRecord(rec)
	defer st.Release()
	cdata.ExportArrowRecordBatch(st, out, nil)
	return nil
}

// storageRecord returns rec with every extension column replaced by its
// storage (and its schema by the storage schema), retained.
func storageRecord(rec arrow.Record) arrow.Record {
	cols := rec.Columns()
	fields := rec.Schema().Fields()
	changed := false
	for i, c := range cols {
		if e, ok := c.(arrowarray.ExtensionArray); ok {
			if !changed {
				cols = append([]arrow.Array{}, cols...)
				changed = true
			}
			cols[i] = e.Storage()
			fields[i].Type = e.Storage().DataType()
		}
	}
	if !changed {
		rec.Retain()
		return rec
	}
	md := rec.Schema().Metadata()
	return arrowarray.NewRecord(arrow.NewSchema(fields, &md), cols, rec.NumRows())
}

// ExportCRecordReader fills out with a C stream over rr's batches. The
// stream holds a reference to rr until the consumer releases it; batches are
// exported without copies, extension columns as in ExportCArray.
func ExportCRecordReader(rr arrowarray.RecordReader, out *cdata.CArrowArrayStream) error {
	if rr == nil || out == nil {
		return fmt.Errorf("arrowio.ExportCRecordReader: %w: nil reader or output", array.ErrNil)
	}
	sc := rr.Schema()
	if sc == nil || sc.NumFields() == 0 {
		return fmt.Errorf("arrowio.ExportCRecordReader: %w: a stream with no columns (batches are structs with no fields, which arrow-go v15 cannot export)", ErrUnsupported)
	}
	for i, f := range sc.Fields() {
		if err := exportable(f.Type); err != nil {
			return fmt.Errorf("arrowio.ExportCRecordReader: column %d (%q, %v): %w", i, f.Name, f.Type, err)
		}
	}
	w := &storageReader{rr: rr}
	w.refs.Store(1)
	rr.Retain()
	cdata.ExportRecordReader(w, out) // retains w
	w.Release()
	return nil
}

// storageReader serves rr's schema (extension types included: the schema
// export writes their metadata) and rr's batches with extension columns
// replaced by their storage.
type storageReader struct {
	refs atomic.Int64
	rr   arrowarray.RecordReader
	cur  arrow.Record
}

func (s *storageReader) Retain()               { s.refs.Add(1) }
func (s *storageReader) Schema() *arrow.Schema { return s.rr.Schema() }
func (s *storageReader) Record() arrow.Record  { return s.cur }
func (s *storageReader) Err() error            { return s.rr.Err() }

func (s *storageReader) Release() {
	if s.refs.Add(-1) == 0 {
		if s.cur != nil {
			s.cur.Release()
			s.cur = nil
		}
		s.rr.Release()
	}
}

func (s *storageReader) Next() bool {
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
	if !s.rr.Next() {
		return false
	}
	s.cur = storageRecord(s.rr.Record())
	return true
}

// ImportCArray imports an array and its schema from the C Data Interface
// without copying (the returned array owns the C memory and calls the
// producer's release when released). Before arrow-go's importer reads the
// structs, a released struct (release NULL), NULL pointers, a malformed
// format string, and buffer or child counts that do not fit the type are
// errors wrapping ErrInvalid; the imported array is then checked with
// ValidateArray (buffer pointers themselves cannot be checked: they must
// point at as many bytes as the type and length imply). A field whose metadata names a
// registered extension type (arrow.fixed_shape_tensor included) is returned
// with that type, and the two extension keys are removed from its metadata,
// as IPC readers do: arrow-go v15's cdata importer itself ignores extension
// metadata. The schema is always released; on error so is the array.
func ImportCArray(arr *cdata.CArrowArray, schema *cdata.CArrowSchema) (arrow.Field, arrow.Array, error) {
	if arr == nil || schema == nil {
		if schema != nil {
			C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
		}
		if arr != nil {
			C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(arr)))
		}
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w: nil array or schema", array.ErrNil)
	}
	ca := (*C.struct_ArrowArray)(unsafe.Pointer(arr))
	if ca.release == nil { // released (or zeroed): read nothing else
		C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w: released array (release is NULL)", ErrInvalid)
	}
	if err := checkCSchema((*C.struct_ArrowSchema)(unsafe.Pointer(schema)), 0); err != nil {
		C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
		C.s0_array_release(ca)
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w", err)
	}
	field, err := importCField(schema) // copies; releases below
	C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
	if err != nil {
		C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(arr)))
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w: schema: %v", ErrInvalid, err)
	}
	ext, err := restoreField(&field)
	if err != nil {
		C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(arr)))
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w", err)
	}
	storageType := field.Type
	if ext != nil {
		storageType = ext.StorageType()
	}
	if err := checkCArray(ca, storageType, 0); err != nil {
		C.s0_array_release(ca)
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w", err)
	}
	a, err := importCArray(arr, storageType)
	if err != nil {
		C.s0_array_release(ca)
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w: %v", ErrInvalid, err)
	}
	if err := ValidateArray(a); err != nil {
		a.Release()
		return arrow.Field{}, nil, fmt.Errorf("arrowio.ImportCArray: %w", err)
	}
	if ext == nil {
		return field, a, nil
	}
	defer a.Release()
	return field, arrowarray.NewExtensionArrayWithStorage(ext, a), nil
}

// importCField is cdata.ImportCArrowField (which releases the schema) with
// its panics turned into errors.
func importCField(schema *cdata.CArrowSchema) (f arrow.Field, err error) {
	defer recoverImport(&err, "schema")
	return cdata.ImportCArrowField(schema)
}

// importCSchema is cdata.ImportCArrowSchema (which releases the schema)
// for a schema already checked to be a struct, with its panics turned into
// errors.
func importCSchema(schema *cdata.CArrowSchema) (s *arrow.Schema, err error) {
	defer recoverImport(&err, "schema")
	return cdata.ImportCArrowSchema(schema)
}

// importCArray is cdata.ImportCArrayWithType with its panics turned into
// errors.
func importCArray(arr *cdata.CArrowArray, dt arrow.DataType) (a arrow.Array, err error) {
	defer recoverImport(&err, "array")
	return cdata.ImportCArrayWithType(arr, dt)
}

// importCRecord is cdata.ImportCRecordBatchWithSchema with its panics turned
// into errors.
func importCRecord(arr *cdata.CArrowArray, s *arrow.Schema) (r arrow.Record, err error) {
	defer recoverImport(&err, "record batch")
	return cdata.ImportCRecordBatchWithSchema(arr, s)
}

// checkCRecordSchema checks a schema struct tree and that it is a struct
// (a record batch's schema).
func checkCRecordSchema(s *C.struct_ArrowSchema) error {
	if err := checkCSchema(s, 0); err != nil {
		return err
	}
	if f := C.GoString(s.format); f != "+s" || s.dictionary != nil {
		return fmt.Errorf("%w: a record batch's schema must be a struct (format \"+s\"), not %q", ErrInvalid, f)
	}
	return nil
}

// restoreField turns a field carrying extension metadata of a registered
// type into a field of that type (removing the two metadata keys) and
// returns the type; fields of unregistered extensions are left alone.
func restoreField(f *arrow.Field) (arrow.ExtensionType, error) {
	md := f.Metadata
	i := md.FindKey(ipc.ExtensionTypeKeyName)
	if i < 0 {
		return nil, nil
	}
	proto := arrow.GetExtensionType(md.Values()[i])
	if proto == nil {
		return nil, nil
	}
	data := ""
	j := md.FindKey(ipc.ExtensionMetadataKeyName)
	if j >= 0 {
		data = md.Values()[j]
	}
	et, err := proto.Deserialize(f.Type, data)
	if err != nil {
		return nil, fmt.Errorf("field %q: %w", f.Name, err)
	}
	var keys, vals []string
	for k := range md.Keys() {
		if k != i && k != j {
			keys = append(keys, md.Keys()[k])
			vals = append(vals, md.Values()[k])
		}
	}
	f.Metadata = arrow.NewMetadata(keys, vals)
	f.Type = et
	return et, nil
}

// restoreSchema applies restoreField to every field; exts[i] is nil for
// fields left alone.
func restoreSchema(s *arrow.Schema) (*arrow.Schema, []arrow.ExtensionType, error) {
	fields := s.Fields()
	exts := make([]arrow.ExtensionType, len(fields))
	found := false
	for i := range fields {
		et, err := restoreField(&fields[i])
		if err != nil {
			return nil, nil, err
		}
		exts[i] = et
		found = found || et != nil
	}
	if !found {
		return s, exts, nil
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md), exts, nil
}

// restoreRecord wraps the columns of rec (storage) in their extension types
// under schema s. It takes over rec's reference.
func restoreRecord(rec arrow.Record, s *arrow.Schema, exts []arrow.ExtensionType) arrow.Record {
	if s == rec.Schema() {
		return rec
	}
	defer rec.Release()
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		if exts[i] != nil {
			cols[i] = arrowarray.NewExtensionArrayWithStorage(exts[i], c)
			defer cols[i].Release()
		} else {
			cols[i] = c
		}
	}
	return arrowarray.NewRecord(s, cols, rec.NumRows())
}

// ImportCRecordBatch imports a record batch (a struct array and its schema)
// without copying, restoring extension types as ImportCArray does. The
// schema is always released; on error so is the array.
func ImportCRecordBatch(arr *cdata.CArrowArray, schema *cdata.CArrowSchema) (arrow.Record, error) {
	if arr == nil || schema == nil {
		if schema != nil {
			C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
		}
		if arr != nil {
			C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(arr)))
		}
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w: nil array or schema", array.ErrNil)
	}
	ca := (*C.struct_ArrowArray)(unsafe.Pointer(arr))
	if ca.release == nil { // released (or zeroed): read nothing else
		C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w: released array (release is NULL)", ErrInvalid)
	}
	if err := checkCRecordSchema((*C.struct_ArrowSchema)(unsafe.Pointer(schema))); err != nil {
		C.s0_schema_release((*C.struct_ArrowSchema)(unsafe.Pointer(schema)))
		C.s0_array_release(ca)
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w", err)
	}
	raw, err := importCSchema(schema) // releases schema
	if err != nil {
		C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(arr)))
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w: schema: %v", ErrInvalid, err)
	}
	s, exts, err := restoreSchema(raw)
	if err != nil {
		C.s0_array_release((*C.struct_ArrowArray)(unsafe.Pointer(arr)))
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w", err)
	}
	if err := checkCArray(ca, arrow.StructOf(raw.Fields()...), 0); err != nil {
		C.s0_array_release(ca)
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w", err)
	}
	rec, err := importCRecord(arr, raw)
	if err != nil {
		C.s0_array_release(ca)
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w: %v", ErrInvalid, err)
	}
	if err := ValidateRecord(rec); err != nil {
		rec.Release()
		return nil, fmt.Errorf("arrowio.ImportCRecordBatch: %w", err)
	}
	return restoreRecord(rec, s, exts), nil
}

// ImportCRecordReader takes over a C stream (moving it: the caller's struct
// is left released) and returns a RecordReader over its batches, with
// extension types restored as ImportCArray does. Batches are imported
// without copies.
//
// Unlike cdata.ImportCRecordReader in arrow-go v15, which releases the stream
// only from a garbage-collector finalizer, this reader releases the stream,
// and with it the producer's resources, when its last reference is Released.
func ImportCRecordReader(stream *cdata.CArrowArrayStream) (arrowarray.RecordReader, error) {
	cs := (*C.struct_ArrowArrayStream)(unsafe.Pointer(stream))
	if stream == nil || C.s0_stream_released(cs) != 0 {
		return nil, fmt.Errorf("arrowio.ImportCRecordReader: %w: nil or released stream", array.ErrNil)
	}
	if cs.get_schema == nil || cs.get_next == nil {
		C.s0_stream_release(cs)
		return nil, fmt.Errorf("arrowio.ImportCRecordReader: %w: stream without get_schema or get_next", ErrInvalid)
	}
	own := (*C.struct_ArrowArrayStream)(C.calloc(1, C.sizeof_struct_ArrowArrayStream))
	*own = *cs
	cs.release = nil
	r := &cStreamReader{stream: own}
	r.refs.Store(1)

	sc := (*C.struct_ArrowSchema)(C.calloc(1, C.sizeof_struct_ArrowSchema))
	defer C.free(unsafe.Pointer(sc))
	if rc := C.s0_stream_get_schema(own, sc); rc != 0 {
		err := r.cError("get_schema", rc)
		r.Release()
		return nil, fmt.Errorf("arrowio.ImportCRecordReader: %w", err)
	}
	if err := checkCRecordSchema(sc); err != nil {
		C.s0_schema_release(sc)
		r.Release()
		return nil, fmt.Errorf("arrowio.ImportCRecordReader: get_schema: %w", err)
	}
	raw, err := importCSchema((*cdata.CArrowSchema)(unsafe.Pointer(sc)))
	if err != nil {
		r.Release()
		return nil, fmt.Errorf("arrowio.ImportCRecordReader: %w: schema: %v", ErrInvalid, err)
	}
	s, exts, err := restoreSchema(raw)
	if err != nil {
		r.Release()
		return nil, fmt.Errorf("arrowio.ImportCRecordReader: %w", err)
	}
	r.raw, r.schema, r.exts = raw, s, exts
	return r, nil
}

type cStreamReader struct {
	refs   atomic.Int64
	stream *C.struct_ArrowArrayStream
	raw    *arrow.Schema // as imported: storage types with extension metadata
	schema *arrow.Schema // extension types restored
	exts   []arrow.ExtensionType
	cur    arrow.Record
	err    error
	done   bool
}

func (r *cStreamReader) cError(op string, rc C.int) error {
	msg := C.s0_stream_last_error(r.stream)
	if msg != nil {
		return fmt.Errorf("%w: %s: error %d: %s", ErrCData, op, int(rc), C.GoString(msg))
	}
	return fmt.Errorf("%w: %s: error %d", ErrCData, op, int(rc))
}

func (r *cStreamReader) Retain()               { r.refs.Add(1) }
func (r *cStreamReader) Schema() *arrow.Schema { return r.schema }
func (r *cStreamReader) Record() arrow.Record  { return r.cur }
func (r *cStreamReader) Err() error            { return r.err }

func (r *cStreamReader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	C.s0_stream_release(r.stream)
	C.free(unsafe.Pointer(r.stream))
	r.stream = nil
}

func (r *cStreamReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done || r.stream == nil {
		return false
	}
	ca := (*C.struct_ArrowArray)(C.calloc(1, C.sizeof_struct_ArrowArray))
	defer C.free(unsafe.Pointer(ca))
	if rc := C.s0_stream_get_next(r.stream, ca); rc != 0 {
		r.err, r.done = r.cError("get_next", rc), true
		return false
	}
	if C.s0_array_released(ca) != 0 {
		r.done = true
		return false
	}
	if err := checkCArray(ca, arrow.StructOf(r.raw.Fields()...), 0); err != nil {
		C.s0_array_release(ca)
		r.err, r.done = fmt.Errorf("arrowio: C stream batch: %w", err), true
		return false
	}
	rec, err := importCRecord((*cdata.CArrowArray)(unsafe.Pointer(ca)), r.raw)
	if err != nil {
		C.s0_array_release(ca)
		r.err, r.done = fmt.Errorf("arrowio: C stream batch: %w: %v", ErrInvalid, err), true
		return false
	}
	if err := ValidateRecord(rec); err != nil {
		rec.Release()
		r.err, r.done = fmt.Errorf("arrowio: C stream batch: %w", err), true
		return false
	}
	r.cur = restoreRecord(rec, r.schema, r.exts)
	return true
}

// Read returns the next batch, or io.EOF after the last (arrio.Reader). The
// batch is valid until the next call.
func (r *cStreamReader) Read() (arrow.Record, error) {
	if r.Next() {
		return r.cur, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	return nil, io.EOF
}

// ExportArray exports an Array through the C Data Interface: a 1-D Array as
// a primitive array (ToArrow), any other rank as a fixed_shape_tensor column
// (ToTensorColumn) whose extension metadata is in the schema. Values are
// shared where ToArrow/ToTensorColumn share them; mem serves what they
// allocate.
func ExportArray(mem memory.Allocator, a *array.Array, out *cdata.CArrowArray, outSchema *cdata.CArrowSchema) error {
	var arr arrow.Array
	var err error
	if a.Rank() == 1 {
		arr, err = ToArrow(mem, a)
	} else {
		arr, err = ToTensorColumn(mem, a)
	}
	if err != nil {
		return fmt.Errorf("arrowio.ExportArray: %w", err)
	}
	defer arr.Release()
	return ExportCArray(arr, out, outSchema)
}

// ImportArray imports an array through the C Data Interface (ImportCArray)
// and converts it with FromArrow, without copying values. The schema is
// always released, and the array on error.
func ImportArray(mem memory.Allocator, arr *cdata.CArrowArray, schema *cdata.CArrowSchema) (*array.Array, error) {
	_, imported, err := ImportCArray(arr, schema)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ImportArray: %w", err)
	}
	defer imported.Release()
	a, err := FromArrow(mem, imported)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ImportArray: %w", err)
	}
	return a, nil
}
