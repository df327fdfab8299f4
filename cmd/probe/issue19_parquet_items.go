package main

import (
	"bytes"
	"errors"
	"fmt"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/pqbomb"
	"github.com/stride0/stride0/parquetio"
)

// Issue 19's hostile files of the fast reader's shapes (pqbomb.FastBombs:
// they pass the pre-flight scan, and the decoder itself must refuse them),
// one probe each, read through Read, Read with row-group workers and
// ReadTable with two column workers.
func init() {
	for i, b := range pqbomb.FastBombs() {
		b := b
		probes = append(probes, probe{fmt.Sprintf("19.pq%02d", i+1), "Parquet (fast reader): " + b.Title, func() (string, string) { return pqFastBomb(b) }})
	}
}

// pqFastBomb reads a hostile file three ways with the default limits:
// each must fail with ErrInvalid, allocating little, leaving nothing
// allocated.
func pqFastBomb(b pqbomb.Bomb) (string, string) {
	reads := []struct {
		name string
		read func(mem *tracker) error
	}{
		{"Read", func(mem *tracker) error { return pqDrain(b.Data, parquetio.WithAllocator(mem)) }},
		{"Read with 2 row-group workers", func(mem *tracker) error {
			return pqDrain(b.Data, parquetio.WithAllocator(mem), parquetio.WithRowGroupWorkers(2))
		}},
		{"ReadTable with 2 workers", func(mem *tracker) error {
			rec, err := parquetio.ReadTable(bytes.NewReader(b.Data), parquetio.WithAllocator(mem), parquetio.WithRowGroupWorkers(2))
			if err == nil {
				rec.Release()
			}
			return err
		}},
	}
	var first error
	var most uint64
	for _, r := range reads {
		mem := newTracker()
		var err error
		used := heap(func() { err = r.read(mem) })
		peak := mem.peak.Load()
		switch {
		case err == nil:
			return vFailed, fmt.Sprintf("%s: a %d-byte file read without error", r.name, len(b.Data))
		case !errors.Is(err, arrowio.ErrInvalid):
			return vFailed, fmt.Sprintf("%s: %v (does not wrap ErrInvalid)", r.name, err)
		case peak > 64<<20 || used > 64<<20:
			return vFailed, fmt.Sprintf("%s: error (%v) after allocating %s (allocator peak) and %s of Go heap for a %d-byte file", r.name, err, mib(peak), mib(int64(used)), len(b.Data))
		case mem.CurrentAlloc() != 0:
			return vFailed, fmt.Sprintf("%s: error (%v), leaving %d bytes allocated", r.name, err, mem.CurrentAlloc())
		}
		if first == nil {
			first = err
		}
		most = max(most, used)
	}
	return vError, fmt.Sprintf("%v (%d-byte file; at most %s of Go heap over Read, row-group workers and ReadTable)", first, len(b.Data), mib(int64(most)))
}

// pqDrain reads every batch of data.
func pqDrain(data []byte, opts ...parquetio.ReadOption) error {
	var rr arrowarray.RecordReader
	rr, err := parquetio.Read(bytes.NewReader(data), opts...)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
	}
	return rr.Err()
}
