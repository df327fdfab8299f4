package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/pqbomb"
	"github.com/stride0/stride0/parquetio"
)

// Issue 17's Parquet items: the caller's file left open (6), the errors
// for what is not Parquet and for a missing column (7), and the hostile
// files of item 9, one probe each.
func init() {
	probes = append(probes,
		probe{"17.6a", "parquetio.Info(f) then parquetio.Read(f, WithRowGroups(0)) on one *os.File", pqSameFile},
		probe{"17.7a", "a text file, an IPC file, an empty file read as Parquet", pqNotParquet},
		probe{"17.7b", "parquetio.Read(WithColumns(\"yy\")) of a file with x and y", pqMissingColumn},
	)
	for i, b := range pqbomb.Bombs() {
		b := b
		probes = append(probes, probe{fmt.Sprintf("17.9%c", 'a'+i), "Parquet: " + b.Title, func() (string, string) { return pqBomb(b) }})
	}
}

// pqFile is a small valid Parquet file of int64 columns x and y, in row
// groups of 2 rows.
func pqFile(rows int) ([]byte, error) {
	mem := memory.NewGoAllocator()
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "y", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	defer b.Release()
	for i := 0; i < rows; i++ {
		b.Field(0).(*arrowarray.Int64Builder).Append(int64(i))
		b.Field(1).(*arrowarray.Int64Builder).Append(int64(2 * i))
	}
	rec := b.NewRecord()
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(s, []arrow.Record{rec})
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var buf bytes.Buffer
	err = parquetio.Write(&buf, rr, parquetio.WithRowGroupRows(2))
	return buf.Bytes(), err
}

func pqSameFile() (string, string) {
	data, err := pqFile(5)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	dir, err := os.MkdirTemp("", "probe-pq")
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "f.parquet")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	defer f.Close()
	info, err := parquetio.Info(f)
	if err != nil {
		return vFailed, fmt.Sprintf("ParquetInfo: %v", err)
	}
	rr, err := parquetio.Read(f, parquetio.WithRowGroups(0))
	if err != nil {
		return vFailed, fmt.Sprintf("ReadParquet after ParquetInfo: %v", err)
	}
	var rows int64
	for rr.Next() {
		rows += rr.Record().NumRows()
	}
	rerr := rr.Err()
	rr.Release()
	var one [1]byte
	if _, err := f.ReadAt(one[:], 0); err != nil {
		return vFailed, fmt.Sprintf("the file after Release: %v", err)
	}
	if rerr != nil || rows != info.RowGroups[0].Rows || rows != 2 {
		return vFailed, fmt.Sprintf("%d rows (row group 0 holds %d), %v", rows, info.RowGroups[0].Rows, rerr)
	}
	return vRight, fmt.Sprintf("%d row groups; row group 0 read (%d rows); the file still open after Release", len(info.RowGroups), rows)
}

func pqNotParquet() (string, string) {
	data, err := pqFile(3)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	rr, err := parquetio.Read(bytes.NewReader(data))
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	var ipcFile bytes.Buffer
	_, err = arrowio.WriteFile(&ipcFile, rr)
	rr.Release()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	var msgs []string
	for name, in := range map[string][]byte{"text": []byte("x,y\n1,2\n3,4\n"), "IPC": ipcFile.Bytes(), "empty": nil} {
		_, err := parquetio.Read(bytes.NewReader(in))
		if err == nil || !errors.Is(err, arrowio.ErrInvalid) || !strings.Contains(err.Error(), "not a Parquet file") {
			return vFailed, fmt.Sprintf("%s file: %v", name, err)
		}
		msgs = append(msgs, name)
	}
	return vError, fmt.Sprintf("%s files: ErrInvalid, \"not a Parquet file\"", strings.Join(msgs, ", "))
}

func pqMissingColumn() (string, string) {
	data, err := pqFile(3)
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	_, err = parquetio.Read(bytes.NewReader(data), parquetio.WithColumns("yy"))
	if !errors.Is(err, arrowio.ErrNoColumn) || !strings.Contains(err.Error(), `did you mean "y"?`) || !strings.Contains(err.Error(), `"x", "y"`) {
		return vFailed, fmt.Sprintf("%v", err)
	}
	return vError, err.Error()
}

// pqBomb reads a hostile file with the default limits: it must fail with
// ErrInvalid, allocating little.
func pqBomb(b pqbomb.Bomb) (string, string) {
	mem := newTracker()
	var err error
	used := heap(func() {
		if _, err = parquetio.Info(bytes.NewReader(b.Data), parquetio.WithAllocator(mem)); err != nil && !errors.Is(err, arrowio.ErrInvalid) {
			return
		}
		var rr arrowarray.RecordReader
		if rr, err = parquetio.Read(bytes.NewReader(b.Data), parquetio.WithAllocator(mem)); err != nil {
			return
		}
		defer rr.Release()
		for rr.Next() {
		}
		err = rr.Err()
	})
	peak := mem.peak.Load()
	switch {
	case err == nil:
		return vFailed, fmt.Sprintf("a %d-byte file read without error", len(b.Data))
	case !errors.Is(err, arrowio.ErrInvalid):
		return vFailed, fmt.Sprintf("%v (does not wrap ErrInvalid)", err)
	case peak > 64<<20 || used > 64<<20:
		return vFailed, fmt.Sprintf("error (%v) after allocating %s (allocator peak) and %s of Go heap for a %d-byte file", err, mib(peak), mib(int64(used)), len(b.Data))
	case mem.CurrentAlloc() != 0:
		return vFailed, fmt.Sprintf("error (%v), leaving %d bytes allocated", err, mem.CurrentAlloc())
	}
	return vError, fmt.Sprintf("%v (%d-byte file; %s of Go heap)", err, len(b.Data), mib(int64(used)))
}
