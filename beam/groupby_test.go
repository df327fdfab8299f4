package beam

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
)

var testKeys = []string{"a", "b", "c", ""} // "" stands for a null key

// keyedRecord is testRecord with a string column "site" in front: keys
// drawn from testKeys (some null), in runs of random length.
func keyedRecord(t testing.TB, mem memory.Allocator, rng *rand.Rand, n int) (arrow.Record, []string) {
	t.Helper()
	base := testRecord(t, mem, rng, n)
	defer base.Release()
	sb := arrowarray.NewStringBuilder(mem)
	defer sb.Release()
	keys := make([]string, 0, n)
	for len(keys) < n {
		k := testKeys[rng.IntN(len(testKeys))]
		for r := 1 + rng.IntN(3); r > 0 && len(keys) < n; r-- {
			keys = append(keys, k)
			if k == "" {
				sb.AppendNull()
			} else {
				sb.Append(k)
			}
		}
	}
	site := sb.NewArray()
	defer site.Release()
	fields := append([]arrow.Field{{Name: "site", Type: arrow.BinaryTypes.String, Nullable: true}}, base.Schema().Fields()...)
	return arrowarray.NewRecord(arrow.NewSchema(fields, nil), []arrow.Array{site, base.Column(0), base.Column(1)}, int64(n)), keys
}

// TestSplitByKey: each key's sub-batch holds exactly its rows, in order,
// every column (the tensor column too) intact; null keys are dropped; keys
// come in the order of their first row; nothing leaks.
func TestSplitByKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec, keys := keyedRecord(t, mem, rng, rng.IntN(40))
		xs := colValues(t, rec.Column(1))
		ts := colValues(t, rec.Column(2))
		var order []string
		wantX, wantT := map[string][]float64{}, map[string][]float64{}
		for i, k := range keys {
			if k == "" {
				continue
			}
			if _, ok := wantX[k]; !ok {
				order = append(order, k)
			}
			wantX[k] = append(wantX[k], xs[i])
			wantT[k] = append(wantT[k], ts[6*i:6*i+6]...)
		}
		var got []string
		err := splitByKey(mem, rec, "site", func(k string, b Batch) {
			got = append(got, k)
			sub, err := b.Record(mem)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Release()
			if !sub.Schema().Equal(rec.Schema()) {
				t.Fatalf("sub-batch schema %v", sub.Schema())
			}
			if fmt.Sprint(colValues(t, sub.Column(1))) != fmt.Sprint(wantX[k]) || fmt.Sprint(colValues(t, sub.Column(2))) != fmt.Sprint(wantT[k]) {
				t.Fatalf("key %q: rows differ", k)
			}
			for i := 0; i < int(sub.NumRows()); i++ {
				if s := sub.Column(0).(*arrowarray.String); !s.IsValid(i) || s.Value(i) != k {
					t.Fatalf("key %q: row %d has key %q", k, i, s.Value(i))
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(order) {
			t.Fatalf("keys %v, want %v", got, order)
		}
		rec.Release()
		mem.AssertSize(t, 0)
	}

	// Integer keys, and the errors.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := arrowarray.NewInt64Builder(mem)
	ib.AppendValues([]int64{-3, 7, -3}, nil)
	ia := ib.NewArray()
	ib.Release()
	fb := arrowarray.NewFloat64Builder(mem)
	fb.AppendValues([]float64{1, 2, 3}, nil)
	fa := fb.NewArray()
	fb.Release()
	rec := arrowarray.NewRecord(arrow.NewSchema([]arrow.Field{{Name: "k", Type: ia.DataType()}, {Name: "f", Type: fa.DataType()}}, nil), []arrow.Array{ia, fa}, 3)
	ia.Release()
	fa.Release()
	defer rec.Release()
	sums := map[string][]float64{}
	if err := splitByKey(mem, rec, "k", func(k string, b Batch) {
		sub, err := b.Record(mem)
		if err != nil {
			t.Fatal(err)
		}
		sums[k] = colValues(t, sub.Column(1))
		sub.Release()
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sums) != "map[-3:[1 3] 7:[2]]" {
		t.Fatalf("int keys: %v", sums)
	}
	if err := splitByKey(mem, rec, "f", func(string, Batch) {}); !errors.Is(err, ErrBatch) || !strings.Contains(err.Error(), "float64") {
		t.Fatalf("float key: err = %v", err)
	}
	if err := splitByKey(mem, rec, "nope", func(string, Batch) {}); !errors.Is(err, ErrBatch) || !errors.Is(err, arrowio.ErrNoColumn) || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "the columns are") {
		t.Fatalf("no column: err = %v", err)
	}
}

func init() { abeam.RegisterType(reflect.TypeOf((*groupValuesFn)(nil)).Elem()) }

// groupValuesFn is anyValuesFn of the one-row batches whose site is Key
// ("" for a null site).
type groupValuesFn struct{ Key, Col string }

func (f *groupValuesFn) ProcessElement(b Batch, emit func(float64)) error {
	rec, err := b.Record(nil)
	if err != nil {
		return err
	}
	defer rec.Release()
	site := rec.Column(0).(*arrowarray.String)
	if rec.ColumnName(0) != "site" || (site.IsNull(0) && f.Key != "") || (site.IsValid(0) && site.Value(0) != f.Key) {
		return nil
	}
	return emitColumn(b, f.Col, emit)
}

// TestKeyByColumnPipeline: KeyByColumn then AggregatePerKey, and GroupBy,
// on prism over 3 files equal the per-key statistics computed directly in
// Go from the rows (mean and max of x, count, and the [2, 3] sum of t;
// GroupBy keeps the null key as a group, KeyByColumn drops it), and a
// wrong expected value fails them.
func TestKeyByColumnPipeline(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	type acc struct {
		n        int
		sum, max float64
		tsum     [6]float64
	}
	stats := map[string]*acc{}
	for f := 0; f < 3; f++ {
		var recs []arrow.Record
		for b := 0; b < 2; b++ {
			rec, keys := keyedRecord(t, memory.DefaultAllocator, rng, 10+rng.IntN(30))
			xs, ts := colValues(t, rec.Column(1)), colValues(t, rec.Column(2))
			for i, k := range keys {
				a := stats[k]
				if a == nil {
					a = &acc{max: xs[i]}
					stats[k] = a
				}
				a.n++
				a.sum += xs[i]
				a.max = max(a.max, xs[i])
				for e := 0; e < 6; e++ {
					a.tsum[e] += ts[6*i+e]
				}
			}
			recs = append(recs, rec)
		}
		var buf bytes.Buffer
		if err := arrowio.WriteRecords(&buf, true, recs[0].Schema(), recs); err != nil {
			t.Fatal(err)
		}
		releaseAll(recs)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("k%d.arrow", f)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	aggs := []frame.Agg{frame.Mean("x").As("mean_x"), frame.Max("x").As("max_x"), frame.CountOf("x").As("count"), frame.Sum("t").As("sum_t")}
	run := func(shift float64, grouped bool) error {
		p, s := abeam.NewPipelineWithRoot()
		in := ReadIPC(s, filepath.Join(dir, "*.arrow"))
		var res abeam.PCollection
		keys := len(stats) - 1
		if grouped {
			res = GroupBy(s, in, []string{"site"}, aggs...)
			keys++
		} else {
			res = AggregatePerKey(s, KeyByColumn(s, in, "site"), aggs...)
		}
		passert.Count(s, res, "keys", keys)
		for k, a := range stats {
			if k == "" && !grouped {
				continue
			}
			want := [][]float64{{a.sum/float64(a.n) + shift}, {a.max}, {float64(a.n)}, a.tsum[:]}
			tol := []float64{1e-9, 0, 0, 1e-5} // sum_t is float32, rounded once
			for i, agg := range []string{"mean_x", "max_x", "count", "sum_t"} {
				var got abeam.PCollection
				if grouped {
					got = abeam.ParDo(s, &groupValuesFn{Key: k, Col: agg}, res)
				} else {
					got = abeam.ParDo(s, &keyValuesFn{Key: k, Col: agg}, res)
				}
				passert.EqualsFloat(s, got, abeam.CreateList(s, want[i]), tol[i])
			}
		}
		return ptest.Run(p)
	}
	if len(stats) != 4 {
		t.Fatalf("keys %d", len(stats))
	}
	for _, grouped := range []bool{false, true} {
		if err := run(0, grouped); err != nil {
			t.Fatalf("pipeline (GroupBy %v): %v", grouped, err)
		}
		if err := run(1e-6, grouped); err == nil || !strings.Contains(err.Error(), "expected") {
			t.Fatalf("pipeline (GroupBy %v) with wrong means: err = %v, want passert's mismatch", grouped, err)
		}
	}
}

// TestGroupByKeys: GroupBy's keys of two columns (a string with nulls and
// empty strings, an integer) are equal exactly where both values are (a
// null is not ""), and a missing or float key column is an error naming it.
func TestGroupByKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sb := arrowarray.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "", "", "a", "ab", "", "b"}, []bool{true, true, false, true, true, false, true})
	site := sb.NewArray()
	sb.Release()
	ib := arrowarray.NewInt64Builder(mem)
	ib.AppendValues([]int64{1, 1, 1, 1, 1, 1, 12}, nil)
	n := ib.NewArray()
	ib.Release()
	fb := arrowarray.NewFloat64Builder(mem)
	fb.AppendValues(make([]float64, 7), nil)
	f := fb.NewArray()
	fb.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "site", Type: site.DataType(), Nullable: true}, {Name: "n", Type: n.DataType()}, {Name: "f", Type: f.DataType()}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{site, n, f}, 7)
	site.Release()
	n.Release()
	f.Release()
	defer rec.Release()
	key, err := rowKeys(rec, "beam.GroupBy", []string{"site", "n"}, true)
	if err != nil {
		t.Fatal(err)
	}
	group := []int{0, 1, 2, 0, 3, 2, 4} // rows with equal (site, n)
	for i := 0; i < 7; i++ {
		for j := 0; j < 7; j++ {
			ki, _ := key(i)
			kj, _ := key(j)
			if (ki == kj) != (group[i] == group[j]) {
				t.Fatalf("rows %d and %d: keys %q and %q", i, j, ki, kj)
			}
		}
	}
	if _, err := rowKeys(rec, "beam.GroupBy", []string{"site", "f"}, true); !errors.Is(err, ErrBatch) || !strings.Contains(err.Error(), `"f"`) {
		t.Fatalf("float key: err = %v", err)
	}
	if _, err := rowKeys(rec, "beam.GroupBy", []string{"nope"}, true); !errors.Is(err, arrowio.ErrNoColumn) {
		t.Fatalf("missing key: err = %v", err)
	}
}
