package beam

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/frame"
)

// TestFilterPipeline: Filter on prism keeps the rows frame keeps in one
// process.
func TestFilterPipeline(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 11, 3, 3, 40)
	var want []float64
	for _, x := range fileValues(t, names, "x") {
		if x > 100 {
			want = append(want, x)
		}
	}
	p, s := abeam.NewPipelineWithRoot()
	in := ReadIPC(s, filepath.Join(dir, "*.arrow"))
	kept := Filter(s, in, "x > 100")
	passert.Equals(s, abeam.ParDo(s, &valuesFn{Col: "x"}, kept), toAny(want)...)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
}

func TestFilterBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := testRecord(t, mem, rand.New(rand.NewPCG(3, 4)), 20)
	b, err := NewBatch(rec)
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := filterBatch(context.Background(), mem, b, "x > 1e9"); err != nil || ok {
		t.Fatalf("no row left: ok = %v, err = %v", ok, err)
	}
	if _, _, err := filterBatch(context.Background(), mem, b, "xx > 0"); err == nil {
		t.Fatal("an unknown column: no error")
	}
	if _, _, err := filterBatch(context.Background(), mem, b, "x + 1"); !errors.Is(err, frame.ErrType) {
		t.Fatalf("not boolean: %v", err)
	}
	out, ok, err := filterBatch(context.Background(), mem, b, "x > 0")
	if err != nil || !ok {
		t.Fatalf("every row: ok = %v, err = %v", ok, err)
	}
	got, err := out.Record(mem)
	if err != nil {
		t.Fatal(err)
	}
	if got.NumRows() != 20 {
		t.Fatalf("%d rows, want 20", got.NumRows())
	}
	got.Release()
}
