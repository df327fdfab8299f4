package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stride0/stride0/beam/internal/testmain"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/parquetio"
)

// readTensor reads column of every file matching glob as rows of k
// float64, keyed by the id column.
func readTensor(t *testing.T, glob, column string) map[int64][]float64 {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("glob %q: %v files, %v", glob, len(files), err)
	}
	sort.Strings(files)
	out := map[int64][]float64{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := parquetio.Read(f, parquetio.WithColumns("id", column))
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			rec := rr.Record()
			a, err := arrowio.FromArrow(memory.DefaultAllocator, rec.Column(1))
			if err != nil {
				t.Fatal(err)
			}
			ids, err := arrowio.FromArrow(memory.DefaultAllocator, rec.Column(0))
			if err != nil {
				t.Fatal(err)
			}
			vals, err := array.ToSlice[float64](a)
			if err != nil {
				t.Fatal(err)
			}
			idv, err := array.ToSlice[int64](ids)
			if err != nil {
				t.Fatal(err)
			}
			k := len(vals) / len(idv)
			for i, id := range idv {
				if _, dup := out[id]; dup {
					t.Fatalf("id %d twice", id)
				}
				out[id] = append([]float64(nil), vals[i*k:(i+1)*k]...)
			}
			a.Release()
			ids.Release()
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		f.Close()
	}
	return out
}

// checkStandardized checks every row of z against (x - mean) / std with the
// mean and the population standard deviation computed here, naively.
func checkStandardized(t *testing.T, x, z map[int64][]float64) {
	t.Helper()
	if len(x) != len(z) || len(x) == 0 {
		t.Fatalf("%d rows in, %d out", len(x), len(z))
	}
	var k int
	for _, r := range x {
		k = len(r)
		break
	}
	mean, sq := make([]float64, k), make([]float64, k)
	for _, r := range x {
		for j, v := range r {
			mean[j] += v
		}
	}
	n := float64(len(x))
	for j := range mean {
		mean[j] /= n
	}
	for _, r := range x {
		for j, v := range r {
			sq[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for id, r := range x {
		zr, ok := z[id]
		if !ok || len(zr) != k {
			t.Fatalf("row %d: out %v", id, zr)
		}
		for j, v := range r {
			want := (v - mean[j]) / math.Sqrt(sq[j]/n)
			if math.Abs(zr[j]-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("row %d element %d: z = %v, want %v", id, j, zr[j], want)
			}
		}
	}
}

// TestMain initializes Beam (as main does) before the tests.
func TestMain(m *testing.M) { testmain.Main(m) }

// TestPipeline runs the pipeline on prism over three files split by row
// group, in batches of 700 rows, writing a file per bundle and then two
// shards, and checks every output row.
func TestPipeline(t *testing.T) {
	in := t.TempDir()
	if err := generate(in, 3, 5000, []int{2, 3}, 1500, 11); err != nil {
		t.Fatal(err)
	}
	x := readTensor(t, filepath.Join(in, "*.parquet"), "x")
	for _, shards := range []int{0, 2} { // a file per bundle; two shards
		out := t.TempDir()
		if err := runPipeline(context.Background(), filepath.Join(in, "*.parquet"), filepath.Join(out, "z"), "x", shards, 700); err != nil {
			t.Fatal(err)
		}
		checkStandardized(t, x, readTensor(t, filepath.Join(out, "*.parquet"), "z"))
	}
}

func TestLocal(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	if err := generate(in, 3, 5000, []int{2, 3}, 1500, 7); err != nil {
		t.Fatal(err)
	}
	n, err := runLocal(filepath.Join(in, "*.parquet"), filepath.Join(out, "z"), "x", 700)
	if err != nil {
		t.Fatal(err)
	}
	if n != 15000 {
		t.Fatalf("%d rows standardized, want 15000", n)
	}
	checkStandardized(t, readTensor(t, filepath.Join(in, "*.parquet"), "x"), readTensor(t, filepath.Join(out, "*.parquet"), "z"))
}
