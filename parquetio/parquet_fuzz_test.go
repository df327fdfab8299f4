package parquetio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
	"github.com/stride0/stride0/internal/pqbomb"
)

// FuzzReadParquet feeds arbitrary bytes to Info and Read
// (serial and parallel, all columns, a projection, and the last and first
// row groups when Info succeeds) and converts every column it
// gets: errors wrapping ErrInvalid are expected; panics and allocations
// beyond the WithMaxBuffer limit are not. Seeds: small valid files (tensor
// columns with null rows and a permutation, every dtype, plain and snappy,
// one and several row groups, empty) and corruptions of them, and the
// hostile files of package pqbomb (issue 17 item 9, and those of the
// fast reader's shapes) and corruptions of the valid ones; ReadTable at
// two workers is fuzzed too. Every read runs under
// small limits (1 MiB buffers, 64 MiB in all), which bound the memory an
// input may take, so a bomb the checks miss fails the run. The checked
// allocator must end at zero when the file decodes (a failed decode may
// leave pqarrow's own page buffers to the garbage collector).
func FuzzReadParquet(f *testing.F) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	for _, seed := range pqSeeds(f, mem) {
		f.Add(seed)
		f.Add(seed[:len(seed)/2])
		f.Add(seed[len(seed)/3:])
		bad := append([]byte{}, seed...)
		bad[len(bad)/2] ^= 0x5a
		f.Add(bad)
		bad = append([]byte{}, seed...)
		bad[len(bad)-12] ^= 0x21 // inside the footer
		f.Add(bad)
	}
	mem.AssertSize(f, 0)
	for _, b := range pqbomb.Bombs() {
		f.Add(b.Data)
	}
	for _, b := range pqbomb.FastBombs() {
		f.Add(b.Data)
	}
	for _, b := range pqbomb.FastValid() {
		f.Add(b)
		bad := append([]byte{}, b...)
		bad[len(bad)/3] ^= 0x40 // inside the pages
		f.Add(bad)
	}
	f.Add([]byte{})
	f.Add([]byte("PAR1"))
	f.Add([]byte("PAR1\x08\x00\x00\x00PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := Info(bytes.NewReader(data), WithMaxBuffer(1<<20), WithMaxTotal(64<<20))
		if err != nil {
			if !pqExpected(err) {
				t.Fatalf("Info: error wraps no sentinel: %v", err)
			}
		} else if len(info.RowGroups) > 0 {
			// the last row group, then the first
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			opts := []ReadOption{WithAllocator(mem), WithMaxBuffer(1 << 20), WithMaxTotal(64 << 20), WithRowGroups(len(info.RowGroups)-1, 0)}
			if err := drainParquet(mem, data, opts); err != nil {
				if !pqExpected(err) {
					t.Fatalf("row groups: error wraps no sentinel: %v", err)
				}
			} else {
				mem.AssertSize(t, 0)
			}
		}
		// ReadTable, its columns on two workers
		{
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			rec, err := ReadTable(bytes.NewReader(data), WithAllocator(mem), WithMaxBuffer(1<<20), WithMaxTotal(64<<20), WithRowGroupWorkers(2))
			if err != nil {
				if !pqExpected(err) {
					t.Fatalf("ReadTable: error wraps no sentinel: %v", err)
				}
			} else {
				rec.Release()
				mem.AssertSize(t, 0)
			}
		}
		for i, opts := range [][]ReadOption{nil, {WithParallel(true), WithBatchRows(3)}, {WithColumns("p")}, {WithRowGroupWorkers(2), WithBatchRows(2)}} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			opts = append(opts, WithAllocator(mem), WithMaxBuffer(1<<20), WithMaxTotal(64<<20))
			if err := drainParquet(mem, data, opts); err != nil {
				if !pqExpected(err) {
					t.Fatalf("options %d: error wraps no sentinel: %v", i, err)
				}
				continue
			}
			mem.AssertSize(t, 0)
		}
	})
}

// pqExpected reports whether err wraps one of the sentinels a malformed
// file may give.
func pqExpected(err error) bool {
	return errors.Is(err, ErrInvalid) || errors.Is(err, arrowio.ErrMetadata) || errors.Is(err, ErrUnsupported) || errors.Is(err, ErrNoColumn)
}

// drainParquet reads every batch of data and converts every column.
func drainParquet(mem memory.Allocator, data []byte, opts []ReadOption) error {
	rr, err := Read(bytes.NewReader(data), opts...)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		for _, c := range rr.Record().Columns() {
			a, err := arrowio.FromArrow(mem, c)
			if err != nil {
				if errors.Is(err, ErrUnsupported) {
					continue
				}
				return err
			}
			a.Release()
		}
	}
	return rr.Err()
}

// pqSeeds returns small valid Parquet files.
func pqSeeds(t testing.TB, mem memory.Allocator) [][]byte {
	rec := recordFixture(t, mem, 5, 1)
	defer rec.Release()
	var out [][]byte
	out = append(out, writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(2)))
	out = append(out, writePQ(t, mem, rec.Schema(), []arrow.Record{rec},
		WithProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDictionaryDefault(false))))
	out = append(out, writePQ(t, mem, rec.Schema(), nil))
	for _, dt := range []array.DType{array.Bool, array.Int8, array.Uint64, array.Float16, array.Float64} {
		vals := arrowtest.TestValues(dt, 12)
		valid := arrowtest.NullEvery(12, 3)
		for j := 0; j < 3; j++ {
			valid[3+j] = false // a null tensor row
		}
		flat := arrowtest.BuildArrow(t, mem, dt, vals, valid)
		a, err := arrowio.FromArrow(mem, flat)
		if err != nil {
			t.Fatal(err)
		}
		a3, err := a.Reshaped(4, 3)
		if err != nil {
			t.Fatal(err)
		}
		col, err := arrowio.ToTensorColumn(mem, a3)
		if err != nil {
			t.Fatal(err)
		}
		prim := arrowtest.BuildArrow(t, mem, dt, vals[:4], valid[:4])
		s := arrow.NewSchema([]arrow.Field{{Name: "t", Type: col.DataType(), Nullable: true}, {Name: "p", Type: prim.DataType(), Nullable: true}}, nil)
		r := arrowarray.NewRecord(s, []arrow.Array{col, prim}, 4)
		out = append(out, writePQ(t, mem, s, []arrow.Record{r}, WithRowGroupRows(3)))
		r.Release()
		for _, x := range []interface{ Release() }{flat, a, a3, col, prim} {
			x.Release()
		}
	}
	return out
}
