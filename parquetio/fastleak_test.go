package parquetio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// leakFile is a file of the fast writer: columns a (int64, few values),
// s (nullable strings, few values), f (float64, all distinct), b
// (nullable int32, few values), in groups row groups of leakGroupRows rows.
func leakFile(t *testing.T, groups int) []byte {
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(7, 8))
	n := leakGroupRows * groups
	a := arrowarray.NewInt64Builder(mem)
	s := arrowarray.NewStringBuilder(mem)
	f := arrowarray.NewFloat64Builder(mem)
	b := arrowarray.NewInt32Builder(mem)
	for i := 0; i < n; i++ {
		a.Append(int64(rng.IntN(10)))
		if rng.IntN(5) == 0 {
			s.AppendNull()
			b.AppendNull()
		} else {
			s.Append(fmt.Sprintf("key %d", rng.IntN(30)))
			b.Append(int32(rng.IntN(7)))
		}
		f.Append(rng.Float64())
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64}, {Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	cols := []arrow.Array{a.NewArray(), s.NewArray(), f.NewArray(), b.NewArray()}
	rec := arrowarray.NewRecord(schema, cols, int64(n))
	releaseArrow(cols)
	defer rec.Release()
	return writePQ(t, mem, schema, []arrow.Record{rec}, WithRowGroupRows(leakGroupRows))
}

// leakGroupRows is the rows of a row group of leakFile (fewer under the
// race detector).
var leakGroupRows = map[bool]int{false: 2000, true: 400}[raceEnabled]

// corruptIndices returns a copy of data whose chunk of row group g and
// leaf column l has its first dictionary-encoded data page's index bit
// width set to 40: pqscan lets it through, pqdecode refuses it.
func corruptIndices(t *testing.T, data []byte, g, l int) []byte {
	scan, err := pqscan.ReadFooter(bytes.NewReader(data), int64(len(data)), pqscan.Limits{MaxBuffer: 1 << 30, MaxTotal: -1})
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte{}, data...)
	c := scan.RowGroups[g].Chunks[l]
	for pos := c.Start; pos < c.Start+c.Len; {
		h, hl, err := pqscan.ParsePageHeader(out[pos:])
		if err != nil {
			t.Fatal(err)
		}
		body := out[pos+int64(hl) : pos+int64(hl)+int64(h.Compressed)]
		if h.Type == pqscan.PageData && h.Encoding == pqscan.EncRLEDictionary {
			at := 0
			if scan.Leaves[l].MaxDef > 0 {
				at = 4 + int(binary.LittleEndian.Uint32(body))
			}
			body[at] = 40
			return out
		}
		pos += int64(hl) + int64(h.Compressed)
	}
	t.Fatalf("row group %d, column %d: no dictionary-encoded page", g, l)
	return nil
}

// An error in one column chunk while other columns and row groups decode
// in parallel (ReadTable's column workers, Read's row-group workers,
// WithParallel) fails the read with ErrInvalid naming the row group and
// the column, and releases everything: the checked allocator ends at
// zero and the workers' goroutines end.
func TestFastReadErrorReleases(t *testing.T) {
	data := leakFile(t, 8)
	before := runtime.NumGoroutine()
	for _, bad := range []struct {
		g, l int
		name string
	}{{5, 1, "s"}, {0, 0, "a"}, {7, 3, "b"}} {
		hostile := corruptIndices(t, data, bad.g, bad.l)
		reads := append(append([]struct {
			name  string
			table bool
			opts  []ReadOption
		}{}, fastReads...), struct {
			name  string
			table bool
			opts  []ReadOption
		}{"ReadTable/parallel", true, []ReadOption{WithParallel(true)}}, struct {
			name  string
			table bool
			opts  []ReadOption
		}{"Read/groups3", false, []ReadOption{WithRowGroupWorkers(3), WithBatchRows(700)}})
		for _, r := range reads {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			err := readFast(hostile, r.table, append([]ReadOption{WithAllocator(mem), withNoFallback()}, r.opts...))
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), fmt.Sprintf("row group %d", bad.g)) || !strings.Contains(err.Error(), fmt.Sprintf("%q", bad.name)) {
				t.Fatalf("row group %d, column %s: %s: %v (want ErrInvalid naming both)", bad.g, bad.name, r.name, err)
			}
			mem.AssertSize(t, 0)
		}
	}
	// a reader released mid-way, with row groups decoded ahead
	for _, workers := range []int{1, 2, 3, 8} {
		for _, take := range []int{0, 1, 5} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			rr, err := Read(bytes.NewReader(data), WithAllocator(mem), WithRowGroupWorkers(workers), WithBatchRows(500))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < take && rr.Next(); i++ {
			}
			rr.Release()
			mem.AssertSize(t, 0)
		}
	}
	// a limit reached mid-way
	for _, workers := range []int{0, 1, 2, 3} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		err := readFast(data, false, []ReadOption{WithAllocator(mem), WithRowGroupWorkers(workers), WithMaxTotal(int64(len(data) / 2))})
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("%d workers: %v, want ErrLimit", workers, err)
		}
		mem.AssertSize(t, 0)
		err = readFast(data, true, []ReadOption{WithAllocator(mem), WithRowGroupWorkers(workers), WithMaxTotal(int64(len(data) / 2))})
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("ReadTable, %d workers: %v, want ErrLimit", workers, err)
		}
		mem.AssertSize(t, 0)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines left running (%d before)", n, before)
	}
}
