package frame_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
)

// TestFilterCollectMatchesStream checks Collect of a filter over
// in-memory records (collectFilter: masks per morsel, then every column
// gathered once at its final size, morsels at once) against the same
// query read batch by batch through Reader: tables of 150,000 rows (three
// morsels and a piece) cut into slices of one record (one dictionary) and
// also of two records (two dictionaries: the general path), with and
// without nulls, predicates of every path (a comparison with a number,
// is_null, and/or, a string comparison, none kept, all kept), every
// column type carried, at 1, 2 and 3 workers, on a checked allocator.
func TestFilterCollectMatchesStream(t *testing.T) {
	if testing.Short() {
		t.Skip("large tables")
	}
	mem := checked(t)
	rng := rand.New(rand.NewPCG(42, 3))
	preds := []string{"c_float64 > 0", "c_int32 <= 2", "c_float32 != 0.5", "is_not_null(c_int8)", "is_null(s)",
		"c_int64 > 0 and b", "c_float64 > 0 or c_int16 < 0", "s > 's5'", "c_uint8 > 100", "row >= 0", "row < 70000"}
	sels := [][]string{
		{"row", "s", "b", "d", "dict", "c_float64", "c_int8", "c_uint16", "c_int32", "c_float32"},
		{"c_uint64", "s"},
		nil, // every column, "l" (a fixed_size_list) among them
	}
	for _, withNulls := range []bool{false, true} {
		if raceOn && !withNulls {
			continue // race_test.go
		}
		full, _ := filterTable(mem, rng, 150_000, withNulls)
		other, _ := filterTable(mem, rng, 1000, withNulls)
		n := full.NumRows()
		sets := []struct {
			name    string
			recs    []arrow.Record
			preds   []string
			sels    [][]string
			workers []int
		}{
			// slices of one record: collectFilter
			{"slices", []arrow.Record{full.NewSlice(0, 70_000), full.NewSlice(70_000, 70_001), full.NewSlice(70_001, 70_001), full.NewSlice(70_001, n-5)},
				preds, sels[:1], []int{1, 3}},
			{"slices", []arrow.Record{full.NewSlice(0, 70_000), full.NewSlice(70_000, n)}, preds[:3], sels[1:], []int{2}},
			{"one", []arrow.Record{full}, preds[3:6], sels[:1], []int{2}},
			// two records of two dictionaries: the general path
			{"two", []arrow.Record{full.NewSlice(3, n), other}, []string{"c_float64 > 0", "is_null(s)", "row >= 0"}, sels[:1], []int{1, 2}},
		}
		for _, set := range sets {
			f := frame.FromRecords(set.recs...)
			for _, p := range set.preds {
				for _, sel := range set.sels {
					q := f.Filter(p)
					if sel != nil {
						q = q.Select(sel...)
					}
					for _, workers := range set.workers {
						name := fmt.Sprintf("%s nulls=%v %s select %v workers %d", p, withNulls, set.name, sel, workers)
						checkSameAsStream(t, mem, q, name, workers)
					}
				}
			}
			for _, r := range set.recs {
				if r != full && r != other {
					r.Release()
				}
			}
		}
		full.Release()
		other.Release()
	}
	// a cancelled run keeps nothing
	full, _ := filterTable(mem, rng, 100_000, true)
	defer full.Release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := frame.FromRecords(full).Filter("c_float64 > 0").Select("row", "s").Collect(ctx, frame.WithAllocator(mem))
	require.ErrorIs(t, err, context.Canceled)
}

// checkSameAsStream compares Collect of q with q's batches from Reader:
// each batch's columns equal the collected table's rows at its place
// (dictionary columns compared by their values, as their dictionaries may
// differ).
func checkSameAsStream(t *testing.T, mem *memory.CheckedAllocator, q frame.Frame, name string, workers int) {
	t.Helper()
	tb, err := q.Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
	require.NoError(t, err, name)
	defer tb.Release()
	got := tb.Record()
	rr, err := q.Reader(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
	require.NoError(t, err, name)
	defer rr.Release()
	at := int64(0)
	for rr.Next() {
		b := rr.Record()
		require.LessOrEqual(t, at+b.NumRows(), got.NumRows(), name)
		for c := 0; c < int(b.NumCols()); c++ {
			g := arrowarray.NewSlice(got.Column(c), at, at+b.NumRows())
			w := b.Column(c)
			if w.DataType().ID() == arrow.DICTIONARY {
				for i := 0; i < w.Len(); i++ {
					if g.IsNull(i) != w.IsNull(i) || (w.IsValid(i) && g.ValueStr(i) != w.ValueStr(i)) {
						t.Fatalf("%s column %s row %d: %q, want %q", name, b.ColumnName(c), at+int64(i), g.ValueStr(i), w.ValueStr(i))
					}
				}
			} else if !arrowarray.ApproxEqual(g, w, arrowarray.WithNaNsEqual(true), arrowarray.WithAbsTolerance(0)) {
				t.Fatalf("%s column %s rows %d..%d differ", name, b.ColumnName(c), at, at+b.NumRows())
			}
			g.Release()
		}
		at += b.NumRows()
	}
	require.NoError(t, rr.Err(), name)
	require.Equal(t, at, got.NumRows(), name)
}
