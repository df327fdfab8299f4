package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/beam/internal/testmain"

	sbeam "github.com/stride0/stride0/beam"
)

// TestMain initializes Beam (as main does) before the tests.
func TestMain(m *testing.M) { testmain.Main(m) }

// TestRun runs the example's pipeline on prism over three files and checks
// every output row against the input: z = 2*x + 1.
func TestRun(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	want := map[float64]int{}
	for f := 0; f < 3; f++ {
		b := arrowarray.NewFloat64Builder(memory.DefaultAllocator)
		for i := 0; i < 10+f; i++ {
			x := rng.NormFloat64()
			b.Append(x)
			want[x]++
		}
		col := b.NewArray()
		b.Release()
		s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
		rec := arrowarray.NewRecord(s, []arrow.Array{col}, int64(col.Len()))
		col.Release()
		var buf bytes.Buffer
		err := arrowio.WriteRecords(&buf, true, s, []arrow.Record{rec})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in, "p"+string(rune('0'+f))+".arrow"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := run(context.Background(), filepath.Join(in, "*.arrow"), filepath.Join(out, "res"), 1,
		[]sbeam.Output{{Name: "z", Expr: "2*x + 1"}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, "res-00000-of-00001.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr, err := arrowio.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	rows := 0
	for rr.Next() {
		rec := rr.Record()
		x := rec.Column(0).(*arrowarray.Float64).Float64Values()
		z := rec.Column(1).(*arrowarray.Float64).Float64Values()
		for i := range x {
			if z[i] != 2*x[i]+1 {
				t.Fatalf("z = %v for x = %v", z[i], x[i])
			}
			if want[x[i]] == 0 {
				t.Fatalf("x = %v not in the input (or seen too often)", x[i])
			}
			want[x[i]]--
			rows++
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != 33 {
		t.Fatalf("%d rows written, want 33", rows)
	}
}
