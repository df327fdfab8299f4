package beam

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/stride0/stride0/beam/internal/testmain"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

func TestMain(m *testing.M) { testmain.Main(m) }

func init() {
	abeam.RegisterType(reflect.TypeOf((*valuesFn)(nil)).Elem())
}

// valuesFn emits every element of column Col of each batch, as float64.
type valuesFn struct{ Col string }

func (f *valuesFn) ProcessElement(b Batch, emit func(float64)) error {
	rec, err := b.Record(nil)
	if err != nil {
		return err
	}
	defer rec.Release()
	idx := rec.Schema().FieldIndices(f.Col)
	if len(idx) == 0 {
		return fmt.Errorf("no column %q", f.Col)
	}
	for _, v := range floats(rec.Column(idx[0])) {
		emit(v)
	}
	return nil
}

// floats returns the elements of a float32/float64 column or of a tensor
// column of them, row-major.
func floats(a arrow.Array) []float64 {
	switch a := a.(type) {
	case *arrowarray.Float64:
		return append([]float64(nil), a.Float64Values()...)
	case *arrowarray.Float32:
		var out []float64
		for _, v := range a.Float32Values() {
			out = append(out, float64(v))
		}
		return out
	case arrowarray.ExtensionArray:
		return floats(a.Storage())
	case *arrowarray.FixedSizeList:
		off, n := a.Offset(), a.Len()
		k := int(a.DataType().(*arrow.FixedSizeListType).Len())
		all := floats(a.ListValues())
		return all[off*k : (off+n)*k]
	}
	panic(fmt.Sprintf("floats: %T", a))
}

// testRecord is a batch of n rows: x float64 and t a float32 tensor [2, 3].
func testRecord(t testing.TB, mem memory.Allocator, rng *rand.Rand, n int) arrow.Record {
	t.Helper()
	xs := make([]float64, n)
	ts := make([]float32, n*6)
	for i := range xs {
		xs[i] = 100 + 5*rng.NormFloat64()
	}
	for i := range ts {
		ts[i] = float32(rng.NormFloat64())
	}
	xa, err := array.FromSlice(mem, xs, n)
	if err != nil {
		t.Fatal(err)
	}
	defer xa.Release()
	ta, err := array.FromSlice(mem, ts, n, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer ta.Release()
	return recordOf(t, mem, column{"x", xa, true}, column{"t", ta, true})
}

// column is one column of recordOf: an array of rank 1 becomes a
// primitive column, one of higher rank a fixed_shape_tensor column.
type column struct {
	name     string
	a        *array.Array
	nullable bool
}

// recordOf builds a record of the columns (the rows of the first); the
// caller keeps and releases its arrays.
func recordOf(t testing.TB, mem memory.Allocator, cols ...column) arrow.Record {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		var a arrow.Array
		var err error
		if c.a.Rank() == 1 {
			a, err = arrowio.ToArrow(mem, c.a)
		} else {
			a, err = arrowio.ToTensorColumn(mem, c.a)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		fields[i] = arrow.Field{Name: c.name, Type: a.DataType(), Nullable: c.nullable}
		arrs[i] = a
	}
	return arrowarray.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(cols[0].a.Shape()[0]))
}

// writeTestFiles writes files IPC files of batches batches each into dir
// and returns their names.
func writeTestFiles(t testing.TB, dir string, seed uint64, files, batches, rows int) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var names []string
	for f := 0; f < files; f++ {
		var recs []arrow.Record
		for b := 0; b < batches; b++ {
			recs = append(recs, testRecord(t, memory.DefaultAllocator, rng, 1+rng.IntN(rows)))
		}
		var buf bytes.Buffer
		err := arrowio.WriteRecords(&buf, true, recs[0].Schema(), recs)
		for _, r := range recs {
			r.Release()
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprintf("part-%03d.arrow", f))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// fileValues reads column col of the IPC files names (sorted) in one
// process, as float64.
func fileValues(t testing.TB, names []string, col string) []float64 {
	t.Helper()
	var out []float64
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := arrowio.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			rec := rr.Record()
			out = append(out, floats(rec.Column(rec.Schema().FieldIndices(col)[0]))...)
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		f.Close()
	}
	return out
}

func sortedCopy(v []float64) []float64 {
	v = append([]float64(nil), v...)
	sort.Float64s(v)
	return v
}

func toAny(v []float64) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}
