package beam

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestParquetIOAllocator: the read and write steps give back all they
// allocate, also when they fail.
func TestParquetIOAllocator(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 4))
	data := pqBytes(t, []arrow.Record{pqTestRecord(t, rng, 0, 30)}, 7)
	name := filepath.Join(dir, "a.parquet")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	splits, err := splitParquet(ctx, mem, name, 2)
	if err != nil || len(splits) != 3 {
		t.Fatalf("splits %v, %v", splits, err)
	}
	var batches []Batch
	for _, sp := range splits {
		if err := readParquet(ctx, mem, sp, nil, 4, func(b Batch) { batches = append(batches, b) }); err != nil {
			t.Fatal(err)
		}
	}
	if len(batches) != 4+4+1 { // row groups of 7, 7 | 7, 7 | 2 rows, batches of 4
		t.Fatalf("%d batches, want 9", len(batches))
	}
	err = readParquet(ctx, mem, pqSplit{Name: name, First: 0, Count: 1}, []string{"nosuch"}, 0, func(Batch) {})
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("missing column: %v", err)
	}
	out := filepath.Join(dir, "out.parquet")
	i := 0
	next := func(b *Batch) bool {
		if i == len(batches) {
			return false
		}
		*b = batches[i]
		i++
		return true
	}
	if err := writeParquet(ctx, mem, out, 5, next); err != nil {
		t.Fatal(err)
	}
	rows, _ := pqRows(t, []string{out})
	want, _ := pqRows(t, []string{name})
	if strings.Join(sortedStrings(rows), "\n") != strings.Join(sortedStrings(want), "\n") {
		t.Fatalf("rows written differ")
	}
	// a batch of another schema fails the write, naming the file
	other := constBatch(t, 1, []float32{1, 2, 3, 4, 5, 6})
	i = 0
	mixed := func(b *Batch) bool {
		switch i {
		case 0:
			*b = batches[0]
		case 1:
			*b = other
		default:
			return false
		}
		i++
		return true
	}
	if err := writeParquet(ctx, mem, filepath.Join(dir, "mixed.parquet"), 5, mixed); err == nil || !strings.Contains(err.Error(), "mixed.parquet") {
		t.Fatalf("mixed schemas: %v", err)
	}
	// an empty file: no work items
	empty := filepath.Join(dir, "empty.parquet")
	schemaOnly := pqBytes(t, []arrow.Record{pqTestRecord(t, rng, 0, 0)}, 7)
	if err := os.WriteFile(empty, schemaOnly, 0o644); err != nil {
		t.Fatal(err)
	}
	if sp, err := splitParquet(ctx, mem, empty, 1); err != nil || len(sp) != 0 {
		t.Fatalf("empty file: %v, %v", sp, err)
	}
}
