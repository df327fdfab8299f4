package parquetio

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/internal/pqbomb"
)

// fastReads are the ways a test reads a file through pqdecode alone
// (withNoFallback: a fallback to pqarrow is an error): Read in batches,
// row group by row group, with row-group workers, and ReadTable at 1 and
// 2 workers.
var fastReads = []struct {
	name  string
	table bool
	opts  []ReadOption
}{
	{"Read", false, nil},
	{"Read/groups1", false, []ReadOption{WithRowGroupWorkers(1)}},
	{"Read/groups2", false, []ReadOption{WithRowGroupWorkers(2), WithBatchRows(1)}},
	{"Read/parallel", false, []ReadOption{WithParallel(true)}},
	{"ReadTable", true, nil},
	{"ReadTable/2", true, []ReadOption{WithRowGroupWorkers(2)}},
}

// readFast reads data the way r says, draining every batch.
func readFast(data []byte, table bool, opts []ReadOption) error {
	if table {
		rec, err := ReadTable(bytes.NewReader(data), opts...)
		if err == nil {
			rec.Release()
		}
		return err
	}
	rr, err := Read(bytes.NewReader(data), opts...)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
	}
	return rr.Err()
}

// Each hostile file of pqbomb.FastBombs passes pqscan's checks and reaches
// pqdecode (withNoFallback: nothing is left to pqarrow), which refuses it
// with ErrInvalid, at once, allocating little (default limits), through
// every entry point; nothing stays allocated.
func TestParquetFastBombs(t *testing.T) {
	for _, b := range pqbomb.FastBombs() {
		t.Run(b.Name, func(t *testing.T) {
			if _, err := Info(bytes.NewReader(b.Data)); err != nil {
				t.Fatalf("%s: Info: %v (the footer is well formed)", b.Title, err)
			}
			for _, r := range fastReads {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var err error
				used, took := heapDuring(func() {
					err = readFast(b.Data, r.table, append([]ReadOption{WithAllocator(mem), withNoFallback()}, r.opts...))
				})
				switch {
				case err == nil:
					t.Fatalf("%s: %s: read without an error", b.Title, r.name)
				case errors.Is(err, errNoFallback):
					t.Fatalf("%s: %s: not refused by pqdecode: %v", b.Title, r.name, err)
				case !errors.Is(err, ErrInvalid):
					t.Fatalf("%s: %s: %v does not wrap ErrInvalid", b.Title, r.name, err)
				case used > 16<<20+4*uint64(len(b.Data)):
					t.Fatalf("%s: %s: %d bytes of heap for a file of %d (%v)", b.Title, r.name, used, len(b.Data), err)
				case took > 2*time.Second:
					t.Fatalf("%s: %s: took %s", b.Title, r.name, took)
				}
				mem.AssertSize(t, 0)
				if r.name == "Read" {
					t.Logf("%d bytes: %v; %s; %d bytes of heap", len(b.Data), err, took, used)
				}
			}
		})
	}
}

// The hand-written files of the fast bombs' shapes, with honest sizes,
// read through pqdecode alone, and give what pqarrow gives.
func TestParquetFastHandWritten(t *testing.T) {
	for i, data := range pqbomb.FastValid() {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		want := readAllRecords(t, data, WithAllocator(mem), withPqarrowOnly())
		for _, r := range fastReads {
			opts := append([]ReadOption{WithAllocator(mem), withNoFallback()}, r.opts...)
			if err := readFast(data, r.table, opts); err != nil {
				t.Fatalf("file %d: %s: %v", i, r.name, err)
			}
		}
		got := readAllRecords(t, data, WithAllocator(mem), withNoFallback())
		sameRecords(t, "hand-written file", got, want)
		releaseRecords(got)
		releaseRecords(want)
		mem.AssertSize(t, 0)
	}
}
