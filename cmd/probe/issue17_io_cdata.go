//go:build cgo

package main

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/cdata"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// hostileMetadata exports a tensor column through the C Data Interface
// (its schema carries the extension's metadata), overwrites the first 8
// bytes of that metadata blob, in place, with count and the first key's
// length, and imports it.
func hostileMetadata(count, keyLen int32) (string, string) {
	mem := newTracker()
	x, err := array.Arange(mem, array.Float32, 0, 6, 1)
	if err != nil {
		return vFailed, err.Error()
	}
	col, err := arrowio.ToTensorColumn(mem, x)
	x.Release()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	var ca cdata.CArrowArray
	var cs cdata.CArrowSchema
	err = arrowio.ExportCArray(col, &ca, &cs)
	col.Release()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	// struct ArrowSchema: format, name, metadata, ... (the C ABI).
	md := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&cs), 2*unsafe.Sizeof(uintptr(0))))
	if md == nil {
		return vFailed, "setup: the exported schema has no metadata"
	}
	blob := unsafe.Slice((*byte)(md), 8)
	binary.LittleEndian.PutUint32(blob, uint32(count))
	binary.LittleEndian.PutUint32(blob[4:], uint32(keyLen))
	_, arr, err := arrowio.ImportCArray(&ca, &cs)
	if err == nil {
		arr.Release()
		return vFailed, "imported without error"
	}
	if mem.CurrentAlloc() != 0 {
		return vFailed, fmt.Sprintf("%d bytes leaked: %v", mem.CurrentAlloc(), err)
	}
	if !strings.Contains(err.Error(), "metadata") {
		return vFailed, "the error does not say metadata: " + err.Error()
	}
	return vError, err.Error()
}

func cMetadataCount() (string, string) { return hostileMetadata(1<<31-1, 0) }
func cMetadataKey() (string, string)   { return hostileMetadata(2, 1<<31-1) }
