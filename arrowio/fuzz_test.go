package arrowio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// FuzzReadIPC feeds arbitrary bytes to ReadStream and ReadFile and converts
// every column it gets: errors are expected, panics, unbounded allocations
// and leaks are not (the checked allocator must end at zero). Seeds: valid
// streams and files (plain and zstd) of tensor columns with nulls,
// permutations, empty and sliced batches, and corruptions of them.
func FuzzReadIPC(f *testing.F) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	recs := ipcBatches(f, mem)
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
	for _, r := range recs {
		r.Release()
	}
	mem.AssertSize(f, 0)
	f.Add([]byte{})
	f.Add([]byte("ARROW1\x00\x00"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := newMem(t)
		drainIPC(t, mem, data, false)
		drainIPC(t, mem, data, true)
	})
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
