package arrowio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
)

// FuzzReadIPC feeds arbitrary bytes to ReadStream and ReadFile, with the
// default buffer limit (DefaultMaxBuffer) and a total of 256 MiB (the
// default total, a GiB and more, would make each execution slow), and uses
// every batch they return (String, ValueStr, FromArrow): errors are
// expected, panics, unbounded allocations and leaks are not (the checked
// allocator must end at zero). Seeds: valid streams and files (plain, zstd
// and lz4) of tensor columns with nulls, permutations, empty and sliced
// batches; of dictionary<int8, utf8>, int32 and list<int16> columns; a
// stream replacing its dictionary; and corruptions of each.
func FuzzReadIPC(f *testing.F) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	sets := [][]arrow.Record{ipcBatches(f, mem), dictRecords(f, mem, 3, 7)}
	for _, recs := range sets {
		for _, file := range []bool{false, true} {
			for _, opts := range [][]ipc.Option{nil, {ipc.WithZstd()}, {ipc.WithLZ4()}} {
				var buf bytes.Buffer
				if err := WriteRecords(&buf, file, recs[0].Schema(), recs, opts...); err != nil {
					f.Fatal(err)
				}
				good := buf.Bytes()
				f.Add(good)
				f.Add(good[:len(good)/2])
				bad := append([]byte{}, good...)
				bad[len(bad)/3] ^= 0x55
				f.Add(bad)
			}
		}
		arrowtest.ReleaseRecords(recs)
	}
	// A stream whose second batch replaces the dictionary.
	a, b := dictRecords(f, mem, 1, 5), dictRecords(f, mem, 1, 9)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(a[0].Schema()), ipc.WithAllocator(mem), ipc.WithLZ4())
	for _, r := range []arrow.Record{a[0], replaceDictionary(f, mem, b[0])} {
		if err := w.Write(r); err != nil {
			f.Fatal(err)
		}
		r.Release()
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	mem.AssertSize(f, 0)
	f.Add([]byte{})
	f.Add([]byte("ARROW1\x00\x00"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := arrowtest.NewMem(t)
		useIPC(t, mem, data, false)
		useIPC(t, mem, data, true)
	})
}

// useIPC reads data as a stream or file and uses every batch.
func useIPC(t *testing.T, mem memory.Allocator, data []byte, file bool) {
	var rr arrowarray.RecordReader
	var err error
	opts := []ReadOption{WithAllocator(mem), WithMaxTotal(256 << 20)}
	if file {
		rr, err = ReadFile(bytes.NewReader(data), opts...)
	} else {
		rr, err = ReadStream(bytes.NewReader(data), opts...)
	}
	if err != nil {
		if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrMetadata) {
			t.Fatalf("error wraps neither ErrInvalid nor ErrMetadata: %v", err)
		}
		return
	}
	defer rr.Release()
	for rr.Next() {
		for _, c := range rr.Record().Columns() {
			touchNulls(c, 0)
			head := arrowarray.NewSlice(c, 0, int64(min(c.Len(), 64)))
			printArray(head)
			valueStrs(head)
			head.Release()
			if a, err := FromArrow(mem, c); err == nil {
				_, _ = array.ToSlice[float64](a)
				_, _ = array.ValidSlice(a)
				a.Release()
			}
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, ErrInvalid) {
		t.Fatalf("error does not wrap ErrInvalid: %v", err)
	}
}

// valueStrs calls a.ValueStr for each row, except for arrow-go's own list
// arrays (not our fixed_shape_tensor arrays, whose ValueStr is ours):
// arrow-go v15's FixedSizeList and List render a row through
// encoding/json and panic on a NaN or infinite element, arrow-go's bug
// (valid data), not the readers'.
func valueStrs(a arrow.Array) {
	switch a.(type) {
	case *arrowarray.FixedSizeList, *arrowarray.List, *arrowarray.LargeList:
		return
	}
	for i := 0; i < a.Len(); i++ {
		_ = a.ValueStr(i)
	}
}

// printArray calls a.String(), except for arrays with a struct inside:
// arrow-go v15's Struct.String panics on valid structs (null rows over a
// field without a validity bitmap), which is arrow-go's bug, not the
// readers'.
func printArray(a arrow.Array) {
	if !hasStruct(a.DataType(), 0) {
		_ = a.String()
	}
}

func hasStruct(t arrow.DataType, depth int) bool {
	if depth > 64 {
		return true
	}
	switch t := t.(type) {
	case *arrow.StructType:
		return true
	case arrow.ExtensionType:
		return hasStruct(t.StorageType(), depth+1)
	case *arrow.DictionaryType:
		return hasStruct(t.ValueType, depth+1)
	case arrow.NestedType:
		for _, f := range t.Fields() {
			if hasStruct(f.Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// touchNulls asks a and its nested arrays for their null counts, as the C
// Data exporters do (arrow-go counts an unknown one from the bitmap).
func touchNulls(a arrow.Array, depth int) {
	if a == nil || depth > 16 {
		return
	}
	_ = a.NullN()
	switch a := a.(type) {
	case *arrowarray.Struct:
		for i := 0; i < a.NumField(); i++ {
			touchNulls(a.Field(i), depth+1)
		}
	case arrowarray.ListLike:
		touchNulls(a.ListValues(), depth+1)
	case *arrowarray.Dictionary:
		touchNulls(a.Dictionary(), depth+1)
	case arrowarray.ExtensionArray:
		touchNulls(a.Storage(), depth+1)
	}
}

// replaceDictionary returns rec with its dictionary column's dictionary
// replaced by a different one (same indices).
func replaceDictionary(t testing.TB, mem memory.Allocator, rec arrow.Record) arrow.Record {
	defer rec.Release()
	d := rec.Column(0).(*arrowarray.Dictionary)
	sb := arrowarray.NewStringBuilder(mem)
	sb.AppendValues([]string{"un", "deux", "trois", "quatre", "cinq"}, nil)
	dict := sb.NewArray()
	sb.Release()
	defer dict.Release()
	nd := arrowarray.NewDictionaryArray(d.DataType().(*arrow.DictionaryType), d.Indices(), dict)
	defer nd.Release()
	cols := append([]arrow.Array{nd}, rec.Columns()[1:]...)
	return arrowarray.NewRecord(rec.Schema(), cols, rec.NumRows())
}

func isMetadataErr(err error) bool { return errors.Is(err, ErrMetadata) }

// FuzzTensorMetadata feeds arbitrary metadata (and list sizes) to
// Deserialize: it returns a type or an error wrapping ErrMetadata, never
// panics, and an accepted type serializes to metadata that deserializes to
// an equal type.
func FuzzTensorMetadata(f *testing.F) {
	for _, s := range []string{
		`{"shape":[2,3]}`, `{"shape":[100,200,500],"permutation":[2,0,1]}`,
		`{"shape":[2,3],"dim_names":["H","W"],"permutation":[1,0]}`, `{"shape":[]}`,
		`{"shape":[-1]}`, `{"shape":[1,1],"permutation":[0,0]}`, `{"shape":[2],"dim_names":[]}`,
		`{"shape":[4294967296,4294967296]}`, `{"shape":null}`, `{}`, `[]`, `null`, ``, `{"shape":[1e3]}`,
	} {
		f.Add(s, int32(6))
	}
	f.Fuzz(func(t *testing.T, meta string, listSize int32) {
		if listSize <= 0 {
			listSize = 1 // arrow-go cannot make a FixedSizeList of size <= 0
		}
		storage := arrow.FixedSizeListOf(listSize, arrow.PrimitiveTypes.Float32)
		et, err := (*FixedShapeTensorType)(nil).Deserialize(storage, meta)
		if err != nil {
			if et != nil {
				t.Fatalf("type %v with error %v", et, err)
			}
			if !isMetadataErr(err) {
				t.Fatalf("error does not wrap ErrMetadata: %v", err)
			}
			return
		}
		tt := et.(*FixedShapeTensorType)
		again, err := tt.Deserialize(storage, tt.Serialize())
		if err != nil || !tt.ExtensionEquals(again.(arrow.ExtensionType)) {
			t.Fatalf("%q -> %q does not round-trip: %v", meta, tt.Serialize(), err)
		}
		n := 1
		for _, d := range tt.LogicalShape() {
			n *= d
		}
		if n != int(listSize) {
			t.Fatalf("logical shape %v of %q holds %d elements, list size %d", tt.LogicalShape(), meta, n, listSize)
		}
	})
}
