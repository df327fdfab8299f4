//go:build cgo

package main

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/cdata"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
)

// exportAll uses a batch the way a caller would: prints every column and
// exports the batch and each column through the C Data Interface (then
// releases the C structs). It returns the panic it met, if any.
func exportAll(rec arrow.Record) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
		}
	}()
	var ca cdata.CArrowArray
	var cs cdata.CArrowSchema
	if err := arrowio.ExportCRecordBatch(rec, &ca, &cs); err == nil {
		cdata.ReleaseCArrowArray(&ca)
		cdata.ReleaseCArrowSchema(&cs)
	}
	for _, col := range rec.Columns() {
		_ = col.String()
		var ca cdata.CArrowArray
		var cs cdata.CArrowSchema
		if err := arrowio.ExportCArray(col, &ca, &cs); err == nil {
			cdata.ReleaseCArrowArray(&ca)
			cdata.ReleaseCArrowSchema(&cs)
		}
	}
	return ""
}

// corruptBatches flips every bit of a stream of a dictionary column and an
// int32 column: a batch the reader returns without error must be usable
// (printed, exported); a corrupt one must be an error.
func corruptBatches() (string, string) {
	data, err := dictBytes(false, 1)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	panics, errs, accepted, first := 0, 0, 0, ""
	for bit := 0; bit < 8*len(data); bit++ {
		c := append([]byte{}, data...)
		c[bit/8] ^= 1 << (bit % 8)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := arrowio.ReadStream(bytes.NewReader(c), arrowio.WithAllocator(mem))
		if err != nil {
			errs++
			continue
		}
		for rr.Next() {
			accepted++
			if p := exportAll(rr.Record()); p != "" {
				panics++
				if first == "" {
					first = fmt.Sprintf("bit %d (byte %d): %s", bit, bit/8, p)
				}
			}
		}
		if rr.Err() != nil {
			errs++
		}
		rr.Release()
	}
	if panics > 0 {
		return vFailed, fmt.Sprintf("%d of %d corruptions gave batches that panic when used (%s)", panics, 8*len(data), first)
	}
	return vRight, fmt.Sprintf("%d corruptions of a %d-byte stream: %d errors, %d batches accepted and usable", 8*len(data), len(data), errs, accepted)
}

// cImport tries one importer on a zeroed or a released ArrowArray and
// ArrowSchema; it must return an error.
func cImport(which string, released bool) func() (string, string) {
	return func() (string, string) {
		var ca cdata.CArrowArray
		var cs cdata.CArrowSchema
		if released {
			b := arrowarray.NewInt32Builder(memory.NewGoAllocator())
			b.AppendValues([]int32{1, 2, 3}, nil)
			col := b.NewArray()
			b.Release()
			var err error
			if which == "ImportCRecordBatch" {
				s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
				rec := arrowarray.NewRecord(s, []arrow.Array{col}, 3)
				err = arrowio.ExportCRecordBatch(rec, &ca, &cs)
				rec.Release()
			} else {
				err = arrowio.ExportCArray(col, &ca, &cs)
			}
			col.Release()
			if err != nil {
				return vFailed, fmt.Sprintf("setup: %v", err)
			}
			cdata.ReleaseCArrowArray(&ca)
			cdata.ReleaseCArrowSchema(&cs)
		}
		var err error
		switch which {
		case "ImportCArray":
			var arr arrow.Array
			_, arr, err = arrowio.ImportCArray(&ca, &cs)
			if err == nil {
				arr.Release()
			}
		case "ImportArray":
			a, e := arrowio.ImportArray(memory.NewGoAllocator(), &ca, &cs)
			if e == nil {
				a.Release()
			}
			err = e
		case "ImportCRecordBatch":
			var rec arrow.Record
			rec, err = arrowio.ImportCRecordBatch(&ca, &cs)
			if err == nil {
				rec.Release()
			}
		}
		if err == nil {
			return vFailed, "imported without error"
		}
		return vError, err.Error()
	}
}
